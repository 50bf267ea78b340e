"""Batch mode for ``Client.batch``: the requests inlined in one ``batchGenerateContent`` call, the
batch (a long-running operation, ``batches/{id}``) polled until its state ends, its inlined
responses read as result lines (``{key, response}`` / ``{key, error}``); and the vendor's side of
it for FakeVendor.

https://ai.google.dev/api/batch-mode: ``POST models/{model}:batchGenerateContent`` with
``batch.inputConfig.requests.requests: [{request, metadata}]``, ``GET batches/{id}``; the batch
in the operation's ``metadata`` (``state`` BATCH_STATE_PENDING, _RUNNING, _SUCCEEDED, _FAILED,
_CANCELLED, _EXPIRED), its ``output.inlinedResponses.inlinedResponses: [{response | error,
metadata}]`` (google-genai 1.x batches.py reads these paths: ``_BatchJob_from_mldev``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from interlingua.kit import BatchApi, BatchCall, BatchJob, FakeBatches, Steps

from . import _batch

_ENDED = frozenset({"BATCH_STATE_SUCCEEDED", "BATCH_STATE_FAILED", "BATCH_STATE_CANCELLED", "BATCH_STATE_EXPIRED"})


def _base(url: str) -> str:
    return url.rpartition("/models/")[0]


def _job(operation: Mapping[str, Any]) -> BatchJob:
    metadata = operation.get("metadata")
    state = str(metadata.get("state", "")) if isinstance(metadata, Mapping) else ""
    return BatchJob(str(operation["name"]), state, state in _ENDED, operation)


def submit(lines: Sequence[tuple[str, Mapping[str, Any]]], model: str | None) -> Steps[BatchJob]:
    requests = [{"request": body, "metadata": {"key": line_id}} for line_id, body in lines]
    batch = {"displayName": "interlingua", "inputConfig": {"requests": {"requests": requests}}}
    name = quote((model or "").removeprefix("models/"), safe="")
    return _job((yield BatchCall("POST", f"models/{name}:batchGenerateContent", json={"batch": batch})))


def poll(job: BatchJob) -> Steps[BatchJob]:
    return _job((yield BatchCall("GET", job.id)))


def fetch(job: BatchJob) -> Steps[list[Mapping[str, Any]]]:
    """The inlined responses as result lines, each under its request's key."""
    operation = yield BatchCall("GET", job.id)
    output = (operation.get("metadata") or {}).get("output") or {}
    lines: list[Mapping[str, Any]] = []
    for item in (output.get("inlinedResponses") or {}).get("inlinedResponses") or []:
        key = (item.get("metadata") or {}).get("key")
        answered = {"error": item["error"]} if "error" in item else {"response": item.get("response")}
        lines.append({"key": key, **answered})
    return lines


# -- the vendor's side, for FakeVendor -----------------------------------------------------------


def serve(batches: FakeBatches, method: str, path: str, body: Any) -> tuple[int, Any] | None:
    """The fake's answer to a batch mode call at ``path``, or None: not one."""
    if method == "POST" and path.endswith(":batchGenerateContent"):
        return _create(batches, path.rpartition("/models/")[2].removesuffix(":batchGenerateContent"), body)
    if method == "GET" and "/batches/" in path:
        return _status(batches, "batches/" + path.rpartition("/batches/")[2])
    return None


def _create(batches: FakeBatches, model: str, body: Any) -> tuple[int, Any]:
    requests = (((body.get("batch") or {}).get("inputConfig") or {}).get("requests") or {}).get("requests") or []
    answers = []
    for item in requests:
        status, answer = batches.answer(item["request"])
        answered = {"response": answer} if status < 400 else {"error": answer["error"]}
        answers.append({**answered, "metadata": item.get("metadata") or {}})
    name = batches.new_id("batches/fake")
    batches.store[name] = {"polls": batches.polls, "model": f"models/{model}", "answers": answers}
    return _status(batches, name, count=False)


def _status(batches: FakeBatches, name: str, *, count: bool = True) -> tuple[int, Any]:
    kept = batches.store.get(name)
    if not isinstance(kept, dict):
        return 404, {"error": {"code": 404, "message": f"{name} not found", "status": "NOT_FOUND"}}
    if count and kept["polls"] > 0:
        kept["polls"] -= 1
    ended = count and kept["polls"] == 0
    metadata: dict[str, Any] = {"name": name, "model": kept["model"], "displayName": "interlingua"}
    metadata["state"] = "BATCH_STATE_SUCCEEDED" if ended else "BATCH_STATE_RUNNING"
    if ended:
        metadata["output"] = {"inlinedResponses": {"inlinedResponses": kept["answers"]}}
    return 200, {"name": name, "metadata": metadata, "done": ended}


API = BatchApi(_base, submit, poll, fetch, _batch.RESULTS, serve)
