"""Requests: exact round trips on the real corpus (invariant 1), and the mapping choices."""

from __future__ import annotations

from pathlib import Path

import pytest

from interlingua import (
    Audio,
    CacheControl,
    DecodeError,
    Document,
    Image,
    LossyEncode,
    MediaSource,
    Message,
    ProviderEcho,
    Request,
    ResponseFormat,
    Text,
    Thinking,
    ThinkingConfig,
    Tool,
    ToolChoice,
    ToolResult,
    ToolUse,
    UnsupportedSetting,
)
from interlingua.testing import assert_request_round_trip, check_rules, load_body, real_fixture, real_fixtures
from interlingua_anthropic import AnthropicMessagesCodec

CODEC = AnthropicMessagesCodec()
REQUESTS = real_fixtures("anthropic-messages", "request")


@pytest.mark.parametrize("path", REQUESTS, ids=[p.stem for p in REQUESTS])
def test_real_request_round_trips_exactly(path: Path) -> None:
    assert_request_round_trip(CODEC, load_body(path))


def _signed(text: str = "hmm") -> Thinking:
    return Thinking(text, provider_echoes=[ProviderEcho(provider="anthropic", data={"signature": "sig"})])


def test_string_content_and_string_system_are_kept_as_strings() -> None:
    body = {"model": "m", "max_tokens": 10, "system": "be brief", "messages": [{"role": "user", "content": "hi"}]}
    request = CODEC.decode_request(body)
    assert [m.role for m in request.messages] == ["system", "user"]
    assert request.messages[1].parts == [Text("hi")]
    assert CODEC.encode_request(request).body == body


def test_leading_system_becomes_system_blocks_and_later_system_a_system_message() -> None:
    request = Request(
        model="m",
        max_tokens=10,
        messages=[
            Message.system(Text("a").with_cache_control("1h")),
            Message.user("hi"),
            Message.assistant("hello"),
            Message.system("now be terse"),
            Message.user("go"),
        ],
    )
    body = CODEC.encode_request(request).body
    assert body["system"] == [{"type": "text", "text": "a", "cache_control": {"type": "ephemeral", "ttl": "1h"}}]
    assert body["messages"][2] == {"role": "system", "content": [{"type": "text", "text": "now be terse"}]}
    assert [m.role for m in CODEC.decode_request(body).messages] == ["system", "user", "assistant", "system", "user"]


def test_developer_message_is_sent_as_system_with_a_warning() -> None:
    encoded = CODEC.encode_request(Request(model="m", messages=[Message.developer("x"), Message.user("hi")]))
    assert encoded.body["system"] == [{"type": "text", "text": "x"}]
    assert [(type(w), w.path) for w in encoded.warnings] == [(UnsupportedSetting, "messages[0]")]


def test_tool_message_and_following_user_message_merge_into_one_user_turn() -> None:
    """The id ``call.1`` breaks the API's ``[a-zA-Z0-9_-]+``: call and result get one new id."""
    request = Request(
        model="m",
        max_tokens=100,
        messages=[
            Message.user("weather?"),
            Message.assistant(ToolUse("call.1", "weather", {"city": "Oslo"})),
            Message.tool(ToolResult("call.1", "weather", "rain", is_error=True)),
            Message.user("and tomorrow?"),
        ],
    )
    encoded = CODEC.encode_request(request)
    MAPPED = "toolu_ilx01mxHivYfZ"  # "call.1" in base 62, read back in any process
    assert encoded.body["messages"][1:] == [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": MAPPED, "name": "weather", "input": {"city": "Oslo"}}],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": MAPPED, "content": "rain", "is_error": True},
                {"type": "text", "text": "and tomorrow?"},
            ],
        },
    ]
    assert encoded.warnings == []  # an id rewrite is lossless: deterministic, the same for call and result
    assert CODEC.rules.tool_ids is not None
    assert CODEC.rules.tool_ids.decode(MAPPED) == "call.1"


def test_tool_result_takes_the_name_of_its_call() -> None:
    body = load_body(real_fixture("anthropic-messages", "request", "parallel-tool-use-turn2.json"))
    results = [p for p in CODEC.decode_request(body).messages[-1].parts if isinstance(p, ToolResult)]
    assert {r.name for r in results[:3]} == {"retrieve_entity_info"}


def test_audio_is_dropped_with_a_warning() -> None:
    request = Request(model="m", messages=[Message.user(Audio(MediaSource.from_base64("audio/wav", "AAAA")), "hi")])
    encoded = CODEC.encode_request(request)
    assert encoded.body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert [(w.part_type, w.action, w.path) for w in encoded.warnings if isinstance(w, LossyEncode)] == [
        ("audio", "dropped", "messages[0].parts[0]")
    ]


def test_unsigned_thinking_is_dropped_and_signed_thinking_is_replayed() -> None:
    request = Request(
        model="m",
        messages=[Message.user("q"), Message.assistant(Thinking("foreign"), _signed(), Text("a")), Message.user("q2")],
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "hmm", "signature": "sig"},
        {"type": "text", "text": "a"},
    ]
    assert [w.path for w in encoded.warnings] == ["messages[1].parts[0]"]


def test_thinking_is_turned_off_when_the_tool_turn_has_no_claude_thinking() -> None:
    request = Request(
        model="m",
        max_tokens=4000,
        thinking=ThinkingConfig(budget_tokens=2000),
        messages=[
            Message.user("q"),
            Message.assistant(Thinking("from another vendor"), ToolUse("t1", "f", {})),
            Message.tool(ToolResult("t1", "f", "ok")),
        ],
    )
    encoded = CODEC.encode_request(request)
    assert "thinking" not in encoded.body
    assert [(type(w).__name__, w.path) for w in encoded.warnings] == [
        ("LossyEncode", "messages[1].parts[0]"),
        ("UnsupportedSetting", "thinking"),
    ]


@pytest.mark.parametrize(
    ("thinking", "max_tokens", "expected", "sent_max"),
    [
        (ThinkingConfig(level="medium"), None, {"type": "enabled", "budget_tokens": 8192}, 4096 + 8192),
        (
            ThinkingConfig(budget_tokens=5000, summary=True),
            8000,
            {"type": "enabled", "budget_tokens": 5000, "display": "summarized"},
            8000,
        ),
        (ThinkingConfig(level="high"), 2000, {"type": "enabled", "budget_tokens": 1999}, 2000),
        (ThinkingConfig(), 100, {"type": "adaptive"}, 100),
        (ThinkingConfig(level="off"), None, {"type": "disabled"}, 4096),
    ],
    ids=["level-medium", "budget-summary", "budget-clamped", "adaptive", "off"],
)
def test_thinking_levels_map_to_budgets(
    thinking: ThinkingConfig, max_tokens: int | None, expected: dict, sent_max: int
) -> None:
    body = CODEC.encode_request(
        Request(model="m", max_tokens=max_tokens, thinking=thinking, messages=[Message.user("q")])
    ).body
    assert (body["thinking"], body["max_tokens"]) == (expected, sent_max)


def test_tool_settings_map_to_tool_choice() -> None:
    closed = {"type": "object", "properties": {}, "additionalProperties": False}  # strict: objects closed
    tool = Tool(name="f", description="d", input_schema=closed, strict=True, cache_control=CacheControl())
    request = Request(
        model="m",
        max_tokens=5,
        messages=[Message.user("q")],
        tools=[tool],
        tool_choice=ToolChoice(name="f"),
        parallel_tool_calls=False,
    )
    body = CODEC.encode_request(request).body
    assert body["tools"] == [
        {
            "name": "f",
            "description": "d",
            "input_schema": closed,
            "strict": True,
            "cache_control": {"type": "ephemeral"},
        }
    ]
    assert body["tool_choice"] == {"type": "tool", "name": "f", "disable_parallel_tool_use": True}
    decoded = CODEC.decode_request(body)
    assert (decoded.tool_choice, decoded.parallel_tool_calls, decoded.tools) == (ToolChoice(name="f"), False, [tool])


def test_json_schema_becomes_output_config_format_and_effort_stays() -> None:
    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    request = Request(
        model="m",
        max_tokens=5,
        messages=[Message.user("q")],
        response_format=ResponseFormat(type="json_schema", json_schema=schema),
        provider_options={"anthropic": {"output_config": {"effort": "low"}}},
    )
    body = CODEC.encode_request(request).body
    assert body["output_config"] == {"effort": "low", "format": {"type": "json_schema", "schema": schema}}
    assert CODEC.decode_request(body).response_format == ResponseFormat(type="json_schema", json_schema=schema)


def test_more_than_four_cache_marks_keep_the_last_four_and_1h_never_follows_5m() -> None:
    parts = [Text(str(i)).with_cache_control("1h" if i == 4 else None) for i in range(5)]
    encoded = CODEC.encode_request(Request(model="m", max_tokens=5, messages=[Message.user(*parts)]))
    marks = [b.get("cache_control") for b in encoded.body["messages"][0]["content"]]
    assert marks == [
        None,
        {"type": "ephemeral"},
        {"type": "ephemeral"},
        {"type": "ephemeral"},
        {"type": "ephemeral", "ttl": "5m"},
    ]
    assert [(w.path, w.action) for w in encoded.warnings] == [
        ("messages[0].parts[0].cache_control", "dropped"),
        ("messages[0].parts[4].cache_control", "converted"),
    ]


def test_documents_keep_title_context_and_citation_settings() -> None:
    block = {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": "The grass is green."},
        "title": "facts",
        "context": "a test",
        "citations": {"enabled": True},
    }
    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [block]}]}
    part = CODEC.decode_request(body).messages[0].parts[0]
    assert isinstance(part, Document) and part.name == "facts"
    assert part.source == MediaSource.from_text("The grass is green.")
    assert CODEC.encode_request(CODEC.decode_request(body)).body == body


def test_unknown_fields_go_to_provider_options_and_back() -> None:
    body = {"model": "m", "max_tokens": 5, "messages": [], "service_tier": "auto", "metadata": {"user_id": "u"}}
    request = CODEC.decode_request(body)
    assert request.provider_options == {"anthropic": {"service_tier": "auto", "metadata": {"user_id": "u"}}}
    assert CODEC.encode_request(request).body == body


def test_foreign_file_ids_and_unsupported_image_types_are_dropped() -> None:
    request = Request(
        model="m",
        messages=[
            Message.user(
                Image(MediaSource.from_file_id("file-1", provider="openai")),
                Image(MediaSource.from_base64("image/tiff", "AAAA")),
                Image(MediaSource.from_file_id("file_2", provider="anthropic")),
            )
        ],
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "file", "file_id": "file_2"}}
    ]
    assert [w.path for w in encoded.warnings] == ["messages[0].parts[0]", "messages[0].parts[1]"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"model": "m", "max_tokens": 5}, "messages"),
        ({"model": "m", "messages": [{"role": "user", "content": [{"type": "text"}]}]}, "messages[0].content[0].text"),
        ({"model": "m", "messages": [{"role": "robot", "content": "x"}]}, "messages[0].role"),
        ({"model": "m", "messages": [], "max_tokens": "ten"}, "max_tokens"),
        ({"model": "m", "messages": [{"role": "user", "content": 3}]}, "messages[0].content"),
    ],
    ids=["no-messages", "text-without-text", "unknown-role", "max-tokens-string", "content-number"],
)
def test_malformed_requests_fail_with_a_path(body: dict, path: str) -> None:
    with pytest.raises(DecodeError) as info:
        CODEC.decode_request(body)
    assert (info.value.codec, info.value.path) == ("anthropic-messages", path)


def test_strict_encode_raises_with_every_warning() -> None:
    from interlingua import LossyEncodeError

    request = Request(model="m", seed=1, messages=[Message.user(Audio(MediaSource.from_url("https://x/a.wav")))])
    with pytest.raises(LossyEncodeError) as info:
        CODEC.encode_request(request, strict=True)
    assert len(info.value.warnings) == 2


def test_a_response_formats_name_description_and_strict_false_are_reported() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    fmt = ResponseFormat(type="json_schema", name="answer", description="d", json_schema=schema, strict=False)
    encoded = CODEC.encode_request(
        Request(model="claude-sonnet-4-5", messages=[Message.user("hi")], response_format=fmt)
    )
    assert encoded.body["output_config"] == {"format": {"type": "json_schema", "schema": schema}}
    assert [(type(w), w.path) for w in encoded.warnings] == [
        (UnsupportedSetting, "response_format.name"),
        (UnsupportedSetting, "response_format.description"),
        (UnsupportedSetting, "response_format.strict"),
    ]
    enforced = fmt.model_copy(update={"name": None, "description": None, "strict": True})
    request = Request(model="claude-sonnet-4-5", messages=[Message.user("hi")], response_format=enforced)
    assert CODEC.encode_request(request).warnings == []


@pytest.mark.parametrize(
    ("part", "warned"),
    [
        (Image(MediaSource.from_url("https://example.com/a.png", "image/png")), []),
        (Document(MediaSource.from_url("https://example.com/a.pdf", "application/pdf")), []),
        (Document(MediaSource.from_url("https://example.com/a.txt", "text/plain")), [("document", "converted")]),
    ],
    ids=["image", "pdf", "text-document"],
)
def test_a_url_sources_media_type_needs_no_field_except_a_non_pdf_document(
    part: Image | Document, warned: list[tuple[str, str]]
) -> None:
    encoded = CODEC.encode_request(Request(model="claude-sonnet-4-5", messages=[Message.user(part)]))
    assert encoded.body["messages"][0]["content"][0]["source"] == {"type": "url", "url": part.source.url}  # type: ignore[union-attr]  # a UrlSource here
    assert [(w.part_type, w.action) for w in encoded.warnings if isinstance(w, LossyEncode)] == warned


def test_consecutive_assistant_messages_stay_apart_and_a_tool_message_joins_the_user_turn() -> None:
    messages = [
        Message.user("weather?"),
        Message.assistant("Let me look."),
        Message.assistant(ToolUse(id="toolu_1", name="weather", input={})),
        Message(role="tool", parts=[ToolResult(tool_use_id="toolu_1", name="weather", content="sunny")]),
        Message.user("and tomorrow?"),
    ]
    encoded = CODEC.encode_request(Request(model="claude-sonnet-4-5", max_tokens=64, messages=messages))
    assert [(m["role"], [b["type"] for b in m["content"]]) for m in encoded.body["messages"]] == [
        ("user", ["text"]),
        ("assistant", ["text"]),
        ("assistant", ["tool_use"]),
        ("user", ["tool_result", "text"]),
    ]
    assert encoded.warnings == []


def test_a_system_turn_keeps_its_tool_changes_and_two_in_a_row_stay_apart() -> None:
    """A mid-conversation system turn holds text, ``tool_addition`` and ``tool_removal`` blocks
    (the SDK's BetaSystemMessageParam); two of them in a row were accepted as sent (pydantic-ai
    corpus, test_native_tool_availability_delta, test_anthropic_live_delta_preserves_...)."""
    addition = {"type": "tool_addition", "tool": {"type": "tool_reference", "name": "lookup"}}
    body = {
        "model": "claude-opus-4-8",
        "max_tokens": 64,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "hello"}]},
            {"role": "system", "content": [addition]},
            {"role": "system", "content": [{"type": "text", "text": "now be terse"}]},
            {"role": "user", "content": [{"type": "text", "text": "go"}]},
        ],
    }
    assert_request_round_trip(CODEC, body)
    request = CODEC.decode_request(body)
    image = Image(MediaSource.from_base64("image/png", "AAAA"))
    turn = request.messages[3].model_copy(update={"parts": [*request.messages[3].parts, image]})
    encoded = CODEC.encode_request(request.model_copy(update={"messages": [*request.messages[:3], turn]}))
    assert encoded.body["messages"][3] == {"role": "system", "content": [{"type": "text", "text": "now be terse"}]}
    assert [(w.path, w.message) for w in encoded.warnings] == [
        ("messages[3].parts[1]", "a system turn holds only text and tool changes")
    ]


def test_thinking_opens_each_step_of_a_turn_after_a_server_tools_result() -> None:
    """Recorded and accepted: thinking between code-execution blocks of one assistant turn
    (pydantic-ai corpus, test_anthropic_code_execution_files_cache_prefix_stable_*-sonnet-5__2);
    thinking after the turn's text is still moved out, with a warning."""
    thinking = {"type": "thinking", "thinking": "", "signature": "c2ln"}
    use = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "bash_code_execution", "input": {"command": "ls"}}
    result = {"type": "bash_code_execution_tool_result", "tool_use_id": "srvtoolu_1", "content": {"type": "x"}}
    turn = [thinking, use, result, thinking, {"type": "text", "text": "done"}]
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": turn}],
    }
    assert_request_round_trip(CODEC, body)
    assert check_rules("anthropic-messages", body) == []
    late = {**body, "messages": [body["messages"][0], {"role": "assistant", "content": [*turn, thinking]}]}
    encoded = CODEC.encode_request(CODEC.decode_request(late))
    assert encoded.body["messages"][1]["content"] == turn
    assert [w.path for w in encoded.warnings] == ["messages[1].parts[5]"]
    problems = ["messages[1]: thinking blocks must come first in the assistant turn"]
    assert check_rules("anthropic-messages", late) == problems
