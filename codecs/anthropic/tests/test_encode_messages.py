"""anthropic-messages: the message writer (``_request._encode_messages``) and the turns it notes
for the core's turn check. The codec writes first and checks the rules from the noted turns; it
gives the same body (keys in the same order), warnings or error as checking the rules first
(``encode_with_rules``). Checked on the real corpus, the golden fixtures, the benchmark
transcript and generated IR; and the common shapes of real traffic are noted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interlingua import (
    Base64Source,
    CacheControl,
    Citation,
    CitationSource,
    Encoded,
    FileSource,
    Image,
    Message,
    ProviderEcho,
    RedactedThinking,
    Request,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
)
from interlingua.kit import ToolIds, Turn, encode_with_rules
from interlingua.testing import (
    encode_outcome,
    load_body,
    load_script,
    real_fixtures,
    skip_without_corpus,
    strategies,
)
from interlingua_anthropic import AnthropicMessagesCodec, _request

CODEC = AnthropicMessagesCodec()
RULES = CODEC.rules
IDS: ToolIds = RULES.tool_ids  # type: ignore[assignment]  # this codec has an id rule
ROOT = Path(__file__).resolve().parents[3]
GOLDEN = sorted(p for p in (ROOT / "fixtures/anthropic-messages/request").glob("*.json") if ".ir." not in p.name)
REQUESTS = [*real_fixtures("anthropic-messages", "request"), *GOLDEN]


def _bench_transcript() -> dict[str, Any]:
    """The benchmark's 41-message transcript body."""
    bench = load_script(ROOT / "bench/bench_anthropic_messages.py")
    body: dict[str, Any] = bench.transcript()
    return body


def _assert_encodes_alike(request: Request, strict: bool = False) -> tuple[Any, ...]:
    """The codec's outcome, which equals checking the rules first."""
    noted = encode_outcome(lambda: CODEC.encode_request(request, strict=strict))
    assert noted == encode_outcome(lambda: _checking_first(AnthropicMessagesCodec(), request, strict))
    return noted


def _noted(request: Request) -> list[Turn]:
    """The turns the writer notes for a request's messages (it stops at the first it leaves)."""
    turns: list[Turn] = []
    _request.encode_request(request, CODEC.name, CODEC.default_max_tokens, strict=False, turns=turns)
    return turns


def _taken(request: Request) -> list[bool]:
    """Which messages of a request the writer notes."""
    turns = _noted(request)
    return [i < len(turns) for i in range(len(request.messages))]


# --- the recorded traffic and the benchmark ------------------------------------------------------


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_every_recorded_request_encodes_as_it_came_and_as_checking_the_rules_first(path: Path) -> None:
    body = load_body(path)
    request = CODEC.decode_request(body)
    _assert_encodes_alike(request)
    assert CODEC.encode_request(request).body == body


def test_every_message_of_the_benchmark_is_noted_and_encodes_as_it_came() -> None:
    body = _bench_transcript()
    request = CODEC.decode_request(body)
    assert _taken(request) == [True] * 42  # the system prompt (with its cache mark), then 41
    text, warnings = _assert_encodes_alike(request)
    assert (json.loads(text), warnings) == (body, [])


def test_the_common_shapes_of_real_traffic_are_noted() -> None:
    """Only the messages holding a document (one as a result's content) are left to the full
    walk of the turn rules."""
    skip_without_corpus()
    declined: list[str] = []
    for path in real_fixtures("anthropic-messages", "request"):
        request = CODEC.decode_request(load_body(path))
        declined += [f"{path.stem}[{i}]" for i, taken in enumerate(_taken(request)) if not taken]
    assert declined == ["pdf-document-base64[0]", "xv-tool-returns-pdf-turn2[2]"]


# --- pinned cases --------------------------------------------------------------------------------

_SIGNED = [ProviderEcho(provider="anthropic", data={"signature": "c2ln"})]


def test_a_cache_mark_of_a_noted_message_is_held_to_the_wires_limits_at_its_path() -> None:
    """Five marks: the earliest is dropped, reported at the path of its part, as the careful
    turn rules' walk would; a 1h mark after a 5m one is shortened."""
    texts = [Text(f"t{i}", cache_control=CacheControl(ttl="1h" if i == 4 else None)) for i in range(5)]
    messages = [Message.user(*texts[:2]), Message.assistant("ok"), Message.user(*texts[2:])]
    request = Request(model="claude-sonnet-4-5", max_tokens=64, messages=messages)
    assert _taken(request) == [True, True, True]
    body, warnings = _assert_encodes_alike(request)
    assert [w.path for w in warnings] == ["messages[0].parts[0].cache_control", "messages[2].parts[2].cache_control"]
    assert "cache_control" not in json.loads(body)["messages"][0]["content"][0]


def test_thinking_after_text_in_one_wire_turn_is_reported_at_its_own_path() -> None:
    """Two assistant messages join one wire turn; the thinking of the second comes after the
    text of the first, so it goes, reported at the part it was."""
    messages = [
        Message.user("hi"),
        Message.assistant("first"),
        Message.assistant(Thinking("later", provider_echoes=_SIGNED), Text("second")),
    ]
    request = Request(model="claude-sonnet-4-5", max_tokens=64, messages=messages)
    assert _taken(request) == [True, True, True]
    _, warnings = _assert_encodes_alike(request)
    assert [w.path for w in warnings] == ["messages[2].parts[0]"]


def test_a_user_message_of_results_is_noted_as_a_tool_turn_and_mixed_ones_are_left() -> None:
    call = Message.assistant(ToolUse("toolu_1", "f", {}), ToolUse("toolu_2", "f", {}))
    results = Message.user(ToolResult("toolu_1", "f", "ok"), ToolResult("toolu_2", "f", ""))
    request = Request(model="claude-sonnet-4-5", messages=[call, results])
    assert _noted(request) == [("assistant", ["toolu_1", "toolu_2"]), ("tool", ["toolu_1", "toolu_2"])]
    mixed = Message.user(ToolResult("toolu_1", "f", "ok"), Text("and then"))
    assert _noted(request.model_copy(update={"messages": [call, mixed]})) == [("assistant", ["toolu_1", "toolu_2"])]
    assert _noted(request.model_copy(update={"messages": [Message.tool()]})) == []


def test_an_error_result_keeps_its_flag_over_an_echo_of_is_error_false() -> None:
    """The IR's flag wins over the echo decode keeps for an explicit ``is_error: false``."""
    echo = [ProviderEcho(provider="anthropic", data={"is_error": False})]
    messages = [
        Message.assistant(ToolUse("toolu_1", "f", {})),
        Message.user(ToolResult("toolu_1", "f", "boom", is_error=True, provider_echoes=echo)),
    ]
    body, _ = _assert_encodes_alike(Request(model="claude-sonnet-4-5", max_tokens=64, messages=messages))
    assert json.loads(body)["messages"][1]["content"][0]["is_error"] is True


# --- generated IR --------------------------------------------------------------------------------

_ANTHROPIC = st.sampled_from(
    [
        {"content_string": True},
        {"content_string": 1},
        {"signature": "c2ln"},
        {"signature": 3},
        {"is_error": False},
        {"is_error": 0},
        {"data": "ZGF0"},
        {"data": "ZGF0", "extra": 1},
    ]
)
_ECHOES: st.SearchStrategy[list[ProviderEcho]] = st.one_of(
    st.just([]),
    _ANTHROPIC.map(lambda data: [ProviderEcho(provider="anthropic", data=data)]),
    st.just([ProviderEcho(provider="acme", data={"signature": "x"})]),
    strategies.echoes(),
)
_MARK = st.none() | st.builds(CacheControl, ttl=st.sampled_from([None, "5m", "1h"]))
_CITATION = Citation(source=CitationSource(type="url", url="https://example.com/a"), start=0, end=1)
_SOURCES = st.one_of(
    st.just(Base64Source(media_type="image/png", data="iVBORw0KGgo=")),
    st.just(Base64Source(media_type="image/tiff", data="AAAA")),
    st.just(UrlSource(url="https://example.com/a.png")),
    st.just(FileSource(file_id="file_1", provider="anthropic")),
)
_IDS = st.sampled_from(["toolu_01", "toolu_02", "call.with.dots"])
_TEXT = st.builds(Text, text=strategies.texts, cache_control=_MARK)
_IMAGE = st.builds(Image, source=_SOURCES.filter(lambda s: not isinstance(s, FileSource)), cache_control=_MARK)
_THINKING = st.builds(Thinking, text=strategies.texts, provider_echoes=st.just(_SIGNED))
_REDACTED = st.just(RedactedThinking(provider_echoes=[ProviderEcho(provider="anthropic", data={"data": "ZGF0"})]))
_FALSE = [ProviderEcho(provider="anthropic", data={"is_error": False})]
_CALL = st.builds(ToolUse, id=_IDS, name=strategies.names, input=strategies.json_objects())
_RESULT = st.one_of(
    st.builds(
        ToolResult,
        tool_use_id=_IDS,
        name=strategies.names,
        content=strategies.texts,
        is_error=st.booleans(),
        cache_control=_MARK,
    ),
    st.builds(  # the explicit ``is_error: false`` decode keeps
        ToolResult, tool_use_id=_IDS, name=strategies.names, content=strategies.texts, provider_echoes=st.just(_FALSE)
    ),
)
_STRING = [ProviderEcho(provider="anthropic", data={"content_string": True})]
_COMMON = st.one_of(  # the shapes the writer notes, for each role
    st.builds(Message, role=st.just("system"), parts=st.lists(_TEXT, min_size=1, max_size=2)),
    st.builds(Message, role=st.just("user"), parts=st.lists(_TEXT | _IMAGE, min_size=1, max_size=3)),
    st.builds(Message, role=st.sampled_from(["user", "tool"]), parts=st.lists(_RESULT, min_size=1, max_size=3)),
    st.builds(
        Message,
        role=st.just("user"),
        parts=st.builds(Text, text=strategies.texts).map(lambda t: [t]),
        provider_echoes=st.just(_STRING),
    ),
    st.builds(
        Message,
        role=st.just("assistant"),
        parts=st.lists(_THINKING | _REDACTED, max_size=1).flatmap(
            lambda lead: st.lists(
                st.builds(Text, text=strategies.texts) | _CALL, min_size=1, max_size=3, unique_by=strategies.call_key
            ).map(lambda rest: lead + rest)
        ),
    ),
)
_PARTS = st.one_of(  # and near misses, left to the full walk
    st.builds(Text, text=strategies.texts, provider_echoes=_ECHOES, cache_control=_MARK),
    st.builds(Text, text=strategies.texts, citations=st.just([_CITATION])),
    st.builds(Image, source=_SOURCES, provider_echoes=_ECHOES, cache_control=_MARK),
    st.builds(Thinking, text=strategies.texts, provider_echoes=_ECHOES, cache_control=_MARK),
    st.builds(RedactedThinking, provider_echoes=_ECHOES),
    st.builds(
        ToolUse,
        id=_IDS,
        name=strategies.names,
        input=strategies.json_objects(),
        raw_input=st.none() | st.just("{oops"),
        provider_echoes=_ECHOES,
    ),
    st.builds(
        ToolResult,
        tool_use_id=_IDS,
        name=strategies.names,
        content=strategies.texts | st.lists(strategies.text_parts(), max_size=1),
        is_error=st.booleans(),
        provider_echoes=_ECHOES,
        cache_control=_MARK,
    ),
    strategies.parts(),
)
_MESSAGES = strategies.writer_messages(_COMMON, _PARTS, _ECHOES, st.none() | st.just("ann"))
_REQUESTS = st.one_of(
    st.builds(Request, model=st.just("claude-sonnet-4-5"), messages=st.lists(_MESSAGES, max_size=5)),
    st.builds(Request, model=st.just("claude-sonnet-4-5"), messages=strategies.conversations()),
    strategies.requests(),
)


def _checking_first(codec: AnthropicMessagesCodec, request: Request, strict: bool) -> Encoded:
    """How the codec encoded before it noted turns: the turn rules first, then the writer."""
    return encode_with_rules(
        request,
        codec.rules,
        lambda ready, strict: _request.encode_request(
            ready, codec.name, codec.default_max_tokens, strict=strict, budgets=codec.budgets
        ),
        codec=codec.name,
        strict=strict,
        reasoning="drop",
    )


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_REQUESTS, strategies.requests(well_formed=False)), st.booleans())
def test_checking_the_rules_from_the_turns_written_encodes_as_checking_them_first(
    request: Request, strict: bool
) -> None:
    """The codec writes first and checks the rules from the turns its writer noted; the same
    body, warnings or error as normalizing first (``encode_with_rules``), fixed or not."""
    codec = AnthropicMessagesCodec()  # tool ids rewritten by another example stay out
    expected = encode_outcome(lambda: _checking_first(codec, request, strict))
    assert encode_outcome(lambda: codec.encode_request(request, strict=strict)) == expected


def test_a_request_fixed_by_the_rules_is_written_again_with_the_fixes_reported() -> None:
    request = CODEC.decode_request(_bench_transcript())
    results = [i for i, m in enumerate(request.messages) if m.role == "user" and isinstance(m.parts[0], ToolResult)]
    broken = request.model_copy(
        update={"messages": [m for i, m in enumerate(request.messages) if i not in results[:3]]}
    )
    encoded = CODEC.encode_request(broken)
    assert [w.path for w in encoded.warnings] == [
        "messages[4].parts[2]",  # the unanswered calls (the first after a thinking block)
        "messages[7].parts[1]",
        "messages[10].parts[1]",
    ]
    assert encoded == _checking_first(CODEC, broken, strict=False)
