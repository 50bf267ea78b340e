"""The Batch API for ``Client.batch``: the lines uploaded as a JSONL file (purpose ``batch``), a
batch created on it, polled, and its output and error files read; and the vendor's side of it for
the test kit's FakeVendor.

https://platform.openai.com/docs/guides/batch: ``POST /v1/files`` (multipart, ``purpose=batch``),
``POST /v1/batches`` (``input_file_id``, ``endpoint``, ``completion_window: 24h``),
``GET /v1/batches/{id}`` (``status``: validating, failed, in_progress, finalizing, completed,
expired, cancelling, cancelled; the SDK's ``Batch``), ``GET /v1/files/{id}/content``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.kit import BatchApi, BatchCall, BatchJob, FakeBatches, Steps

from . import _batch

_ENDED = frozenset({"failed", "completed", "expired", "cancelled"})
_ENDPOINTS = {"openai-chat": "/v1/chat/completions", "openai-responses": "/v1/responses"}


def _base(url: str) -> str:
    return url.rpartition("/chat/completions")[0] or url.rpartition("/responses")[0]


def _job(batch: Mapping[str, Any]) -> BatchJob:
    status = str(batch.get("status", ""))
    return BatchJob(str(batch["id"]), status, status in _ENDED, batch)


def _jsonl(data: bytes) -> list[Mapping[str, Any]]:
    return [json.loads(raw) for raw in data.splitlines() if raw.strip()]


def api(wire: str) -> BatchApi:
    endpoint = _ENDPOINTS[wire]

    def submit(lines: Sequence[tuple[str, Mapping[str, Any]]], model: str | None) -> Steps[BatchJob]:
        rows = (json.dumps({"custom_id": i, "method": "POST", "url": endpoint, "body": body}) for i, body in lines)
        upload = ("file", "batch.jsonl", "\n".join(rows).encode())
        uploaded = yield BatchCall("POST", "files", upload=upload, fields={"purpose": "batch"})
        body = {"input_file_id": uploaded["id"], "endpoint": endpoint, "completion_window": "24h"}
        return _job((yield BatchCall("POST", "batches", json=body)))

    def poll(job: BatchJob) -> Steps[BatchJob]:
        return _job((yield BatchCall("GET", f"batches/{job.id}")))

    def fetch(job: BatchJob) -> Steps[list[Mapping[str, Any]]]:
        found: list[Mapping[str, Any]] = []
        for key in ("output_file_id", "error_file_id"):
            if job.raw.get(key):
                found += _jsonl((yield BatchCall("GET", f"files/{job.raw[key]}/content", raw=True)))
        return found

    return BatchApi(_base, submit, poll, fetch, _batch.results(wire), serve)


# -- the vendor's side, for FakeVendor -----------------------------------------------------------


def serve(batches: FakeBatches, method: str, path: str, body: Any) -> tuple[int, Any] | None:
    """The fake's answer to a Files or Batches call at ``path``, or None: not one of them."""
    tail = path.partition("/v1/")[2]
    parts = tail.split("/")
    if method == "POST" and parts == ["files"]:
        return _upload(batches, body)
    if method == "POST" and parts == ["batches"]:
        return _create(batches, body)
    if method == "GET" and len(parts) == 2 and parts[0] == "batches":
        return _status(batches, parts[1])
    if method == "GET" and len(parts) == 3 and parts[0] == "files" and parts[2] == "content":
        found = batches.store.get(parts[1])
        return (200, found) if isinstance(found, bytes) else (404, {"error": {"message": "No such File object"}})
    return None


def _upload(batches: FakeBatches, body: Any) -> tuple[int, Any]:
    """A multipart upload: the file part's bytes kept under a new file id."""
    data = body if isinstance(body, bytes) else b""
    boundary = data.split(b"\r\n", 1)[0]
    for part in data.split(boundary):
        headers, _, content = part.partition(b"\r\n\r\n")
        if b'name="file"' in headers:
            file_id = batches.new_id("file-")
            batches.store[file_id] = content.removesuffix(b"\r\n")
            file = {"id": file_id, "object": "file", "purpose": "batch", "bytes": len(content), "created_at": 0}
            return 200, {**file, "filename": "batch.jsonl", "status": "processed"}
    return 400, {"error": {"message": "no file part in the upload", "type": "invalid_request_error"}}


def _create(batches: FakeBatches, body: Any) -> tuple[int, Any]:
    """A batch on an uploaded file: each line answered at once, its outcome kept for the files."""
    data = batches.store.get(str(body.get("input_file_id")))
    if not isinstance(data, bytes):
        return 400, {"error": {"message": "input_file_id names no uploaded file", "type": "invalid_request_error"}}
    output: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for line in _jsonl(data):
        status, answer = batches.answer(line["body"])
        written = {"id": batches.new_id("batch_req_"), "custom_id": line["custom_id"]}
        written["response"] = {"status_code": status, "request_id": batches.new_id("req_"), "body": answer}
        (output if status < 400 else errors).append({**written, "error": None})
    batch_id = batches.new_id("batch_")
    for key, rows in (("output", output), ("error", errors)):
        if rows:
            batches.store[f"{batch_id}-{key}"] = "\n".join(json.dumps(r) for r in rows).encode()
    batches.store[batch_id] = {"polls": batches.polls, "endpoint": body.get("endpoint"), "file": body["input_file_id"]}
    return _status(batches, batch_id, count=False)


def _status(batches: FakeBatches, batch_id: str, *, count: bool = True) -> tuple[int, Any]:
    kept = batches.store.get(batch_id)
    if not isinstance(kept, dict):
        return 404, {"error": {"message": f"No batch found with id '{batch_id}'.", "type": "invalid_request_error"}}
    if count and kept["polls"] > 0:
        kept["polls"] -= 1
    ended = count and kept["polls"] == 0
    batch: dict[str, Any] = {"id": batch_id, "object": "batch", "endpoint": kept["endpoint"], "created_at": 0}
    batch.update(completion_window="24h", input_file_id=kept["file"])
    batch["status"] = "completed" if ended else "in_progress"
    for key in ("output", "error"):
        batch[f"{key}_file_id"] = f"{batch_id}-{key}" if ended and f"{batch_id}-{key}" in batches.store else None
    return 200, batch
