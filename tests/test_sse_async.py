"""aparse_sse: an async byte stream split anywhere frames into the same events as parse_sse."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua import DONE, StreamError, aparse_sse, parse_sse
from interlingua.testing import real_fixtures

# The project's golden streams, and the recorded ones where the corpus is present.
GOLDEN = sorted((Path(__file__).resolve().parents[1] / "fixtures").glob("*/stream/*.sse"))
SSE_FILES = [*GOLDEN, *real_fixtures("*", "stream", "*.sse.txt")]
Event = tuple[str, str, str, int | None]


def _fields(event: object) -> Event:
    """What a reader sees of an event: name, data, id, retry (httpx2's event has all four)."""
    return (event.event, event.data, event.id, event.retry)  # type: ignore[attr-defined]  # httpx2's ServerSentEvent


def _sync(chunks: list[bytes]) -> list[Event]:
    return [_fields(e) for e in parse_sse(chunks)]


async def _feed(chunks: list[bytes]) -> AsyncIterator[bytes]:
    """The chunks as a network would deliver them: one at a time, yielding to the loop between."""
    for chunk in chunks:
        await asyncio.sleep(0)
        yield chunk


def _async(chunks: list[bytes]) -> list[Event]:
    async def collect() -> list[Event]:
        return [_fields(e) async for e in aparse_sse(_feed(chunks))]

    return asyncio.run(collect())


def _split(raw: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(raw) + 1) for c in cuts})
    edges = [0, *points, len(raw)]
    return [raw[a:b] for a, b in itertools.pairwise(edges)]


def _every(raw: bytes, size: int) -> list[bytes]:
    return [raw[i : i + size] for i in range(0, len(raw), size)]


def test_the_streams_cover_every_framing() -> None:
    wires = {path.parent.parent.name for path in GOLDEN}
    assert {"anthropic-messages", "openai-chat", "openai-responses", "gemini"} <= wires
    assert any(b"\r\n\r\n" in path.read_bytes() for path in GOLDEN)  # Gemini's CRLF framing


@pytest.mark.parametrize("path", SSE_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_real_stream_in_seven_byte_chunks_gives_the_events_parse_sse_gives(path: Path) -> None:
    # 7 bytes cut through CRLF pairs, "data:" prefixes and multi-byte UTF-8 characters alike
    raw = path.read_bytes()
    expected = _sync([raw])
    assert len(expected) >= 2
    assert all(data == DONE or data.lstrip().startswith("{") for _, data, _, _ in expected)
    assert _async(_every(raw, 7)) == expected


@pytest.mark.parametrize(
    "path",
    [p for p in SSE_FILES if p.stat().st_size <= 6_000],
    ids=lambda p: f"{p.parent.parent.name}/{p.name}",
)
def test_a_real_stream_byte_by_byte_gives_the_same_events(path: Path) -> None:
    raw = path.read_bytes()
    assert _async(_every(raw, 1)) == _sync([raw])


@settings(max_examples=30, deadline=None)
@given(path=st.sampled_from(SSE_FILES), cuts=st.lists(st.integers(0, 10**7), max_size=40))
def test_any_split_of_a_real_stream_gives_the_same_events_async_and_sync(path: Path, cuts: list[int]) -> None:
    raw = path.read_bytes()
    chunks = _split(raw, cuts)
    assert _async(chunks) == _sync(chunks) == _sync([raw])


def test_an_event_arrives_before_the_rest_of_the_stream_is_read() -> None:
    """A gateway relays each event as it comes: aparse_sse must not read the whole body first."""
    path = next(p for p in GOLDEN if p.name == "tool-calls-interleaved-by-index.sse")
    chunks = _every(path.read_bytes(), 64)
    pulled = 0

    async def counted() -> AsyncIterator[bytes]:
        nonlocal pulled
        for chunk in chunks:
            pulled += 1
            yield chunk

    async def first() -> tuple[Event, int]:
        events = aparse_sse(counted())
        event = await anext(events)
        seen = pulled
        await events.aclose()  # type: ignore[attr-defined]  # an async generator
        return _fields(event), seen

    event, seen = asyncio.run(first())
    assert event == _sync(chunks)[0]
    assert seen < len(chunks) // 4


def test_async_event_over_the_limit_is_a_stream_error() -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b"data: " + b"x" * 4096 + b"\n\n"

    async def collect(limit: int | None) -> list[str]:
        return [event.data async for event in aparse_sse(chunks(), max_event_size=limit)]

    with pytest.raises(StreamError, match="exceeded the 1024 byte limit"):
        asyncio.run(collect(1024))
    assert asyncio.run(collect(None)) == ["x" * 4096]
