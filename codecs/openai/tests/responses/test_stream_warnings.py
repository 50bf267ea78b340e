"""encode_stream's warnings: response.completed is written by encode_response's own item writer,
so its warnings come at the end, each at the event that opened the part."""

from __future__ import annotations

from functools import partial

import pytest

import interlingua as il
from interlingua import LossyEncode, LossyEncodeError, Native, Text, Usage
from interlingua.testing import answer_events, stream_warnings

CODEC = il.get_codec("openai-responses")


_answer = partial(answer_events, model="claude-sonnet-4-5")  # an answer from another vendor


def _warnings(events: list[il.StreamEvent]) -> list[tuple[str, str, str]]:
    warnings = stream_warnings(CODEC, events)
    assert all(isinstance(w, LossyEncode) for w in warnings)
    return [(w.path, w.part_type, w.action) for w in warnings if isinstance(w, LossyEncode)]


def test_a_foreign_native_part_is_named_at_its_part_start() -> None:
    native = Native(provider="anthropic", data={"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search"})
    assert _warnings(_answer(Text("a"), native)) == [("events[3].part", "native", "dropped")]


def test_a_stop_reason_with_no_status_is_reported() -> None:
    assert _warnings(_answer(Text("a"), stop="pause")) == [("events[3].stop_reason", "stop_reason", "converted")]
    whole = CODEC.encode_response(il.accumulate(_answer(Text("a"), stop="pause")))
    assert [(w.path, w.message) for w in whole.warnings] == [
        ("stop_reason", "no response status means pause; sent as completed")
    ]


def test_a_foreign_usage_counter_is_named_at_the_end() -> None:
    usage = Usage(input_tokens=10, output_tokens=5, extra={"totalTokenCount": 15})
    assert _warnings(_answer(Text("a"), usage=usage)) == [("events[3].usage.extra.totalTokenCount", "usage", "dropped")]


def test_strict_raises_at_the_end_where_the_items_are_written() -> None:
    native = Native(provider="anthropic", data={"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search"})
    encoded = CODEC.encode_stream(_answer(native, Text("a")), strict=True)
    seen: list[str] = []
    with pytest.raises(LossyEncodeError) as caught:
        for sse in encoded:
            seen.append(sse.event or "")
    # Everything the events before MessageEnd made, and nothing of what MessageEnd makes.
    assert seen[-1] == "response.content_part.done" and "response.output_item.done" not in seen
    assert [w.path for w in caught.value.warnings] == ["events[1].part"]
