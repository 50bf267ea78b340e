"""The transport: Client and AsyncClient send a Request through any codec over httpx2.

Generic over codecs: where to send, which headers, how an error body reads and how a stream
decodes all come from the codec (``http_request``, ``decode_error``, ``decode_stream``). httpx2 is
imported when a client is built, never by ``import interlingua``.

Retries follow what the official SDKs do: 408, 409, 429 and 5xx answers (a 529 overload
included), connection errors and timeouts are retried up to ``max_retries`` times with
exponential backoff and jitter, honouring ``retry-after-ms`` / ``Retry-After`` (and a server's
``x-should-retry``), with the total wait bounded. A stream is retried only before its first event.

The request is encoded once (``Codec.http_request(..., encoded=)``): what it could not carry is on
the answer's ``warnings`` (``side="request"``), and ``strict=True`` refuses it before a byte is
sent. ``timeout`` holds whatever http client is passed: it bounds each read, each attempt from
connect to the answer's headers as a whole (a server that drips header bytes cannot hold a call),
and each wait between two stream events. A vendor's error body loses the caller's keys before it
is raised (an upstream may echo one).
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import os
import queue
import random
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast
from urllib.parse import urlsplit

from . import _batching, _otel
from ._batch import BatchJob
from ._batching import BatchOutcome
from ._codec import _SECRET_HEADERS, Codec, Endpoint, HttpRequest, encode_for_host
from ._count import TokenCount, estimate_tokens
from ._errors import (
    DecodeError,
    MissingAPIKeyError,
    ProviderError,
    TimeoutError,
    TransportError,
)
from ._handles import AsyncResolver, Resolver, aresolve_handles, resolve_handles
from ._message import Message
from ._request import Request
from ._response import Response
from ._sse import MAX_EVENT_SIZE, SSEEvent
from ._stream import ErrorEvent, StreamAccumulator, StreamEvent
from ._stream_errors import StreamError, StreamTimeoutError
from ._warned_stream import DecodedStream
from ._warnings import AnyWarning, Encoded
from ._wire import body_bytes, loads, retry_after

if TYPE_CHECKING:
    import httpx2

# MissingAPIKeyError lives in _errors (a codec raises it without loading the transport); kept importable here.
__all__ = ["AsyncClient", "AsyncEventStream", "Client", "EventStream", "MissingAPIKeyError", "RetryPolicy"]

DEFAULT_TIMEOUT = 600.0
_RETRY_STATUSES = frozenset({408, 409, 429})


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff between attempts: ``initial * 2**n`` capped at ``max_delay``, minus up to 25%
    jitter; a server's Retry-After wins when it asks for at most ``max_retry_after`` seconds.
    The waits of one call never add up to more than ``max_total_wait``."""

    max_retries: int = 2
    initial: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0
    max_total_wait: float = 90.0

    def delay(self, attempt: int, headers: Mapping[str, str] | None) -> float:
        asked = retry_after(headers) if headers is not None else None
        if asked is not None and 0 <= asked <= self.max_retry_after:
            return asked
        backoff = min(self.initial * 2.0**attempt, self.max_delay)
        return backoff * (1 - 0.25 * random.random())


def _should_retry(status: int, headers: Mapping[str, str]) -> bool:
    verdict = {k.lower(): v for k, v in headers.items()}.get("x-should-retry")
    if verdict in ("true", "false"):
        return verdict == "true"
    return status in _RETRY_STATUSES or status >= 500


def _resolve(codec: Codec | str, options: Mapping[str, Any]) -> Codec:
    if isinstance(codec, str):
        from ._registry import get_codec

        return get_codec(codec, **options)
    if options:
        raise TypeError("codec options are only taken with a codec name")
    return codec


def _api_key(codec: Codec, given: str | None, settings: Mapping[str, str]) -> str | None:
    """The key given, else the first of the codec's variables that is set. A codec serving a
    cloud door may name other variables for it (``api_key_env_for(settings)``), or None where the
    door authenticates otherwise (request signing, cloud credentials): a key is then optional."""
    if given is not None:
        return given
    names = codec.api_key_env_for(settings)
    if names is None:
        return None
    for name in names:
        if value := os.environ.get(name):
            return value
    if names:
        raise MissingAPIKeyError(f"no API key for {codec.name}: pass api_key=... or set {' or '.join(names)}")
    return None  # a codec that declares no key variable talks to servers that take none


def _timeout(timeout: float | httpx2.Timeout | None) -> Any:
    import httpx2

    if isinstance(timeout, httpx2.Timeout):
        return timeout
    seconds = DEFAULT_TIMEOUT if timeout is None else timeout
    return httpx2.Timeout(seconds, connect=min(seconds, 10.0))


def _deadline(timeout: float | httpx2.Timeout | None) -> float:
    """The bound of one attempt up to the answer's headers, and of each wait between events:
    ``timeout``'s seconds (a ``httpx2.Timeout``'s read limit, else its largest), else the default."""
    if timeout is None:
        return DEFAULT_TIMEOUT
    if isinstance(timeout, int | float):
        return float(timeout)
    limits = [t for t in (timeout.read, timeout.connect, timeout.write, timeout.pool) if t is not None]
    return float(timeout.read if timeout.read is not None else max(limits, default=DEFAULT_TIMEOUT))


def _sided(warnings: list[AnyWarning], side: str) -> list[AnyWarning]:
    return [w.model_copy(update={"side": side}) for w in warnings]


def _hosted(response: Response, host: str | None, codec: Codec, sent: HttpRequest | None) -> Response:
    """``response`` with the door's ``host`` recorded on its model-bound echoes (signed reasoning),
    its reasoning that names no model bound to the model the request named (``sent.source``)."""
    if host is None:
        return response
    from ._binding import hosted

    model = sent.source.model if sent is not None and sent.source is not None else None
    message = hosted(response.message, host, model, codec.provider)
    return response if message is response.message else response.model_copy(update={"message": message})


def _with_warnings(response: Response, sent: Encoded | None, decoded: list[AnyWarning]) -> Response:
    """The answer with the request's warnings first (``side="request"``), then its own."""
    request = _sided(sent.warnings, "request") if sent is not None else []
    if not request and not decoded:
        return response
    return response.model_copy(update={"warnings": [*request, *_sided(decoded, "response")]})


class _Deadline(Exception):
    """An attempt, or a wait between stream events, ran past the client's deadline."""


def _within(seconds: float, send: Callable[[], httpx2.Response]) -> httpx2.Response:
    """``send()`` up to the answer's headers, on a worker thread waited for at most ``seconds``:
    a read timeout bounds each read, not the sum of them. Past the deadline the attempt is
    abandoned (raising _Deadline); should its answer still come, it is closed unread."""
    outcome: list[tuple[bool, Any]] = []
    done, lock = threading.Event(), threading.Lock()

    def run() -> None:
        try:
            result: tuple[bool, Any] = (True, send())
        except BaseException as exc:  # handed to the waiting thread
            result = (False, exc)
        with lock:
            outcome.append(result)
            abandoned = done.is_set()
            done.set()
        if abandoned and result[0]:
            result[1].close()

    threading.Thread(target=run, daemon=True, name="interlingua-send").start()
    done.wait(seconds)
    with lock:
        if not outcome:
            done.set()  # tells the worker nobody waits for it any more
            raise _Deadline(f"no answer within {seconds:g} s")
    ok, value = outcome[0]
    if ok:
        return cast("httpx2.Response", value)
    raise value


class _Watchdog:
    """Shuts a stream's socket when no event came for ``seconds`` (a server that stalls, or
    drips bytes that never make an event): the blocked read then ends, and ``fired`` says why."""

    def __init__(self, seconds: float, response: httpx2.Response) -> None:
        network = response.extensions.get("network_stream")
        self._socket: socket.socket | None = network.get_extra_info("socket") if network is not None else None
        self._seconds, self._last = seconds, time.monotonic()
        self._stop = threading.Event()
        self.fired = False
        if self._socket is not None:
            threading.Thread(target=self._watch, daemon=True, name="interlingua-stream-watchdog").start()

    def touch(self) -> None:
        self._last = time.monotonic()

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        while not self._stop.wait(max(self._last + self._seconds - time.monotonic(), 0.0)):
            if time.monotonic() - self._last >= self._seconds:
                self.fired = True
                with contextlib.suppress(OSError):
                    assert self._socket is not None
                    self._socket.shutdown(socket.SHUT_RDWR)
                return


def _transport_error(codec: Codec, exc: Exception) -> TransportError:
    import httpx2

    what = type(exc).__name__
    if isinstance(exc, _Deadline):
        return TimeoutError(f"{codec.name}: the request timed out ({exc})")
    if isinstance(exc, httpx2.TimeoutException):
        return TimeoutError(f"{codec.name}: the request timed out ({what})")
    if isinstance(exc, httpx2.SSEError):  # the bytes came, but not as events (max_event_size)
        return TransportError(f"{codec.name}: the event stream could not be framed ({exc})")
    return TransportError(f"{codec.name}: the connection failed ({what}: {exc})")


def _retryable_exception(exc: BaseException) -> bool:
    import httpx2

    return isinstance(exc, httpx2.TransportError | _Deadline)


class _Base:
    """What both clients share: the codec, the endpoint (key hidden) and the retry policy."""

    _http: Any  # an httpx2.Client or AsyncClient: both build requests alike

    def __init__(
        self,
        codec: Codec | str,
        *,
        api_key: str | None,
        base_url: str | None,
        max_retries: int,
        timeout: float | httpx2.Timeout | None,
        default_headers: Mapping[str, str] | None,
        settings: Mapping[str, str] | None,
        retry: RetryPolicy | None,
        codec_options: Mapping[str, Any],
        resolve: AsyncResolver | Resolver | None = None,
        max_event_size: int | None = MAX_EVENT_SIZE,
    ) -> None:
        self.codec = _resolve(codec, codec_options)
        self.max_event_size = max_event_size
        self._resolver = resolve
        self._endpoint = Endpoint(
            base_url=base_url,
            api_key=_api_key(self.codec, api_key, settings or {}),
            headers=dict(default_headers or {}),
            settings=dict(settings or {}),
        )
        self.retry = retry or RetryPolicy(max_retries=max_retries)
        self._timeout = timeout
        self.deadline = _deadline(timeout)
        """Seconds one attempt may take up to the answer's headers, and a stream between events."""
        self._per_request: Any = None if timeout is None else _timeout(timeout)  # set on every request
        self._secrets = [s for s in [self._endpoint.api_key] if s] + [
            v for k, v in self._endpoint.headers.items() if k.lower() in _SECRET_HEADERS and v
        ]

    def __repr__(self) -> str:
        where = self._endpoint.base_url or "default URL"
        return f"{type(self).__name__}(codec={self.codec.name!r}, base_url={where!r})"

    def _prepared(self, request: Request, *, stream: bool, strict: bool) -> HttpRequest:
        """The request encoded once, for the host its door names (``Codec.host_for``: what a
        signed block made through another host needs): ``strict`` raises LossyEncodeError here,
        before any sending."""
        host = self.codec.host_for(self._endpoint.settings)
        encoded = encode_for_host(self.codec, request, host, strict=strict)
        prepared = self.codec.http_request(request, stream=stream, endpoint=self._endpoint, encoded=encoded)
        return replace(prepared, source=request, host=prepared.host or host)

    def _decode_body(self, status: int, content: bytes) -> Response:
        try:
            body = loads(content)
        except ValueError as exc:
            raise DecodeError(self.codec.name, "body", f"the {status} answer is not JSON ({exc})") from None
        return self.codec.decode_response(body)

    def _build(self, prepared: HttpRequest, content: bytes) -> httpx2.Request:
        """One attempt's request: signed afresh when the door signs (the signature holds the time)."""
        headers = prepared.headers
        if prepared.sign is not None:
            headers = prepared.sign(prepared.method, prepared.url, headers, content)
        request: httpx2.Request = self._http.build_request(
            prepared.method, prepared.url, headers=dict(headers), content=content
        )
        if self._per_request is not None:  # the client's timeout, whatever http client was passed
            request.extensions["timeout"] = self._per_request.as_dict()
        return request

    def span(self, prepared: HttpRequest) -> _otel.Call | None:
        """The telemetry span of one call of ``prepared`` that the caller opens and reads itself (a
        gateway relaying a stream through its own reader); None while telemetry is off. The caller
        ends it: ``ok(response)``, or ``failed(error, warnings)``. ``send`` and ``stream`` make
        their own."""
        return self._traced(prepared, prepared)

    def _traced(self, request: Request | HttpRequest, prepared: HttpRequest) -> _otel.Call | None:
        """The call's span when telemetry is on (:func:`interlingua.instrument`), else None."""
        active = _otel.ACTIVE
        if active is None:
            return None
        ir = request if isinstance(request, Request) else prepared.source
        model = prepared.json.get("model") if ir is None else None
        return active.call(self.codec, ir, prepared.url, stream=prepared.stream, model=model)

    def _models_request(self, page: str | None) -> HttpRequest:
        prepared = self.codec.models_request(endpoint=self._endpoint, page=page)
        if prepared is None:
            raise NotImplementedError(f"{self.codec.name} lists no models here (the API, or this door, has no list)")
        return prepared

    def _read_models(self, status: int, content: bytes, seen: set[str]) -> tuple[list[str], str | None]:
        """One model-list page's ids and the next page's cursor (None: the last, or a cursor
        already followed: a server repeating itself ends the walk rather than looping)."""
        ids, page = self.codec.read_models(self._answer_object(status, content, "model list"))
        if page is not None and page in seen:
            page = None
        if page is not None:
            seen.add(page)
        return ids, page

    def _count_request(self, request: Request) -> HttpRequest | None:
        return self.codec.count_request(request, endpoint=self._endpoint)

    def _read_count(self, status: int, content: bytes) -> TokenCount:
        return TokenCount(self.codec.read_count(self._answer_object(status, content, "count answer")))

    def _answer_object(self, status: int, content: bytes, what: str) -> dict[str, Any]:
        """A side call's answer (a count, a model-list page) as the JSON object it must be."""
        try:
            body = loads(content)
        except ValueError as exc:
            raise DecodeError(self.codec.name, "body", f"the {status} {what} is not JSON ({exc})") from None
        if not isinstance(body, dict):
            raise DecodeError(self.codec.name, "body", f"the {what} is not a JSON object")
        return body

    def _error(self, status: int, content: bytes, headers: Mapping[str, str]) -> ProviderError:
        """The codec's ProviderError, with every key of this client taken out of it; a 404 from a
        base URL without the path the codec's own base URL has gets a note asking about it."""
        error = self.codec.decode_error(status, content, headers)
        assert isinstance(error, ProviderError)
        error = error.redacted(self._secrets)
        if status == 404 and (note := _missing_prefix(self.codec, self._endpoint)) is not None:
            error.add_note(note)
        return error


def _content(prepared: HttpRequest, codec: str) -> bytes:
    """The bytes sent: the JSON body, none for a ``GET`` (a model list)."""
    return b"" if prepared.method == "GET" else body_bytes(prepared.json, codec)


def _missing_prefix(codec: Codec, endpoint: Endpoint) -> str | None:
    """A base URL given with no path, for a codec whose own base URL has one (a ``/v1`` the codec
    does not add, as hosts differ: the URL is used as given): the likely cause of a 404, said."""
    given = endpoint.base_url
    if given is None or urlsplit(given).path.strip("/"):
        return None
    probe = Request(model="model", max_tokens=1, messages=[Message.user("-")])
    try:
        own = urlsplit(codec.http_request(probe, stream=False, endpoint=replace(endpoint, base_url=None)).url).path
        here = urlsplit(codec.http_request(probe, stream=False, endpoint=endpoint).url).path
    except Exception:  # a door's settings or credentials: not this note's business
        return None
    prefix = own[: len(own) - len(here)] if own.endswith(here) else ""
    if not prefix:
        return None
    return f"{given} has no path, and {codec.name}'s own base URL ends in {prefix}: is it {given.rstrip('/')}{prefix}?"


# --- sync ------------------------------------------------------------------------------------


class Client(_Base):
    """Send requests through one codec. ``Client("acme-chat")`` looks the codec up by
    name (keyword options such as ``dialect=`` go to the codec); pass ``http_client`` to reuse
    your own ``httpx2.Client`` (it is then yours to close). ``max_event_size`` bounds one SSE
    event (see :data:`interlingua.MAX_EVENT_SIZE`); a larger one ends the stream in StreamError."""

    def __init__(
        self,
        codec: Codec | str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: httpx2.Client | None = None,
        max_retries: int = 2,
        timeout: float | httpx2.Timeout | None = None,
        default_headers: Mapping[str, str] | None = None,
        settings: Mapping[str, str] | None = None,
        retry: RetryPolicy | None = None,
        resolve: Resolver | None = None,
        max_event_size: int | None = MAX_EVENT_SIZE,
        **codec_options: Any,
    ) -> None:
        super().__init__(
            codec,
            api_key=api_key,
            base_url=base_url,
            max_retries=max_retries,
            timeout=timeout,
            default_headers=default_headers,
            settings=settings,
            retry=retry,
            codec_options=codec_options,
            resolve=resolve,
            max_event_size=max_event_size,
        )
        import httpx2

        self._owns_http = http_client is None
        self._http: httpx2.Client = http_client or httpx2.Client(timeout=_timeout(timeout))

    @classmethod
    def for_codec(cls, name: str, **kwargs: Any) -> Client:
        """``Client.for_codec("acme-chat", dialect="local")``: the codec looked up by name."""
        return cls(name, **kwargs)

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, request: Request | HttpRequest, *, strict: bool = False) -> Response:
        """One answer, retried per the policy; a vendor error raises its ProviderError subclass.
        Its ``warnings`` hold the request's (``side="request"``: what the wire could not carry)
        before the answer's own; ``strict=True`` raises LossyEncodeError instead, before sending.
        A request already made by :meth:`prepare` is sent as it is."""
        prepared = request if isinstance(request, HttpRequest) else self.prepare(request, strict=strict)
        call = self._traced(request, prepared)
        try:
            answer = self._send(prepared)
        except BaseException as exc:
            if call is not None:
                call.failed(exc, prepared.encoded.warnings if prepared.encoded is not None else ())
            raise
        if call is not None:
            call.ok(answer)
        return answer

    def _send(self, prepared: HttpRequest) -> Response:
        status, content = self._read(prepared)
        answer = _hosted(self._decode_body(status, content), prepared.host, self.codec, prepared)
        return _with_warnings(answer, prepared.encoded, [])

    def _read(self, prepared: HttpRequest) -> tuple[int, bytes]:
        """``prepared`` opened (retried per the policy) and its whole answer read: the status and
        the bytes; a connection lost while reading is a TransportError."""
        response = self.open(prepared)
        try:
            content = response.read()
        except Exception as exc:
            if _retryable_exception(exc):
                raise _transport_error(self.codec, exc) from None
            raise
        finally:
            response.close()
        return response.status_code, content

    def list_models(self) -> list[str]:
        """The model ids the vendor's model-list endpoint names for this key, every page, each
        page retried as ``send`` is (``Codec.models_request``); NotImplementedError where the
        codec, or the door it is set to, has no list."""
        ids: list[str] = []
        page: str | None = None
        seen: set[str] = set()
        while True:
            found, page = self._read_models(*self._read(self._models_request(page)), seen)
            ids += found
            if page is None:
                return ids

    def count_tokens(self, request: Request) -> TokenCount:
        """The request's input tokens, nothing generated: the vendor's count endpoint where the
        wire has one (retried as ``send`` is), otherwise an estimate from the IR
        (``estimated=True``; see :func:`interlingua.estimate_tokens`)."""
        ready = self._ready(request)
        prepared = self._count_request(ready)
        if prepared is None:
            return estimate_tokens(ready)
        return self._read_count(*self._read(prepared))

    def batch(
        self, requests: Mapping[str, Request], *, poll_interval: float = 30.0, timeout: float | None = None
    ) -> list[BatchOutcome]:
        """Run ``requests`` (by id) as one batch on the vendor's batch API, at its batch price:
        submitted, polled every ``poll_interval`` seconds until it ends (``timeout``: give up,
        TimeoutError, the job left running), its answers fetched, in the order given."""
        job = self.submit_batch(requests)
        started = time.monotonic()
        while not job.done:
            if timeout is not None and time.monotonic() - started + poll_interval > timeout:
                raise TimeoutError(f"batch {job.id} still {job.status} after {timeout:g} s (left running)")
            time.sleep(poll_interval)
            job = self.poll_batch(job)
        return self.fetch_batch(job)

    def submit_batch(self, requests: Mapping[str, Request]) -> BatchJob:
        """Send ``requests`` (by id) as one batch; the job, with what each request could not carry."""
        lines, warnings, model = _batching.encoded_lines(self, {k: self._ready(r) for k, r in requests.items()})
        session = _batching.Session(self, model)
        return _batching.submitted(_batching.drive(self, session, session.api.submit(lines, model)), warnings)

    def poll_batch(self, job: BatchJob) -> BatchJob:
        """The job as the vendor reports it now."""
        session = _batching.Session(self, None)
        return _batching.polled(job, _batching.drive(self, session, session.api.poll(job)))

    def fetch_batch(self, job: BatchJob) -> list[BatchOutcome]:
        """An ended job's answers and failures, by id."""
        session = _batching.Session(self, None)
        return _batching.outcomes(session, job, _batching.drive(self, session, session.api.fetch(job)))

    def stream(self, request: Request | HttpRequest, *, strict: bool = False) -> EventStream:
        """Events as they arrive: ``with client.stream(req) as events: for event in events: ...``
        Leaving the block early closes the connection; ``.response()`` accumulates the rest. The
        request is encoded here: ``.request_warnings`` holds what it could not carry before any
        event, and ``strict=True`` raises LossyEncodeError instead."""
        prepared = request if isinstance(request, HttpRequest) else self.prepare(request, stream=True, strict=strict)
        events = EventStream(self, prepared)
        events._call = self._traced(request, prepared)
        return events

    def prepare(self, request: Request, *, stream: bool = False, strict: bool = False) -> HttpRequest:
        """The request encoded once and ready to send (its handles resolved): ``.encoded`` holds
        the body's warnings; ``strict=True`` raises LossyEncodeError for any."""
        return self._prepared(self._ready(request), stream=stream, strict=strict)

    def _ready(self, request: Request) -> Request:
        """The request with its artifact handles resolved (``AsyncClient._aready`` for asyncio)."""
        if self._resolver is None:
            return request
        return resolve_handles(request, self._resolver, codec=self.codec.name)  # type: ignore[arg-type]

    def open(self, prepared: HttpRequest) -> httpx2.Response:
        """Send until an answer worth keeping: a success, whose body is yet to be read (close
        it), or an error that is not retried, raised as its ProviderError (keys hidden)."""
        waited = 0.0
        content = _content(prepared, self.codec.name)
        for attempt in range(self.retry.max_retries + 1):
            last = attempt == self.retry.max_retries
            try:
                request = self._build(prepared, content)
                response = _within(self.deadline, partial(self._http.send, request, stream=True))
            except Exception as exc:
                if not _retryable_exception(exc):
                    raise
                if last:
                    raise _transport_error(self.codec, exc) from None
                waited += self._sleep(attempt, None, waited)
                continue
            if response.status_code < 400:
                return response
            try:
                body = response.read()
            except Exception as exc:
                body = b""
                if not _retryable_exception(exc):
                    raise
            finally:
                response.close()
            headers = dict(response.headers)
            if last or not _should_retry(response.status_code, headers):
                raise self._error(response.status_code, body, headers)
            waited += self._sleep(attempt, headers, waited)
        raise AssertionError("unreachable")  # pragma: no cover

    def _sleep(self, attempt: int, headers: Mapping[str, str] | None, waited: float) -> float:
        delay = min(self.retry.delay(attempt, headers), max(self.retry.max_total_wait - waited, 0.0))
        time.sleep(delay)
        return delay


class _StreamBase:
    """What both event streams share: the accumulator, and the outcome once the events ran out.

    Every way a stream ends is decided while it is iterated and then kept: the finished
    Response, or the StreamError raised (with ``partial``). Iterating again, or ``response()``
    after the loop, gives that outcome again and never reads (or waits on) the source twice."""

    def __init__(self) -> None:
        self._acc = StreamAccumulator()
        self._over = False
        self._final: Response | None = None
        self._failure: StreamError | None = None
        self._sent: Encoded | None = None
        self._door: tuple[HttpRequest, Codec] | None = None  # the host recorded on the answer's signed blocks
        self._decoded: list[AnyWarning] = []  # the decoder's warnings, complete once it ended
        self.request_warnings: list[AnyWarning] = []
        """What the request could not carry (``side="request"``), known before the first event."""
        self._call: _otel.Call | None = None  # the span, when telemetry is on

    def _encoded(self, prepared: HttpRequest, codec: Codec) -> None:
        self._door = (prepared, codec)
        self._sent = prepared.encoded
        self.request_warnings = _sided(prepared.encoded.warnings, "request") if prepared.encoded else []

    def _take(self, event: StreamEvent) -> StreamEvent:
        self._acc.add(event)
        if isinstance(event, ErrorEvent):
            raise self._fail(
                StreamError(
                    f"the stream carried an error: {event.error}", partial=self._acc.snapshot(), error=event.error
                )
            )
        return event

    def _fail(self, error: StreamError) -> StreamError:
        if error.partial is not None:
            error.partial = self._hosted(error.partial)  # what arrived, its signed blocks hosted as an answer's
        self._over, self._failure = True, error
        self._untraced(error)
        return error

    def _untraced(self, error: BaseException | None) -> None:
        """End the span: failed with ``error``, or (None) with the answer so far (left early)."""
        call, self._call = self._call, None
        if call is None:
            return
        if error is None:
            call.ok(_with_warnings(self._acc.snapshot(), self._sent, self._decoded))
        else:
            call.failed(error, self.request_warnings)

    def _failed(self, codec: Codec, exc: BaseException) -> BaseException:
        """What to raise for ``exc`` out of the source: a network failure or a DecodeError
        becomes a StreamError with the partial answer; anything else is raised as it is."""
        self._over = True
        if isinstance(exc, StreamError):
            return self._fail(exc)
        if isinstance(exc, DecodeError):
            return self._fail(self._acc.decode_failed(exc))
        if isinstance(exc, Exception) and _retryable_exception(exc):
            cause = _transport_error(codec, exc)
            kind = StreamTimeoutError if isinstance(cause, TimeoutError) else StreamError
            return self._fail(kind(f"the stream broke off: {cause}", partial=self._acc.snapshot()))
        return exc

    def _end(self) -> Response:
        """The source ran out: the finished Response, or (no ``message_end``) the StreamError."""
        self._over = True
        if self._failure is not None:
            raise self._failure
        if self._final is None:
            try:
                self._final = _with_warnings(self._hosted(self._acc.response()), self._sent, self._decoded)
            except StreamError as error:
                raise self._fail(error) from None
            call, self._call = self._call, None
            if call is not None:
                call.ok(self._final)
        return self._final

    def snapshot(self) -> Response:
        """The answer so far (open tool calls parsed up to where their JSON stops)."""
        return self._hosted(self._acc.snapshot())

    def _hosted(self, response: Response) -> Response:
        """``response`` with the door's host on its signed blocks, as :meth:`Client.send` records it."""
        if self._door is None:
            return response
        prepared, codec = self._door
        return _hosted(response, prepared.host, codec, prepared)


class EventStream(_StreamBase):
    """A live stream of StreamEvents; iterate it once. Errors: the vendor's ProviderError if the
    stream could not open; raised by the iteration itself, StreamError (with ``.partial``, and
    ``.error`` for an error event in the stream) if it broke off, failed midway or ended before
    its ``message_end``, and StreamDecodeError (both a StreamError and a DecodeError) for an event
    its codec could not read. After the loop, ``response()`` gives the same outcome at once."""

    def __init__(self, client: Client, prepared: HttpRequest) -> None:
        super().__init__()
        self._client, self._prepared = client, prepared
        self._encoded(prepared, client.codec)
        self._response: httpx2.Response | None = None
        self._events: DecodedStream | None = None
        self._watchdog: _Watchdog | None = None

    def __enter__(self) -> EventStream:
        self._start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _start(self) -> Iterator[StreamEvent]:
        if self._events is None:
            import httpx2

            try:
                self._response = self._client.open(self._prepared)
            except BaseException as exc:
                self._untraced(exc)
                raise
            self._watchdog = _Watchdog(self._client.deadline, self._response)
            framing = self._prepared.events
            sse: Iterator[SSEEvent]
            if framing is None:
                sse = iter(httpx2.EventSource(self._response, max_event_size=self._client.max_event_size))
            else:
                sse = framing(self._response.iter_bytes())
            self._events = self._client.codec.decode_stream(sse)
            self._decoded = self._events.warnings
        return iter(self._events)

    def _stalled(self) -> _Deadline | None:
        """Why the stream ended, where the watchdog ended it."""
        if self._watchdog is not None and self._watchdog.fired:
            return _Deadline(f"no stream event within {self._client.deadline:g} s")
        return None

    def __iter__(self) -> Iterator[StreamEvent]:
        if self._over:
            self._end()
            return
        events = self._start()
        watchdog = self._watchdog
        try:
            while True:
                try:
                    event = next(events)
                    if watchdog is not None:
                        watchdog.touch()
                except StopIteration:
                    if stalled := self._stalled():
                        raise self._failed(self._client.codec, stalled) from None
                    break
                except Exception as exc:
                    failure = self._failed(self._client.codec, self._stalled() or exc)
                    if failure is exc:
                        raise
                    raise failure from (exc if isinstance(exc, DecodeError) else None)
                yield self._take(event)
            self._end()
        finally:
            self.close()

    def response(self) -> Response:
        """Everything not yet iterated, accumulated with what was: the finished Response."""
        for _ in self:
            pass
        return self._end()

    def close(self) -> None:
        self._untraced(None)
        if self._watchdog is not None:
            self._watchdog.stop()
        if self._response is not None:
            self._response.close()
        if self._events is not None:
            self._events.close()


# --- async -----------------------------------------------------------------------------------


class AsyncClient(_Base):
    """:class:`Client` for asyncio: ``await client.send(req)``, ``async with client.stream(req) as
    events: async for event in events``."""

    def __init__(
        self,
        codec: Codec | str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: httpx2.AsyncClient | None = None,
        max_retries: int = 2,
        timeout: float | httpx2.Timeout | None = None,
        default_headers: Mapping[str, str] | None = None,
        settings: Mapping[str, str] | None = None,
        retry: RetryPolicy | None = None,
        resolve: AsyncResolver | Resolver | None = None,
        max_event_size: int | None = MAX_EVENT_SIZE,
        **codec_options: Any,
    ) -> None:
        super().__init__(
            codec,
            api_key=api_key,
            base_url=base_url,
            max_retries=max_retries,
            timeout=timeout,
            default_headers=default_headers,
            settings=settings,
            retry=retry,
            codec_options=codec_options,
            resolve=resolve,
            max_event_size=max_event_size,
        )
        import httpx2

        self._owns_http = http_client is None
        self._http: httpx2.AsyncClient = http_client or httpx2.AsyncClient(timeout=_timeout(timeout))

    @classmethod
    def for_codec(cls, name: str, **kwargs: Any) -> AsyncClient:
        return cls(name, **kwargs)

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def send(self, request: Request | HttpRequest, *, strict: bool = False) -> Response:
        """Like ``Client.send``."""
        prepared = request if isinstance(request, HttpRequest) else await self.prepare(request, strict=strict)
        call = self._traced(request, prepared)
        try:
            answer = await self._send(prepared)
        except BaseException as exc:
            if call is not None:
                call.failed(exc, prepared.encoded.warnings if prepared.encoded is not None else ())
            raise
        if call is not None:
            call.ok(answer)
        return answer

    async def _send(self, prepared: HttpRequest) -> Response:
        status, content = await self._read(prepared)
        answer = _hosted(self._decode_body(status, content), prepared.host, self.codec, prepared)
        return _with_warnings(answer, prepared.encoded, [])

    async def _read(self, prepared: HttpRequest) -> tuple[int, bytes]:
        """Like ``Client._read``."""
        response = await self.open(prepared)
        try:
            content = await response.aread()
        except Exception as exc:
            if _retryable_exception(exc):
                raise _transport_error(self.codec, exc) from None
            raise
        finally:
            await response.aclose()
        return response.status_code, content

    async def list_models(self) -> list[str]:
        """Like ``Client.list_models``."""
        ids: list[str] = []
        page: str | None = None
        seen: set[str] = set()
        while True:
            found, page = self._read_models(*await self._read(self._models_request(page)), seen)
            ids += found
            if page is None:
                return ids

    async def count_tokens(self, request: Request) -> TokenCount:
        """Like ``Client.count_tokens``."""
        ready = await self._aready(request)
        prepared = self._count_request(ready)
        if prepared is None:
            return estimate_tokens(ready)
        return self._read_count(*await self._read(prepared))

    async def batch(
        self, requests: Mapping[str, Request], *, poll_interval: float = 30.0, timeout: float | None = None
    ) -> list[BatchOutcome]:
        """Like ``Client.batch``."""
        job = await self.submit_batch(requests)
        started = time.monotonic()
        while not job.done:
            if timeout is not None and time.monotonic() - started + poll_interval > timeout:
                raise TimeoutError(f"batch {job.id} still {job.status} after {timeout:g} s (left running)")
            await asyncio.sleep(poll_interval)
            job = await self.poll_batch(job)
        return await self.fetch_batch(job)

    async def submit_batch(self, requests: Mapping[str, Request]) -> BatchJob:
        """Like ``Client.submit_batch``."""
        ready = {k: await self._aready(r) for k, r in requests.items()}
        lines, warnings, model = _batching.encoded_lines(self, ready)
        session = _batching.Session(self, model)
        return _batching.submitted(await _batching.adrive(self, session, session.api.submit(lines, model)), warnings)

    async def poll_batch(self, job: BatchJob) -> BatchJob:
        """Like ``Client.poll_batch``."""
        session = _batching.Session(self, None)
        return _batching.polled(job, await _batching.adrive(self, session, session.api.poll(job)))

    async def fetch_batch(self, job: BatchJob) -> list[BatchOutcome]:
        """Like ``Client.fetch_batch``."""
        session = _batching.Session(self, None)
        return _batching.outcomes(session, job, await _batching.adrive(self, session, session.api.fetch(job)))

    def stream(self, request: Request | HttpRequest, *, strict: bool = False) -> AsyncEventStream:
        """Like ``Client.stream``; with a resolver, handles are resolved (and the request
        encoded, ``request_warnings`` set) on entering the block."""
        return AsyncEventStream(self, request, strict=strict)

    async def prepare(self, request: Request, *, stream: bool = False, strict: bool = False) -> HttpRequest:
        """Like ``Client.prepare``."""
        return self._prepared(await self._aready(request), stream=stream, strict=strict)

    async def _aready(self, request: Request) -> Request:
        if self._resolver is None:
            return request
        return await aresolve_handles(request, self._resolver, codec=self.codec.name)

    async def open(self, prepared: HttpRequest) -> httpx2.Response:
        """Like ``Client.open``."""
        waited = 0.0
        content = _content(prepared, self.codec.name)
        for attempt in range(self.retry.max_retries + 1):
            last = attempt == self.retry.max_retries
            try:
                request = self._build(prepared, content)
                response = await self._send_within(request)
            except Exception as exc:
                if not _retryable_exception(exc):
                    raise
                if last:
                    raise _transport_error(self.codec, exc) from None
                waited += await self._sleep(attempt, None, waited)
                continue
            if response.status_code < 400:
                return response
            try:
                body = await response.aread()
            except Exception as exc:
                body = b""
                if not _retryable_exception(exc):
                    raise
            finally:
                await response.aclose()
            headers = dict(response.headers)
            if last or not _should_retry(response.status_code, headers):
                raise self._error(response.status_code, body, headers)
            waited += await self._sleep(attempt, headers, waited)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _sleep(self, attempt: int, headers: Mapping[str, str] | None, waited: float) -> float:
        delay = min(self.retry.delay(attempt, headers), max(self.retry.max_total_wait - waited, 0.0))
        await asyncio.sleep(delay)
        return delay

    async def _send_within(self, request: httpx2.Request) -> httpx2.Response:
        """One attempt up to the answer's headers, bounded as a whole by the deadline."""
        try:
            async with asyncio.timeout(self.deadline):
                response: httpx2.Response = await self._http.send(request, stream=True)
        except builtins.TimeoutError:
            raise _Deadline(f"no answer within {self.deadline:g} s") from None
        return response


_END = object()
T = TypeVar("T")


class _ThreadedDecoder(Generic[T]):
    """Runs a codec's (synchronous, pull-based) decode_stream on a worker thread, fed SSE events
    from the event loop. Codecs expose one iterator-based decoder; this is what lets the same
    decoder serve async streams without each codec writing a second one."""

    def __init__(self, decode: Callable[[Iterator[SSEEvent]], Iterator[T]]) -> None:
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._outbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._ended = False
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, args=(decode,), daemon=True)
        self._thread.start()

    def _pull(self) -> Iterator[SSEEvent]:
        while (item := self._inbox.get()) is not _END:
            yield item

    def _run(self, decode: Callable[[Iterator[SSEEvent]], Iterator[T]]) -> None:
        try:
            for event in decode(self._pull()):
                self._post("event", event)
        except BaseException as exc:  # handed to the loop, raised there
            self._post("error", exc)
        finally:
            self._post("end", None)

    def _post(self, kind: str, value: Any) -> None:
        # RuntimeError: the loop closed while the stream was abandoned; nobody is listening.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._outbox.put_nowait, (kind, value))

    def feed(self, event: SSEEvent) -> None:
        self._inbox.put(event)

    async def get(self) -> tuple[str, Any]:
        """The next item; after the end item, the end again at once (it is posted only once,
        so waiting for another would wait forever)."""
        if self._ended:
            return ("end", None)
        item = await self._outbox.get()
        self._ended = item[0] == "end"
        return item

    def stop(self) -> None:
        self._inbox.put(_END)


class AsyncEventStream(_StreamBase):
    """:class:`EventStream` for asyncio."""

    def __init__(self, client: AsyncClient, request: Request | HttpRequest, *, strict: bool = False) -> None:
        super().__init__()
        self._client, self._request, self._strict = client, request, strict
        # Without a resolver the request is encoded now, so a bad one fails at ``stream()``.
        self._prepared: HttpRequest | None = None
        if isinstance(request, HttpRequest):
            self._prepared = request
        elif not client._resolver:
            self._prepared = client._prepared(request, stream=True, strict=strict)
        if self._prepared is not None:
            self._encoded(self._prepared, self._client.codec)
            self._call = client._traced(request, self._prepared)
        self._response: httpx2.Response | None = None
        self._feeder: asyncio.Task[None] | None = None
        self._decoder: _ThreadedDecoder[StreamEvent] | None = None
        self._network: Exception | None = None
        self._closed = False

    async def __aenter__(self) -> AsyncEventStream:
        await self._start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _start(self) -> _ThreadedDecoder[StreamEvent]:
        if self._decoder is None:
            import httpx2

            if self._prepared is None:
                assert isinstance(self._request, Request)
                self._prepared = await self._client.prepare(self._request, stream=True, strict=self._strict)
                self._encoded(self._prepared, self._client.codec)
                self._call = self._client._traced(self._request, self._prepared)
            try:
                self._response = await self._client.open(self._prepared)
            except BaseException as exc:
                self._untraced(exc)
                raise
            framing = self._prepared.events
            codec = self._client.codec

            def decode(events: Iterator[Any]) -> Iterator[StreamEvent]:
                decoded = codec.decode_stream(events if framing is None else framing(events))
                self._decoded = decoded.warnings
                return iter(decoded)

            source: Any
            if framing is None:
                source = httpx2.EventSource(self._response, max_event_size=self._client.max_event_size)
            else:  # the door's framing reads the raw bytes on the decoder's thread
                source = self._response.aiter_bytes()
            decoder = _ThreadedDecoder(decode)
            self._decoder = decoder
            self._feeder = asyncio.create_task(self._feed(source, decoder))
        return self._decoder

    async def _feed(self, source: Any, decoder: _ThreadedDecoder[StreamEvent]) -> None:
        seconds = self._client.deadline
        items = aiter(source)
        try:
            while True:
                try:
                    async with asyncio.timeout(seconds):
                        event = await anext(items)
                except StopAsyncIteration:
                    break
                except builtins.TimeoutError:
                    raise _Deadline(f"no stream event within {seconds:g} s") from None
                decoder.feed(event)
        except Exception as exc:  # the network broke: end the decoder's input, report it on the loop
            self._network = exc
        finally:
            decoder.stop()

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[StreamEvent]:
        if self._over or self._closed:  # what the decoder still holds is dropped, as Client's close() does
            self._end()
            return
        decoder = await self._start()
        try:
            while True:
                kind, value = await decoder.get()
                if kind == "event":
                    yield self._take(value)
                    continue
                exc = self._network  # a broken network explains the decoder's end or error
                if exc is None and kind == "error":
                    exc = value
                if exc is not None:
                    failure = self._failed(self._client.codec, exc)
                    if failure is exc:
                        raise exc
                    raise failure from (exc if isinstance(exc, DecodeError) else None)
                self._end()
                return
        finally:
            await self.aclose()

    async def response(self) -> Response:
        """Everything not yet iterated, accumulated with what was: the finished Response."""
        async for _ in self:
            pass
        return self._end()

    async def aclose(self) -> None:
        self._closed = True
        self._untraced(None)
        if self._feeder is not None and not self._feeder.done():
            self._feeder.cancel()
        if self._decoder is not None:
            self._decoder.stop()
        if self._response is not None:
            await self._response.aclose()
