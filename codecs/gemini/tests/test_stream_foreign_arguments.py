"""encode_stream of another vendor's tool call whose streamed arguments are empty or malformed:
the stream still encodes (Gemini's functionCall.args is an object, so they go as {})."""

from __future__ import annotations

import pytest

import interlingua as il
from interlingua import MessageEnd, MessageStart, PartEnd, PartStart, ToolInputDelta, ToolUse

CODEC = il.get_codec("gemini")


@pytest.mark.parametrize(
    ("pieces", "args"), [([""], {}), (['{"city": "Os'], {}), (['{"city": ', '"Oslo"}'], {"city": "Oslo"})]
)
def test_a_tool_call_streams_whatever_its_arguments(pieces: list[str], args: dict[str, str]) -> None:
    events: list[il.StreamEvent] = [
        MessageStart(id="msg_1", model="claude-sonnet-4-5"),
        PartStart(0, ToolUse("toolu_01", "weather", {})),
        *[ToolInputDelta(0, piece) for piece in pieces],
        PartEnd(0),
        MessageEnd("tool_use"),
    ]
    sse = list(CODEC.encode_stream(events))
    answer = il.accumulate(CODEC.decode_stream(sse))
    [call] = [part for part in answer.message.parts if isinstance(part, ToolUse)]
    assert (call.name, call.input) == ("weather", args)
    assert answer.stop_reason == "tool_use"


def test_malformed_arguments_sent_as_an_empty_object_are_reported_at_the_call() -> None:
    events: list[il.StreamEvent] = [
        MessageStart(id="msg_1", model="claude-sonnet-4-5"),
        PartStart(0, ToolUse("toolu_01", "weather", {})),
        ToolInputDelta(0, '{"city": "Os'),
        PartEnd(0),
        MessageEnd("tool_use"),
    ]
    encoded = CODEC.encode_stream(events)
    list(encoded)
    assert encoded.warnings == [
        il.LossyEncode(
            codec="gemini",
            path="events[1].part",
            message="arguments that are not a JSON object cannot be sent",
            part_type="tool_use",
            action="converted",
        )
    ]
