"""SSE framing: bytes -> events through httpx2's parser, events -> bytes by our writer."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from ._model import Record
from ._stream_errors import StreamError

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


_Wrap = Callable[[Iterator[bytes] | AsyncIterator[bytes]], "httpx2.Response"]
_wrap: _Wrap | None = None


def _event_stream(content: Iterator[bytes] | AsyncIterator[bytes]) -> httpx2.Response:
    """Bytes wrapped as an event-stream response for httpx2's parser (``EventSource``)."""
    global _wrap
    if _wrap is None:
        _wrap = _wrapper()
    return _wrap(content)


def _wrapper() -> _Wrap:
    """What wraps bytes, made once, on the first stream (``import interlingua`` loads no httpx2).

    The set-up is most of a short stream's cost (many answers are under ten events). So the
    stand-in request is built once and shared (a response only reads it, for error context); the
    bytes go in as the response's ``stream`` (``content=`` wraps them once more and fills in
    transfer headers: 40 k instructions); and the response's ``iter_text`` decodes them as UTF-8
    itself, invalid bytes replaced as httpx2's does. The base class's chain (a content decoder,
    byte and text chunkers, three context managers) has nothing to do for bytes with no
    content-encoding and cost 116 k instructions a stream, a sixth of a six-event one. The
    framing is httpx2's either way; a caller asking for sized chunks gets the base class's."""
    import codecs

    import httpx2

    request = httpx2.Request("GET", "http://stream.invalid/")
    headers = httpx2.Headers({"content-type": "text/event-stream"})  # copied by each response
    utf8 = codecs.getincrementaldecoder("utf-8")

    class Chunks(httpx2.SyncByteStream):
        def __init__(self, chunks: Iterator[bytes]) -> None:
            self.chunks = chunks

        def __iter__(self) -> Iterator[bytes]:
            return self.chunks

    class AsyncChunks(httpx2.AsyncByteStream):
        def __init__(self, chunks: AsyncIterator[bytes]) -> None:
            self.chunks = chunks

        def __aiter__(self) -> AsyncIterator[bytes]:
            return self.chunks

    class EventStreamResponse(httpx2.Response):
        def iter_text(self, chunk_size: int | None = None) -> Iterator[str]:
            if chunk_size is not None or not isinstance(self.stream, Chunks):
                yield from super().iter_text(chunk_size)
                return
            decode = utf8("replace").decode
            for chunk in self.stream.chunks:
                if text := decode(chunk):
                    yield text
            if text := decode(b"", True):
                yield text

        async def aiter_text(self, chunk_size: int | None = None) -> AsyncIterator[str]:
            if chunk_size is not None or not isinstance(self.stream, AsyncChunks):
                async for text in super().aiter_text(chunk_size):
                    yield text
                return
            decode = utf8("replace").decode
            async for chunk in self.stream.chunks:
                if text := decode(chunk):
                    yield text
            if text := decode(b"", True):
                yield text

    def wrap(content: Iterator[bytes] | AsyncIterator[bytes]) -> httpx2.Response:
        stream = Chunks(content) if isinstance(content, Iterator) else AsyncChunks(content)
        return EventStreamResponse(200, headers=headers, stream=stream, request=request)

    return wrap


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
