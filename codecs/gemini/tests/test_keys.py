"""Key spelling: camelCase bodies take the one-pass decode; a snake_case key anywhere sends the
body through ``normalize`` and comes back spelled as it came."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import interlingua as il
from interlingua import ToolUse
from interlingua.testing import load_body, real_fixture
from interlingua_gemini import _request
from interlingua_gemini._keys import SnakeCase, check_camel, normalize

CODEC = il.get_codec("gemini")


def _body() -> dict[str, Any]:
    """A camelCase body with every place a key can hide: a signed call, an image, a function
    response, settings at three depths."""
    return {
        "systemInstruction": {"parts": [{"text": "be brief"}]},
        "contents": [
            {"role": "user", "parts": [{"text": "look"}, {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "find", "args": {"user_id": 7}, "id": "c1"}, "thoughtSignature": "sig"}
                ],
            },
            {"role": "user", "parts": [{"functionResponse": {"name": "find", "id": "c1", "response": {"ok": 1}}}]},
        ],
        "tools": [{"functionDeclarations": [{"name": "find", "parametersJsonSchema": {"type": "object"}}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {"maxOutputTokens": 64, "thinkingConfig": {"includeThoughts": True}},
        "cachedContent": "cachedContents/abc",
    }


def _rename(body: dict[str, Any], path: tuple[Any, ...], new: str) -> dict[str, Any]:
    out = copy.deepcopy(body)
    holder: Any = out
    for step in path[:-1]:
        holder = holder[step]
    holder[new] = holder.pop(path[-1])
    return out


def _without_wire(request: il.Request) -> dict[str, Any]:
    options = {k: v for k, v in request.options("gemini").items() if k != "_wire"}
    return request.model_copy(update={"provider_options": {"gemini": options}}).to_json_dict()


@pytest.mark.parametrize("name", ["parallel-function-calls-turn2", "thinking-thought-signature-turn2", "text-basic"])
def test_camel_case_contents_are_read_in_one_pass(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """These real bodies spell tools or settings snake_case (pydantic-ai does), never contents:
    only the rest of the body is camelCased, and they still round-trip exactly."""
    walks: list[frozenset[str]] = []

    def spy(value: Any, keep: frozenset[str] = frozenset()) -> Any:
        walks.append(keep)
        return normalize(value, keep)

    monkeypatch.setattr(_request, "normalize", spy)
    body = load_body(real_fixture("gemini", "request", f"{name}.json"))
    assert CODEC.encode_request(CODEC.decode_request(body)).body == body
    assert walks == [_request._READ]


def test_snake_case_contents_take_the_careful_way_and_round_trip() -> None:
    body = load_body(real_fixture("gemini", "request", "xv-tool-returns-pdf-turn2.json"))
    with pytest.raises(SnakeCase):
        _request._decode_body(*normalize(body, keep=_request._READ), None, camel_only=True)
    assert CODEC.encode_request(CODEC.decode_request(body)).body == body


def test_tool_arguments_are_user_data_and_keep_their_keys() -> None:
    request = CODEC.decode_request(_body())
    call = request.messages[2].parts[0]
    assert isinstance(call, ToolUse) and call.input == {"user_id": 7}
    assert "_wire" not in request.options("gemini")


@pytest.mark.parametrize(
    ("path", "snake"),
    [
        (("contents", 1, "parts", 0, "thoughtSignature"), "thought_signature"),
        (("contents", 0, "parts", 1, "inlineData", "mimeType"), "mime_type"),
        (("contents", 0, "parts", 1, "inlineData"), "inline_data"),
        (("contents", 1, "parts", 0, "functionCall"), "function_call"),
        (("contents", 2, "parts", 0, "functionResponse"), "function_response"),
        (("systemInstruction",), "system_instruction"),
        (("tools", 0, "functionDeclarations"), "function_declarations"),
        (("toolConfig", "functionCallingConfig"), "function_calling_config"),
        (("generationConfig", "thinkingConfig", "includeThoughts"), "include_thoughts"),
        (("cachedContent",), "cached_content"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_a_snake_case_key_anywhere_decodes_as_camel_case_and_is_written_back(path: tuple[Any, ...], snake: str) -> None:
    camel = _body()
    body = _rename(camel, path, snake)
    request = CODEC.decode_request(body)
    assert _without_wire(request) == _without_wire(CODEC.decode_request(camel))
    assert request.options("gemini")["_wire"]["snakeCase"]
    assert CODEC.encode_request(request).body == body


def test_check_camel_finds_snake_keys_outside_user_data_only() -> None:
    check_camel({"a": [{"bB": {"args": {"user_id": 1}, "_private": 2}}], "labels": {"team_name": "x"}})
    with pytest.raises(SnakeCase):
        check_camel({"a": [{"bB": [{"video_metadata": {}}]}]})
