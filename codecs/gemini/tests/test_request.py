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
from interlingua.kit import normalize_request
from interlingua.testing import (
    assert_request_round_trip,
    check_rules,
    load_body,
    real_fixture,
    real_fixtures,
    validate_wire,
)
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
    assert validate_wire("gemini", "request", body) == []


def _real(name: str) -> dict:
    return load_body(real_fixture("gemini", "request", f"{name}.json"))


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
    assert "thoughtSignature" not in first  # Gemini 2.5 takes unsigned calls: no placeholder
    assert [w.path for w in encoded.warnings] == ["messages[2].parts[0]"]
    moved = request.model_copy(update={"model": "gemini-3-pro-preview"})
    encoded = CODEC.encode_request(moved)
    first = encoded.body["contents"][1]["parts"][0]
    assert first["thoughtSignature"] == "skip_thought_signature_validator"  # Gemini 3, current turn
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


def _split_results(*order: str) -> Request:
    """A turn of two calls answered as a chat log sends it: one tool message per result."""
    calls = Message.assistant(ToolUse("call_1", "delete_file", {"path": ".env"}), ToolUse("call_2", "ls", {}))
    results = {"call_1": ToolResult("call_1", "delete_file", "true"), "call_2": ToolResult("call_2", "ls", "a b")}
    return Request(
        model="gemini-2.5-flash", messages=[Message.user("go"), calls, *(Message.tool(results[i]) for i in order)]
    )


@pytest.mark.parametrize("order", [("call_1", "call_2"), ("call_2", "call_1")])
def test_a_turns_results_in_tool_messages_of_their_own_go_in_one_content(order: tuple[str, str]) -> None:
    """Gemini wants a turn's results in one content: the writer joins consecutive tool messages
    itself where they come in the calls' order, the turn rules' repair gathers them otherwise;
    the body is the one the results given in one tool message make, without a warning."""
    split = _split_results(*order)
    given = _split_results("call_1", "call_2").messages
    together = Request(model="gemini-2.5-flash", messages=[*given[:2], Message.tool(*(m.parts[0] for m in given[2:]))])
    repaired = normalize_request(split, CODEC.rules, codec="gemini", reasoning="drop").changed
    assert repaired == (order != ("call_1", "call_2"))  # in the calls' order the repair is skipped
    encoded = CODEC.encode_request(split)
    assert encoded.body == CODEC.encode_request(together).body
    assert [p["functionResponse"]["id"] for p in encoded.body["contents"][2]["parts"]] == ["call_1", "call_2"]
    assert encoded.warnings == []
    assert check_rules("gemini", encoded.body, model="gemini-2.5-flash") == []


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


# --- responseSchema, response format details, native signatures, URL media types ------------

BODY_HI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
_SCHEMA = {
    "type": "OBJECT",
    "properties": {"a": {"type": "STRING"}, "b": {"type": "ARRAY", "items": {"type": "INTEGER"}}},
}


@pytest.mark.parametrize(
    ("schema", "ordered"),
    [
        (_SCHEMA, False),
        ({**_SCHEMA, "propertyOrdering": ["a", "b"]}, True),
        ({"type": "object", "properties": {"a": {"type": "string", "enum": ["x"]}}}, False),
    ],
    ids=["upper", "ordered", "lower"],
)
def test_a_response_schema_of_shared_keywords_is_the_ir_json_schema_and_round_trips(
    schema: dict[str, object], ordered: bool
) -> None:
    body = {**BODY_HI, "generationConfig": {"responseMimeType": "application/json", "responseSchema": schema}}
    request = CODEC.decode_request(body)
    assert request.response_format is not None and request.response_format.json_schema is not None
    assert "propertyOrdering" not in request.response_format.json_schema
    assert request.response_format.json_schema["properties"]["a"]["type"] == "string"
    assert request.provider_options["gemini"]["_wire"]["responseSchema"].get("ordered", False) is ordered
    assert_request_round_trip(CODEC, body)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "STRING", "nullable": True},
        {"type": "OBJECT", "properties": {"a": {"type": "string"}}},
        {
            "type": "OBJECT",
            "properties": {"a": {"type": "STRING"}, "b": {"type": "STRING"}},
            "propertyOrdering": ["b", "a"],
        },
    ],
    ids=["nullable", "mixed-case", "reordered"],
)
def test_a_response_schema_beyond_json_schema_stays_an_option_and_is_reported_elsewhere(
    schema: dict[str, object],
) -> None:
    body = {**BODY_HI, "generationConfig": {"responseMimeType": "application/json", "responseSchema": schema}}
    request = CODEC.decode_request(body)
    assert request.response_format is None
    assert_request_round_trip(CODEC, body)
    encoded = il.get_codec("openai-chat").encode_request(request.model_copy(update={"model": "gpt-4o"}))
    assert [w.path for w in encoded.warnings] == ["provider_options.gemini.generationConfig"]


def test_a_response_format_name_description_and_strict_false_are_reported() -> None:
    fmt = il.ResponseFormat(type="json_schema", name="answer", description="d", json_schema={"type": "object"})
    request = Request(model="gemini-2.5-flash", messages=[Message.user("hi")], response_format=fmt)
    assert [w.path for w in CODEC.encode_request(request).warnings] == [
        "response_format.name",
        "response_format.description",
    ]
    strict = request.model_copy(update={"response_format": fmt.model_copy(update={"strict": False, "name": None})})
    assert [(type(w), w.path) for w in CODEC.encode_request(strict).warnings] == [
        (UnsupportedSetting, "response_format.description"),
        (UnsupportedSetting, "response_format.strict"),
    ]
    enforced = request.model_copy(update={"response_format": il.ResponseFormat(type="json_schema", strict=True)})
    assert CODEC.encode_request(enforced).warnings == []


def test_a_native_parts_signature_is_bound_to_its_model_like_the_ir_parts() -> None:
    code = {"executableCode": {"language": "PYTHON", "code": "print(1)"}}
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "run"}]},
            {"role": "model", "parts": [{**code, "thoughtSignature": "c2ln"}]},
            {"role": "user", "parts": [{"text": "again"}]},
        ]
    }
    request = CODEC.decode_request(body, model="gemini-2.5-pro")
    native = request.messages[1].parts[0]
    assert isinstance(native, Native) and native.data == code
    assert native.provider_echoes == [
        ProviderEcho(provider="gemini", data={"thoughtSignature": "c2ln"}, model="gemini-2.5-pro")
    ]
    again = CODEC.encode_request(request)
    assert (again.body, again.warnings) == (body, [])
    moved = CODEC.encode_request(request.model_copy(update={"model": "gemini-3-pro-preview"}))
    assert moved.body["contents"][1]["parts"] == [code]
    assert [(w.path, w.part_type, w.action) for w in moved.warnings if isinstance(w, LossyEncode)] == [
        ("messages[1].parts[0]", "native", "converted")
    ]


def test_a_url_sources_media_type_is_sent_as_file_data_mime_type() -> None:
    image = il.Image(MediaSource.from_url("https://example.com/a.png", "image/png"))
    encoded = CODEC.encode_request(Request(model="gemini-2.5-flash", messages=[Message.user(image)]))
    assert encoded.body["contents"][0]["parts"] == [
        {"fileData": {"fileUri": "https://example.com/a.png", "mimeType": "image/png"}}
    ]


def _golden(name: str) -> dict:
    return load_body(GOLDEN / "request" / f"{name}.json")


def test_a_response_without_id_answers_the_call_of_its_name() -> None:
    """Gemini pairs responses with calls by name and order; a call's own id is kept for it."""
    request = CODEC.decode_request(_golden("function-response-matched-by-name"), model="gemini-2.5-flash")
    call, result = request.messages[1].parts[0], request.messages[2].parts[0]
    assert isinstance(call, ToolUse) and isinstance(result, ToolResult)
    assert result.tool_use_id == call.id == "wx-1"
    encoded = CODEC.encode_request(request)
    assert encoded.body == _golden("function-response-matched-by-name")
    assert encoded.warnings == []


def test_an_empty_model_turn_is_kept() -> None:
    body = _golden("empty-model-turn")
    request = CODEC.decode_request(body)
    assert [(m.role, m.parts) for m in request.messages[1::2]] == [("assistant", []), ("assistant", [])]
    encoded = CODEC.encode_request(request)
    assert encoded.body == body and encoded.warnings == []


@pytest.mark.parametrize(
    ("model", "signed"),
    [
        (None, False),
        ("gemini-2.5-flash", False),
        ("gemini-3-pro-image-preview", False),
        ("gemini-3-flash-preview", True),
    ],
)
def test_unsigned_parallel_calls_get_the_placeholder_only_where_the_model_checks(
    model: str | None, signed: bool
) -> None:
    body = _golden("parallel-calls-unsigned")
    encoded = CODEC.encode_request(CODEC.decode_request(body, model=model))
    first, second = encoded.body["contents"][1]["parts"]
    assert first.get("thoughtSignature") == ("skip_thought_signature_validator" if signed else None)
    assert "thoughtSignature" not in second
    if not signed:
        assert encoded.body == body
    assert encoded.warnings == []


@pytest.mark.parametrize(
    ("setting", "value", "what"),
    [("maxOutputTokens", "ten", "a string"), ("temperature", "hot", "a string"), ("topK", True, "a boolean")],
)
def test_a_setting_of_the_wrong_type_is_a_decode_error(setting: str, value: object, what: str) -> None:
    """It was kept as an option and replaced by a default upstream (issue 39); the API answers 400."""
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_request({"contents": [], "generationConfig": {setting: value}})
    assert (caught.value.path, caught.value.reason) == (f"generationConfig.{setting}", f"expected a number, got {what}")


def test_a_numeric_string_as_proto_json_allows_stays_an_option() -> None:
    config = {"maxOutputTokens": "10"}
    request = CODEC.decode_request({"contents": [], "generationConfig": config})
    assert (request.max_tokens, request.provider_options) == (None, {"gemini": {"generationConfig": config}})


def test_tools_as_one_object_are_read_as_a_list_of_it_and_written_back_so() -> None:
    """An old request's ``tools`` was one Tool object, in snake case, and was answered 200
    (pydantic-ai corpus, test_multiple_agent_tool_calls__0)."""
    declaration = {"name": "get_capital", "description": "d", "parameters": {"type": "object", "properties": {}}}
    body = {"contents": [{"role": "user", "parts": [{"text": "q"}]}], "tools": {"function_declarations": [declaration]}}
    request = CODEC.decode_request(body)
    assert [tool.name for tool in request.tools if isinstance(tool, Tool)] == ["get_capital"]
    assert_request_round_trip(CODEC, body)
    listed = {**body, "tools": [{"functionDeclarations": [declaration]}]}
    assert CODEC.encode_request(CODEC.decode_request(listed)).body["tools"] == listed["tools"]
