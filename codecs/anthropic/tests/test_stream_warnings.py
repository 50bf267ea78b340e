"""encode_stream's warnings: what an answer from elsewhere loses in Anthropic's stream, each at the
IR event that held it, and ``strict`` raising there."""

from __future__ import annotations

from functools import partial

import pytest

import interlingua as il
from interlingua import (
    Base64Source,
    Citation,
    CitationSource,
    ImageOutput,
    LossyEncode,
    LossyEncodeError,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    ProviderEcho,
    Text,
    Thinking,
    ThinkingDelta,
    ToolInputDelta,
    ToolUse,
    UnsupportedSetting,
    Usage,
)
from interlingua.testing import answer_events, stream_warnings

CODEC = il.get_codec("anthropic-messages")
NAME = "anthropic-messages"


_answer = partial(answer_events, model="gpt-5")  # an answer from another vendor


def _warnings(events: list[il.StreamEvent]) -> list[il.AnyWarning]:
    return stream_warnings(CODEC, events)


def test_an_image_output_is_dropped_at_its_part_start() -> None:
    image = ImageOutput(source=Base64Source(media_type="image/png", data="AAAA"))
    assert _warnings(_answer(Text("a"), image)) == [
        LossyEncode(
            codec=NAME,
            path="events[3].part",
            message="Claude does not produce images",
            part_type="image_output",
            action="dropped",
        )
    ]


def test_thinking_claude_did_not_sign_is_streamed_unsigned_with_a_warning() -> None:
    events = [MessageStart(), PartStart(0, Thinking("")), ThinkingDelta(0, "hmm"), PartEnd(0), MessageEnd("end_turn")]
    [warning] = _warnings(events)
    assert (type(warning), warning.path, warning.part_type, warning.action) == (
        LossyEncode,
        "events[1].part",
        "thinking",
        "converted",
    )


def test_signed_thinking_streams_without_a_warning() -> None:
    signed = Thinking("hmm", provider_echoes=[ProviderEcho(provider="anthropic", data={"signature": "sig"})])
    assert _warnings(_answer(signed)) == []


def test_every_usage_counter_message_delta_cannot_carry_is_named() -> None:
    usage = Usage(
        input_tokens=10,
        output_tokens=5,
        extra={"prompt_tokens_details.audio_tokens": 2, "cache_creation.ephemeral_1h_input_tokens": 4},
    )
    assert [
        (w.path, w.part_type) for w in _warnings(_answer(Text("a"), usage=usage)) if isinstance(w, LossyEncode)
    ] == [
        ("events[3].usage.extra.prompt_tokens_details.audio_tokens", "usage"),
        ("events[3].usage.extra.cache_creation.ephemeral_1h_input_tokens", "usage"),
    ]


def test_a_counter_message_start_already_carried_is_not_lost() -> None:
    usage = Usage(input_tokens=10, output_tokens=5, extra={"cache_creation.ephemeral_1h_input_tokens": 4})
    events = [
        MessageStart(id="msg_1"),
        il.UsageUpdate(usage),
        PartStart(0, Text("a")),
        PartEnd(0),
        MessageEnd("end_turn", None, usage),
    ]
    assert _warnings(events) == []


def test_a_stop_reason_with_no_anthropic_form_is_reported() -> None:
    assert _warnings(_answer(Text("a"), stop="cancelled")) == [
        UnsupportedSetting(
            codec=NAME,
            path="events[3].stop_reason",
            message="no Anthropic stop reason means cancelled",
            setting="stop_reason",
        )
    ]


def test_malformed_foreign_arguments_are_reported_at_the_call() -> None:
    events = [
        MessageStart(),
        PartStart(0, ToolUse("call_1", "f", {})),
        ToolInputDelta(0, '{"a": '),
        PartEnd(0),
        MessageEnd("tool_use"),
    ]
    assert [(w.path, w.part_type, w.action) for w in _warnings(events)] == [("events[1].part", "tool_use", "converted")]


def test_citations_given_at_a_part_end_are_reported() -> None:
    cite = Citation(cited_text="x", source=CitationSource(type="url", url="https://example.com"), start=0, end=1)
    events = [MessageStart(), PartStart(0, Text("x")), PartEnd(0, citations=[cite]), MessageEnd("end_turn")]
    assert [(w.path, w.part_type) for w in _warnings(events)] == [("events[2].citations", "citations")]


def test_strict_raises_at_the_lossy_event_after_yielding_everything_before_it() -> None:
    image = ImageOutput(source=Base64Source(media_type="image/png", data="AAAA"))
    encoded = CODEC.encode_stream(_answer(Text("a"), image, Text("b")), strict=True)
    seen: list[str] = []
    with pytest.raises(LossyEncodeError) as caught:
        for sse in encoded:
            seen.append(sse.event or "")
    assert seen == ["message_start", "content_block_start", "content_block_delta", "content_block_stop"]
    assert [w.path for w in caught.value.warnings] == ["events[3].part"]


def test_warnings_grow_as_the_stream_is_read() -> None:
    image = ImageOutput(source=Base64Source(media_type="image/png", data="AAAA"))
    encoded = CODEC.encode_stream(_answer(image, Text("b"), stop="cancelled"))
    assert encoded.warnings == []
    assert next(encoded).event == "message_start"  # sent as the image's event begins, before its loss
    assert encoded.warnings == []
    assert next(encoded).event == "content_block_start"
    assert [w.path for w in encoded.warnings] == ["events[1].part"]
    list(encoded)
    assert [w.path for w in encoded.warnings] == ["events[1].part", "events[5].stop_reason"]


def test_a_decoded_stream_has_no_warnings_for_what_it_keeps() -> None:
    decoded = CODEC.decode_stream(CODEC.encode_stream(_answer(Text("a"))))
    assert il.accumulate(decoded).message.parts == [Text("a")]
    assert decoded.warnings == []
