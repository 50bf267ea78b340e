"""A reasoning item's ``content``: the raw chain of thought (``reasoning_text`` entries,
openai/types/responses/response_reasoning_item.py ``Content``), which DeepSeek and OpenRouter
return. Each is a Thinking part (its meaning crosses, or is warned), marked so it goes back into
``content``; streams carry it as ``response.reasoning_text.delta`` events (pydantic-ai's
test_deepseek_responses_text_stream, test_openai_responses_raw_cot_stream_openrouter)."""

from __future__ import annotations

import json
from typing import Any

import interlingua as il
from interlingua import ServerSentEvent, Thinking
from interlingua.testing import assert_request_round_trip, assert_response_round_trip, validate_wire

CODEC = il.get_codec("openai-responses")
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "content": [{"type": "reasoning_text", "text": "2+2."}]}
MESSAGE = {
    "type": "message",
    "id": "msg_1",
    "status": "completed",
    "role": "assistant",
    "content": [{"type": "output_text", "text": "4", "annotations": []}],
}


def _answer(*output: dict[str, Any]) -> dict[str, Any]:
    return {"id": "resp_1", "object": "response", "created_at": 1, "model": "deepseek-v4", "status": "completed",
            "output": list(output), "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}  # fmt: skip


def test_reasoning_text_is_thinking_and_goes_back_into_content() -> None:
    response = CODEC.decode_response(_answer(REASONING, MESSAGE))
    assert [(type(p).__name__, getattr(p, "text", None)) for p in response.message.parts] == [
        ("Thinking", "2+2."),
        ("Text", "4"),
    ]
    assert_response_round_trip(CODEC, _answer(REASONING, MESSAGE))
    both = {**REASONING, "summary": [{"type": "summary_text", "text": "Adds."}]}  # raw text first, then the summary
    assert [p.text for p in CODEC.decode_response(_answer(both)).message.parts if isinstance(p, Thinking)] == [
        "2+2.",
        "Adds.",
    ]
    assert_response_round_trip(CODEC, _answer(both))
    replay = {"model": "deepseek-v4", "input": [{"role": "user", "content": "2+2?"}, REASONING, MESSAGE]}
    assert_request_round_trip(CODEC, replay)


def test_reasoning_text_reaches_another_wire_as_thinking_or_a_warning() -> None:
    response = CODEC.decode_response(_answer(REASONING, MESSAGE))  # a gateway serving it on another wire
    for wire, carried in (("cohere-chat", True), ("bedrock-converse", True), ("anthropic-messages", False)):
        encoded = il.get_codec(wire).encode_response(response)
        assert ("2+2." in json.dumps(encoded.body), [w.path for w in encoded.warnings]) == (
            carried,
            [] if carried else ["message.parts[0]"],
        )


def _event(kind: str, **fields: Any) -> ServerSentEvent:
    return ServerSentEvent(data=json.dumps({"type": kind, **fields}), event=kind)


def _stream(done_order: tuple[int, ...]) -> list[ServerSentEvent]:
    """DeepSeek's event sequence for REASONING then MESSAGE; ``done_order``: the order the two
    items finish in (OpenRouter finishes the reasoning item after the message)."""
    shell = {k: v for k, v in _answer().items() if k != "status"}
    reasoning_at, message_at = {"item_id": "rs_1", "output_index": 0}, {"item_id": "msg_1", "output_index": 1}
    thought, text = {"type": "reasoning_text", "text": ""}, {"type": "output_text", "text": "", "annotations": []}
    done = [
        _event("response.output_item.done", output_index=0, item=REASONING),
        _event("response.output_item.done", output_index=1, item=MESSAGE),
    ]
    return [
        _event("response.created", response={**shell, "status": "in_progress"}),
        _event("response.output_item.added", output_index=0, item={**REASONING, "content": []}),
        _event("response.content_part.added", **reasoning_at, content_index=0, part=thought),
        _event("response.reasoning_text.delta", **reasoning_at, content_index=0, delta="2+2"),
        _event("response.reasoning_text.delta", **reasoning_at, content_index=0, delta="."),
        _event("response.output_item.added", output_index=1, item={**MESSAGE, "content": [], "status": "in_progress"}),
        _event("response.content_part.added", **message_at, content_index=0, part=text),
        _event("response.output_text.delta", **message_at, content_index=0, delta="4", logprobs=[]),
        *(done[i] for i in done_order),
        _event("response.completed", response=_answer(REASONING, MESSAGE)),
    ]  # fmt: skip


def test_a_reasoning_text_stream_accumulates_to_the_answer_and_re_encodes_to_it() -> None:
    expected = CODEC.decode_response(_answer(REASONING, MESSAGE)).to_json_dict()
    for order in ((0, 1), (1, 0)):
        events = list(CODEC.decode_stream(_stream(order)))
        assert il.accumulate(iter(events)).to_json_dict() == expected
        encoded = CODEC.encode_stream(iter(events))
        written = list(encoded)
        assert il.accumulate(CODEC.decode_stream(written)).to_json_dict() == expected
        assert encoded.warnings == []
        kinds = [json.loads(event.data)["type"] for event in written]
        assert kinds.count("response.reasoning_text.delta") == 2 and "response.reasoning_text.done" in kinds
        assert validate_wire("openai-responses", "response", json.loads(written[-1].data)["response"]) == []
