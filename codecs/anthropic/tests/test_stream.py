"""Streams: invariant 6 on every recorded stream, and encode_stream read back by the SDK."""

from __future__ import annotations

from pathlib import Path

import pytest

from interlingua import (
    ErrorEvent,
    MessageEnd,
    MessageStart,
    OverloadedError,
    PartEnd,
    PartStart,
    ServerSentEvent,
    StreamError,
    Text,
    TextDelta,
    ToolInputDelta,
    ToolUse,
    Usage,
    UsageUpdate,
    accumulate,
    parse_sse,
    render_sse,
)
from interlingua.testing import (
    assert_stream_agrees,
    first_difference,
    read_stream_file,
    real_fixture,
    real_fixtures,
    strip_none,
)
from interlingua_anthropic import AnthropicMessagesCodec
from interlingua_anthropic._sdk import sdk_accumulate

CODEC = AnthropicMessagesCodec()
STREAMS = real_fixtures("anthropic-messages", "stream")
IDS = [p.name.split(".")[0] for p in STREAMS]


def _same(expected: object, actual: object) -> None:
    difference = first_difference(strip_none(expected), strip_none(actual))
    assert difference is None, difference


@pytest.mark.parametrize("path", STREAMS, ids=IDS)
def test_real_stream_accumulates_to_what_the_sdk_builds(path: Path) -> None:
    """No recorded stream has its own non-streamed body; the SDK's own accumulation of the same
    events, decoded as a response, stands in for it (the SDK drops null-valued keys, hence strip_none)."""
    events = read_stream_file(path)
    streamed = assert_stream_agrees(CODEC, events)
    _same(CODEC.decode_response(sdk_accumulate(events)).to_json_dict(), streamed.to_json_dict())


def test_stream_agrees_with_the_response_it_encodes_to() -> None:
    events = read_stream_file(real_fixture("anthropic-messages", "stream", "web-search-server-tool-stream*"))
    streamed = accumulate(CODEC.decode_stream(events))
    body = CODEC.encode_response(streamed).body
    assert_stream_agrees(CODEC, events, body)


@pytest.mark.parametrize("path", STREAMS, ids=IDS)
def test_encoded_stream_parses_back_to_the_same_response(path: Path) -> None:
    original = accumulate(CODEC.decode_stream(read_stream_file(path)))
    wire = b"".join(render_sse(CODEC.encode_stream(CODEC.decode_stream(read_stream_file(path)))))
    again = accumulate(CODEC.decode_stream(parse_sse([wire])))
    _same(original.to_json_dict(), again.to_json_dict())
    _same(original.to_json_dict(), CODEC.decode_response(sdk_accumulate(list(parse_sse([wire])))).to_json_dict())


def test_encoded_events_validate_with_the_sdk_oracle() -> None:
    from interlingua.testing import validate_wire

    path = real_fixture("anthropic-messages", "stream", "thinking-stream*")
    for event in CODEC.encode_stream(CODEC.decode_stream(read_stream_file(path))):
        assert validate_wire("anthropic-messages", "stream_event", load_json(event.data)) == []


def load_json(text: str) -> dict:
    import json

    value: dict = json.loads(text)
    return value


def test_foreign_events_encode_with_synthesized_indexes_and_final_usage() -> None:
    events = [
        MessageStart(id="x1", model="other"),
        PartStart(5, Text("")),
        TextDelta(5, "Hel"),
        TextDelta(5, "lo"),
        PartEnd(5),
        PartStart(9, ToolUse("c1", "f")),
        ToolInputDelta(9, '{"a":'),
        ToolInputDelta(9, "1}"),
        PartEnd(9),
        UsageUpdate(Usage(input_tokens=10, output_tokens=3)),
        MessageEnd("tool_use"),
    ]
    message = sdk_accumulate(list(CODEC.encode_stream(events)))
    assert message["content"] == [
        {"type": "text", "text": "Hello"},
        {"type": "tool_use", "id": "c1", "name": "f", "input": {"a": 1}},
    ]
    assert (message["stop_reason"], message["usage"]["input_tokens"], message["usage"]["output_tokens"]) == (
        "tool_use",
        10,
        3,
    )


def _sse(payloads: list[str]) -> list[ServerSentEvent]:
    return [ServerSentEvent(data=p) for p in payloads]


def test_error_event_becomes_an_error_and_the_accumulation_fails() -> None:
    events = _sse(
        [
            '{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"c","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}',
            '{"type":"ping"}',
            '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        ]
    )
    decoded = list(CODEC.decode_stream(events))
    assert isinstance(decoded[-1], ErrorEvent) and isinstance(decoded[-1].error, OverloadedError)
    with pytest.raises(StreamError):
        accumulate(decoded)


def test_malformed_stream_event_fails_with_a_path() -> None:
    from interlingua import DecodeError

    with pytest.raises(DecodeError) as info:
        list(CODEC.decode_stream(_sse(['{"type":"content_block_start","index":"zero","content_block":{}}'])))
    assert info.value.path == "events[0].index"


def test_an_event_that_is_not_json_fails_at_its_place() -> None:
    from interlingua import DecodeError

    events = _sse(['{"type":"ping"}', '{"type":"ping"'])
    with pytest.raises(DecodeError) as info:
        list(CODEC.decode_stream(events))
    assert (info.value.codec, info.value.path) == ("anthropic-messages", "events[1]")
    assert info.value.reason.startswith("data is not JSON")


def test_a_stray_error_inside_an_event_is_a_decode_error_at_its_place() -> None:
    """The held block's arguments are parsed at its stop; cut-off JSON there is no DecodeError
    from a reader but still fails typed, at the event, like every other malformed input."""
    from interlingua import DecodeError

    events = _sse(
        [
            '{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use"}}',
            '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"[1"}}',
            '{"type":"content_block_stop","index":0}',
        ]
    )
    with pytest.raises(DecodeError) as info:
        list(CODEC.decode_stream(events))
    assert (info.value.codec, info.value.path) == ("anthropic-messages", "events[2]")
    assert info.value.reason.startswith("malformed input (ValueError: EOF while parsing a list")
