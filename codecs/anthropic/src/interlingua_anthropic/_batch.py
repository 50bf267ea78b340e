"""Message Batches result lines (``{custom_id, result}``), both directions.

A line's ``result`` is one of four types, ``succeeded`` (with the ``message``), ``errored`` (with
an error response), ``canceled`` and ``expired``: the SDK's ``MessageBatchIndividualResponse``
(anthropic/types/messages/message_batch_individual_response.py) and
https://docs.anthropic.com/en/api/retrieving-message-batch-results.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import DecodeError, WarningSink
from interlingua.kit import (
    BatchFailure,
    ResultFormat,
    ResultLine,
    message_note,
    request_note,
    require,
)

from ._errors import _SERVED_TYPES, CODEC, served_error

_STATUS_OF = {kind: status for status, kind in _SERVED_TYPES.items()}


def read_result(line: Mapping[str, Any]) -> ResultLine:
    result = require(line, "result", dict, "")
    kind = require(result, "type", str, "result")
    if kind == "succeeded":
        return ResultLine(line.get("custom_id"), response=require(result, "message", dict, "result"))
    if kind == "canceled":
        return ResultLine(line.get("custom_id"), failure=BatchFailure("canceled"))
    if kind == "expired":
        return ResultLine(line.get("custom_id"), failure=BatchFailure("expired"))
    if kind != "errored":
        raise DecodeError(CODEC, "result.type", f"unknown result type {kind!r}")
    body = require(result, "error", dict, "result")
    error = require(body, "error", dict, "result.error")
    code = error.get("type") if isinstance(error.get("type"), str) else None
    failure = BatchFailure("errored", str(error.get("message", "")), _STATUS_OF.get(code or ""), code)
    return ResultLine(line.get("custom_id"), failure=failure, format=NAME, own={"error": body})


def write_result(line: ResultLine, out: WarningSink) -> dict[str, Any]:
    request_note(line, out)
    failure = line.failure
    if failure is None:
        return {"custom_id": line.id, "result": {"type": "succeeded", "message": line.response}}
    if failure.kind != "errored":
        message_note(line, out, "result")
        return {"custom_id": line.id, "result": {"type": failure.kind}}
    error = line.own_for(NAME).get("error") or _error(failure, out)
    return {"custom_id": line.id, "result": {"type": "errored", "error": error}}


NAME = "anthropic batch result"
def _error(failure: BatchFailure, out: WarningSink) -> dict[str, Any]:
    """The error response for a failure read from another vendor's line: its type by its HTTP
    status (another vendor's error code is no Anthropic error type); a line holds no status, so a
    status no type stands for is reported."""
    if failure.status is None:
        known = failure.code if failure.code in _STATUS_OF else None
        return served_error(500, failure.message, known)
    if failure.status not in _SERVED_TYPES:
        out.lossy("result.error", "batch_status", f"no error type stands for HTTP {failure.status}", action="converted")
    return served_error(failure.status, failure.message, None)


RESULTS = ResultFormat(
    NAME,
    frozenset({"custom_id", "result"}),
    frozenset({"result"}),
    read_result,
    write_result,
    body_wire=CODEC,
)
