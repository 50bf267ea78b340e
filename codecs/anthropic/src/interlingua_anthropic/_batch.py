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
from interlingua.kit import BatchFailure, Batching, ResultFormat, ResultLine, request_note, require

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
    error = require(require(result, "error", dict, "result"), "error", dict, "result.error")
    code = error.get("type") if isinstance(error.get("type"), str) else None
    failure = BatchFailure("errored", str(error.get("message", "")), _STATUS_OF.get(code or ""), code)
    return ResultLine(line.get("custom_id"), failure=failure)


def write_result(line: ResultLine, out: WarningSink) -> dict[str, Any]:
    request_note(line, out)
    failure = line.failure
    if failure is None:
        return {"custom_id": line.id, "result": {"type": "succeeded", "message": line.response}}
    if failure.kind != "errored":
        return {"custom_id": line.id, "result": {"type": failure.kind}}
    known = failure.code if failure.code in _STATUS_OF else None
    error = served_error(failure.status or 500, failure.message, known)
    return {"custom_id": line.id, "result": {"type": "errored", "error": error}}


RESULTS = ResultFormat(
    "anthropic batch result",
    frozenset({"custom_id", "result"}),
    frozenset({"result"}),
    read_result,
    write_result,
    body_wire=CODEC,
)
BATCHING = Batching(results=(RESULTS,))
