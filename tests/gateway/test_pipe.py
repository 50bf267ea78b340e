"""The stream pipe: fed a recorded stream in small pieces, it writes what the caller's encoder
writes for the whole decoded stream; a stream that breaks or stops early ends with one error."""

from __future__ import annotations

import itertools
import time

import pytest

import interlingua as il
from interlingua.gateway import ToolIdMap
from interlingua.gateway._pipe import Pipe
from interlingua.testing import read_stream_file

from .conftest import UPSTREAMS, WIRES

PAIRS = [pytest.param(c, u, id=f"{c}<-{u}") for c, u in itertools.product(WIRES, WIRES)]


def pipe(caller: str, upstream: str) -> Pipe:
    return Pipe(il.get_codec(upstream), il.get_codec(caller), ToolIdMap(), None, max_event_size=None, hide=str)


def relay(p: Pipe, data: bytes, size: int, network: BaseException | None = None) -> bytes:
    out = [p.feed(data[i : i + size]) for i in range(0, len(data), size)]
    return b"".join([*out, p.finish(network)])


@pytest.mark.parametrize(("caller", "upstream"), PAIRS)
def test_a_stream_fed_in_pieces_comes_out_as_the_callers_encoder_writes_it_whole(
    caller: str, upstream: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An encoder stamps an answer with no creation time at the clock's second (Responses'
    # created_at): held still, so the two encodes cannot straddle a second.
    monkeypatch.setattr(time, "time", lambda: 1_764_000_000.0)
    path = UPSTREAMS[upstream].stream_path()
    events = list(il.get_codec(upstream).decode_stream(read_stream_file(path)))
    expected = b"".join(il.render_sse(il.get_codec(caller).encode_stream(events)))
    p = pipe(caller, upstream)

    assert relay(p, path.read_bytes(), 7) == expected
    assert not p.failed and p.usage is not None


@pytest.mark.parametrize("caller", WIRES)
def test_a_stream_that_breaks_ends_with_one_error_event_naming_the_break(caller: str) -> None:
    data = UPSTREAMS["anthropic-messages"].stream_path().read_bytes()
    p = pipe(caller, "anthropic-messages")

    out = relay(p, data[: len(data) // 2], 50, ConnectionResetError("reset by peer"))

    naming = [event for event in out.split(b"\n\n") if b"the stream broke off: reset by peer" in event]
    assert p.failed and len(naming) == 1


def test_a_stream_that_stops_before_its_end_ends_with_an_error_too() -> None:
    data = UPSTREAMS["openai-chat"].stream_path().read_bytes()
    p = pipe("anthropic-messages", "openai-chat")

    out = relay(p, data[: len(data) // 2], 64)

    assert p.failed and out.endswith(
        b'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"the stream broke off"}}\n\n'
    )


def test_an_abandoned_pipe_closes_without_output() -> None:
    p = pipe("gemini", "anthropic-messages")
    p.feed(UPSTREAMS["anthropic-messages"].stream_path().read_bytes()[:100])
    p.close()
    assert (p.feed(b"more"), p.finish()) == (b"", b"")


def test_an_upstream_door_in_binary_frames_is_relayed_in_the_callers_sse() -> None:
    """A route through a door whose streams are event-stream frames (bedrock-converse here): the
    pipe reads the frames with the door's own framing and writes the caller's wire."""
    pytest.importorskip("interlingua_bedrock")
    from functools import partial

    from interlingua.kit import event_frames, render_frames

    frames = b"".join(
        render_frames(
            [
                ("messageStart", b'{"role":"assistant"}'),
                ("contentBlockDelta", b'{"contentBlockIndex":0,"delta":{"text":"Hi there"}}'),
                ("contentBlockStop", b'{"contentBlockIndex":0}'),
                ("messageStop", b'{"stopReason":"end_turn"}'),
                ("metadata", b'{"usage":{"inputTokens":5,"outputTokens":2,"totalTokens":7},"metrics":{"latencyMs":9}}'),
            ]
        )
    )
    p = Pipe(
        il.get_codec("bedrock-converse"),
        il.get_codec("anthropic-messages"),
        ToolIdMap(),
        None,
        max_event_size=None,
        hide=str,
        framing=partial(event_frames, codec="bedrock-converse"),
    )
    out = relay(p, frames, 13)
    answer = il.accumulate(il.get_codec("anthropic-messages").decode_stream(il.parse_sse([out])))
    assert answer.message.parts == [il.Text("Hi there")] and answer.stop_reason == "end_turn"
    assert p.usage is not None and p.usage.output_tokens == 2 and not p.failed
