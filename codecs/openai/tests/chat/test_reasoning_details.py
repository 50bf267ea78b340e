"""``reasoning_details``: OpenRouter's reasoning blocks, which other hosts send too (Snowflake Cortex
on plain Chat Completions, pydantic-ai's test_snowflake_thinking). Read on every dialect as
thinking (the meaning crosses to other wires, or is warned there), each detail's other keys in the
part's echo, and written back to its host as it came, in answers, requests and streams."""

from __future__ import annotations

import json
from typing import Any

import interlingua as il
from interlingua import ServerSentEvent, Thinking
from interlingua.testing import assert_request_round_trip, assert_response_round_trip

OPENAI = il.get_codec("openai-chat")
OPENROUTER = il.get_codec("openai-chat", dialect="openrouter")

# Snowflake Cortex's shape (a signed Claude thought; its keys as recorded, the signature shortened)
DETAIL = {"format": "anthropic-claude-v1", "id": "reasoning-text-1", "index": 0, "signature": "EvAB", "text": "Hmm."}
DETAIL["type"] = "reasoning.text"
CALL = {"id": "toolu_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'}}
TURN = {"role": "assistant", "content": "Let me check.", "reasoning_details": [DETAIL], "tool_calls": [CALL]}
ASKED = {"role": "user", "content": "Weather in Oslo?"}
ANSWERED = {"role": "tool", "tool_call_id": "toolu_1", "content": "4C"}


def _answer(message: dict[str, Any]) -> dict[str, Any]:
    choice = {"index": 0, "finish_reason": "tool_calls", "message": message}
    return {"id": "c1", "object": "chat.completion", "created": 1, "model": "claude-sonnet-4-6", "choices": [choice]}


def test_a_hosts_details_on_plain_chat_are_thinking_and_go_back_as_they_came() -> None:
    response = OPENAI.decode_response(_answer(TURN))
    thinking = response.message.parts[0]
    assert isinstance(thinking, Thinking) and thinking.text == "Hmm."
    assert_response_round_trip(OPENAI, _answer(TURN))
    request = {"model": "claude-sonnet-4-6", "messages": [ASKED, TURN, ANSWERED]}
    assert_request_round_trip(OPENAI, request)


def test_a_hosts_details_reach_another_wire_as_thinking_or_a_warning_never_silently() -> None:
    request = OPENAI.decode_request({"model": "m", "messages": [ASKED, TURN, ANSWERED]})
    claude = request.model_copy(update={"model": "claude-sonnet-4-5"})
    anthropic = il.get_codec("anthropic-messages").encode_request(claude)
    assert "Hmm." not in json.dumps(anthropic.body)  # signed by another host: not replayable to Anthropic
    assert _lost(anthropic) == [("messages[1].parts[0]", "thinking")]
    deepseek = il.get_codec("openai-chat", dialect="deepseek").encode_request(request)
    assert _lost(deepseek) == [("messages[1].parts[0]", "thinking")]


def _lost(encoded: il.Encoded) -> list[tuple[str, str]]:
    return [(w.path, w.part_type if isinstance(w, il.LossyEncode) else type(w).__name__) for w in encoded.warnings]


def test_plain_thinking_still_has_no_place_on_openai_and_is_warned() -> None:
    request = il.Request(model="gpt-4.1", messages=[il.Message.user("hi"), il.Message.assistant(Thinking("x"), "y")])
    encoded = OPENAI.encode_request(request)
    assert "reasoning_details" not in encoded.body["messages"][1]
    assert [w.path for w in encoded.warnings] == ["messages[1].parts[0]"]


def _sse(*deltas: dict[str, Any], finish: str = "stop") -> list[ServerSentEvent]:
    head = {"id": "g1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    chunks = [{**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]} for delta in deltas]
    chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    return [ServerSentEvent(data=json.dumps(chunk)) for chunk in chunks] + [ServerSentEvent(data="[DONE]")]


def _re_encoded(codec: il.Codec, events: list[ServerSentEvent]) -> tuple[il.Response, il.Response, list[str]]:
    decoded = list(codec.decode_stream(events))
    encoded = codec.encode_stream(iter(decoded))
    again = il.accumulate(codec.decode_stream(list(encoded)))
    return il.accumulate(iter(decoded)), again, [str(w) for w in encoded.warnings]


# OpenRouter's stream, as recorded (pydantic-ai's test_openrouter_streaming_reasoning and
# test_openrouter_stream_with_reasoning): text details grow, the signature comes in a last detail
# with no text; an encrypted detail is a block of its own.
SIGNED: list[dict[str, Any]] = [
    {"role": "assistant", "content": "", "reasoning_details": [{"type": "reasoning.text", "text": "", "signature": "",
                                                                 "format": "anthropic-claude-v1", "index": 0}]},
    {"reasoning": "Two", "reasoning_details": [{"type": "reasoning.text", "text": "Two", "format": "f", "index": 0}]},
    {"reasoning": " and two.", "reasoning_details": [{"type": "reasoning.text", "text": " and two.", "index": 0}]},
    {"reasoning_details": [{"type": "reasoning.text", "signature": "Et0B", "format": "f", "index": 0}]},
    {"content": "4"},
]  # fmt: skip
SEALED = {"type": "reasoning.encrypted", "data": "gAAAAB", "id": "rs_1", "format": "openai-responses-v1", "index": 0}


def test_an_openrouter_stream_re_encodes_its_signature_and_encrypted_details() -> None:
    for deltas in (SIGNED, [{"role": "assistant", "content": "", "reasoning_details": [SEALED]}, {"content": "4"}]):
        first, again, warnings = _re_encoded(OPENROUTER, _sse(*deltas))
        assert (again.to_json_dict(), warnings) == (first.to_json_dict(), [])
    first, _, _ = _re_encoded(OPENROUTER, _sse(*SIGNED))
    assert first.message.parts[0].provider_echoes[0].data["_detail"]["signature"] == "Et0B"


def test_a_hosts_details_stream_on_plain_chat_and_re_encode() -> None:
    # Snowflake Cortex streams each detail whole, beside an empty content (test_snowflake_thinking_streaming)
    deltas = [{"content": "", "reasoning_details": [{**DETAIL, "text": piece}]} for piece in ("15", " * 27")]
    first, again, warnings = _re_encoded(OPENAI, _sse(*deltas, {"content": "405"}))
    assert [part.type for part in first.message.parts] == ["thinking", "text"]
    assert (again.to_json_dict(), warnings) == (first.to_json_dict(), [])
