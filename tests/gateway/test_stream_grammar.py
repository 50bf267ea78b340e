"""Every wire's encoded streams, held to the event grammar of its recorded real streams (which
events, in which order: tests/gateway/grammar.py), whichever recorded stream of whichever wire
they were decoded from. The gateway relays exactly these encoders' output (issue 39)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interlingua import (
    ErrorEvent,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    StreamEvent,
    ToolUse,
    accumulate,
    get_codec,
)
from interlingua.testing import skip_without_corpus

from .grammar import WIRES, decoded, grammar, kinds, recorded_streams

_CORPUS = "corpus: no recording of this wire has it; the wire's streaming reference allows it"
_NO_STOP = (
    "encoder: an answer whose stop reason is unknown (a chat stream ended by [DONE] with no finish_reason)"
    " gets no finishReason, as encode_response writes it, rather than an invented one"
)
KNOWN: dict[str, dict[str, str]] = {
    "anthropic-messages": {
        "content_block_start:thinking -> content_block_stop": "encoder: an empty thinking block has no delta",
        "content_block_delta:thinking_delta -> content_block_stop": "encoder: no signature_delta for foreign thinking",
    },
    "openai-chat": {
        "content -> call": _CORPUS + " (text, then a call)",
        "content -> usage": (
            "corpus: an answer with no stop reason ends with no finish_reason, as the recorded Snowflake"
            " stream (pydantic-ai) does; its chunks repeat the role, so its own kinds are role+content"
        ),
    },
    "openai-responses": {
        "response.content_part.done -> response.content_part.added": (
            "several text parts in one message item, as encode_response writes them (the schema's content list)"
        ),
    },
    "gemini": {
        "text -> functionCall": _CORPUS + " (text, then a call)",
        "thought -> functionCall": _CORPUS + " (reasoning, then a call: a Responses reasoning item's text)",
        "text -> metadata": _NO_STOP,
        "ends with metadata": _NO_STOP,
    },
    "bedrock-converse": {
        "messageStart -> contentBlockStart:toolUse": _CORPUS + " (4 recordings)",
    },
    "cohere-chat": {
        "message-start -> tool-call-start": _CORPUS + " (3 recordings)",
        "content-end -> tool-call-start": _CORPUS + " (text, then a call)",
    },
}
"""Per target wire, the breaks of today (a break -> why): the other wires' encoders are not this
change's, and a corpus gap is not a defect. A new break fails; one that no longer happens too."""


def _one_answer(events: list[StreamEvent]) -> bool:
    """A recording of one whole answer (or of one that failed): not several concatenated, not cut short."""
    starts = sum(isinstance(e, MessageStart) for e in events)
    ends = sum(isinstance(e, MessageEnd) for e in events)
    failed = any(isinstance(e, ErrorEvent) for e in events)
    return starts == 1 and (ends == 1 or failed) and ends <= 1


def _sources() -> list[tuple[str, Path, list[StreamEvent]]]:
    found = []
    for wire in WIRES:
        for path, events in recorded_streams(wire):
            ir = decoded(wire, events)
            if _one_answer(ir):
                found.append((wire, path, ir))
    return found


@pytest.fixture(scope="module")
def sources() -> list[tuple[str, Path, list[StreamEvent]]]:
    skip_without_corpus()
    return _sources()


@pytest.mark.parametrize("target", WIRES)
def test_every_encoded_stream_follows_the_recorded_grammar_of_its_wire(
    target: str, sources: list[tuple[str, Path, list[StreamEvent]]]
) -> None:
    learned = grammar(target)
    codec = get_codec(target)
    breaks: dict[str, str] = {}
    for wire, path, events in sources:
        for found in learned.breaks(kinds(target, list(codec.encode_stream(events)))):
            breaks.setdefault(found, f"{wire}/{path.parent.name}/{path.name}")

    unknown = {found: source for found, source in breaks.items() if found not in KNOWN.get(target, {})}
    assert unknown == {}
    assert set(KNOWN.get(target, {})) <= set(breaks)  # a known break that no longer happens is taken out


def test_the_grammar_holds_every_recorded_stream_of_its_own_wire_and_refuses_a_reordered_one() -> None:
    skip_without_corpus()
    for wire in WIRES:
        learned = grammar(wire)
        for _, events in recorded_streams(wire):
            assert learned.breaks(kinds(wire, events)) == []
    _, events = next(iter(recorded_streams("openai-responses")))
    sequence = kinds("openai-responses", events)
    assert grammar("openai-responses").breaks(sequence[::-1])


@pytest.mark.parametrize(
    ("target", "delta"),
    [
        ("anthropic-messages", "content_block_delta:input_json_delta"),
        ("bedrock-converse", "contentBlockDelta:toolUse"),
        ("cohere-chat", "tool-call-delta"),
    ],
)
def test_a_call_that_came_whole_without_arguments_streams_one_input_delta_and_reads_back_the_same(
    target: str, delta: str
) -> None:
    """Gemini gives a call whole (the recorded function-call-thought-signature-stream-turn1: get_country
    with no arguments); the wires that stream arguments give every call an input delta."""
    call = ToolUse("call_1", "get_country", {})
    events = [MessageStart(id="r1"), PartStart(0, call), PartEnd(0, None), MessageEnd(stop_reason="tool_use")]
    codec = get_codec(target)
    stream = codec.encode_stream(events)
    sent = list(stream)
    assert kinds(target, sent).count(delta) == 1
    (back,) = accumulate(codec.decode_stream(sent)).message.parts
    assert isinstance(back, ToolUse)
    assert (back.id, back.name, back.input, back.raw_input) == ("call_1", "get_country", {}, None)
    assert stream.warnings == []
