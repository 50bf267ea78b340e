"""The Message Batches API for ``Client.batch``: the requests sent in one create call, the batch
polled until its ``processing_status`` is ``ended``, its results read from ``results_url``
(JSONL, one ``{custom_id, result}`` per request); and the vendor's side of it for FakeVendor.

https://docs.anthropic.com/en/api/creating-message-batches (``POST /v1/messages/batches`` with
``requests: [{custom_id, params}]``), https://docs.anthropic.com/en/api/retrieving-message-batches
(``GET /v1/messages/batches/{id}``; ``processing_status`` in_progress, canceling, ended;
``results_url`` once ended), the SDK's ``MessageBatch``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.kit import BatchApi, BatchCall, BatchJob, FakeBatches, Steps

from . import _batch


def _base(url: str) -> str:
    return url.removesuffix("/messages")


def _job(batch: Mapping[str, Any]) -> BatchJob:
    status = str(batch.get("processing_status", ""))
    return BatchJob(str(batch["id"]), status, status == "ended", batch)


def submit(lines: Sequence[tuple[str, Mapping[str, Any]]], model: str | None) -> Steps[BatchJob]:
    requests = [{"custom_id": line_id, "params": body} for line_id, body in lines]
    return _job((yield BatchCall("POST", "messages/batches", json={"requests": requests})))


def poll(job: BatchJob) -> Steps[BatchJob]:
    return _job((yield BatchCall("GET", f"messages/batches/{job.id}")))


def fetch(job: BatchJob) -> Steps[list[Mapping[str, Any]]]:
    # "the path should not be assumed and may change": the batch's own results_url is read
    url = job.raw.get("results_url")
    if not isinstance(url, str):
        return []
    data = yield BatchCall("GET", url, raw=True)
    return [json.loads(raw) for raw in data.splitlines() if raw.strip()]


# -- the vendor's side, for FakeVendor -----------------------------------------------------------


def serve(batches: FakeBatches, method: str, path: str, body: Any) -> tuple[int, Any] | None:
    """The fake's answer to a Message Batches call at ``path``, or None: not one."""
    parts = path.partition("/v1/messages/batches")[2].strip("/").split("/") if "/v1/messages/batches" in path else None
    if parts is None:
        return None
    if method == "POST" and parts == [""]:
        return _create(batches, body)
    if method == "GET" and len(parts) == 1:
        return _status(batches, parts[0])
    if method == "GET" and len(parts) == 2 and parts[1] == "results":
        found = batches.store.get(f"{parts[0]}-results")
        return (200, found) if isinstance(found, bytes) else (404, _not_found(parts[0]))
    return None


def _not_found(batch_id: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": "not_found_error", "message": f"No batch {batch_id}"}}


def _create(batches: FakeBatches, body: Any) -> tuple[int, Any]:
    rows = []
    for request in body.get("requests", []) if isinstance(body, Mapping) else []:
        status, answer = batches.answer(request["params"])
        result = {"type": "succeeded", "message": answer} if status < 400 else {"type": "errored", "error": answer}
        rows.append(json.dumps({"custom_id": request["custom_id"], "result": result}))
    batch_id = batches.new_id("msgbatch_")
    batches.store[f"{batch_id}-results"] = "\n".join(rows).encode()
    batches.store[batch_id] = {"polls": batches.polls}
    return _status(batches, batch_id, count=False)


def _status(batches: FakeBatches, batch_id: str, *, count: bool = True) -> tuple[int, Any]:
    kept = batches.store.get(batch_id)
    if not isinstance(kept, dict):
        return 404, _not_found(batch_id)
    if count and kept["polls"] > 0:
        kept["polls"] -= 1
    ended = count and kept["polls"] == 0
    results = f"{batches.url}/v1/messages/batches/{batch_id}/results" if ended else None
    status = "ended" if ended else "in_progress"
    batch = {"id": batch_id, "type": "message_batch", "processing_status": status, "results_url": results}
    times = {"created_at": _EPOCH, "expires_at": _EPOCH, "ended_at": _EPOCH if ended else None}
    counts = dict.fromkeys(("processing", "succeeded", "errored", "canceled", "expired"), 0)
    return 200, {**batch, **times, "archived_at": None, "cancel_initiated_at": None, "request_counts": counts}


_EPOCH = "2026-01-01T00:00:00Z"


API = BatchApi(_base, submit, poll, fetch, _batch.RESULTS, serve)
