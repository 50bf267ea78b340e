"""``Client.batch`` and ``AsyncClient.batch``: a batch of requests submitted, polled until it ends
and its results fetched, through the codec's batch API (``Codec.batching.api``), which writes each
step as the HTTP calls it makes; this module makes them, for both clients.

A batch runs on the batch API's base URL, found from the wire's own message URL and headers (so
``base_url``, the key and the version headers are the client's). Each answer comes back as a
:class:`BatchOutcome` under its request's id: a Response (its ``warnings`` the request's, side
``request``, then the answer's) or the failure the vendor reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ._batch import BatchApi, BatchCall, BatchFailure, BatchJob, Steps
from ._codec import Codec, Endpoint
from ._errors import InterlinguaError, ProviderError
from ._message import Message
from ._read import decode_with
from ._request import Request
from ._response import Response
from ._warnings import AnyWarning
from ._wire import loads

if TYPE_CHECKING:
    import httpx2

T = TypeVar("T")


class Caller(Protocol):
    """What a batch asks of Client / AsyncClient (this module is below them)."""

    codec: Codec
    _endpoint: Endpoint
    _http: Any

    def _error(self, status: int, content: bytes, headers: Mapping[str, str]) -> ProviderError: ...


class BatchUnsupportedError(InterlinguaError):
    """The client's wire has no batch API interlingua drives."""


@dataclass(frozen=True, slots=True)
class BatchOutcome:
    """One request of a batch: its ``id``, and its answer (``response``) or ``failure``."""

    id: str
    response: Response | None = None
    failure: BatchFailure | None = None


class Session:
    """One batch's calls: the batch API's base URL and the headers the wire sends (its key)."""

    def __init__(self, client: Caller, model: str | None) -> None:
        batching = client.codec.batching
        if batching is None or batching.api is None:
            raise BatchUnsupportedError(f"{client.codec.name} has no batch API that Client.batch runs")
        self.api: BatchApi = batching.api
        self.client = client
        probe = Request(model=model or "model", max_tokens=1, messages=[Message.user("hi")])
        prepared = client.codec.http_request(probe, stream=False, endpoint=client._endpoint)
        self.base = self.api.base(prepared.url).rstrip("/")
        self.headers = {k: v for k, v in prepared.headers.items() if k.lower() != "content-type"}

    def build(self, http: Any, call: BatchCall) -> httpx2.Request:
        url = call.path if call.path.startswith(("http://", "https://")) else f"{self.base}/{call.path}"
        if call.upload is not None:
            name, filename, data = call.upload
            files = {name: (filename, data, "application/jsonl")}
            return http.build_request(call.method, url, headers=self.headers, data=dict(call.fields or {}), files=files)  # type: ignore[no-any-return]  # httpx2's build_request
        if call.json is not None:
            return http.build_request(call.method, url, headers=self.headers, json=dict(call.json))  # type: ignore[no-any-return]  # httpx2's build_request
        return http.build_request(call.method, url, headers=self.headers)  # type: ignore[no-any-return]  # httpx2's build_request

    def answer(self, call: BatchCall, status: int, content: bytes, headers: Mapping[str, str]) -> Any:
        if status >= 400:
            raise self.client._error(status, content, headers)
        return content if call.raw else loads(content)


Lines = list[tuple[str, Any]]


def encoded_lines(
    client: Caller, requests: Mapping[str, Request]
) -> tuple[Lines, dict[str, list[AnyWarning]], str | None]:
    """Each request's body (a batch runs one model: the first request's, where they differ the
    vendor decides), its warnings by id, and the model."""
    lines, warnings = [], {}
    for line_id, request in requests.items():
        encoded = client.codec.encode_request(request)
        lines.append((line_id, encoded.body))
        warnings[line_id] = [w.model_copy(update={"side": "request"}) for w in encoded.warnings]
    models = [r.model for r in requests.values() if r.model is not None]
    return lines, warnings, models[0] if models else None


def outcomes(session: Session, job: BatchJob, lines: list[Mapping[str, Any]]) -> list[BatchOutcome]:
    """The fetched result lines as outcomes, in the order the requests were given where known."""
    codec = session.client.codec
    found: list[BatchOutcome] = []
    for line in lines:
        read = decode_with(codec.name, session.api.results.read, line)
        if read.response is None:
            found.append(BatchOutcome(str(read.id), failure=read.failure))
            continue
        response = codec.decode_response(read.response)
        sent = job.warnings.get(str(read.id), [])
        answered = [w.model_copy(update={"side": "response"}) for w in response.warnings]
        found.append(BatchOutcome(str(read.id), response=response.model_copy(update={"warnings": [*sent, *answered]})))
    order = {line_id: i for i, line_id in enumerate(job.warnings)}
    return sorted(found, key=lambda outcome: order.get(outcome.id, len(order)))


def drive(client: Caller, session: Session, steps: Steps[T]) -> T:
    """Make a step's calls with the client's HTTP client; the step's value."""
    answer: Any = None
    try:
        while True:
            call = steps.send(answer)
            response = client._http.send(session.build(client._http, call))
            answer = session.answer(call, response.status_code, response.read(), dict(response.headers))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]  # the generator's return value is T


async def adrive(client: Caller, session: Session, steps: Steps[T]) -> T:
    """Like :func:`drive`, on asyncio."""
    answer: Any = None
    try:
        while True:
            call = steps.send(answer)
            response = await client._http.send(session.build(client._http, call))
            answer = session.answer(call, response.status_code, await response.aread(), dict(response.headers))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]  # the generator's return value is T


def submitted(job: BatchJob, warnings: dict[str, list[AnyWarning]]) -> BatchJob:
    return replace(job, warnings=warnings)


def polled(before: BatchJob, after: BatchJob) -> BatchJob:
    """The job as the vendor now reports it, keeping what the client knew of its requests."""
    return replace(after, warnings=before.warnings)
