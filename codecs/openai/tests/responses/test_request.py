"""Requests both ways: invariant 1 on every real and golden request, and what foreign IR becomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import (
    Audio,
    DecodeError,
    Document,
    Image,
    LossyEncode,
    MediaSource,
    Message,
    Native,
    NativeTool,
    ProviderEcho,
    RedactedThinking,
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
from interlingua.testing import (
    assert_request_round_trip,
    check_rules,
    load_body,
    real_fixture,
    real_fixtures,
    validate_wire,
)
from interlingua_openai.responses import OpenAIResponsesCodec

CODEC = OpenAIResponsesCodec()
GOLDEN = Path(__file__).parents[4] / "fixtures" / "openai-responses"
REAL = real_fixtures("openai-responses", "request")
GOLDEN_REQUESTS = sorted(p for p in (GOLDEN / "request").glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_request_round_trips_exactly(path: Path) -> None:
    assert_request_round_trip(CODEC, load_body(path))


BEYOND_SDK_TYPES = {
    # The SDK's ResponseReasoningItemParam requires an id, but stateless clients (store=false)
    # replay reasoning items by encrypted_content alone, since an id there makes the API look up
    # an item it never stored; the codec passes such items through as they came (issue 31, case 4).
    "reasoning-without-id-encrypted": ["input[1].id", "input[4].id", "input[7].id", "input[10].id"],
    "reasoning-id-less-before-user": [f"input[{i}].id" for i in range(1, 6)],
}
"""Golden requests that pin a pass-through of something the SDK types do not allow: exactly the
paths the oracle reports, each with the reason."""


@pytest.mark.parametrize("path", GOLDEN_REQUESTS, ids=lambda p: p.stem)
def test_golden_request_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = json.loads(path.read_text())
    request = CODEC.decode_request(body)
    assert request.to_json_dict() == json.loads(path.with_suffix(".ir.json").read_text())
    assert_request_round_trip(CODEC, body)
    reported = [problem.partition(":")[0] for problem in validate_wire("openai-responses", "request", body)]
    assert reported == BEYOND_SDK_TYPES.get(path.stem, [])


def test_instructions_and_input_string_become_system_and_user_messages() -> None:
    request = CODEC.decode_request({"model": "gpt-5", "instructions": "be brief", "input": "hi"})
    assert [(m.role, m.text) for m in request.messages] == [("system", "be brief"), ("user", "hi")]
    assert CODEC.encode_request(request).body == {"model": "gpt-5", "instructions": "be brief", "input": "hi"}


def test_reasoning_items_split_into_thinking_parts_and_join_back() -> None:
    body = load_body(real_fixture("openai-responses", "request", "reasoning-with-function-calls-turn2.json"))
    request = CODEC.decode_request(body)
    assistant = request.messages[2]
    assert assistant.role == "assistant"
    assert [p.type for p in assistant.parts] == ["thinking"] * 5 + ["tool_use"]
    first = assistant.parts[0].echo("openai")
    assert first is not None and first.data["item"]["id"].startswith("rs_") and first.model == "gpt-5"
    assert "encrypted_content" in first.data["item"]
    assert request.messages[3].role == "tool"
    result = request.messages[3].parts[0]
    assert isinstance(result, ToolResult) and result.name == "update_plan" and result.content == "plan updated"
    assert request.thinking == ThinkingConfig(level="low", summary=True)
    assert request.provider_options["openai"]["reasoning"] == {"summary": "detailed"}


def test_foreign_transcript_encodes_to_easy_messages_and_function_items() -> None:
    request = Request(
        model="gpt-5",
        messages=[
            Message.system("be brief"),
            Message.user("weather?"),
            Message.assistant(
                Thinking("let me check"), Text("Checking."), ToolUse("call_1", "weather", {"city": "Paris"})
            ),
            Message.tool(ToolResult("call_1", "weather", "18C")),
        ],
        tools=[Tool(name="weather", input_schema={"type": "object", "properties": {}})],
        tool_choice=ToolChoice(name="weather"),
        max_tokens=100,
        thinking=ThinkingConfig(level="high", summary=True),
        response_format=ResponseFormat(type="json_object"),
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body == {
        "model": "gpt-5",
        "input": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": "Checking."},
            {"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": '{"city":"Paris"}'},
            {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
        ],
        "tools": [
            {"type": "function", "name": "weather", "parameters": {"type": "object", "properties": {}}, "strict": None}
        ],
        "tool_choice": {"type": "function", "name": "weather"},
        "max_output_tokens": 100,
        "reasoning": {"effort": "high", "summary": "auto"},
        "text": {"format": {"type": "json_object"}},
    }
    assert [(w.path, w.part_type) for w in encoded.warnings if isinstance(w, LossyEncode)] == [
        ("messages[2].parts[0]", "thinking")
    ]


def test_every_loss_is_a_typed_warning() -> None:
    request = Request(
        model="m",
        messages=[
            Message.user(
                Text("a").with_cache_control(),
                Audio(MediaSource.from_base64("audio/wav", "UklGRg==")),
                Image(MediaSource.from_file_id("f1", provider="acme")),
            ),
            Message.assistant(RedactedThinking(), Native("acme", {"type": "x"}), Text("ok")),
        ],
        tools=[NativeTool(provider="acme", data={"type": "search"})],
        top_k=3,
        stop=["x"],
        seed=1,
    )
    warnings = CODEC.encode_request(request).warnings
    assert [(type(w).__name__, w.path) for w in warnings] == [
        ("LossyEncode", "messages[0].parts[0]"),
        ("LossyEncode", "messages[0].parts[1]"),
        ("LossyEncode", "messages[0].parts[2]"),
        ("LossyEncode", "messages[1].parts[0]"),
        ("LossyEncode", "messages[1].parts[1]"),
        ("UnsupportedSetting", "tools[0]"),
        ("UnsupportedSetting", "top_k"),
        ("UnsupportedSetting", "stop"),
        ("UnsupportedSetting", "seed"),
    ]
    assert {w.setting for w in warnings if isinstance(w, UnsupportedSetting)} == {
        "native_tools",
        "top_k",
        "stop",
        "seed",
    }


def test_encrypted_reasoning_is_not_replayed_to_another_model() -> None:
    echo = ProviderEcho(
        provider="openai", data={"item": {"id": "rs_1", "encrypted_content": "x"}}, model="o3-2025-04-16"
    )
    thinking = Thinking("hmm", provider_echoes=[echo])
    messages = [Message.user("q"), Message.assistant(thinking, Text("a")), Message.user("more")]
    same = CODEC.encode_request(Request(model="o3", messages=messages))
    assert same.body["input"][1] == {
        "type": "reasoning",
        "id": "rs_1",
        "encrypted_content": "x",
        "summary": [{"type": "summary_text", "text": "hmm"}],
    }
    other = CODEC.encode_request(Request(model="gpt-5", messages=messages))
    assert [i.get("type") for i in other.body["input"]] == [None, None, None]
    assert [w.part_type for w in other.warnings] == ["thinking"]


def test_a_reasoning_item_with_nothing_after_it_is_left_out() -> None:
    echo = ProviderEcho(provider="openai", data={"item": {"id": "rs_1"}})
    request = Request(model="m", messages=[Message.user("q"), Message.assistant(Thinking("t", provider_echoes=[echo]))])
    encoded = CODEC.encode_request(request)
    assert encoded.body["input"] == [{"role": "user", "content": "q"}]
    assert [w.part_type for w in encoded.warnings] == ["thinking"]


def test_documents_and_tool_result_lists_use_input_file() -> None:
    pdf = Document(MediaSource.from_base64("application/pdf", "JVBERi0="), name="a.pdf")
    request = Request(
        model="m",
        messages=[
            Message.user(pdf),
            Message.assistant(ToolUse("c", "f", {})),
            Message.tool(ToolResult("c", "f", [pdf])),
        ],
    )
    body = CODEC.encode_request(request).body
    block = {"type": "input_file", "file_data": "data:application/pdf;base64,JVBERi0=", "filename": "a.pdf"}
    assert body["input"][0] == {"role": "user", "content": [block]}
    assert body["input"][2] == {"type": "function_call_output", "call_id": "c", "output": [block]}
    assert CODEC.decode_request(body).messages[0].parts == [pdf]


def test_budget_alone_maps_to_an_effort_with_a_warning() -> None:
    encoded = CODEC.encode_request(
        Request(model="m", messages=[Message.user("q")], thinking=ThinkingConfig(budget_tokens=8000))
    )
    assert encoded.body["reasoning"] == {"effort": "medium"}
    assert [w.path for w in encoded.warnings] == ["thinking.budget_tokens"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"input": [{"role": "user", "content": 3}]}, "input[0].content"),
        ({"input": [{"type": "function_call", "name": "f", "arguments": "{}"}]}, "input[0].call_id"),
        ({"input": "x", "tools": [3]}, "tools[0]"),
        (
            {"tools": [{"type": "function", "name": "ok", "parameters": {}}, {"type": "function", "parameters": {}}]},
            "tools[1].name",
        ),
        ({"tools": [{"type": "function", "name": "f", "description": 5, "parameters": {}}]}, "tools[0].description"),
        ({"tools": [{"type": "function", "name": "f", "strict": "yes", "parameters": {}}]}, "tools[0].strict"),
        ({"input": [{"role": "user", "content": [{"type": "input_text"}]}]}, "input[0].content[0].text"),
    ],
)
def test_malformed_requests_fail_with_the_json_path(body: dict[str, object], path: str) -> None:
    with pytest.raises(DecodeError) as caught:
        CODEC.decode_request(body)
    assert caught.value.path == path and caught.value.codec == "openai-responses"


def test_unknown_items_and_fields_are_kept() -> None:
    body = {
        "model": "m",
        "input": [{"type": "item_reference", "id": "msg_1"}, {"type": "future_call", "id": "x", "call_id": "c"}],
        "service_tier": "flex",
        "tool_choice": {"type": "web_search_preview"},
    }
    request = CODEC.decode_request(body)
    assert [p.type for m in request.messages for p in m.parts] == ["native", "native"]
    assert request.provider_options["openai"] == {
        "service_tier": "flex",
        "tool_choice": {"type": "web_search_preview"},
        "_wire": {"api": "responses"},
    }
    assert CODEC.encode_request(request).body == body


def _assistant_texts(body: dict[str, object]) -> list[Text]:
    request = CODEC.decode_request(body)
    return [p for m in request.messages if m.role == "assistant" for p in m.parts if isinstance(p, Text)]


def test_an_easy_assistant_string_needs_no_echo_where_plain_text_goes_as_one() -> None:
    body = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "First."},
            {"role": "assistant", "content": "Second."},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "ok"},
            {"role": "assistant", "content": "Third."},
        ],
    }
    first, second, third = _assistant_texts(body)
    assert first.provider_echoes == [] and third.provider_echoes == []
    assert second.provider_echoes == [ProviderEcho(provider="openai", data={"item": {}, "string": True})]
    assert_request_round_trip(CODEC, body)
    # the plain IR text a host writes goes the same way: an EasyInputMessage
    request = Request(model="gpt-5", messages=[Message.user("Hi"), Message.assistant("First.")])
    assert CODEC.encode_request(request).body["input"] == body["input"][:2]


def test_an_easy_assistant_string_after_an_output_message_keeps_its_echo() -> None:
    """Plain text after an output message's text would join that message: the echo keeps the
    EasyInputMessage apart."""
    output = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "From the model.", "annotations": []}],
    }
    body = {"model": "gpt-5", "input": [output, {"role": "assistant", "content": "Added by the host."}]}
    _, easy = _assistant_texts(body)
    assert easy.provider_echoes == [ProviderEcho(provider="openai", data={"item": {}, "string": True})]
    assert_request_round_trip(CODEC, body)
    stripped = CODEC.decode_request(body)
    parts = stripped.messages[0].parts
    plain = stripped.model_copy(
        update={"messages": [stripped.messages[0].model_copy(update={"parts": [parts[0], Text("Added by the host.")]})]}
    )
    assert len(CODEC.encode_request(plain).body["input"]) == 1  # without it: one message of two texts


def test_a_stored_transcript_with_the_easy_echo_on_its_first_text_encodes_as_before() -> None:
    easy = Text("Done.", provider_echoes=[ProviderEcho(provider="openai", data={"item": {}, "string": True})])
    request = Request(model="gpt-5", messages=[Message.user("Go"), Message.assistant(easy)])
    assert CODEC.encode_request(request).body["input"][1] == {"role": "assistant", "content": "Done."}


def test_reasoning_items_without_id_keep_their_encrypted_content() -> None:
    """Stateless callers (store=false) send reasoning back as encrypted_content with no id; the
    API takes it, so every such item comes back, none dropped as if it were foreign."""
    body = json.loads((GOLDEN / "request" / "reasoning-without-id-encrypted.json").read_text())
    encoded = CODEC.encode_request(CODEC.decode_request(body))
    reasoning = [item for item in encoded.body["input"] if item.get("type") == "reasoning"]
    assert [item["encrypted_content"] for item in reasoning] == [
        "gAAAAABo0Enc_example_ciphertext_Oslo==",
        "gAAAAABo1Enc_example_ciphertext_Bergen==",
        "gAAAAABo2Enc_example_ciphertext_Tromso==",
        "gAAAAABo3Enc_example_ciphertext_final==",
    ]
    assert len(reasoning) == 4 and all("id" not in item for item in reasoning)
    assert encoded.body == body and encoded.warnings == []


def test_id_less_reasoning_items_straight_before_a_user_message_pass_unchanged() -> None:
    """The shape of a request the API answered ``completed``: five id-less encrypted reasoning
    items (store off) followed directly by a user message. No output item follows them, and none
    needs to: only a stored item sent by id wants the item it produced after it."""
    body = json.loads((GOLDEN / "request" / "reasoning-id-less-before-user.json").read_text())
    request = CODEC.decode_request(body)
    assert [m.role for m in request.messages] == ["user", "assistant", "user"]
    assert [p.type for p in request.messages[1].parts] == ["thinking"] * 5
    encoded = CODEC.encode_request(request)
    assert encoded.body == body and encoded.warnings == []
    assert check_rules("openai-responses", body) == []


def test_a_stored_reasoning_item_with_nothing_after_it_is_left_out_with_a_warning() -> None:
    """The recorded refusal: ``Item 'rs_...' of type 'reasoning' was provided without its
    required following item``. A stored item sent by id at the end of its turn is left out."""
    stored = {"type": "reasoning", "id": "rs_68c42de022c881948db7", "summary": [], "encrypted_content": "gAAAA"}
    body = {"model": "gpt-5", "input": [{"role": "user", "content": "hi"}, stored, {"role": "user", "content": "go"}]}
    assert check_rules("openai-responses", body) == [
        "input[1]: a stored reasoning item must be followed by the item it produced"
    ]
    encoded = CODEC.encode_request(CODEC.decode_request(body))
    assert encoded.body["input"] == [{"role": "user", "content": "hi"}, {"role": "user", "content": "go"}]
    assert [(w.path, w.part_type) for w in encoded.warnings] == [("messages[1]", "thinking")]


def _chat_file(file: dict) -> dict:
    return {
        "model": "gpt-5-nano",
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "Describe this clip."}, {"type": "file", "file": file}],
            }
        ],
    }


@pytest.mark.parametrize(
    ("file", "expected"),
    [
        (
            {"filename": "clip.mp3", "file_data": "https://example.com/clip.mp3"},
            {"type": "input_file", "file_url": "https://example.com/clip.mp3", "filename": "clip.mp3"},
        ),
        (
            {"file_id": "file-abc", "file_data": "https://example.com/clip.mp4"},
            {"type": "input_file", "file_id": "file-abc", "file_url": "https://example.com/clip.mp4"},
        ),
        ({"filename": "clip.mp4", "file_data": "gs://bucket/clip.mp4"}, None),
    ],
    ids=["url", "id-and-url", "gcs-path"],
)
def test_a_chat_file_kept_verbatim_becomes_an_input_file_or_is_left_out_with_a_warning(
    file: dict, expected: dict | None
) -> None:
    from interlingua.testing import validate_wire
    from interlingua_openai.chat import OpenAIChatCodec

    request = OpenAIChatCodec().decode_request(_chat_file(file)).model_copy(update={"model": "gpt-5"})
    encoded = CODEC.encode_request(request)
    content = encoded.body["input"][0]["content"]
    assert content[0] == {"type": "input_text", "text": "Describe this clip."}
    assert content[1:] == ([expected] if expected else [])
    assert [w.path for w in encoded.warnings] == ([] if expected else ["messages[0].parts[1]"])
    assert validate_wire("openai-responses", "request", encoded.body) == []


def test_an_output_that_leads_a_stored_continuation_answers_a_stored_call_and_stays() -> None:
    """With ``previous_response_id`` or ``conversation`` the input continues state the server
    holds: an output leading it answers a call made there (pydantic-ai corpus,
    test_openai_conversation_id_tool_call_continuation__2, answered 200). Without them it is an
    orphan, sent as text with a warning."""
    output = {"type": "function_call_output", "call_id": "call_1", "output": "42"}
    for key, value in (("conversation", "conv_1"), ("previous_response_id", "resp_1")):
        body = {"model": "gpt-4.1", key: value, "input": [output]}
        assert_request_round_trip(CODEC, body)
    orphan = CODEC.encode_request(CODEC.decode_request({"model": "gpt-4.1", "input": [output]}))
    assert orphan.body["input"][0].get("role") == "user"
    assert [w.part_type for w in orphan.warnings] == ["tool_result"]


def test_the_output_of_a_client_tool_search_stays_beside_its_call() -> None:
    """A ``tool_search_call`` the client runs is answered by a ``function_call_output`` (pydantic-ai
    corpus, test_tool_availability_portability_matrix_R5-T3-native-search, answered 200): both
    are kept as they were, not read as an orphan result."""
    call = {"type": "tool_search_call", "call_id": "search_1", "execution": "client", "status": "completed",
            "arguments": {"queries": ["rates"]}}  # fmt: skip
    output = {"type": "function_call_output", "call_id": "search_1", "output": "Found one matching tool."}
    body = {"model": "gpt-5", "input": [{"role": "user", "content": "find it"}, call, output]}
    assert_request_round_trip(CODEC, body)
    assert [part.type for part in CODEC.decode_request(body).messages[2].parts] == ["native"]
