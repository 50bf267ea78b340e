"""Batch result lines, both directions: the Gemini API's batch mode (``{key, response}`` or
``{key, error}``) and Vertex AI's batch prediction (``{status, processed_time, request, response}``).

Gemini API: a responses file holds one line per request, a ``GenerateContentResponse`` or a
google.rpc.Status under the request's ``key`` (https://ai.google.dev/gemini-api/docs/batch-mode;
google-genai's ``InlinedResponse`` has the same ``response`` / ``error``). Vertex AI: each output
line repeats the ``request``; a succeeded one holds the ``response``, a failed one the error in
``status`` (empty when it succeeded), and no line has an id of its own
(https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/batch-prediction-from-cloud-storage).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import WarningSink
from interlingua.kit import (
    BatchFailure,
    ResultFormat,
    ResultLine,
    failure_note,
    optional,
    request_note,
    require,
)

from ._errors import served_error
from ._parts import NAME

RESULT, PREDICTION = "gemini batch result", "vertex batch prediction"


def read_result(line: Mapping[str, Any]) -> ResultLine:
    response = optional(line, "response", dict, "")
    if response is not None:
        return ResultLine(line.get("key"), response=response)
    error = require(line, "error", dict, "")
    message, code = optional(error, "message", str, "error", ""), optional(error, "status", str, "error")
    failure = BatchFailure("errored", message, optional(error, "code", int, "error"), code)
    return ResultLine(line.get("key"), failure=failure, format=RESULT, own={"error": error})


def write_result(line: ResultLine, out: WarningSink) -> dict[str, Any]:
    request_note(line, out)
    failure = line.failure
    if failure is None:
        return {"key": line.id, "response": line.response}
    failure_note(line, ("errored",), out, "error")
    error = served_error(failure.status or 500, failure.message or failure.kind, None)["error"]
    if failure.status is None:  # no HTTP status to give the code and the status by
        error = {"message": error["message"]}
    return {"key": line.id, "error": line.own_for(RESULT).get("error") or error}


def read_prediction(line: Mapping[str, Any]) -> ResultLine:
    request = optional(line, "request", dict, "")  # only a line written without its request lacks it
    response = optional(line, "response", dict, "")
    own = {"processed_time": line.get("processed_time")}
    if response is not None:
        return ResultLine(None, response=response, request=request, format=PREDICTION, own=own)
    message = optional(line, "status", str, "", "")
    return ResultLine(None, failure=BatchFailure("errored", message), request=request, format=PREDICTION, own=own)


def write_prediction(line: ResultLine, out: WarningSink) -> dict[str, Any]:
    if line.id is not None:
        out.lossy("id", "batch_id", "a batch prediction line has no id (its request identifies it)")
    written: dict[str, Any] = {}
    failure = line.failure
    written["status"] = "" if failure is None else (failure.message or failure.kind)
    if line.own_for(PREDICTION).get("processed_time") is not None:
        written["processed_time"] = line.own_for(PREDICTION)["processed_time"]
    failure_note(line, ("errored",), out, "status")
    if line.request is not None:
        written["request"] = line.request
    else:
        out.lossy("request", "batch_request", "the source line does not hold the request a prediction line repeats")
    if failure is None:
        written["response"] = line.response
    return written


RESULTS = ResultFormat(
    RESULT,
    frozenset({"key"}),
    frozenset({"response", "error"}),
    read_result,
    write_result,
    body_wire=NAME,
)
PREDICTIONS = ResultFormat(
    PREDICTION,
    frozenset({"request"}),
    frozenset({"response", "status"}),
    read_prediction,
    write_prediction,
    request=True,
    body_wire=NAME,
)
