"""A function tool goes back as the body spelled it, compared key for key (null included): Chat's
``parameters`` spelled out as the empty object schema (the IR's value for none) stays spelled out,
and a Responses tool sent without ``strict`` (the SDK's type requires the key; the API takes it
absent) is not given ``"strict": null``. A tool the caller changed after decoding is written as
the IR now says."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua as il
from interlingua.testing import validate_wire

CHAT = il.get_codec("openai-chat")
RESPONSES = il.get_codec("openai-responses")
EMPTY = {"type": "object", "properties": {}}
ARGS = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False}


def _chat(*functions: dict[str, Any]) -> dict[str, Any]:
    tools = [{"type": "function", "function": f} for f in functions]
    return {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tools": tools}


def _responses(*tools: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-4o", "input": "hi", "tools": [{"type": "function", **t} for t in tools]}


CASES = [
    (CHAT, _chat({"name": "a", "parameters": EMPTY})),
    (CHAT, _chat({"name": "a"})),
    (CHAT, _chat({"name": "a", "parameters": {}})),
    (CHAT, _chat({"name": "a"}, {"name": "b", "parameters": EMPTY}, {"name": "c", "parameters": ARGS})),
    (RESPONSES, _responses({"name": "a", "parameters": EMPTY})),
    (RESPONSES, _responses({"name": "a", "parameters": ARGS, "strict": None})),
    (RESPONSES, _responses({"name": "a", "parameters": ARGS, "strict": True}, {"name": "b", "parameters": EMPTY})),
]


@pytest.mark.parametrize(("codec", "body"), CASES, ids=lambda v: v.name if hasattr(v, "name") else "")
def test_a_tool_goes_back_spelled_as_it_came(codec: il.Codec, body: dict[str, Any]) -> None:
    encoded = codec.encode_request(codec.decode_request(body))
    assert encoded.body == body
    assert encoded.warnings == []


def test_a_changed_tool_is_written_as_the_ir_says() -> None:
    request = RESPONSES.decode_request(_responses({"name": "a", "parameters": EMPTY}))
    changed = request.model_copy(update={"tools": [request.tools[0].model_copy(update={"strict": False})]})
    assert RESPONSES.encode_request(changed).body["tools"][0]["strict"] is False
    request = CHAT.decode_request(_chat({"name": "a"}))
    changed = request.model_copy(update={"tools": [request.tools[0].model_copy(update={"input_schema": ARGS})]})
    assert CHAT.encode_request(changed).body["tools"][0]["function"]["parameters"] == ARGS


def test_from_another_wire_the_sdk_shape_is_kept() -> None:
    """Decoded elsewhere, a Responses tool carries ``strict`` (null: the vendor's default), as
    FunctionToolParam requires; the SDK-oracle holds the body to that."""
    request = CHAT.decode_request(_chat({"name": "a", "parameters": EMPTY}))
    body = RESPONSES.encode_request(request).body
    assert body["tools"] == [{"type": "function", "name": "a", "parameters": EMPTY, "strict": None}]
    assert validate_wire("openai-responses", "request", body) == []
