"""encode_stream's warnings: what an answer from elsewhere loses in Gemini's chunks, each at the
IR event that held it; decode_stream's, for candidates it leaves out."""

from __future__ import annotations

import json
from functools import partial

import interlingua as il
from interlingua import (
    LossyDecode,
    LossyEncode,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    ProviderEcho,
    ServerSentEvent,
    Text,
    TextDelta,
    Usage,
    UsageUpdate,
)
from interlingua.testing import answer_events, stream_warnings

CODEC = il.get_codec("gemini")


_answer = partial(answer_events, model="claude-sonnet-4-5")  # an answer from another vendor


def _warnings(events: list[il.StreamEvent]) -> list[tuple[str, str, str]]:
    warnings = stream_warnings(CODEC, events)
    assert all(isinstance(w, LossyEncode) for w in warnings)
    return [(w.path, w.part_type, w.action) for w in warnings if isinstance(w, LossyEncode)]


def test_a_usage_counter_is_named_once_though_every_chunk_carries_usage() -> None:
    usage = Usage(input_tokens=10, output_tokens=5, extra={"cache_creation.ephemeral_5m_input_tokens": 4})
    events = [
        MessageStart(id="r1"),
        UsageUpdate(usage),
        PartStart(0, Text("")),
        TextDelta(0, "a"),
        TextDelta(0, "b"),
        PartEnd(0),
        MessageEnd("end_turn", None, usage),
    ]
    assert _warnings(events) == [("events[6].usage.extra.cache_creation.ephemeral_5m_input_tokens", "usage", "dropped")]


def test_a_text_part_right_after_another_is_reported_as_joined() -> None:
    assert _warnings(_answer(Text("a"), Text("b"))) == [("events[3].part", "text", "converted")]


def test_two_signed_text_parts_stay_apart_without_a_warning() -> None:
    def signed(text: str) -> Text:
        return Text(text, provider_echoes=[ProviderEcho(provider="gemini", data={"thoughtSignature": "c2ln"})])

    events = _answer(signed("a"), signed("b"))
    assert _warnings(events) == []
    assert [p.text for p in il.accumulate(CODEC.decode_stream(CODEC.encode_stream(events))).message.parts] == ["a", "b"]


def test_a_stop_reason_that_reads_back_as_another_is_reported_in_stream_and_response_alike() -> None:
    events = _answer(Text("a"), stop="stop_sequence")
    assert _warnings(events) == [("events[3].stop_reason", "stop_reason", "converted")]
    whole = CODEC.encode_response(il.accumulate(events))
    assert [(w.path, w.message) for w in whole.warnings] == [
        ("stop_reason", "no finishReason means stop_sequence; sent as STOP")
    ]


def test_candidates_beyond_the_first_are_left_out_with_one_warning() -> None:
    def chunk(*texts: str) -> ServerSentEvent:
        candidates = [{"content": {"role": "model", "parts": [{"text": t}]}, "index": i} for i, t in enumerate(texts)]
        return ServerSentEvent(data=json.dumps({"candidates": candidates, "responseId": "r1"}))

    last = {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP"}]}
    decoded = CODEC.decode_stream(
        [chunk("a"), chunk("b", "x"), chunk("c", "y"), ServerSentEvent(data=json.dumps(last))]
    )
    assert il.accumulate(decoded).message.parts == [Text("abc")]
    assert decoded.warnings == [
        LossyDecode(
            codec="gemini", path="events[1].candidates[1]", message="candidates other than the first are not decoded"
        )
    ]
