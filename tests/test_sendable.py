"""Bodies no vendor takes are refused before they are sent (interlingua._sendable, body_bytes),
and the rule checker flags the same bodies."""

from __future__ import annotations

import math
from typing import Any

import httpx2
import pytest

import interlingua as il
from interlingua import (
    EncodeError,
    Image,
    MediaSource,
    Message,
    Request,
    Text,
    Tool,
    ToolResult,
    ToolUse,
)
from interlingua.testing import check_rules

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")


def _request(**settings: Any) -> Request:
    messages = settings.pop("messages", [Message(role="user", parts=[Text(text="hi")])])
    return Request(model=settings.pop("model", "model-1"), messages=messages, **settings)


def _refusal(wire: str, request: Request) -> tuple[str, str]:
    with pytest.raises(EncodeError) as err:
        il.get_codec(wire).encode_request(request)
    assert err.value.codec == wire
    return err.value.path, err.value.reason


@pytest.mark.parametrize("wire", WIRES)
def test_an_empty_model_is_refused(wire: str) -> None:
    assert _refusal(wire, _request(model="")) == ("model", "empty: every vendor needs a model id")


@pytest.mark.parametrize("wire", WIRES)
def test_a_negative_max_tokens_is_refused(wire: str) -> None:
    assert _refusal(wire, _request(max_tokens=-5)) == ("max_tokens", "-5 is negative")


@pytest.mark.parametrize("wire", WIRES)
def test_an_infinite_top_p_is_refused(wire: str) -> None:
    assert _refusal(wire, _request(top_p=math.inf)) == ("top_p", "inf is not a JSON number")


@pytest.mark.parametrize("wire", WIRES)
def test_base64_data_that_is_not_base64_is_refused_at_its_path(wire: str) -> None:
    image = Image(source=MediaSource.from_base64("image/png", "data:image/png;base64,iVBORw0KGgo="))
    request = _request(messages=[Message(role="user", parts=[Text(text="look"), image])])
    assert _refusal(wire, request) == ("messages[0].parts[1].source.data", "not base64 data")


@pytest.mark.parametrize("wire", WIRES)
def test_base64_chunks_joined_end_to_end_and_url_safe_base64_still_encode(wire: str) -> None:
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    for data in (png * 2, png.replace("/", "_").replace("+", "-")):
        image = Image(source=MediaSource.from_base64("image/png", data))
        body = il.get_codec(wire).encode_request(_request(messages=[Message(role="user", parts=[image])])).body
        assert data in str(body)


_SEARCH = Tool(name="mcp.search", description="d", input_schema={"type": "object"})


@pytest.mark.parametrize("wire", ["anthropic-messages", "openai-chat", "openai-responses", "bedrock-converse"])
def test_a_tool_name_with_a_dot_goes_out_escaped_where_the_vendor_pattern_has_none(wire: str) -> None:
    codec = il.get_codec(wire)
    encoded = codec.encode_request(_request(tools=[_SEARCH]))
    assert "mcp_x2esearch" in str(encoded.body) and "mcp.search" not in str(encoded.body)
    assert [t.name for t in codec.decode_request(encoded.body).tools] == ["mcp.search"]  # type: ignore[union-attr]


@pytest.mark.parametrize("wire", [*WIRES, "bedrock-converse", "cohere-chat"])
def test_an_empty_tool_name_is_refused(wire: str) -> None:
    blank = Tool(name="", description="d", input_schema={"type": "object"})
    path, reason = _refusal(wire, _request(tools=[blank]))
    assert path == "tools[0].name" and reason.startswith("'' does not match ")


def test_gemini_takes_dotted_tool_names_but_not_a_leading_digit() -> None:
    body = il.get_codec("gemini").encode_request(_request(tools=[_SEARCH])).body
    assert body["tools"] == [
        {
            "functionDeclarations": [
                {"name": "mcp.search", "description": "d", "parametersJsonSchema": {"type": "object"}}
            ]
        }
    ]
    digit = Tool(name="1search", description="d", input_schema={"type": "object"})
    body = il.get_codec("gemini").encode_request(_request(tools=[digit])).body
    assert body["tools"][0]["functionDeclarations"][0]["name"] == "_x31search"


def _two_calls(first: str, second: str) -> list[Message]:
    return [
        Message(role="user", parts=[Text(text="go")]),
        Message(
            role="assistant",
            parts=[ToolUse(id=first, name="f", input={}), ToolUse(id=second, name="g", input={})],
        ),
        Message(
            role="tool",
            parts=[
                ToolResult(tool_use_id=first, name="f", content="1"),
                ToolResult(tool_use_id=second, name="g", content="2"),
            ],
        ),
    ]


@pytest.mark.parametrize("wire", ["anthropic-messages", "openai-chat", "openai-responses"])
def test_two_calls_of_one_turn_sharing_an_id_are_refused(wire: str) -> None:
    path, reason = _refusal(wire, _request(messages=_two_calls("call_1", "call_1")))
    assert (path, reason) == ("messages[1].parts[1].id", "tool call id 'call_1' is used twice in one turn")


def test_gemini_matches_results_by_name_so_a_shared_id_passes() -> None:
    body = il.get_codec("gemini").encode_request(_request(messages=_two_calls("call_1", "call_1"))).body
    calls = [p["functionCall"] for p in body["contents"][1]["parts"]]
    assert [(c["name"], c["id"]) for c in calls] == [("f", "call_1"), ("g", "call_1")]


@pytest.mark.parametrize(("wire", "prefix"), [("anthropic-messages", "toolu_"), ("openai-responses", "call_")])
def test_an_empty_tool_id_is_rewritten_for_the_call_and_its_result_alike(wire: str, prefix: str) -> None:
    codec = il.get_codec(wire)
    request = _request(messages=_two_calls("", "call_2"))
    body = codec.encode_request(request).body
    assert check_rules(wire, body) == []
    back = codec.decode_request(body)
    assert [p.id for p in back.messages[1].parts if isinstance(p, ToolUse)] == ["", "call_2"]
    text = str(body)
    assert f"'{prefix}" in text and "'id': ''" not in text and "'call_id': ''" not in text


def test_a_lone_surrogate_is_refused_by_the_client_before_anything_is_sent() -> None:
    sent: list[httpx2.Request] = []
    transport = httpx2.MockTransport(lambda r: sent.append(r) or httpx2.Response(500))
    client = il.Client("openai-chat", api_key="k", http_client=httpx2.Client(transport=transport))
    request = _request(messages=[Message(role="user", parts=[Text(text="a\ud800b")])])
    with pytest.raises(EncodeError) as err:
        client.send(request)
    assert (err.value.codec, err.value.path) == ("openai-chat", "messages[0].content")
    assert sent == []


# --- the rule checker flags the same bodies ---------------------------------------------------


def test_check_rules_flags_what_anthropic_refuses() -> None:
    body = {
        "model": "",
        "max_tokens": -1,
        "temperature": math.nan,
        "tools": [{"name": "a b", "input_schema": {"type": "object"}}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "not base64!"}}
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "f", "input": {}},
                    {"type": "tool_use", "id": "t1", "name": "f", "input": {}},
                ],
            },
        ],
    }
    assert check_rules("anthropic-messages", body) == [
        "model: empty",
        "max_tokens: -1 is negative",
        "temperature: nan is not a JSON number",
        "tools[0].name: 'a b' does not match [a-zA-Z0-9_-]{1,64}",
        "messages[1].content[1]: tool call id 't1' used twice in one turn",
        "messages[0].content[0].source.data: not base64 data",
    ]


def test_check_rules_flags_what_openai_chat_refuses() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    body = {
        "model": "gpt-4o",
        "max_completion_tokens": -3,
        "tools": [{"type": "function", "function": {"name": "x" * 65}}],
        "messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,a b"}}]},
            {"role": "assistant", "tool_calls": [call, call]},
            {"role": "tool", "tool_call_id": "c1", "content": "1"},
            {"role": "tool", "tool_call_id": "c1", "content": "1"},
        ],
    }
    problems = check_rules("openai-chat", body)
    assert problems[-4:] == [
        "max_completion_tokens: -3 is negative",
        f"tools[0].function.name: '{'x' * 65}' does not match [a-zA-Z0-9_-]{{1,64}}",
        "messages[1].tool_calls[1]: tool call id 'c1' used twice in one turn",
        "messages[0].content[0].image_url.url: not base64 data",
    ]


def test_check_rules_flags_what_responses_refuses() -> None:
    body = {
        "model": "gpt-5",
        "tools": [{"type": "function", "name": "a:b", "parameters": {}}],
        "input": [
            {"role": "user", "content": "go"},
            {"type": "function_call", "call_id": "", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "", "output": "1"},
        ],
    }
    assert check_rules("openai-responses", body) == [
        "tools[0].name: 'a:b' does not match [a-zA-Z0-9_-]{1,64}",
        "input[1]: empty tool call id",
    ]


def test_check_rules_flags_what_gemini_refuses() -> None:
    body = {
        "contents": [{"role": "user", "parts": [{"inlineData": {"mimeType": "image/png", "data": "%%%"}}]}],
        "tools": [{"functionDeclarations": [{"name": "9lives"}]}],
        "generationConfig": {"maxOutputTokens": -1, "topP": math.inf},
    }
    assert check_rules("gemini", body, model="gemini-2.5-flash") == [
        "generationConfig.maxOutputTokens: -1 is negative",
        "generationConfig.topP: inf is not a JSON number",
        "tools[0].functionDeclarations[0].name: '9lives' does not match [a-zA-Z_][a-zA-Z0-9_.:-]{0,127}",
        "contents[0].parts[0].inlineData.data: not base64 data",
    ]
