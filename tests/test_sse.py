"""SSE framing: any split of a real stream gives the same events; the writer round-trips."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua import DONE, MAX_EVENT_SIZE, ServerSentEvent, StreamError, parse_sse, render_sse
from interlingua.testing import real_fixtures

# The project's golden streams, and the recorded ones where the corpus is present.
GOLDEN = sorted((Path(__file__).resolve().parents[1] / "fixtures").glob("*/stream/*.sse"))
SSE_FILES = [*GOLDEN, *real_fixtures("*", "stream", "*.sse.txt")]


def _events(chunks: list[bytes]) -> list[tuple[str, str]]:
    return [(e.event, e.data) for e in parse_sse(chunks)]


def _split(raw: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(raw) + 1) for c in cuts})
    edges = [0, *points, len(raw)]
    return [raw[a:b] for a, b in itertools.pairwise(edges)]


@pytest.mark.parametrize("path", SSE_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_real_stream_parses_to_json_events(path: Path) -> None:
    events = _events([path.read_bytes()])
    assert events, "no events"
    for _, data in events:
        assert data == DONE or data.lstrip().startswith("{")


@settings(max_examples=25, deadline=None)
@given(path=st.sampled_from(SSE_FILES), cuts=st.lists(st.integers(0, 10**7), max_size=40))
def test_any_split_of_a_real_stream_gives_the_same_events(path: Path, cuts: list[int]) -> None:
    raw = path.read_bytes()
    assert _events(_split(raw, cuts)) == _events([raw])


def test_utf8_split_inside_a_character_and_crlf() -> None:
    raw = 'event: x\r\ndata: {"t": "héllo ☃"}\r\n\r\n'.encode()
    cut = raw.index("☃".encode()) + 1
    assert _events([raw[:cut], raw[cut:]]) == [("x", '{"t": "héllo ☃"}')]


def test_comments_multiline_data_and_done() -> None:
    raw = b": keep-alive\n\ndata: line one\ndata: line two\n\ndata: [DONE]\n\n"
    assert _events([raw]) == [("message", "line one\nline two"), ("message", DONE)]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["message", "ping", "content_block_delta"]),
            st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=30),
        ),
        max_size=6,
    )
)
def test_render_then_parse_is_identity(pairs: list[tuple[str, str]]) -> None:
    events = [ServerSentEvent(data=data, event=name) for name, data in pairs]
    parsed = _events(list(render_sse(events)))
    assert parsed == [(e.event, e.data) for e in events if True]


def _image_event(size: int) -> bytes:
    """A Gemini chunk carrying a generated image whole, as the API streams one (base64, one event)."""
    data = "A" * size
    part = {"inlineData": {"mimeType": "image/png", "data": data}}
    chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}}]}
    return f"data: {json.dumps(chunk)}\r\n\r\n".encode()


def test_an_event_of_several_mib_parses_whole() -> None:
    raw = _image_event(5 * 1024 * 1024)
    events = list(parse_sse(raw[i : i + 65536] for i in range(0, len(raw), 65536)))
    assert len(events) == 1
    parts = json.loads(events[0].data)["candidates"][0]["content"]["parts"]
    assert parts[0]["inlineData"]["data"] == "A" * 5 * 1024 * 1024
    assert MAX_EVENT_SIZE >= 32 * 1024 * 1024


def test_an_event_over_the_limit_is_a_stream_error() -> None:
    with pytest.raises(StreamError, match="exceeded the 1024 byte limit"):
        list(parse_sse([_image_event(4096)], max_event_size=1024))
    assert len(list(parse_sse([_image_event(4096)], max_event_size=None))) == 1


def _httpx2_events(chunks: list[bytes]) -> list[tuple[str, str, str, int | None]]:
    """What httpx2's own Response and EventSource make of the bytes: parse_sse's wrapper must agree."""
    import httpx2

    request = httpx2.Request("GET", "http://stream.invalid/")
    response = httpx2.Response(
        200, headers={"content-type": "text/event-stream"}, content=iter(chunks), request=request
    )
    return [(e.event, e.data, e.id, e.retry) for e in httpx2.EventSource(response, max_event_size=MAX_EVENT_SIZE)]


@settings(max_examples=40, deadline=None)
@given(
    path=st.sampled_from(SSE_FILES),
    cuts=st.lists(st.integers(0, 10**7), max_size=40),
    noise=st.sampled_from([b"", b"\xff", b"\xe2\x98", b"\xef\xbb\xbf", "é".encode()]),
)
def test_parse_sse_reads_bytes_as_httpx2s_own_response_does(path: Path, cuts: list[int], noise: bytes) -> None:
    raw = path.read_bytes()
    raw = raw[: len(raw) // 2] + noise + raw[len(raw) // 2 :] + b"id: 7\nretry: 30\ndata: " + noise + b"\n\n"
    chunks = _split(raw, cuts)
    ours = [(e.event, e.data, e.id, e.retry) for e in parse_sse(chunks)]  # type: ignore[attr-defined]  # httpx2's event
    assert ours == _httpx2_events(chunks)
    assert ours[-1][2:] == ("7", 30)
