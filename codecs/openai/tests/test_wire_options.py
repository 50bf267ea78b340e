"""The two OpenAI wires share the provider key ``openai`` but not their fields: a key one wire's
body carried crosses to the other only where the other API takes it (``_shared.own_options``),
and is reported otherwise. Real bodies of OpenAI-compatible hosts (pydantic-ai's recorded calls)
carry their hosts' extension keys, which go back to their own wire and nowhere else."""

from __future__ import annotations

import json
from typing import Any

import pytest

import interlingua as il
from interlingua import Request
from interlingua.testing import assert_request_round_trip, corpus_missing, real_fixtures_dir

CHAT = il.get_codec("openai-chat")
RESPONSES = il.get_codec("openai-responses")

# (case of shared/fixtures/pydantic-ai/openai-chat, the host's extension keys it carries)
HOST_BODIES = [
    ("models__test_groq__test_groq_model_thinking_part__0", ["reasoning_format"]),  # Groq
    ("models__test_zai__test_zai_model_simple", ["thinking"]),  # Z.ai
    ("models__test_cerebras__test_cerebras_disable_reasoning_setting", ["clear_thinking"]),  # Cerebras
    ("models__openrouter__test_cache__test_openrouter_cache_messages_anthropic_real_api__0", ["provider"]),
]


def _pydantic_ai_body(case: str) -> dict[str, Any]:
    missing = corpus_missing("real")
    if missing is not None:
        pytest.skip(missing)
    path = real_fixtures_dir().parent / "pydantic-ai" / "openai-chat" / case / "request.json"
    if not path.is_file():
        pytest.skip(f"pydantic-ai corpus not found beside {real_fixtures_dir()}")
    body: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return body


def _warned(encoded: il.Encoded) -> list[tuple[str, str]]:
    return [(type(w).__name__, w.path) for w in encoded.warnings]


@pytest.mark.parametrize(("case", "keys"), HOST_BODIES, ids=[c for c, _ in HOST_BODIES])
def test_a_hosts_extension_keys_go_back_to_chat_and_are_reported_on_responses(case: str, keys: list[str]) -> None:
    body = _pydantic_ai_body(case)  # decoded without a dialect, as a caller who names none does
    assert_request_round_trip(CHAT, body)
    request = CHAT.decode_request(body)
    responses = RESPONSES.encode_request(request)
    for key in keys:
        assert key not in responses.body
        assert ("UnsupportedSetting", f"provider_options.openai.{key}") in _warned(responses)
    reported = {w.path.removeprefix("provider_options.openai.") for w in responses.warnings}
    assert reported.isdisjoint(request.options("openai").get("_wire", {}))  # spelling records are private


def test_a_key_only_responses_has_goes_back_to_the_chat_host_that_sent_it() -> None:
    # Snowflake Cortex's Chat Completions takes Responses' ``reasoning`` and answered 200 (pydantic-ai's
    # test_snowflake_thinking): what Chat's own decoder kept is the host's, sent back whatever its name.
    body = {"model": "claude-sonnet-4-6", "messages": [{"role": "user", "content": "hi"}]}
    body["reasoning"] = {"effort": "low"}
    assert_request_round_trip(CHAT, body)
    request = CHAT.decode_request(body)
    responses = RESPONSES.encode_request(request)  # on the Responses API it would be its own field: not sent
    assert ("reasoning" in responses.body, _warned(responses)) == (
        False,
        [("UnsupportedSetting", "provider_options.openai.reasoning")],
    )
    by_hand = Request(model="gpt-5", messages=[il.Message.user("hi")], provider_options={"openai": {"reasoning": {}}})
    assert _warned(CHAT.encode_request(by_hand)) == [("UnsupportedSetting", "provider_options.openai.reasoning")]


def test_a_groq_service_tier_reaches_chat_but_not_responses_which_has_no_such_tier() -> None:
    case = "test_thinking_wire_contract__test_reasoning_wire_contract_groq-gpt-oss-thinking-merges-user-extra-body"
    body = _pydantic_ai_body(case)
    assert body["service_tier"] == "on_demand"
    assert_request_round_trip(CHAT, body)
    responses = RESPONSES.encode_request(CHAT.decode_request(body))
    assert "service_tier" not in responses.body and "reasoning_format" not in responses.body
    assert sorted(_warned(responses)) == [
        ("UnsupportedSetting", "provider_options.openai.reasoning_format"),
        ("UnsupportedSetting", "provider_options.openai.service_tier"),
    ]
    assert responses.body["reasoning"] == {"effort": "high"}  # the effort crosses through the IR


def test_a_tier_both_apis_take_crosses_without_a_word() -> None:
    body = {"model": "gpt-5", "input": "hi", "service_tier": "flex", "store": False, "prompt_cache_key": "k"}
    chat = CHAT.encode_request(RESPONSES.decode_request(body))
    assert {k: chat.body[k] for k in ("service_tier", "store", "prompt_cache_key")} == {
        "service_tier": "flex",
        "store": False,
        "prompt_cache_key": "k",
    }
    assert chat.warnings == []


# The allowed-tools tool_choice of each API (openai/types/responses/tool_choice_allowed_param.py:
# mode and tools side by side; openai/types/chat/chat_completion_allowed_tool_choice_param.py: the
# same under ``allowed_tools``): the IR has no form for it, each wire keeps its own verbatim.
RESPONSES_ALLOWED = {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "f"}]}
CHAT_ALLOWED = {
    "type": "allowed_tools",
    "allowed_tools": {"mode": "required", "tools": [{"type": "function", "function": {"name": "f"}}]},
}
SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}
FUNCTION = {"type": "function", "function": {"name": "f", "parameters": SCHEMA}}


def test_a_responses_allowed_tools_choice_is_not_written_onto_chat() -> None:
    # A strict tool's schema closes its objects (additionalProperties: false): strict mode refuses
    # one without it, and since the tools branch the encoder fits it so (with a warning).
    closed = {"type": "object", "properties": {}, "additionalProperties": False}
    tool = {"type": "function", "name": "f", "parameters": closed, "strict": True}
    body = {"model": "gpt-5", "input": "hi", "tools": [tool], "tool_choice": RESPONSES_ALLOWED}
    assert_request_round_trip(RESPONSES, body)
    chat = CHAT.encode_request(RESPONSES.decode_request(body))
    assert "tool_choice" not in chat.body
    assert _warned(chat) == [("UnsupportedSetting", "provider_options.openai.tool_choice")]


def test_a_chat_allowed_tools_choice_is_not_written_onto_responses() -> None:
    body = {"model": "gpt-5", "messages": [{"role": "user", "content": "hi"}], "tools": [FUNCTION]}
    body["tool_choice"] = CHAT_ALLOWED
    assert_request_round_trip(CHAT, body)
    responses = RESPONSES.encode_request(CHAT.decode_request(body))
    assert "tool_choice" not in responses.body
    assert _warned(responses) == [("UnsupportedSetting", "provider_options.openai.tool_choice")]


def test_options_set_by_hand_go_to_either_wire_less_the_other_apis_own_fields() -> None:
    options = {"reasoning_format": "parsed", "include": ["reasoning.encrypted_content"], "n": 2}
    request = Request(model="gpt-5", messages=[il.Message.user("hi")], provider_options={"openai": options})
    chat = CHAT.encode_request(request)
    assert (chat.body["reasoning_format"], chat.body["n"], "include" in chat.body) == ("parsed", 2, False)
    assert _warned(chat) == [("UnsupportedSetting", "provider_options.openai.include")]
    responses = RESPONSES.encode_request(request)
    assert (responses.body["reasoning_format"], "n" in responses.body) == ("parsed", False)
    assert _warned(responses) == [("UnsupportedSetting", "provider_options.openai.n")]


def test_a_null_field_of_the_other_wire_is_absence_and_draws_no_warning() -> None:
    body = {"model": "gpt-5", "input": "hi", "previous_response_id": None}
    assert_request_round_trip(RESPONSES, body)
    request = RESPONSES.decode_request(body)
    for codec in (CHAT, il.get_codec("anthropic-messages")):
        encoded = codec.encode_request(request)
        assert ("previous_response_id" in encoded.body, encoded.warnings) == (False, [])


def test_the_origin_record_is_private_and_never_sent() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "user": "u1"}
    request = CHAT.decode_request(body)
    assert request.provider_options["openai"]["_wire"] == {"api": "chat"}
    for codec in (CHAT, RESPONSES, il.get_codec("gemini")):
        assert "_wire" not in json.dumps(codec.encode_request(request.model_copy(update={"model": "m"})).body)


def test_stream_options_are_framing_a_host_keeps_its_own_and_the_other_wire_takes_its_keys_only() -> None:
    # vLLM's continuous_usage_stats beside OpenAI's include_usage (both stream framing, coverage: transport)
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": True}
    body["stream_options"] = {"include_usage": True, "continuous_usage_stats": True}
    assert_request_round_trip(CHAT, body)
    responses = RESPONSES.encode_request(CHAT.decode_request(body))
    assert ("stream_options" in responses.body, responses.body["stream"], responses.warnings) == (False, True, [])
    back = {"model": "gpt-5", "input": "hi", "stream": True, "stream_options": {"include_obfuscation": False}}
    chat = CHAT.encode_request(RESPONSES.decode_request(back))
    assert (chat.body["stream_options"], chat.warnings) == ({"include_obfuscation": False}, [])
