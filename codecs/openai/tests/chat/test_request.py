"""Requests both ways: invariant 1 on every recorded and golden request, and the mappings that matter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import (
    DecodeError,
    Document,
    Image,
    LossyEncode,
    MediaSource,
    Message,
    Request,
    Text,
    ThinkingConfig,
    ToolResult,
    ToolUse,
    UnsupportedSetting,
    Video,
)
from interlingua.testing import assert_request_round_trip, load_body, real_fixtures
from interlingua_openai.chat import OpenAIChatCodec

GOLDEN = Path(__file__).resolve().parents[4] / "fixtures" / "openai-chat"
CODEC = OpenAIChatCodec()


def _dialect_for(path: Path) -> str:
    return "ollama" if path.name.startswith("ollama-") else "openai"


@pytest.mark.parametrize("path", real_fixtures("openai-chat", "request"), ids=lambda p: p.stem)
def test_recorded_openai_request_round_trips_exactly(path: Path) -> None:
    assert_request_round_trip(OpenAIChatCodec(dialect=_dialect_for(path)), load_body(path))


@pytest.mark.parametrize("path", real_fixtures("mistral", "request"), ids=lambda p: p.stem)
def test_recorded_mistral_request_round_trips_through_the_mistral_dialect(path: Path) -> None:
    assert_request_round_trip(OpenAIChatCodec(dialect="mistral"), load_body(path))


GOLDEN_REQUESTS = sorted(p for p in (GOLDEN / "request").glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", GOLDEN_REQUESTS, ids=lambda p: p.stem)
def test_golden_request_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = load_body(path)
    expected = json.loads(path.with_name(path.stem + ".ir.json").read_text())
    request = CODEC.decode_request(body)
    assert request.to_json_dict() == expected
    assert Request.model_validate(expected) == Request.model_validate(request.to_json_dict())
    assert_request_round_trip(CODEC, body)


def test_tool_arguments_are_a_json_string_on_the_wire_and_a_dict_in_the_ir() -> None:
    request = Request(
        model="gpt-4o",
        messages=[
            Message.user("hi"),
            Message.assistant(ToolUse("call_1", "lookup", {"q": "x"})),
            Message.tool(ToolResult("call_1", "lookup", "found")),
        ],
    )
    body = CODEC.encode_request(request).body
    assert body["messages"][1] == {
        "role": "assistant",
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": '{"q":"x"}'}}],
    }
    assert body["messages"][2] == {"role": "tool", "tool_call_id": "call_1", "content": "found"}
    decoded = CODEC.decode_request(body)
    assert decoded.messages[1].parts[0] == ToolUse("call_1", "lookup", {"q": "x"})
    assert decoded.messages[2].parts[0] == ToolResult("call_1", "lookup", "found")


def test_non_json_arguments_are_kept_raw_not_crashed_on() -> None:
    body = load_body(GOLDEN / "request" / "non-json-tool-arguments.json")
    call = CODEC.decode_request(body).messages[1].parts[0]
    assert isinstance(call, ToolUse)
    assert (call.input, call.raw_input) == ({}, '{"cmd": "ls')


def test_a_call_without_arguments_is_a_call_with_no_input_and_stays_without() -> None:
    """OpenRouter answers a call of a tool whose parameters are all optional with no
    ``arguments`` key (pydantic-ai corpus, test_openrouter_tool_optional_parameters)."""
    call = {"id": "toolu_1", "type": "function", "function": {"name": "find"}}
    answer = {"role": "tool", "tool_call_id": "toolu_1", "content": "found"}
    body = {"model": "m", "messages": [{"role": "assistant", "content": None, "tool_calls": [call]}, answer]}
    request = CODEC.decode_request(body)
    [part] = request.messages[0].parts
    assert isinstance(part, ToolUse)
    assert (part.id, part.name, part.input, part.raw_input) == ("toolu_1", "find", {}, None)
    assert_request_round_trip(CODEC, body)
    changed = part.model_copy(update={"input": {"q": "x"}})  # an input given later is written, echo or not
    request = request.model_copy(update={"messages": [Message.assistant(changed), *request.messages[1:]]})
    assert CODEC.encode_request(request).body["messages"][0]["tool_calls"][0]["function"]["arguments"] == '{"q":"x"}'


def test_tool_result_images_move_to_a_user_message_after_the_tool_messages() -> None:
    png = MediaSource.from_base64("image/png", "iVBORw0KGgo=")
    request = Request(
        model="gpt-4o",
        messages=[
            Message.user("look"),
            Message.assistant(ToolUse("call_1", "shot", {}), ToolUse("call_2", "shot", {})),
            Message.tool(ToolResult("call_1", "shot", [Text("see image"), Image(png)])),
            Message.tool(ToolResult("call_2", "shot", "nothing")),
        ],
    )
    encoded = CODEC.encode_request(request)
    roles = [m["role"] for m in encoded.body["messages"]]
    assert roles == ["user", "assistant", "tool", "tool", "user"]
    assert encoded.body["messages"][2]["content"] == [{"type": "text", "text": "see image"}]
    assert encoded.body["messages"][4]["content"] == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    ]
    assert [(w.path, w.action) for w in encoded.warnings if isinstance(w, LossyEncode)] == [
        ("messages[2].parts[0].content[1]", "converted")
    ]


def test_video_and_cache_breakpoints_and_url_documents_warn() -> None:
    request = Request(
        model="gpt-4o",
        messages=[
            Message.user(
                Video(MediaSource.from_url("https://example.com/v.mp4")),
                Text("hello").with_cache_control(),
                Document(MediaSource.from_url("https://example.com/a.pdf")),
            )
        ],
    )
    encoded = CODEC.encode_request(request)
    assert [(w.path, w.part_type) for w in encoded.warnings if isinstance(w, LossyEncode)] == [
        ("messages[0].parts[0]", "video"),
        ("messages[0].parts[1]", "cache_control"),
        ("messages[0].parts[2]", "document"),
    ]
    assert encoded.body["messages"][0]["content"] == "hello"


@pytest.mark.parametrize(
    ("thinking", "effort", "warned"),
    [
        (ThinkingConfig(level="off"), "none", False),
        (ThinkingConfig(level="xhigh"), "xhigh", False),
        (ThinkingConfig(budget_tokens=1024), "low", True),
        (ThinkingConfig(budget_tokens=4096), "medium", True),
        (ThinkingConfig(budget_tokens=100000), "xhigh", True),
    ],
)
def test_thinking_maps_to_reasoning_effort_by_the_documented_table(
    thinking: ThinkingConfig, effort: str, warned: bool
) -> None:
    request = Request(model="reasoner-x", messages=[Message.user("hi")], thinking=thinking)  # not in the catalog
    encoded = CODEC.encode_request(request)
    assert encoded.body["reasoning_effort"] == effort
    assert any(isinstance(w, UnsupportedSetting) for w in encoded.warnings) == warned


def test_unknown_effort_and_fields_stay_in_provider_options() -> None:
    body = {"model": "x", "messages": [{"role": "user", "content": "hi"}], "reasoning_effort": "max", "user": "u1"}
    request = CODEC.decode_request(body)
    assert request.thinking is None
    assert request.provider_options == {"openai": {"reasoning_effort": "max", "user": "u1", "_wire": {"api": "chat"}}}
    assert_request_round_trip(CODEC, body)


def test_legacy_max_tokens_maps_to_the_ir_and_keeps_its_spelling() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 50}
    assert CODEC.decode_request(body).max_tokens == 50
    assert_request_round_trip(CODEC, body)
    fresh = CODEC.encode_request(Request(model="gpt-4o", messages=[Message.user("hi")], max_tokens=50)).body
    assert fresh["max_completion_tokens"] == 50 and "max_tokens" not in fresh


def test_a_single_stop_string_round_trips_and_reads_as_a_list() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "stop": "END"}
    assert CODEC.decode_request(body).stop == ["END"]
    assert_request_round_trip(CODEC, body)


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"model": "x"}, "messages"),
        ({"messages": [{"content": "hi"}]}, "messages[0].role"),
        (
            {
                "messages": [
                    {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": 1}}]}
                ]
            },
            "messages[0].tool_calls[0].function.arguments",
        ),
        (
            {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]},
            "messages[0].content[0].image_url.url",
        ),
        ({"messages": [], "temperature": "hot"}, "temperature"),
    ],
)
def test_malformed_requests_fail_with_the_json_path(body: dict[str, object], path: str) -> None:
    with pytest.raises(DecodeError) as caught:
        CODEC.decode_request(body)
    assert (caught.value.codec, caught.value.path) == ("openai-chat", path)


def test_unknown_content_blocks_and_roles_are_kept_verbatim() -> None:
    body = {
        "model": "x",
        "messages": [
            {"role": "function", "name": "f", "content": "old style"},
            {"role": "user", "content": [{"type": "acme_block", "x": 1}]},
        ],
    }
    request = OpenAIChatCodec(dialect="vllm").decode_request(body)
    assert request.messages[1].parts[0].type == "native"
    assert_request_round_trip(OpenAIChatCodec(dialect="vllm"), body)


def test_responses_function_and_custom_tools_take_the_chat_form_and_warn_for_what_chat_lacks() -> None:
    from interlingua.testing import validate_wire
    from interlingua_openai.responses import OpenAIResponsesCodec

    body = {
        "model": "gpt-5.6-terra",
        "input": "Compare inventory and demand for sku_123.",
        "tools": [
            {
                "type": "function",
                "name": "get_inventory",
                "parameters": {"type": "object", "properties": {"sku": {"type": "string"}}},
                "strict": True,
                "output_schema": {"type": "object"},
                "allowed_callers": ["programmatic"],
            },
            {
                "type": "custom",
                "name": "sku_pattern",
                "format": {"type": "grammar", "syntax": "regex", "definition": "sku_[0-9]+"},
            },
            {"type": "programmatic_tool_calling"},
        ],
    }
    request = OpenAIResponsesCodec().decode_request(body).model_copy(update={"model": "gpt-4.1"})
    encoded = CODEC.encode_request(request)
    assert encoded.body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_inventory",
                "parameters": {"type": "object", "properties": {"sku": {"type": "string"}}},
                "strict": True,
            },
        },
        {
            "type": "custom",
            "custom": {
                "name": "sku_pattern",
                "format": {"type": "grammar", "grammar": {"syntax": "regex", "definition": "sku_[0-9]+"}},
            },
        },
    ]
    assert [w.path for w in encoded.warnings] == ["tools[0].allowed_callers", "tools[0].output_schema", "tools[2]"]
    assert validate_wire("openai-chat", "request", encoded.body) == []


def test_a_file_id_beside_a_url_file_data_keeps_both() -> None:
    body = {
        "model": "gpt-4.1",
        "messages": [
            {
                "role": "user",
                "content": [{"type": "file", "file": {"file_id": "file-abc", "file_data": "https://x.test/a.mp4"}}],
            }
        ],
    }
    assert_request_round_trip(CODEC, body)
