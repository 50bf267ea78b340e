"""anthropic-messages: the fast readers of common messages and blocks (``_fast.py``) against the
careful decoders. Wherever the fast ones answer, a body decodes to the same IR (values, number
types and set fields at every level); bad input fails with the same DecodeError. Checked on the
real corpus, the golden fixtures, the benchmark transcript, generated IR (encoded, then decoded)
and generated wire near misses; and the common shapes of real traffic do take the fast path."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from interlingua import (
    Base64Source,
    CacheControl,
    DecodeError,
    Document,
    Image,
    Message,
    ProviderEcho,
    RedactedThinking,
    Request,
    Text,
    TextSource,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
)
from interlingua.testing import (
    assert_decodes_alike,
    declining,
    load_body,
    load_script,
    real_fixtures,
    skip_without_corpus,
    strategies,
)
from interlingua_anthropic import AnthropicMessagesCodec, _fast
from interlingua_anthropic._parts import Context

CODEC = AnthropicMessagesCodec()
ROOT = Path(__file__).resolve().parents[3]
GOLDEN = sorted(p for p in (ROOT / "fixtures/anthropic-messages/request").glob("*.json") if ".ir." not in p.name)
REQUESTS = [*real_fixtures("anthropic-messages", "request"), *GOLDEN]
FAST = ("decode_message", "decode_blocks")


def careful_only() -> AbstractContextManager[None]:
    """Every fast reader declines, so each message and block list goes the careful way."""
    return declining(_fast, *FAST)


def _bench_transcript() -> dict[str, Any]:
    """The benchmark's 41-message transcript body."""
    bench = load_script(ROOT / "bench/bench_anthropic_messages.py")
    body: dict[str, Any] = bench.transcript()
    return body


def _assert_decodes_alike(body: Any) -> Request | None:
    return assert_decodes_alike(CODEC.decode_request, careful_only, body)


def _taken(body: dict[str, Any]) -> list[bool]:
    """Which messages of a body the fast reader takes whole."""
    ctx = Context(body.get("model", ""))
    return [_fast.decode_message(message, ctx) is not None for message in body["messages"]]


# --- the recorded traffic and the benchmark ------------------------------------------------------


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_fast_and_careful_paths_agree_on_every_recorded_request(path: Path) -> None:
    body = load_body(path)
    request = _assert_decodes_alike(body)
    assert request is not None
    assert CODEC.encode_request(request).body == body


def test_fast_and_careful_paths_agree_on_the_benchmark_transcript() -> None:
    body = _bench_transcript()
    request = _assert_decodes_alike(body)
    assert request is not None and len(request.messages) == 42  # the system prompt, then 41


def test_every_message_and_the_system_prompt_of_the_benchmark_take_the_fast_path() -> None:
    body = _bench_transcript()
    assert _taken(body) == [True] * 41
    assert _fast.decode_blocks(body["system"], Context(None)) is not None


def test_the_common_shapes_of_real_traffic_take_the_fast_path() -> None:
    """Only the messages holding a document (left to the careful decoder) are declined."""
    skip_without_corpus()
    declined: list[str] = []
    kinds: set[str] = set()
    for path in real_fixtures("anthropic-messages", "request"):
        body = load_body(path)
        for i, taken in enumerate(_taken(body)):
            content = body["messages"][i]["content"]
            blocks = content if isinstance(content, list) else [{"type": "string"}]
            if taken:
                kinds.update(block["type"] for block in blocks)
            else:
                declined.append(f"{path.stem}[{i}]")
    assert kinds == {"text", "image", "thinking", "redacted_thinking", "tool_use", "tool_result"}
    assert declined == ["pdf-document-base64[0]", "xv-tool-returns-pdf-turn2[2]"]


def test_a_string_system_prompt_and_an_explicit_is_error_false_decode_alike() -> None:
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
    assert _taken(body) == [True, True, True]
    request = _assert_decodes_alike(body)
    assert request is not None
    result = request.messages[-1].parts[0]
    assert isinstance(result, ToolResult) and result.name == "f" and not result.is_error
    assert result.provider_echoes == [ProviderEcho(provider="anthropic", data={"is_error": False})]
    assert CODEC.encode_request(request).body == body


# --- generated IR, encoded then decoded ----------------------------------------------------------

_MARK = st.none() | st.builds(CacheControl, ttl=st.sampled_from([None, "5m", "1h"]))
_SIGNATURE = st.text(alphabet="ABCDEFabcdef0123456789+/=", min_size=1, max_size=24)
_SOURCE = st.one_of(
    st.just(Base64Source(media_type="image/png", data="iVBORw0KGgo=")),
    st.just(UrlSource(url="https://example.com/a.png")),
)
_TEXT = st.builds(Text, text=strategies.texts, cache_control=_MARK)
_IMAGE = st.builds(Image, source=_SOURCE, cache_control=_MARK)
_THINKING = st.builds(
    Thinking,
    text=strategies.texts,
    provider_echoes=_SIGNATURE.map(lambda s: [ProviderEcho(provider="anthropic", data={"signature": s})]),
)
_REDACTED = st.builds(
    RedactedThinking,
    provider_echoes=_SIGNATURE.map(lambda d: [ProviderEcho(provider="anthropic", data={"data": d})]),
)
_IDS = st.sampled_from(["toolu_01", "toolu_02", "call.with.dots"])
_CALL = st.builds(ToolUse, id=_IDS, name=strategies.names, input=strategies.json_objects())
_RESULT = st.builds(
    ToolResult,
    tool_use_id=_IDS,
    name=strategies.names,
    content=strategies.texts | st.lists(_TEXT | _IMAGE, max_size=2),
    is_error=st.booleans(),
    cache_control=_MARK,
    provider_echoes=st.sampled_from([[], [ProviderEcho(provider="anthropic", data={"is_error": False})]]),
)
_MESSAGES = st.one_of(
    st.builds(Message, role=st.just("user"), parts=st.lists(_TEXT | _IMAGE | _RESULT, min_size=1, max_size=3)),
    st.builds(
        Message,
        role=st.just("assistant"),
        parts=st.lists(_THINKING | _REDACTED, max_size=1).flatmap(
            lambda lead: st.lists(_TEXT | _CALL, min_size=1, max_size=3, unique_by=strategies.call_key).map(
                lambda rest: lead + rest
            )
        ),
    ),
    strategies.messages(),
)
_REQUESTS = st.one_of(
    st.builds(Request, model=st.just("claude-sonnet-4-5"), messages=st.lists(_MESSAGES, max_size=5)),
    st.builds(Request, model=st.just("claude-sonnet-4-5"), messages=strategies.conversations()),
    strategies.requests(),
)


# A result before a call that reuses its id, in a message the fast reader declines (the document):
# the declined read had recorded the second call's name, so the careful one gave it to the result.
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


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_REQUESTS)
@example(_RESULT_BEFORE_A_CALL_OF_ITS_ID)
def test_fast_and_careful_paths_agree_on_generated_ir(request: Request) -> None:
    body = CODEC.encode_request(request).body
    decoded = _assert_decodes_alike(body)
    assert decoded is not None


def test_a_declined_read_leaves_no_tool_name_behind() -> None:
    body = CODEC.encode_request(_RESULT_BEFORE_A_CALL_OF_ITS_ID).body
    assert _taken(body) == [True, False]
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
def test_fast_and_careful_paths_agree_on_each_near_miss_block_and_its_error(block: Any) -> None:
    call = {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {}}
    for content in ([block], [{"type": "text", "text": "first"}, block]):
        _assert_decodes_alike(
            {"model": "m", "messages": [{"role": "assistant", "content": [call]}, {"role": "user", "content": content}]}
        )
        _assert_decodes_alike({"model": "m", "system": content, "messages": []})


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
def test_fast_and_careful_paths_agree_on_generated_wire_and_its_errors(body: dict[str, Any]) -> None:
    _assert_decodes_alike(body)


def test_a_malformed_block_fails_with_the_careful_decoders_path() -> None:
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
    assert _assert_decodes_alike(body) is None
