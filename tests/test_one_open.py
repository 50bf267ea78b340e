"""interlingua.kit.one_part_open: the events a wire of one-block-at-a-time encodes, from an upstream
whose parts overlap (a part ended at the next one's start; what comes for it later is reported)."""

from __future__ import annotations

import interlingua as il
from interlingua import Echo, MessageEnd, MessageStart, PartEnd, PartStart, ProviderEcho, TextDelta, ThinkingDelta
from interlingua.kit import WarningSink, one_part_open

OWN, OTHER = "acme", "other"


def _run(events: list[il.StreamEvent]) -> tuple[list[tuple[int, il.StreamEvent]], list[tuple[str, str, str]]]:
    out = WarningSink("acme-wire")
    got = list(one_part_open(events, out, OWN))
    return got, [(w.path, getattr(w, "part_type", ""), w.message) for w in out.warnings]


def test_a_part_open_at_the_next_start_ends_there_and_its_late_end_and_foreign_echo_are_not_repeated() -> None:
    # the shape of OpenRouter's Responses stream (pydantic-ai's raw_cot_stream_openrouter): the
    # reasoning item ends after the message item
    events: list[il.StreamEvent] = [
        MessageStart(),
        PartStart(0, il.Thinking("The user asks")),
        ThinkingDelta(0, " for 4."),
        PartStart(1, il.Text("")),
        TextDelta(1, "4"),
        PartEnd(1, None),
        Echo(0, ProviderEcho(provider=OTHER, data={"item": {"id": "rs_1"}})),
        PartEnd(0, None),
        MessageEnd(stop_reason="end_turn"),
    ]
    got, warnings = _run(events)
    assert [number for number, _ in got] == [0, 1, 2, 3, 3, 4, 5, 8]
    assert got[3] == (3, PartEnd(0, None))  # numbered as the start that ended it
    assert [event for _, event in got] == [*events[:3], PartEnd(0, None), *events[3:6], events[8]]
    assert warnings == []


def test_parts_that_follow_each_other_pass_unchanged() -> None:
    events: list[il.StreamEvent] = [
        MessageStart(),
        PartStart(0, il.Text("a")),
        PartEnd(0, None),
        Echo(0, ProviderEcho(provider=OWN, data={"signature": "s"})),  # after its own end: not an overlap
        PartStart(1, il.ToolUse("call_1", "f", {})),
        PartEnd(1, None),
        MessageEnd(stop_reason="tool_use"),
    ]
    got, warnings = _run(events)
    assert got == list(enumerate(events))
    assert warnings == []


def test_what_an_ended_part_gets_later_is_reported_at_its_event_and_not_passed_on() -> None:
    citation = il.Citation(cited_text="x", source=il.CitationSource(type="url", url="https://example.com"))
    events: list[il.StreamEvent] = [
        PartStart(0, il.Text("a")),
        PartStart(1, il.Thinking("b")),
        TextDelta(0, " more"),
        Echo(0, ProviderEcho(provider=OWN, data={"signature": "s"})),
        PartEnd(0, [citation]),
        PartEnd(1, None),
    ]
    got, warnings = _run(events)
    assert [event for _, event in got] == [events[0], PartEnd(0, None), events[1], events[5]]
    assert [(path, part_type) for path, part_type, _ in warnings] == [
        ("events[2]", "text"),
        ("events[3].echo", "text"),
        ("events[4].citations", "citations"),
    ]
    assert all("not sent" in message for _, _, message in warnings)
