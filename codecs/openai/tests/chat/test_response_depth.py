"""decode_response checks nesting only where it keeps a value unread: every such place still
refuses a body past the limit, and a plain answer is not walked for it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from interlingua import DecodeError
from interlingua.kit import MAX_DEPTH
from interlingua.testing import load_body, real_fixtures_dir, skip_without_corpus
from interlingua_openai.chat import OpenAIChatCodec, _response

_DEEP = json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def _answer(name: str) -> dict[str, Any]:
    skip_without_corpus()
    return load_body(real_fixtures_dir() / "openai-chat" / "response" / f"{name}.json")


def _call(**more: Any) -> dict[str, Any]:
    return {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}", **more.pop("fn", {})}, **more}


# Each place a chat answer keeps a value without reading it through: (where, value put there).
_KEPT = {
    "top-level key": lambda b: b.__setitem__("x", _DEEP),
    "choice logprobs": lambda b: b["choices"][0].__setitem__("logprobs", {"content": _DEEP}),
    "second choice": lambda b: b["choices"].append({"index": 1, "x": _DEEP}),
    "message key": lambda b: b["choices"][0]["message"].__setitem__("x", _DEEP),
    "annotation": lambda b: b["choices"][0]["message"].__setitem__("annotations", [{"type": "x", "x": _DEEP}]),
    "content block": lambda b: b["choices"][0]["message"].__setitem__("content", [{"type": "x", "x": _DEEP}]),
    "audio key": lambda b: b["choices"][0]["message"].__setitem__("audio", {"id": "a", "data": "", "x": _DEEP}),
    "call key": lambda b: b["choices"][0]["message"].__setitem__("tool_calls", [_call(x=_DEEP)]),
    "function key": lambda b: b["choices"][0]["message"].__setitem__("tool_calls", [_call(fn={"x": _DEEP})]),
    "usage key": lambda b: b["usage"].__setitem__("x", _DEEP),
    "usage details key": lambda b: b["usage"]["prompt_tokens_details"].__setitem__("x", _DEEP),
    "cost details": lambda b: b["usage"].update(cost=1, cost_details={"x": _DEEP}),
}


@pytest.mark.parametrize("where", sorted(_KEPT))
def test_a_value_kept_unread_past_the_depth_limit_is_refused(where: str) -> None:
    body = _answer("parallel-tool-calls-turn2")
    _KEPT[where](body)
    with pytest.raises(DecodeError) as err:
        OpenAIChatCodec().decode_response(body)
    assert (err.value.codec, err.value.path, err.value.reason) == (
        "openai-chat",
        "",
        f"nested more than {MAX_DEPTH} levels deep",
    )


def test_a_kept_value_within_the_limit_decodes() -> None:
    body = _answer("parallel-tool-calls-turn2")
    body["choices"][0]["message"]["x"] = json.loads("[" * (MAX_DEPTH - 10) + "]" * (MAX_DEPTH - 10))
    response = OpenAIChatCodec().decode_response(body)
    assert response.message.provider_echoes[0].data["wire"]["x"] == body["choices"][0]["message"]["x"]


@pytest.mark.parametrize("name", ["parallel-tool-calls-turn1", "parallel-tool-calls-turn2", "text-basic"])
def test_a_plain_recorded_answer_is_not_walked_for_depth(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[Any] = []
    monkeypatch.setattr(_response, "check_depth", lambda value, at="": walked.append(value))
    body = _answer(name)
    assert OpenAIChatCodec().decode_response(copy.deepcopy(body)) == OpenAIChatCodec().decode_response(body)
    assert walked == []
