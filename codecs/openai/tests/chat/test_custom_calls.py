"""A custom tool's call (openai/types/chat/chat_completion_message_custom_tool_call.py: ``id``,
``type: "custom"``, ``custom: {name, input}``) is a ToolUse whose free-form input is its
``raw_input``: it decodes (it was a DecodeError), its result answers it, it goes back as it came."""

from __future__ import annotations

from typing import Any

import pytest
from openai.types.chat import ChatCompletionChunk

import interlingua as il
from interlingua import DecodeError, ToolUse
from interlingua.testing import assert_request_round_trip, assert_response_round_trip, validate_wire

CHAT = il.get_codec("openai-chat")
CALL = {"id": "call_1", "type": "custom", "custom": {"name": "run", "input": '{"looks": "like json"}'}}
TOOLS = [{"type": "custom", "custom": {"name": "run", "description": "Runs code"}}]
BODY = {
    "model": "gpt-5",
    "tools": TOOLS,
    "messages": [
        {"role": "user", "content": "Run it."},
        {"role": "assistant", "content": None, "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "call_1", "content": "done"},
    ],
}


def _answer(call: dict[str, Any]) -> dict[str, Any]:
    message = {"role": "assistant", "content": None, "refusal": None, "annotations": [], "tool_calls": [call]}
    choice = {"index": 0, "finish_reason": "tool_calls", "logprobs": None, "message": message}
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-5", "choices": [choice]}


def test_a_custom_call_is_a_tool_use_whose_input_is_its_text() -> None:
    call = CHAT.decode_request(BODY).messages[1].parts[0]
    assert isinstance(call, ToolUse)
    assert (call.id, call.name, call.input, call.raw_input) == ("call_1", "run", {}, '{"looks": "like json"}')
    assert_request_round_trip(CHAT, BODY)  # its result answers it: the turn rules change nothing
    assert_response_round_trip(CHAT, _answer(CALL))
    assert validate_wire("openai-chat", "request", CHAT.encode_request(CHAT.decode_request(BODY)).body) == []


def test_another_wire_reports_the_free_form_input_it_cannot_send() -> None:
    request = CHAT.decode_request(BODY).model_copy(update={"model": "claude-sonnet-4-5"})
    encoded = il.get_codec("anthropic-messages").encode_request(request)
    assert "messages[1].parts[0]" in [w.path for w in encoded.warnings]
    assert encoded.body["messages"][1]["content"][0]["id"] == "call_1"  # still the call its result answers


def test_a_custom_call_without_its_input_is_a_decode_error_at_its_path() -> None:
    with pytest.raises(DecodeError) as error:
        CHAT.decode_response(_answer({**CALL, "custom": {"name": "run"}}))
    assert error.value.path == "choices[0].message.tool_calls[0].custom.input"


def test_a_stream_writes_a_custom_call_as_a_function_call_and_says_so() -> None:
    """A chunk's tool call has no custom type (ChoiceDeltaToolCall.type is ``Literal["function"]``
    in openai/types/chat/chat_completion_chunk.py), so the stream converts it, with a warning."""
    call = CHAT.decode_response(_answer(CALL)).message.parts[0]
    events = [il.MessageStart(id="chatcmpl-1", model="gpt-5"), il.PartStart(0, call), il.PartEnd(0, None)]
    stream = CHAT.encode_stream([*events, il.MessageEnd(stop_reason="tool_use", raw_stop_reason="tool_calls")])
    sent = list(stream)
    chunks = [ChatCompletionChunk.model_validate_json(event.data) for event in sent if event.data != "[DONE]"]
    deltas = [choice.delta for chunk in chunks for choice in chunk.choices]
    calls = [call.model_dump(exclude_none=True) for delta in deltas for call in delta.tool_calls or []]
    assert calls == [
        {"index": 0, "id": "call_1", "type": "function", "function": {"name": "run", "arguments": ""}},
        {"index": 0, "function": {"arguments": '{"looks": "like json"}'}},
    ]
    assert [(w.path, w.part_type, w.action) for w in stream.warnings] == [("events[1].part", "tool_use", "converted")]
    (back,) = il.accumulate(CHAT.decode_stream(sent)).message.parts
    assert isinstance(back, ToolUse)  # a function call now, as the warning says: its input parsed
    assert (back.id, back.name, back.input, back.raw_input) == ("call_1", "run", {"looks": "like json"}, None)
