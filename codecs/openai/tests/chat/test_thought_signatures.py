"""Gemini's thought signatures on its OpenAI-compatible endpoint (the ``gemini-openai`` dialect):
a call's ``extra_content.google.thought_signature`` is read from answers and streams, kept on the
call, and sent back as it came; a current-turn step whose first call has none (a call made by
another vendor, or edited) gets the placeholder Google documents, on the models that refuse it
(https://ai.google.dev/gemini-api/docs/thought-signatures, dialects.toml). The answer and stream
are fixtures/openai-chat/dialects/gemini-openai/stream.*: parallel calls, the first one signed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua import Message, Request, Text, ToolResult, ToolUse, accumulate, parse_sse
from interlingua.testing import load_body
from interlingua_openai.chat import OpenAIChatCodec
from interlingua_openai.chat._rules import rules_for

FOLDER = Path(__file__).resolve().parents[4] / "fixtures" / "openai-chat" / "dialects" / "gemini-openai"
PLACEHOLDER = {"google": {"thought_signature": "skip_thought_signature_validator"}}
SIGNED = {"google": {"thought_signature": "CiQBjz1rX1signatureA=="}}
CODEC = OpenAIChatCodec(dialect="gemini-openai")


def _next_turn(answer: Message, model: str) -> Request:
    """The user's question, the answer's calls, their results: what the next request carries."""
    calls = [part for part in answer.parts if isinstance(part, ToolUse)]
    results = [ToolResult(tool_use_id=call.id, name=call.name, content="12C") for call in calls]
    question = Message(role="user", parts=[Text(text="Weather in Paris and London?")])
    return Request(model=model, messages=[question, answer, Message(role="tool", parts=results)])


def _calls(body: dict[str, Any], index: int = 1) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = body["messages"][index]["tool_calls"]
    return calls


def test_a_streamed_signature_is_kept_on_its_call_as_the_answer_keeps_it() -> None:
    answer = CODEC.decode_response(load_body(FOLDER / "stream.response.json"))
    streamed = accumulate(CODEC.decode_stream(parse_sse([(FOLDER / "stream.sse").read_bytes()])))
    assert streamed.model_copy(update={"warnings": []}) == answer.model_copy(update={"warnings": []})
    first, second = [part for part in streamed.message.parts if isinstance(part, ToolUse)]
    assert first.provider_echoes[0].data == {"wire": {"extra_content": SIGNED}}
    assert second.provider_echoes == []
    # written back as a stream, the signature rides on its call's first chunk
    chunks = [json.loads(event.data) for event in CODEC.encode_stream(CODEC.decode_stream(parse_sse(
        [(FOLDER / "stream.sse").read_bytes()]))) if event.data != "[DONE]"]
    sent = [call for chunk in chunks for choice in chunk["choices"] for call in choice["delta"].get("tool_calls", [])]
    assert [call.get("extra_content") for call in sent if "id" in call] == [SIGNED, None]


def test_the_signature_goes_back_on_the_next_turn_and_nothing_is_made_up() -> None:
    answer = CODEC.decode_response(load_body(FOLDER / "stream.response.json")).message
    encoded = CODEC.encode_request(_next_turn(answer, "gemini-3-flash-preview"))
    assert [call.get("extra_content") for call in _calls(encoded.body)] == [SIGNED, None]  # parallel: first only
    assert encoded.warnings == []


@pytest.mark.parametrize(
    ("model", "signed"),
    [
        ("gemini-3-flash-preview", True),
        ("models/gemini-3-pro-preview", True),
        ("gemini-3.1-pro-preview", True),
        ("gemini-2.5-flash", False),  # took unsigned calls (pydantic-ai corpus, recorded under this host)
        ("gemini-3-pro-image-preview", False),  # "doesn't enforce this validation"
    ],
)
def test_a_foreign_call_in_the_current_turn_gets_the_documented_placeholder(model: str, signed: bool) -> None:
    made_elsewhere = Message(
        role="assistant",
        parts=[
            Text(text="Checking both."),
            ToolUse(id="toolu_01", name="get_weather", input={"city": "Paris"}),
            ToolUse(id="toolu_02", name="get_weather", input={"city": "London"}),
        ],
    )
    encoded = CODEC.encode_request(_next_turn(made_elsewhere, model))
    placeholder = PLACEHOLDER if signed else None
    assert [call.get("extra_content") for call in _calls(encoded.body)] == [placeholder, None]
    assert encoded.warnings == []  # a repair the vendor documents, nothing lost
    check = {rule.name: rule.check for rule in rules_for(CODEC.dialect)}["signed-current-turn"]
    assert check is not None and check(encoded.body) == []
    bare = [{k: v for k, v in call.items() if k != "extra_content"} for call in _calls(encoded.body)]
    messages = [*encoded.body["messages"][:1], {**encoded.body["messages"][1], "tool_calls": bare}]
    flagged = ["messages[1].tool_calls[0]: no thought signature in the current turn"] if signed else []
    assert check({**encoded.body, "messages": messages}) == flagged


def test_only_steps_of_the_current_turn_are_signed_and_other_hosts_get_nothing() -> None:
    step = Message(role="assistant", parts=[ToolUse(id="call_a", name="get_weather", input={"city": "Rome"})])
    result = Message(role="tool", parts=[ToolResult(tool_use_id="call_a", name="get_weather", content="20C")])
    earlier = [Message(role="user", parts=[Text(text="Rome?")]), step, result]
    request = _next_turn(step.model_copy(update={"parts": [ToolUse(id="call_b", name="get_weather", input={})]}),
                         "gemini-3-flash-preview")
    request = request.model_copy(update={"messages": [*earlier, *request.messages]})
    body = CODEC.encode_request(request).body
    assert "extra_content" not in _calls(body, 1)[0]  # a finished turn: Gemini does not check it
    assert _calls(body, 4)[0]["extra_content"] == PLACEHOLDER
    assert "extra_content" not in _calls(OpenAIChatCodec().encode_request(request).body, 4)[0]  # api.openai.com


def test_a_call_kept_with_other_extra_content_keeps_it_beside_the_placeholder() -> None:
    body = {
        "model": "gemini-3-flash-preview",
        "messages": [
            {"role": "user", "content": "Paris?"},
            {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "extra_content": {"google": {
                "thought": True}}, "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "12C"},
        ],
    }
    request = CODEC.decode_request(body)
    sent = CODEC.encode_request(request).body
    assert _calls(sent)[0]["extra_content"] == {"google": {"thought": True, **PLACEHOLDER["google"]}}
    assert body["messages"][1]["tool_calls"][0]["extra_content"] == {"google": {"thought": True}}  # echo untouched
    assert CODEC.encode_request(request).body == sent
