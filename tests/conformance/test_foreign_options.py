"""Invariant 2 across vendors: each key of another provider's ``provider_options`` that an encoder
does not send is a ForeignOption at ``provider_options.<provider>.<key>``; ``strict=True`` raises.
Meanings the target can express cross through the IR instead (decoded into it by the source)."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua as il
from interlingua import ForeignOption, LossyEncodeError, Message, Request, WarningSink

from .conftest import BY_ID, CONFORMANCE
from .conftest import TARGETS as CONFORMANCE_TARGETS

RESPONSES = {"model": "gpt-4.1", "input": "hi"}

# (source target, provider key, a body of the source carrying the option, reported key): each
# codec's own options (its conformance data's ``Target.foreign_options``), encoded to every target.
FOREIGN: list[tuple[str, str, dict[str, Any], str]] = [
    (target.id, BY_ID[target.id].codec.provider, body, key)
    for wire, data in CONFORMANCE.items()
    for target in data.targets
    for key, body in target.foreign_options
]
TARGETS = [target.id for target in CONFORMANCE_TARGETS]


def _codec(name: str) -> il.Codec:
    return BY_ID[name].codec


def _provider(name: str) -> str:
    return _codec(name).provider


CASES = [
    (source, provider, body, key, target)
    for source, provider, body, key in FOREIGN
    for target in TARGETS
    if _provider(target) != provider
]


def _decoded(source: str, body: dict[str, Any]) -> Request:
    request = _codec(source).decode_request(body)
    return request if request.model is not None else request.model_copy(update={"model": "gemini-2.5-flash"})


@pytest.mark.parametrize(
    ("source", "provider", "body", "key", "target"), CASES, ids=[f"{c[0]}.{c[3]}->{c[4]}" for c in CASES]
)
def test_a_foreign_option_is_reported_at_its_path_and_strict_raises(
    source: str, provider: str, body: dict[str, Any], key: str, target: str
) -> None:
    request = _decoded(source, body)
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


@pytest.mark.parametrize(("source", "provider", "body", "key"), FOREIGN, ids=[f"{f[0]}.{f[3]}" for f in FOREIGN])
def test_the_source_wire_sends_its_own_options_back_exactly(
    source: str, provider: str, body: dict[str, Any], key: str
) -> None:
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
    chat = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    request = _decoded("openai-chat", {**chat, "stop": "END"})
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
    contents = [{"role": "user", "parts": [{"text": "hi"}]}]
    request = _decoded("gemini", {"contents": contents, "generationConfig": config})
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
