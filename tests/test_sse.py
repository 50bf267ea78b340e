"""SSE framing: any split of a real stream gives the same events; the writer round-trips."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua import DONE, ServerSentEvent, parse_sse, render_sse
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
