"""anthropic-messages: request messages and blocks, wire -> IR (``_request._decode_message``,
``_parts.decode_blocks``): pinned cases, near-miss blocks and generated wire, each decoded or
refused with a DecodeError at its own path."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interlingua import (
    DecodeError,
    Document,
    Message,
    ProviderEcho,
    Request,
    Text,
    TextSource,
    ToolResult,
    ToolUse,
)
from interlingua.testing import strategies
from interlingua_anthropic import AnthropicMessagesCodec

CODEC = AnthropicMessagesCodec()


def test_a_string_system_prompt_and_an_explicit_is_error_false_decode_and_encode_exactly() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok", "is_error": False}],
            },
        ],
    }
    request = CODEC.decode_request(body)
    assert request.messages[0].parts == [Text("Be brief.")]
    result = request.messages[-1].parts[0]
    assert isinstance(result, ToolResult) and result.name == "f" and not result.is_error
    assert result.provider_echoes == [ProviderEcho(provider="anthropic", data={"is_error": False})]
    assert CODEC.encode_request(request).body == body


# A result before a call that reuses its id: the result takes the name of the call it answers.
_RESULT_BEFORE_A_CALL_OF_ITS_ID = Request(
    model="claude-sonnet-4-5",
    messages=[
        Message(role="assistant", parts=[ToolUse(id="x", name="f", input={})]),
        Message(
            role="user",
            parts=[
                ToolResult(tool_use_id="x", name="f", content="r"),
                ToolUse(id="x", name="g", input={}),
                Document(source=TextSource(text="d")),
            ],
        ),
    ],
)


def test_a_result_takes_the_name_of_the_call_met_before_it() -> None:
    body = CODEC.encode_request(_RESULT_BEFORE_A_CALL_OF_ITS_ID).body
    result, call, _ = CODEC.decode_request(body).messages[1].parts
    assert isinstance(result, ToolResult) and isinstance(call, ToolUse)
    assert (result.name, call.name) == ("f", "g")  # the name of the call it answers, met before it


# --- wire near misses and malformed bodies -------------------------------------------------------

_NEAR_MISSES: list[Any] = [
    {"type": "text", "text": 5},
    {"type": "text", "text": "a", "cache_control": {"type": "ephemeral", "ttl": "2h"}},
    {"type": "text", "text": "a", "cache_control": {"type": "ephemeral", "ttl": 5}},
    {"type": "text", "text": "a", "cache_control": {"type": "ephemeral", "ttl": None}},
    {"type": "text", "text": "a", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
    {"type": "text", "text": "a", "cache_control": {}},
    {"type": "text", "text": "a", "cache_control": "ephemeral"},
    {"type": "text", "text": "a", "cache_control": None},
    {"type": "text", "text": "a", "citations": None},
    {"type": "text", "text": "a", "citations": []},
    {"type": "text", "text": "a", "extra": None},
    {"type": "text", "text": "a", "extra": 1},
    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
    {"type": "image", "source": {"type": "base64", "data": "AAAA"}},
    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": 7}},
    {"type": "image", "source": {"type": "base64", "media_type": None, "data": "AAAA"}},
    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA", "x": 1}},
    {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
    {"type": "image", "source": {"type": "url", "url": None}},
    {"type": "image", "source": {"type": "file", "file_id": "file_1"}},
    {"type": "image", "source": {"type": "text", "media_type": "text/plain", "data": "hi"}},
    {"type": "image", "source": {"type": "weird"}},
    {"type": "image", "source": None},
    {"type": "image"},
    {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}, "cache_control": {"ttl": "2h"}},
    {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}, "cache_control": {"ttl": "5m"}},
    {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "hi"}},
    {"type": "thinking", "thinking": "hm", "signature": "c2ln"},
    {"type": "thinking", "thinking": "hm"},
    {"type": "thinking", "thinking": "hm", "signature": None},
    {"type": "thinking", "thinking": "hm", "signature": 5},
    {"type": "thinking", "thinking": 5, "signature": "c2ln"},
    {"type": "thinking", "thinking": "hm", "signature": "c2ln", "cache_control": {"type": "ephemeral"}},
    {"type": "redacted_thinking", "data": "ZGF0YQ"},
    {"type": "redacted_thinking"},
    {"type": "redacted_thinking", "data": 5},
    {"type": "redacted_thinking", "data": "ZGF0YQ", "x": 1},
    {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}},
    {"type": "tool_use", "id": 7, "name": "f", "input": {}},
    {"type": "tool_use", "id": "toolu_1", "name": None, "input": {}},
    {"type": "tool_use", "id": "toolu_1", "name": "f", "input": None},
    {"type": "tool_use", "id": "toolu_1", "name": "f"},
    {"type": "tool_use", "id": "toolu_1", "name": "f", "input": [1]},
    {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}, "caller": {"type": "direct"}},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"},
    {"type": "tool_result", "tool_use_id": 5, "content": "ok"},
    {"type": "tool_result", "tool_use_id": "toolu_1"},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": None},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": 5},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "a"}]},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": 5}]},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "document", "source": {}}]},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok", "is_error": True},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok", "is_error": False},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok", "is_error": None},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok", "is_error": "yes"},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok", "cache_control": {"ttl": "2h"}},
    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok", "cache_control": {"ttl": "1h"}},
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}},
    {},
    {"type": 5},
    {"type": ["text"]},
    {"type": None, "text": "x"},
    "text",
    None,
]


@pytest.mark.parametrize("block", _NEAR_MISSES, ids=lambda b: json.dumps(b)[:60])
def test_each_near_miss_block_decodes_or_fails_at_its_own_path(block: Any) -> None:
    call = {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {}}
    for content in ([block], [{"type": "text", "text": "first"}, block]):
        where = len(content) - 1
        bodies = {
            f"messages[1].content[{where}]": {
                "model": "m",
                "messages": [{"role": "assistant", "content": [call]}, {"role": "user", "content": content}],
            },
            f"system[{where}]": {"model": "m", "system": content, "messages": []},
        }
        for at, body in bodies.items():
            _assert_decodes_or_fails_within(body, at, len(content))


def _assert_decodes_or_fails_within(body: Any, at: str, blocks: int) -> None:
    """A body decodes with one part per block (none dropped: an unknown one is kept as native),
    or fails with a DecodeError at a path within ``at``."""
    try:
        request = CODEC.decode_request(body)
    except DecodeError as error:
        assert error.path.startswith(at), (error.path, at)
        return
    assert len(request.messages[-1].parts) == blocks


_SIGNATURE = st.text(alphabet="ABCDEFabcdef0123456789+/=", min_size=1, max_size=24)


def _mostly(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``valid`` three times in four, else a wrong JSON type: bodies stay mostly decodable."""
    return st.one_of(valid, valid, valid, _WRONG)


_WRONG = st.sampled_from([3, 1.5, True, None, ["x"], {"a": 1}])
_CALL_IDS = _mostly(st.sampled_from(["toolu_1", "toolu_2"]))
_LEAF_BLOCKS = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": _mostly(strategies.texts)}),
    st.fixed_dictionaries(
        {"type": st.just("image"), "source": st.just({"type": "url", "url": "https://example.com/a.png"})}
    ),
    st.sampled_from(_NEAR_MISSES),
)
_BLOCKS = st.one_of(
    _LEAF_BLOCKS,
    st.fixed_dictionaries(
        {"type": st.just("thinking"), "thinking": strategies.texts, "signature": _mostly(_SIGNATURE)}
    ),
    st.fixed_dictionaries(
        {"type": st.just("tool_use"), "id": _CALL_IDS, "name": strategies.names, "input": strategies.json_objects()}
    ),
    st.fixed_dictionaries(
        {"type": st.just("tool_result"), "tool_use_id": _CALL_IDS},
        optional={
            "content": _mostly(strategies.texts | st.lists(_LEAF_BLOCKS, max_size=2)),
            "is_error": _mostly(st.booleans()),
        },
    ),
)
_CONTENT = _mostly(strategies.texts | st.lists(_BLOCKS, max_size=4))
_ROLES = _mostly(st.sampled_from(["user", "assistant", "system", "developer"]))
_WIRE_MESSAGES = st.one_of(
    st.fixed_dictionaries({"role": _ROLES, "content": _CONTENT}),
    st.fixed_dictionaries({"role": _ROLES, "content": _CONTENT}),
    st.fixed_dictionaries(
        {"role": _ROLES}, optional={"content": _CONTENT, "id": st.sampled_from(["msg_1", None]), "x": st.none()}
    ),
)
_BODIES = st.fixed_dictionaries(
    {"model": st.just("claude-sonnet-4-5"), "messages": _mostly(st.lists(_WIRE_MESSAGES, max_size=4))},
    optional={"system": _mostly(strategies.texts | st.lists(_BLOCKS, max_size=2))},
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_BODIES)
def test_generated_wire_decodes_or_fails_with_a_decode_error(body: dict[str, Any]) -> None:
    try:
        CODEC.decode_request(body)
    except DecodeError as error:
        assert error.path  # a path, never a bare KeyError or TypeError


def test_a_malformed_block_fails_with_its_path() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "id": 7}]},
        ],
    }
    with pytest.raises(DecodeError) as caught:
        CODEC.decode_request(body)
    assert (caught.value.path, caught.value.reason) == (
        "messages[1].content[1].id",
        "expected a string, got an integer",
    )
