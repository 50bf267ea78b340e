"""Requests both ways: invariant 1 on every real and golden request, the mappings, the warnings,
and invariant 3 (SDK oracle and vendor rules) over generated transcripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import interlingua as il
from interlingua import (
    LossyEncode,
    MediaSource,
    Message,
    Native,
    NativeTool,
    ProviderEcho,
    Request,
    Text,
    Thinking,
    ThinkingConfig,
    Tool,
    ToolChoice,
    ToolResult,
    ToolUse,
    UnsupportedSetting,
)
from interlingua.testing import assert_request_round_trip, check_rules, load_body, real_fixtures, validate_wire
from interlingua.testing.strategies import requests

CODEC = il.get_codec("gemini")
GOLDEN = Path(__file__).resolve().parents[3] / "fixtures" / "gemini"
REAL = real_fixtures("gemini", "request")
OWN = sorted(p for p in (GOLDEN / "request").glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_request_round_trips_exactly(path: Path) -> None:
    assert_request_round_trip(CODEC, load_body(path))


@pytest.mark.parametrize("path", OWN, ids=lambda p: p.stem)
def test_golden_request_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = load_body(path)
    expected = json.loads(path.with_name(path.stem + ".ir.json").read_text())
    assert CODEC.decode_request(body).to_json_dict() == expected
    assert_request_round_trip(CODEC, body)


def _real(name: str) -> dict:
    return load_body(real_fixtures("gemini", "request", f"{name}.json")[0])


def test_snake_case_keys_read_as_camel_case_and_are_written_back() -> None:
    body = _real("stream-json-array-function-call-turn2")
    request = CODEC.decode_request(body)
    call = request.messages[1].parts[1]
    result = request.messages[2].parts[0]
    assert isinstance(call, ToolUse) and call.input == {"y": 3, "x": 5}
    assert isinstance(result, ToolResult) and result.content == "15" and result.tool_use_id == call.id
    encoded = CODEC.encode_request(request).body
    assert "function_call" in encoded["contents"][1]["parts"][1]
    assert "functionCall" not in encoded["contents"][1]["parts"][1]


def test_calls_without_ids_get_stable_ids_that_are_not_sent_back() -> None:
    body = _real("stream-json-array-function-call-turn2")
    first, second = CODEC.decode_request(body), CODEC.decode_request(body)
    assert first == second
    call = first.messages[1].parts[1]
    assert isinstance(call, ToolUse) and call.id == "call_0"
    sent = CODEC.encode_request(first).body["contents"]
    assert "id" not in sent[1]["parts"][1]["function_call"]
    assert "id" not in sent[2]["parts"][0]["function_response"]


def test_model_argument_sets_request_model_and_binds_signatures() -> None:
    request = CODEC.decode_request(_real("parallel-function-calls-turn2"), model="gemini-3-flash-preview")
    assert request.model == "gemini-3-flash-preview"
    call = request.messages[2].parts[0]  # messages[0] is the systemInstruction
    assert call.echo("gemini").model == "gemini-3-flash-preview"  # type: ignore[union-attr]
    assert CODEC.decode_request(_real("parallel-function-calls-turn2")).model is None


def test_signature_from_another_gemini_model_is_dropped_with_a_warning() -> None:
    request = CODEC.decode_request(_real("parallel-function-calls-turn2"), model="gemini-3-flash-preview")
    moved = request.model_copy(update={"model": "gemini-2.5-pro"})
    encoded = CODEC.encode_request(moved)
    first = encoded.body["contents"][1]["parts"][0]
    assert first["thoughtSignature"] == "skip_thought_signature_validator"  # current turn: placeholder
    assert [w.path for w in encoded.warnings] == ["messages[2].parts[0]"]


def test_foreign_call_in_the_current_turn_gets_the_placeholder_signature() -> None:
    request = Request(
        model="gemini-3-pro-preview",
        messages=[
            Message.user("weather?"),
            Message.assistant(ToolUse("toolu_1", "weather", {"city": "Oslo"}), ToolUse("toolu_2", "weather", {})),
            Message.tool(ToolResult("toolu_1", "weather", "rain"), ToolResult("toolu_2", "weather", "sun")),
        ],
    )
    body = CODEC.encode_request(request).body
    parts = body["contents"][1]["parts"]
    assert parts[0]["thoughtSignature"] == "skip_thought_signature_validator"
    assert "thoughtSignature" not in parts[1]
    assert body["contents"][2] == {
        "role": "user",
        "parts": [
            {"functionResponse": {"name": "weather", "id": "toolu_1", "response": {"output": "rain"}}},
            {"functionResponse": {"name": "weather", "id": "toolu_2", "response": {"output": "sun"}}},
        ],
    }
    assert check_rules("gemini", body, model="gemini-3-pro-preview") == []


def test_foreign_thinking_and_redacted_thinking_are_dropped_with_warnings() -> None:
    signed = Thinking("mine", provider_echoes=[ProviderEcho(provider="gemini", data={"thoughtSignature": "s"})])
    request = Request(
        messages=[
            Message.user("hi"),
            Message.assistant(Thinking("theirs"), il.RedactedThinking(), signed, Text("hello")),
            Message.user("and?"),
        ]
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body["contents"][1]["parts"] == [
        {"text": "mine", "thought": True, "thoughtSignature": "s"},
        {"text": "hello"},
    ]
    assert [(w.path, w.part_type) for w in encoded.warnings if isinstance(w, LossyEncode)] == [
        ("messages[1].parts[0]", "thinking"),
        ("messages[1].parts[1]", "redacted_thinking"),
    ]


def test_tool_result_shapes_follow_the_documented_table() -> None:
    image = il.Image(MediaSource.from_base64("image/png", "AAAA"))
    results = [
        ToolResult("a", "f", "plain"),
        ToolResult("b", "f", "boom", is_error=True),
        ToolResult("c", "f", {"rows": 3}),
        ToolResult("d", "f", [Text("see"), image]),
    ]
    calls = [ToolUse(r.tool_use_id, "f", {}) for r in results]
    body = CODEC.encode_request(
        Request(messages=[Message.user("go"), Message.assistant(*calls), Message.tool(*results)])
    )
    answers = [p["functionResponse"] for p in body.body["contents"][2]["parts"]]
    assert [a["response"] for a in answers] == [{"output": "plain"}, {"error": "boom"}, {"rows": 3}, {"output": "see"}]
    assert answers[3]["parts"] == [{"inlineData": {"mimeType": "image/png", "data": "AAAA"}}]
    back = CODEC.decode_request(body.body).messages[2].parts
    assert [(p.content, p.is_error) for p in back[:3]] == [("plain", False), ("boom", True), ({"rows": 3}, False)]  # type: ignore[union-attr]


def test_settings_map_to_generation_config_and_tool_config() -> None:
    request = Request(
        messages=[Message.system("sys"), Message.user("hi")],
        tools=[
            Tool(name="f", input_schema={"type": "object"}),
            NativeTool(provider="gemini", data={"googleSearch": {}}),
        ],
        tool_choice=ToolChoice(name="f"),
        max_tokens=10,
        stop=["x"],
        thinking=ThinkingConfig(level="off", summary=False),
        response_format=il.ResponseFormat(type="json_object"),
        provider_options={"gemini": {"cachedContent": "cachedContents/abc", "generationConfig": {"candidateCount": 1}}},
    )
    body = CODEC.encode_request(request).body
    assert body == {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "systemInstruction": {"parts": [{"text": "sys"}]},
        "tools": [
            {"functionDeclarations": [{"name": "f", "parametersJsonSchema": {"type": "object"}}]},
            {"googleSearch": {}},
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f"]}},
        "generationConfig": {
            "candidateCount": 1,
            "maxOutputTokens": 10,
            "stopSequences": ["x"],
            "responseMimeType": "application/json",
            "thinkingConfig": {"thinkingBudget": 0, "includeThoughts": False},
        },
        "cachedContent": "cachedContents/abc",
    }
    assert validate_wire("gemini", "request", body) == []


@pytest.mark.parametrize(
    ("thinking", "wire"),
    [
        (ThinkingConfig(budget_tokens=2048), {"thinkingBudget": 2048}),
        (ThinkingConfig(level="off"), {"thinkingBudget": 0}),
        (ThinkingConfig(level="minimal"), {"thinkingLevel": "MINIMAL"}),
        (ThinkingConfig(level="high", summary=True), {"thinkingLevel": "HIGH", "includeThoughts": True}),
        (ThinkingConfig(level="xhigh"), {"thinkingLevel": "XHIGH"}),
        (ThinkingConfig(level="low", budget_tokens=512), {"thinkingBudget": 512}),
    ],
    ids=["budget", "off", "minimal", "high-summary", "xhigh", "budget-wins"],
)
def test_thinking_table(thinking: ThinkingConfig, wire: dict) -> None:
    body = CODEC.encode_request(Request(messages=[Message.user("q")], thinking=thinking)).body
    assert body["generationConfig"]["thinkingConfig"] == wire


def test_mid_conversation_system_and_developer_warn() -> None:
    request = Request(messages=[Message.developer("d"), Message.user("u"), Message.system("late")])
    encoded = CODEC.encode_request(request)
    assert encoded.body["contents"][1] == {"role": "user", "parts": [{"text": "late"}]}
    assert [w.setting for w in encoded.warnings if isinstance(w, UnsupportedSetting)] == [
        "developer",
        "mid_conversation_system",
    ]


def test_native_parts_of_other_vendors_are_dropped_and_own_kept_verbatim() -> None:
    own = Native("gemini", {"executableCode": {"code": "print(1)", "language": "PYTHON"}})
    request = Request(messages=[Message.user("x"), Message.assistant(own, Native("acme", {"type": "x"}))])
    encoded = CODEC.encode_request(request)
    assert encoded.body["contents"][1]["parts"] == [own.data]
    assert [w.part_type for w in encoded.warnings] == ["native"]  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", [{"contents": "x"}, {"contents": [{"parts": [{"text": 3}]}]}, {"contents": [5]}])
def test_malformed_request_raises_decode_error_with_path(bad: dict) -> None:
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_request(bad)
    assert caught.value.codec == "gemini" and caught.value.path.startswith("contents")


def _without_own_natives(request: Request) -> Request:
    """The strategies draw ``gemini`` Native parts, tools and echoes with made-up data (an echo
    ``{"partMetadata": ""}``, say); this codec sends its own natives and echo fields verbatim
    (they are trusted wire data it decoded itself), so those are left out here."""
    tools = [t for t in request.tools if not (isinstance(t, NativeTool) and t.provider == "gemini")]
    messages = [
        m.model_copy(
            update={
                "parts": [
                    p.without_echo("gemini") for p in m.parts if not (isinstance(p, Native) and p.provider == "gemini")
                ]
            }
        )
        for m in request.messages
    ]
    return request.model_copy(update={"tools": tools, "messages": messages})


@given(requests(), st.sampled_from([None, "gemini-3-pro-preview"]))
def test_generated_requests_validate_against_the_sdk_and_keep_the_rules(request: Request, model: str | None) -> None:
    target = _without_own_natives(request).model_copy(update={"model": model or request.model})  # checked as sent
    encoded = CODEC.encode_request(target)
    assert validate_wire("gemini", "request", encoded.body) == []
    assert check_rules("gemini", encoded.body, model=model) == []


@given(requests(well_formed=False))
def test_any_request_encodes_to_a_valid_body_that_decodes_and_re_encodes_the_same(request: Request) -> None:
    body = CODEC.encode_request(_without_own_natives(request)).body
    assert validate_wire("gemini", "request", body) == []
    again = CODEC.encode_request(CODEC.decode_request(body, model=request.model))
    assert again.body == body
    assert again.warnings == []
