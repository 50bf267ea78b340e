"""Stream accumulation: interleaved parts, tool JSON assembled once, snapshots, broken streams."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

import interlingua as il
from interlingua import (
    Echo,
    ErrorEvent,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    ProviderEcho,
    StreamAccumulator,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
    UsageUpdate,
)


def _tool_stream(arguments: str, cuts: list[int]) -> list[il.StreamEvent]:
    points = sorted({c % (len(arguments) + 1) for c in cuts})
    edges = [0, *points, len(arguments)]
    pieces = [arguments[a:b] for a, b in itertools.pairwise(edges)]
    return [
        MessageStart(id="m1", model="acme-1"),
        PartStart(0, il.Text("")),
        PartStart(1, il.ToolUse("call_1", "lookup")),
        TextDelta(0, "Let me "),
        *[ToolInputDelta(1, piece) for piece in pieces],
        TextDelta(0, "check."),
        PartEnd(1),
        PartEnd(0),
        MessageEnd("tool_use", "tool_calls", il.Usage(input_tokens=3, output_tokens=9)),
    ]


@given(st.lists(st.integers(0, 1000), max_size=12))
def test_interleaved_text_and_tool_input_split_anywhere(cuts: list[int]) -> None:
    response = il.accumulate(_tool_stream('{"q": "weather in Paris", "days": [1, 2]}', cuts))
    assert response.message.parts == [
        il.Text("Let me check."),
        il.ToolUse("call_1", "lookup", {"q": "weather in Paris", "days": [1, 2]}),
    ]
    assert (response.id, response.model, response.stop_reason, response.raw_stop_reason) == (
        "m1",
        "acme-1",
        "tool_use",
        "tool_calls",
    )
    assert response.usage == il.Usage(input_tokens=3, output_tokens=9)


def test_malformed_tool_arguments_are_kept_raw() -> None:
    response = il.accumulate(_tool_stream("{not json", []))
    call = response.message.parts[1]
    assert isinstance(call, il.ToolUse)
    assert (call.input, call.raw_input) == ({}, "{not json")


def test_snapshot_parses_partial_tool_input() -> None:
    acc = StreamAccumulator()
    for event in _tool_stream('{"q": "weather in Paris"}', [])[:4]:
        acc.add(event)
    acc.add(ToolInputDelta(1, '{"q": "weath'))
    snap = acc.snapshot()
    assert snap.message.parts[1] == il.ToolUse("call_1", "lookup", {"q": "weath"})
    assert snap.message.parts[0] == il.Text("Let me ")


def test_echo_merges_into_the_part_and_the_response() -> None:
    events: list[il.StreamEvent] = [
        MessageStart(id="m", model="x", provider_echoes=[ProviderEcho(provider="acme", data={"tier": "a"})]),
        PartStart(0, il.Thinking("")),
        ThinkingDelta(0, "hmm"),
        Echo(0, ProviderEcho(provider="acme", data={"signature": "s1"})),
        PartEnd(0),
        Echo(0, ProviderEcho(provider="acme", data={"late": True})),
        Echo(None, ProviderEcho(provider="acme", data={"region": "eu"})),
        MessageEnd("end_turn"),
    ]
    response = il.accumulate(events)
    assert response.message.parts == [il.Thinking("hmm").with_echo("acme", {"signature": "s1", "late": True})]
    assert response.provider_echoes == [ProviderEcho(provider="acme", data={"tier": "a", "region": "eu"})]


def test_usage_updates_replace_and_message_end_wins() -> None:
    events: list[il.StreamEvent] = [
        MessageStart(),
        UsageUpdate(il.Usage(input_tokens=5)),
        UsageUpdate(il.Usage(input_tokens=5, output_tokens=2)),
        MessageEnd("end_turn"),
    ]
    assert il.accumulate(events).usage == il.Usage(input_tokens=5, output_tokens=2)


def test_stream_that_ends_early_raises_with_the_partial_response() -> None:
    events = _tool_stream('{"q": 1}', [])[:5]
    with pytest.raises(il.StreamError) as err:
        il.accumulate(events)
    assert err.value.partial is not None
    assert err.value.partial.message.parts[0] == il.Text("Let me ")


def test_error_event_raises_with_the_provider_error() -> None:
    error = il.ProviderError.for_status(529, "Overloaded", type="overloaded_error", codec="acme-chat")
    events: list[il.StreamEvent] = [
        MessageStart(id="m"),
        PartStart(0, il.Text("")),
        TextDelta(0, "hi"),
        ErrorEvent(error),
    ]
    with pytest.raises(il.StreamError) as err:
        il.accumulate(events)
    assert isinstance(err.value.error, il.OverloadedError)
    assert err.value.partial is not None and err.value.partial.message.parts == [il.Text("hi")]


def test_a_decode_error_mid_stream_is_a_stream_decode_error_with_the_partial() -> None:
    def broken() -> Iterator[il.StreamEvent]:
        yield MessageStart(id="m")
        yield PartStart(0, il.Text(""))
        yield TextDelta(0, "hi")
        raise il.DecodeError("acme-chat", "events[3].delta", "expected a string, got an array")

    async def abroken() -> AsyncIterator[il.StreamEvent]:
        for event in broken():
            yield event

    for run in (lambda: il.accumulate(broken()), lambda: asyncio.run(il.aaccumulate(abroken()))):
        with pytest.raises(il.StreamDecodeError) as err:
            run()
        assert (err.value.codec, err.value.path, err.value.reason) == (
            "acme-chat",
            "events[3].delta",
            "expected a string, got an array",
        )
        assert str(err.value) == "acme-chat: events[3].delta: expected a string, got an array"
        assert isinstance(err.value.__cause__, il.DecodeError) and err.value.error is None
        assert err.value.partial is not None and err.value.partial.message.parts == [il.Text("hi")]


def test_delta_before_its_part_start_is_a_stream_error() -> None:
    with pytest.raises(il.StreamError, match="before its part_start"):
        il.accumulate([MessageStart(), TextDelta(3, "x")])


def test_parts_keep_the_order_they_started_in() -> None:
    events: list[il.StreamEvent] = [
        MessageStart(),
        PartStart(5, il.Text("")),
        PartStart(2, il.Text("")),
        TextDelta(2, "b"),
        TextDelta(5, "a"),
        MessageEnd("end_turn"),
    ]
    assert il.accumulate(events).message.parts == [il.Text("a"), il.Text("b")]


def test_part_end_can_attach_citations_that_arrive_after_the_text() -> None:
    citation = il.Citation(cited_text="x", source=il.CitationSource(type="url", url="https://example.com"))
    events = [
        il.MessageStart(id="m"),
        il.PartStart(0, il.Text("")),
        il.TextDelta(0, "x marks"),
        il.PartEnd(0, citations=[citation]),
        il.MessageEnd("end_turn"),
    ]
    [part] = il.accumulate(events).message.parts
    assert part == il.Text("x marks", citations=[citation])


def test_the_accumulated_answer_marks_as_set_what_the_stream_settled() -> None:
    """The answer's Response and Message come from constructors made once: the fields they mark
    as set (what ``exclude_unset`` dumps, what ``construct`` marks) are the ones a stream settles,
    in the IR's field order, as before they were made so."""
    events = [
        MessageStart(id="m", model="x"),
        PartStart(0, il.Text("")),
        TextDelta(0, "hi"),
        PartEnd(0),
        MessageEnd("end_turn"),
    ]
    response = il.accumulate(events)
    assert response.model_dump(exclude_unset=True) == {
        "provider_echoes": [],
        "id": "m",
        "model": "x",
        "message": {"role": "assistant", "parts": [{"type": "text", "text": "hi"}]},
        "stop_reason": "end_turn",
        "raw_stop_reason": None,
        "usage": {},
        "cost": None,
        "warnings": [],
    }
    assert response.message.parts[0].model_fields_set == {"text"}
    message = il.Message(role="assistant", parts=[il.Text("hi")])
    assert response == il.Response(id="m", model="x", message=message, stop_reason="end_turn")
