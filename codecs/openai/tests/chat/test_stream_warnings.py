"""encode_stream's warnings: what an answer from elsewhere loses in Chat Completions chunks, each
at the IR event that held it; decode_stream's, for choices it leaves out."""

from __future__ import annotations

import json
from functools import partial

import interlingua as il
from interlingua import (
    Base64Source,
    Citation,
    CitationSource,
    ImageOutput,
    LossyDecode,
    LossyEncode,
    ServerSentEvent,
    Text,
    Thinking,
    Usage,
)
from interlingua.testing import answer_events, stream_warnings

CODEC = il.get_codec("openai-chat")
NAME = "openai-chat"


_answer = partial(answer_events, model="claude-sonnet-4-5")  # an answer from another vendor


def _warnings(events: list[il.StreamEvent], codec: il.Codec = CODEC) -> list[tuple[str, str, str, str]]:
    warnings = stream_warnings(codec, events)
    assert all(isinstance(w, LossyEncode) and w.codec == codec.name for w in warnings)
    return [(w.path, w.part_type, w.action, w.message) for w in warnings if isinstance(w, LossyEncode)]


def test_thinking_is_dropped_where_the_dialect_streams_no_reasoning() -> None:
    assert _warnings(_answer(Thinking("hmm"), Text("a"))) == [
        ("events[1].part", "thinking", "dropped", "openai streams no reasoning")
    ]


def test_thinking_streams_where_the_dialect_has_a_reasoning_field() -> None:
    assert _warnings(_answer(Thinking("hmm"), Text("a")), il.get_codec("openai-chat", dialect="deepseek")) == []


def test_text_parts_joined_in_content_are_reported_once() -> None:
    assert _warnings(_answer(Text("a"), Text("b"), Text("c"))) == [
        (
            "events[3].part",
            "text",
            "converted",
            "a stream's content is one string: its parts from here on join the first",
        )
    ]


def test_a_part_with_no_delta_form_is_dropped() -> None:
    image = ImageOutput(source=Base64Source(media_type="image/png", data="AAAA"))
    assert [w[:3] for w in _warnings(_answer(image))] == [("events[1].part", "image_output", "dropped")]


def test_citations_have_no_delta_form() -> None:
    cite = Citation(cited_text="a", source=CitationSource(type="url", url="https://example.com"), start=0, end=1)
    assert [w[:3] for w in _warnings(_answer(Text("a", citations=[cite])))] == [
        ("events[1].part.citations", "citations", "dropped")
    ]


def test_a_stop_reason_that_reads_back_as_another_is_reported_in_stream_and_response_alike() -> None:
    events = _answer(Text("a"), stop="stop_sequence")
    assert _warnings(events) == [
        (
            "events[3].stop_reason",
            "stop_reason",
            "converted",
            "finish_reason has no form for 'stop_sequence'; sent as 'stop'",
        )
    ]
    whole = CODEC.encode_response(il.accumulate(events))
    assert [(w.path, w.message) for w in whole.warnings] == [
        ("stop_reason", "finish_reason has no form for 'stop_sequence'; sent as 'stop'")
    ]


def test_a_foreign_usage_counter_is_named_at_the_end() -> None:
    usage = Usage(input_tokens=10, output_tokens=5, extra={"cache_creation.ephemeral_5m_input_tokens": 4})
    assert [w[:3] for w in _warnings(_answer(Text("a"), usage=usage))] == [
        ("events[3].usage.extra.cache_creation.ephemeral_5m_input_tokens", "usage", "dropped")
    ]


def test_choices_beyond_the_first_are_left_out_with_one_warning() -> None:
    def chunk(index: int, delta: dict[str, str], finish: str | None = None) -> ServerSentEvent:
        choice = {"index": index, "delta": delta, "finish_reason": finish}
        return ServerSentEvent(data=json.dumps({"id": "c1", "object": "chat.completion.chunk", "choices": [choice]}))

    sse = [chunk(0, {"content": "a"}), chunk(1, {"content": "b"}), chunk(1, {"content": "c"}), chunk(0, {}, "stop")]
    decoded = CODEC.decode_stream(sse)
    assert il.accumulate(decoded).message.parts == [Text("a")]
    assert decoded.warnings == [
        LossyDecode(codec=NAME, path="events[1].choices", message="choices other than the first are not decoded")
    ]
