"""Invariant 2 across vendors: each key of another provider's ``provider_options`` that an encoder
does not send is a ForeignOption at ``provider_options.<provider>.<key>``; ``strict=True`` raises.
Meanings the target can express cross through the IR instead (decoded into it by the source)."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua as il
from interlingua import ForeignOption, LossyEncodeError, Message, Request, WarningSink

CHAT = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
RESPONSES = {"model": "gpt-4.1", "input": "hi"}
ANTHROPIC = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}]}
GEMINI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
CONVERSE = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}
COHERE = {"model": "command-a-03-2025", "messages": [{"role": "user", "content": "hi"}]}
SAFETY = [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}]

# (source wire, provider key, extra body fields, reported key); each is encoded to every target.
FOREIGN: list[tuple[str, str, dict[str, Any], str]] = [
    ("openai-chat", "openai", {"n": 2}, "n"),
    ("openai-chat", "openai", {"logprobs": True}, "logprobs"),
    ("openai-chat", "openai", {"top_logprobs": 3}, "top_logprobs"),
    ("openai-chat", "openai", {"web_search_options": {"search_context_size": "low"}}, "web_search_options"),
    ("openai-chat", "openai", {"logit_bias": {"50256": -100}}, "logit_bias"),
    ("openai-responses", "openai", {"previous_response_id": "resp_1"}, "previous_response_id"),
    ("openai-responses", "openai", {"store": False}, "store"),
    ("openai-responses", "openai", {"include": ["reasoning.encrypted_content"]}, "include"),
    ("gemini", "gemini", {"safetySettings": SAFETY}, "safetySettings"),
    ("gemini", "gemini", {"cachedContent": "cachedContents/abc"}, "cachedContent"),
    ("gemini", "gemini", {"generationConfig": {"candidateCount": 2}}, "generationConfig"),
    ("gemini", "gemini", {"generationConfig": {"responseLogprobs": True, "temperature": 0.5}}, "generationConfig"),
    ("anthropic-messages", "anthropic", {"container": "container_1"}, "container"),
    ("anthropic-messages", "anthropic", {"service_tier": "auto"}, "service_tier"),
    (
        "anthropic-messages",
        "anthropic",
        {"mcp_servers": [{"type": "url", "url": "https://example.com/mcp", "name": "m"}]},
        "mcp_servers",
    ),
    ("deepseek", "deepseek", {"logprobs": True}, "logprobs"),
    ("bedrock-converse", "bedrock", {"guardrailConfig": {"guardrailIdentifier": "g1", "guardrailVersion": "1"}},
     "guardrailConfig"),
    ("bedrock-converse", "bedrock", {"requestMetadata": {"team": "a"}}, "requestMetadata"),
    ("bedrock-converse", "bedrock", {"additionalModelRequestFields": {"anthropic_beta": ["a-beta"]}},
     "additionalModelRequestFields"),
    ("cohere-chat", "cohere", {"safety_mode": "STRICT"}, "safety_mode"),
    ("cohere-chat", "cohere", {"documents": ["The sky is blue."]}, "documents"),
    ("cohere-chat", "cohere", {"citation_options": {"mode": "FAST"}}, "citation_options"),
]  # fmt: skip
BASES = {
    "openai-chat": CHAT,
    "openai-responses": RESPONSES,
    "anthropic-messages": ANTHROPIC,
    "gemini": GEMINI,
    "bedrock-converse": CONVERSE,
    "cohere-chat": COHERE,
}
BASES["deepseek"] = {**CHAT, "model": "deepseek-chat"}
TARGETS = (
    "anthropic-messages",
    "openai-chat",
    "openai-responses",
    "gemini",
    "deepseek",
    "bedrock-converse",
    "cohere-chat",
)


def _codec(name: str) -> il.Codec:
    return il.get_codec("openai-chat", dialect="deepseek") if name == "deepseek" else il.get_codec(name)


def _provider(name: str) -> str:
    return _codec(name).provider


CASES = [
    (source, provider, extra, key, target)
    for source, provider, extra, key in FOREIGN
    for target in TARGETS
    if _provider(target) != provider
]


def _decoded(source: str, extra: dict[str, Any]) -> Request:
    request = _codec(source).decode_request({**BASES[source], **extra})
    return request if request.model is not None else request.model_copy(update={"model": "gemini-2.5-flash"})


@pytest.mark.parametrize(
    ("source", "provider", "extra", "key", "target"), CASES, ids=[f"{c[0]}.{c[3]}->{c[4]}" for c in CASES]
)
def test_a_foreign_option_is_reported_at_its_path_and_strict_raises(
    source: str, provider: str, extra: dict[str, Any], key: str, target: str
) -> None:
    request = _decoded(source, extra)
    assert key in request.provider_options[provider]
    codec = _codec(target)
    encoded = codec.encode_request(request)
    foreign = [w for w in encoded.warnings if isinstance(w, ForeignOption)]
    assert [(w.codec, w.path, w.provider, w.key) for w in foreign] == [
        (codec.name, f"provider_options.{provider}.{key}", provider, key)
    ]
    assert key not in encoded.body
    with pytest.raises(LossyEncodeError) as raised:
        codec.encode_request(request, strict=True)
    assert foreign[0] in raised.value.warnings


@pytest.mark.parametrize(("source", "provider", "extra", "key"), FOREIGN, ids=[f"{f[0]}.{f[3]}" for f in FOREIGN])
def test_the_source_wire_sends_its_own_options_back_exactly(
    source: str, provider: str, extra: dict[str, Any], key: str
) -> None:
    body = {**BASES[source], **extra}
    encoded = _codec(source).encode_request(_codec(source).decode_request(body))
    assert (encoded.body, encoded.warnings) == (body, [])


def test_options_of_several_vendors_set_on_purpose_are_filtered_by_class() -> None:
    request = Request(
        model="claude-sonnet-4-5",
        messages=[Message.user("hi")],
        provider_options={"anthropic": {"service_tier": "auto"}, "openai": {"n": 2}, "gemini": {"cachedContent": "c"}},
    )
    encoded = il.get_codec("anthropic-messages").encode_request(request)
    assert encoded.body["service_tier"] == "auto"
    assert [w.path for w in encoded.warnings] == ["provider_options.openai.n", "provider_options.gemini.cachedContent"]
    assert [w for w in encoded.warnings if not isinstance(w, ForeignOption)] == []


def test_the_sink_skips_private_records_nulls_and_stream_framing_and_names_nested_keys() -> None:
    out = WarningSink("acme-chat")
    other = {"_wire": {"x": 1}, "stream": True, "stream_options": {"u": True}, "gone": None, "config": {"a": 1, "b": 2}}
    options = {"acme": {"mode": 1}, "other": other}
    out.foreign_options(options, own="acme")
    assert out.warnings == [
        ForeignOption(
            codec="acme-chat",
            path="provider_options.other.config",
            message="the other option config (a, b) has no place on this wire; not sent",
            provider="other",
            key="config",
        )
    ]


def test_a_foreign_option_round_trips_as_a_warning_of_a_response() -> None:
    warning = ForeignOption(codec="acme", path="provider_options.other.n", message="m", provider="other", key="n")
    response = il.Response(warnings=[warning])
    assert il.Response.model_validate_json(response.model_dump_json()) == response


# --- meanings that cross through the IR instead ----------------------------------------------


def test_a_single_chat_stop_string_crosses_as_stop_sequences_without_a_foreign_option() -> None:
    request = _decoded("openai-chat", {"stop": "END"})
    encoded = il.get_codec("anthropic-messages").encode_request(request)
    assert (encoded.body["stop_sequences"], encoded.warnings) == (["END"], [])
    gemini = il.get_codec("gemini").encode_request(request)
    assert (gemini.body["generationConfig"], gemini.warnings) == ({"stopSequences": ["END"]}, [])


def test_an_integer_responses_temperature_crosses_as_the_ir_number() -> None:
    body = {**RESPONSES, "temperature": 1, "top_p": 1}
    request = il.get_codec("openai-responses").decode_request(body)
    assert (request.temperature, request.top_p) == (1.0, 1.0)
    encoded = il.get_codec("anthropic-messages").encode_request(request)
    assert (encoded.body["temperature"], encoded.body["top_p"], encoded.warnings) == (1.0, 1.0, [])
    chat = il.get_codec("openai-chat").encode_request(request)
    assert ("_wire" in chat.body, chat.warnings) == (False, [])


def test_gemini_stop_sequences_and_response_schema_cross_to_chat() -> None:
    schema = {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "required": ["a"], "propertyOrdering": ["a"]}
    config = {"stopSequences": ["x"], "responseMimeType": "application/json", "responseSchema": schema}
    request = _decoded("gemini", {"generationConfig": config})
    encoded = il.get_codec("openai-chat").encode_request(request)
    assert encoded.body["stop"] == ["x"]
    assert encoded.body["response_format"] == {
        "type": "json_schema",
        "json_schema": {
            "name": "response",
            "schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        },
    }
    assert encoded.warnings == []


@pytest.mark.parametrize("target", TARGETS)
def test_a_foreign_native_part_and_tool_are_reported_at_their_paths(target: str) -> None:
    native = il.Native(provider="acme", data={"type": "acme_block"})
    tool = il.NativeTool(provider="acme", data={"type": "acme_search"})
    request = Request(
        model="m",
        messages=[Message.user("hi"), Message.assistant(native), Message.user("more")],
        tools=[tool],
    )
    encoded = _codec(target).encode_request(request)
    assert sorted(w.path for w in encoded.warnings) == ["messages[1].parts[0]", "tools[0]"]
    assert "acme" not in str(encoded.body)
