"""Batch output and error file lines (``{id, custom_id, response, error}``), both directions, for
both OpenAI wires (a line's body is the endpoint's answer: a chat completion or a response).

The OpenAPI spec's ``BatchRequestOutput`` ("the per-line object of the batch output and error
files", https://platform.openai.com/docs/api-reference/batch/request-output): ``response`` is
``{status_code, request_id, body}`` (an error answer keeps its status and error body there) or
null, ``error`` is ``{code, message}`` or null, its codes ``batch_expired`` (not run before the
completion window ended) and ``batch_cancelled`` (the batch was cancelled first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import DecodeError, WarningSink
from interlingua.kit import BatchFailure, FailureKind, ResultFormat, ResultLine, optional, request_note, require

from ._shared import served_error

_BY_CODE: dict[str, FailureKind] = {"batch_expired": "expired", "batch_cancelled": "canceled"}
_CODE_OF = {kind: code for code, kind in _BY_CODE.items()}


NAME = "openai batch output"


def read_result(line: Mapping[str, Any]) -> ResultLine:
    line_id = line.get("custom_id")
    response = optional(line, "response", dict, "")
    own = {"id": line.get("id")}
    if response is not None:
        status = require(response, "status_code", int, "response")
        body = require(response, "body", dict, "response")
        own["request_id"] = response.get("request_id")
        if status < 400:
            return ResultLine(line_id, response=body, format=NAME, own=own)
        return ResultLine(line_id, failure=_answered(status, body), format=NAME, own={**own, "body": body})
    error = require(line, "error", dict, "")
    code = optional(error, "code", str, "error")
    kind = _BY_CODE.get(code or "", "errored")
    failure = BatchFailure(kind, optional(error, "message", str, "error", ""), None, code)
    return ResultLine(line_id, failure=failure, format=NAME, own=own)


def _answered(status: int, body: Mapping[str, Any]) -> BatchFailure:
    """An error the endpoint answered with: its status, message and type from the error body."""
    error = body.get("error")
    if not isinstance(error, Mapping):
        raise DecodeError("", "response.body.error", "an error answer holds no error object")
    kind = error.get("type") if isinstance(error.get("type"), str) else None
    return BatchFailure("errored", str(error.get("message") or ""), status, kind)


def write_result(line: ResultLine, out: WarningSink) -> dict[str, Any]:
    request_note(line, out)
    own = line.own_for(NAME)
    written: dict[str, Any] = {"id": own["id"]} if own.get("id") is not None else {}
    written["custom_id"] = line.id
    answered = {"request_id": own["request_id"]} if own.get("request_id") is not None else {}
    failure = line.failure
    if failure is None:
        return {**written, "response": {"status_code": 200, **answered, "body": line.response}, "error": None}
    if failure.status is not None:
        body = own.get("body") or served_error(failure.status, failure.message, failure.code)
        return {**written, "response": {"status_code": failure.status, **answered, "body": body}, "error": None}
    code = _CODE_OF.get(failure.kind, failure.code)
    return {**written, "response": None, "error": {"code": code, "message": failure.message}}


def results(wire: str) -> ResultFormat:
    """The output line of a batch on ``wire``'s endpoint (one format: a line's body says its wire)."""
    keys, any_of = frozenset({"custom_id"}), frozenset({"response", "error"})
    return ResultFormat(NAME, keys, any_of, read_result, write_result, body_wire=wire)
