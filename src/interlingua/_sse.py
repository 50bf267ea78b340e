"""SSE framing: bytes -> events through httpx2's parser, events -> bytes by our writer."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from ._errors import StreamError
from ._model import Record

if TYPE_CHECKING:
    import httpx2

_set = object.__setattr__

MAX_EVENT_SIZE = 64 * 1024 * 1024
"""The largest SSE event parsed by default, in bytes. httpx2's own default (1 MiB) is smaller
than what vendors send in one event: some streams carry a generated image or audio clip whole,
base64, in a single event (several MiB for a 4K image)."""

DONE = "[DONE]"
"""The data of the sentinel event some wires end their streams with."""


class SSEEvent(Protocol):
    """What a codec reads from a stream: an event name (``"message"`` when the wire sent none) and
    its data. httpx2's ``ServerSentEvent`` and ours both fit."""

    @property
    def event(self) -> str: ...

    @property
    def data(self) -> str: ...


class ServerSentEvent(Record):
    """One SSE event as a codec writes it; ``event="message"`` is written without an event line."""

    __slots__ = __match_args__ = ("data", "event", "id", "retry")
    data: str
    event: str
    id: str
    retry: int | None

    def __init__(self, data: str, event: str = "message", id: str = "", retry: int | None = None) -> None:
        _set(self, "data", data)
        _set(self, "event", event)
        _set(self, "id", id)
        _set(self, "retry", retry)


_HEADERS = [(b"content-type", b"text/event-stream")]
_request: httpx2.Request | None = None


def _event_stream(content: Iterator[bytes] | AsyncIterator[bytes]) -> httpx2.Response:
    """Bytes wrapped as an event-stream response for httpx2's parser. The per-stream set-up is
    most of a short stream's cost (many answers are under ten events), so the stand-in
    request is built once and shared (responses only read it, for error context), and the
    encoding is set outright rather than parsed from a content-type header every time."""
    import httpx2

    global _request
    if _request is None:
        _request = httpx2.Request("GET", "http://stream.invalid/")
    response = httpx2.Response(200, headers=_HEADERS, content=content, request=_request)
    response.encoding = "utf-8"
    return response


def parse_sse(chunks: Iterable[bytes], *, max_event_size: int | None = MAX_EVENT_SIZE) -> Iterator[SSEEvent]:
    """Frame a byte stream (split anywhere, UTF-8 split across chunks, CRLF or LF) into events.

    This wraps the bytes in an ``httpx2.Response`` so files, SDK streams and the transport share
    httpx2's maintained parser. Comments are skipped by the framing; a ``[DONE]`` sentinel arrives
    as an ordinary event (``data == DONE``), for the codec to end on. An event over
    ``max_event_size`` bytes (None: no limit) raises StreamError.
    """
    import httpx2

    try:
        yield from httpx2.EventSource(_event_stream(iter(chunks)), max_event_size=max_event_size)
    except httpx2.SSEError as exc:
        raise StreamError(f"the event stream could not be framed: {exc}") from exc


async def aparse_sse(
    chunks: AsyncIterable[bytes], *, max_event_size: int | None = MAX_EVENT_SIZE
) -> AsyncIterator[SSEEvent]:
    """:func:`parse_sse` for an async byte stream."""
    import httpx2

    try:
        async for event in httpx2.EventSource(_event_stream(aiter(chunks)), max_event_size=max_event_size):
            yield event
    except httpx2.SSEError as exc:
        raise StreamError(f"the event stream could not be framed: {exc}") from exc


def render_event(event: SSEEvent) -> bytes:
    """One event as wire bytes: an ``event:`` line unless it is the default, then its data lines."""
    out = [] if event.event == "message" else [f"event: {event.event}\n"]
    out.extend(f"data: {line}\n" for line in event.data.split("\n"))
    out.append("\n")
    return "".join(out).encode()


def render_sse(events: Iterable[SSEEvent]) -> Iterator[bytes]:
    """Frame events as ``text/event-stream`` bytes, one chunk per event."""
    for event in events:
        yield render_event(event)
