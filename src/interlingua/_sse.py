"""SSE framing: bytes -> events through httpx2's parser, events -> bytes by our writer."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import httpx2

DONE = "[DONE]"
"""The data of the sentinel event some wires end their streams with."""


class SSEEvent(Protocol):
    """What a codec reads from a stream: an event name (``"message"`` when the wire sent none) and
    its data. httpx2's ``ServerSentEvent`` and ours both fit."""

    @property
    def event(self) -> str: ...

    @property
    def data(self) -> str: ...


@dataclass(frozen=True, slots=True)
class ServerSentEvent:
    """One SSE event as a codec writes it; ``event="message"`` is written without an event line."""

    data: str
    event: str = "message"
    id: str = ""
    retry: int | None = None


def _event_stream(chunks: Iterable[bytes]) -> httpx2.Response:
    import httpx2

    return httpx2.Response(
        200,
        headers={"content-type": "text/event-stream; charset=utf-8"},
        content=iter(chunks),
        request=httpx2.Request("GET", "http://stream.invalid/"),
    )


def parse_sse(chunks: Iterable[bytes]) -> Iterator[SSEEvent]:
    """Frame a byte stream (split anywhere, UTF-8 split across chunks, CRLF or LF) into events.

    This wraps the bytes in an ``httpx2.Response`` so files, SDK streams and the transport share
    httpx2's maintained parser. Comments are skipped by the framing; a ``[DONE]`` sentinel arrives
    as an ordinary event (``data == DONE``), for the codec to end on.
    """
    import httpx2

    yield from httpx2.EventSource(_event_stream(chunks))


async def aparse_sse(chunks: AsyncIterable[bytes]) -> AsyncIterator[SSEEvent]:
    """:func:`parse_sse` for an async byte stream."""
    import httpx2

    response = httpx2.Response(
        200,
        headers={"content-type": "text/event-stream; charset=utf-8"},
        content=aiter(chunks),
        request=httpx2.Request("GET", "http://stream.invalid/"),
    )
    async for event in httpx2.EventSource(response):
        yield event


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
