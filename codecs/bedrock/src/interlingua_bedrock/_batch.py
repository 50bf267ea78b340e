"""Batch inference records, both directions: ``{recordId, modelInput, modelOutput}``, or
``{recordId, modelInput, error: {errorCode, errorMessage}}`` where the record failed.

https://docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-results.html: "An error object
replaces the modelOutput field in any line where there was an error in inference"; the bodies are
those of the job's invocation type: Converse bodies for a Converse job, the model's own
``InvokeModel`` body otherwise (an Anthropic Messages body for Claude). So a record's bodies are
read by their shape, and this codec writes Converse records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import WarningSink
from interlingua.kit import BatchFailure, Batching, ResultFormat, ResultLine, failure_note, optional, require

from ._parts import NAME


def read_record(line: Mapping[str, Any]) -> ResultLine:
    request = optional(line, "modelInput", dict, "")  # only a record written without its request lacks it
    output = optional(line, "modelOutput", dict, "")
    if output is not None:
        return ResultLine(line.get("recordId"), response=output, request=request)
    error = require(line, "error", dict, "")
    status = optional(error, "errorCode", int, "error")
    failure = BatchFailure("errored", optional(error, "errorMessage", str, "error", ""), status)
    return ResultLine(line.get("recordId"), failure=failure, request=request)


def write_record(line: ResultLine, out: WarningSink) -> dict[str, Any]:
    written: dict[str, Any] = {"recordId": line.id}
    if line.request is not None:
        written["modelInput"] = line.request
    else:
        out.lossy("modelInput", "batch_request", "the source line does not hold the request a record repeats")
    failure = line.failure
    if failure is None:
        written["modelOutput"] = line.response
        return written
    failure_note(line, ("errored",), out, "error")
    error: dict[str, Any] = {"errorMessage": failure.message or failure.kind}
    if failure.status is not None:
        error = {"errorCode": failure.status, **error}
    written["error"] = error
    return written


RECORDS = ResultFormat(
    "bedrock batch record",
    frozenset({"recordId"}),
    frozenset({"modelOutput", "error"}),
    read_record,
    write_record,
    request=True,
    body_wire=NAME,
)
BATCHING = Batching(results=(RECORDS,))
