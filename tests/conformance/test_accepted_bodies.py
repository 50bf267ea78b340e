"""Bodies a vendor accepted that another vendor would refuse: the other codec repairs them only
where its vendor's rule demands, with a warning (issue 31; the project's own golden fixtures,
so this holds without the shared corpus)."""

from __future__ import annotations

from pathlib import Path

import interlingua as il
from interlingua import Request, ToolResult
from interlingua.testing import assert_request_round_trip, check_rules, load_body, validate_wire

GEMINI = Path(__file__).resolve().parents[2] / "fixtures" / "gemini" / "request"
MODELS = {"anthropic-messages": "claude-sonnet-4-5", "openai-chat": "gpt-4.1", "openai-responses": "gpt-5"}


def _gemini(name: str) -> Request:
    return il.get_codec("gemini").decode_request(load_body(GEMINI / f"{name}.json"))


def _encode(wire: str, request: Request) -> il.Encoded:
    encoded = il.get_codec(wire).encode_request(request.model_copy(update={"model": MODELS[wire]}))
    assert validate_wire(wire, "request", encoded.body) == []
    assert check_rules(wire, encoded.body, model=MODELS[wire]) == []
    return encoded


def test_an_empty_model_turn_is_left_out_with_a_warning_where_the_vendor_refuses_it() -> None:
    request = _gemini("empty-model-turn")
    for wire in ("anthropic-messages", "openai-responses"):
        encoded = _encode(wire, request)
        turns = encoded.body["messages"] if wire == "anthropic-messages" else encoded.body["input"]
        assert [turn["role"] for turn in turns] == ["user", "user", "user"]
        assert [(w.path, w.kind, getattr(w, "setting", None)) for w in encoded.warnings] == [
            ("messages[1]", "unsupported_setting", "empty_turn"),
            ("messages[3]", "unsupported_setting", "empty_turn"),
        ]
    chat = _encode("openai-chat", request)  # Chat takes an assistant message with empty content
    assert [m["role"] for m in chat.body["messages"]] == ["user", "assistant", "user", "assistant", "user"]
    assert chat.warnings == []


def test_a_result_paired_by_name_answers_its_call_on_every_wire() -> None:
    request = _gemini("function-response-matched-by-name")
    result = request.messages[2].parts[0]
    assert isinstance(result, ToolResult) and result.tool_use_id == "wx-1"
    chat = _encode("openai-chat", request).body["messages"]
    assert chat[1]["tool_calls"][0]["id"] == chat[2]["tool_call_id"] == "wx-1"
    anthropic = _encode("anthropic-messages", request).body["messages"]
    assert anthropic[1]["content"][0]["id"] == anthropic[2]["content"][0]["tool_use_id"] == "wx-1"


EMPTY_TOOLS = {  # "tools": [] as a body sent it (Hugging Face's router took it on Chat: pydantic-ai corpus)
    "openai-chat": {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}], "tools": []},
    "openai-responses": {"model": "gpt-5", "input": "hi", "tools": []},
    "anthropic-messages": {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [],
    },
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": []},
}


def test_an_empty_tools_list_round_trips_and_crosses_as_no_tools_without_a_word() -> None:
    """The IR holds ``"tools": []`` as no tools: each wire's record writes it back as it was, and
    no other wire hears of it (nothing was lost)."""
    for wire, body in EMPTY_TOOLS.items():
        assert_request_round_trip(il.get_codec(wire), body)
        request = il.get_codec(wire).decode_request(body)
        for other in MODELS:
            if other != wire:
                encoded = _encode(other, request)
                # no tools either way (the two OpenAI wires share one options record until class 3's
                # per-wire namespaces: Chat's "tools": [] spelling reaches Responses, which takes it)
                assert encoded.body.get("tools", []) == [] and encoded.warnings == [], (wire, other)
