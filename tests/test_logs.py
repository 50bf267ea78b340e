"""interlingua.logs: framework logs and GenAI spans read into the IR, the span attributes written
from it. The framework logs are written by the frameworks themselves (optional test
dependencies: each test skips with one line when its framework is not installed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua import logs
from interlingua.cli.detect import detect_body

HERE = Path(__file__).parent / "logs"


def _tool_turn() -> il.Request:
    """A conversation with every part the span attributes hold whole."""
    return il.Request(
        model="acme-1",
        messages=[
            il.Message.system("Be brief."),
            il.Message(
                role="user",
                parts=[
                    il.Text(text="Weather in Paris? See the map."),
                    il.Image(source=il.UrlSource(url="https://example.com/map.png", media_type="image/png")),
                    il.Audio(source=il.Base64Source(media_type="audio/wav", data="UklGRg==")),
                ],
            ),
            il.Message(
                role="assistant",
                parts=[
                    il.Thinking(text="I need the weather tool."),
                    il.ToolUse(id="call_1", name="weather", input={"city": "Paris"}),
                ],
            ),
            il.Message(role="tool", parts=[il.ToolResult(tool_use_id="call_1", name="weather", content="sunny")]),
        ],
        tools=[il.Tool(name="weather", description="The weather.", input_schema={"type": "object"})],
        max_tokens=64,
        temperature=0.25,
        stop=["END"],
    )


def _without_echoes(message: il.Message) -> il.Message:
    parts = [part.model_copy(update={"provider_echoes": []}) for part in message.parts]
    return message.model_copy(update={"parts": parts, "provider_echoes": []})


# -- otel-genai ---------------------------------------------------------------------------------


def test_span_attributes_round_trip_a_request_exactly() -> None:
    request = _tool_turn()
    encoded = logs.encode_otel_genai(request)
    assert encoded.warnings == []
    assert json.loads(encoded.body["gen_ai.system_instructions"]) == [{"type": "text", "content": "Be brief."}]
    assert json.loads(encoded.body["gen_ai.input.messages"])[2] == {
        "role": "tool",
        "parts": [{"type": "tool_call_response", "id": "call_1", "response": "sunny"}],
    }
    imported = logs.read("otel-genai", encoded.body)
    assert imported.request == request
    assert imported.response is None and imported.warnings == []


def test_what_the_attributes_cannot_hold_is_warned_with_its_path() -> None:
    request = il.Request(
        messages=[
            il.Message(role="user", parts=[il.Text(text="Hi", cache_control=il.CacheControl())]),
            il.Message(role="assistant", parts=[il.RedactedThinking(), il.Text(text="Hello")]),
        ],
        tool_choice="required",
    )
    encoded = logs.encode_otel_genai(request)
    assert [(w.kind, w.path) for w in encoded.warnings] == [
        ("unsupported_setting", "tool_choice"),
        ("lossy_encode", "messages[0].parts[0]"),
        ("lossy_encode", "messages[1].parts[0]"),
    ]
    with pytest.raises(il.LossyEncodeError):
        logs.encode_otel_genai(request, strict=True)
    two = il.Request(messages=[il.Message.system("A"), il.Message(role="developer", parts=[il.Text(text="B")])])
    assert [(w.kind, w.path) for w in logs.encode_otel_genai(two).warnings] == [("lossy_encode", "messages[1]")]
    assert logs.read("otel-genai", logs.encode_otel_genai(two).body).request.messages == [
        il.Message(role="system", parts=[il.Text(text="A"), il.Text(text="B")])
    ]


def test_a_span_the_client_recorded_replays_as_its_request_on_another_wire() -> None:
    """The span interlingua itself writes (``instrument(content=True)``) reads back as the request
    that was sent and the answer that came, and that request encodes for another vendor."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from interlingua.testing import FakeVendor, Reply

    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    il.instrument(tracer_provider=provider, content=True)
    usage = il.Usage(input_tokens=40, output_tokens=9, cache_read_tokens=30)
    try:
        with (
            FakeVendor("anthropic-messages", Reply.text("Sunny.", usage=usage)) as fake,
            il.Client("anthropic-messages", api_key="k", base_url=fake.base_url) as client,
        ):
            answer = client.send(_tool_turn())
    finally:
        il.uninstrument()
    [span] = spans.get_finished_spans()
    recorded = json.loads(span.to_json())  # as an exporter writes it to a file
    imported = logs.read("otel-genai", recorded)
    assert imported.request == _tool_turn()
    assert imported.response is not None
    assert imported.response.message == answer.message
    assert (imported.response.usage, imported.response.stop_reason) == (usage, "end_turn")
    assert imported.response.raw_stop_reason == answer.raw_stop_reason
    replay = il.get_codec("openai-chat").encode_request(imported.request)
    assert [m["role"] for m in replay.body["messages"]] == ["system", "user", "assistant", "tool"]
    transcript = il.Transcript.from_otel_genai(recorded)
    assert transcript.messages == [*_tool_turn().messages, answer.message]


def test_otlp_json_attributes_read_like_the_sdk_ones() -> None:
    """OTLP/JSON (a collector's file exporter) lists attributes as ``{key, value: {stringValue}}``."""
    body = logs.encode_otel_genai(_tool_turn()).body

    def any_value(value: Any) -> dict[str, Any]:
        if isinstance(value, list):
            return {"arrayValue": {"values": [any_value(v) for v in value]}}
        if isinstance(value, int):
            return {"intValue": str(value)}
        return {"doubleValue": value} if isinstance(value, float) else {"stringValue": value}

    span = {"name": "chat acme-1", "attributes": [{"key": k, "value": any_value(v)} for k, v in body.items()]}
    assert logs.read("otel-genai", span).request == _tool_turn()


def test_a_result_whose_call_is_not_in_the_span_is_read_with_a_warning() -> None:
    span = {"gen_ai.input.messages": [{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c9"}]}]}
    imported = logs.read("otel-genai", span)
    assert imported.request.messages[0].parts == [il.ToolResult(tool_use_id="c9", name="", content="")]
    assert [(w.kind, w.path) for w in imported.warnings] == [("lossy_decode", "gen_ai.input.messages[0].parts[0]")]


def test_a_malformed_span_is_a_decode_error_with_its_path() -> None:
    with pytest.raises(il.DecodeError) as err:
        logs.read("otel-genai", {"gen_ai.input.messages": '[{"role": "hacker", "parts": []}]'})
    assert err.value.path == "gen_ai.input.messages[0].role"


# -- pydantic-ai --------------------------------------------------------------------------------


def _pydantic_ai_run() -> tuple[Any, list[dict[str, Any]]]:
    """A pydantic-ai agent run against its own OpenAI chat model, on a mock transport: the
    messages it logs, and the chat body it sent last."""
    pytest.importorskip("pydantic_ai", reason="pydantic-ai not installed (pip install pydantic-ai-slim)")
    import httpx2
    from openai import AsyncOpenAI
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    bodies: list[dict[str, Any]] = []
    call = {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": '{"city":"Paris"}'}}

    def answer(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        message = {"role": "assistant", "content": None, "tool_calls": [call]} if len(bodies) == 1 else None
        choice = {"index": 0, "message": message or {"role": "assistant", "content": "Sunny."}, "finish_reason": "stop"}
        usage = {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}
        body = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [choice], "usage": usage}
        return httpx2.Response(200, json=body)

    client = AsyncOpenAI(api_key="k", http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(answer)))
    model = OpenAIChatModel("m", provider=OpenAIProvider(openai_client=client))
    agent = Agent(model, system_prompt="You tell the weather.", instructions="Be brief.")

    @agent.tool_plain
    def weather(city: str) -> str:
        """The weather in a city."""
        return f"sunny in {city}"

    result = agent.run_sync("Weather in Paris?")
    return result, bodies


def test_pydantic_ai_messages_import_as_the_chat_body_it_sent_decodes() -> None:
    result, bodies = _pydantic_ai_run()
    from pydantic_ai import ModelMessagesTypeAdapter

    logged = ModelMessagesTypeAdapter.dump_json(result.all_messages())
    transcript = il.Transcript.from_pydantic_ai(logged)
    sent = il.get_codec("openai-chat").decode_request(bodies[-1])
    assert transcript.messages[:-1] == sent.messages
    assert transcript.messages[-1] == il.Message.assistant("Sunny.")
    assert il.Transcript.from_pydantic_ai(result.all_messages()) == transcript  # the objects read alike
    assert detect_body(json.loads(logged)).wire == "pydantic-ai"


def test_pydantic_ai_parts_with_no_chat_form_are_read_too() -> None:
    pytest.importorskip("pydantic_ai", reason="pydantic-ai not installed (pip install pydantic-ai-slim)")
    from pydantic_ai import BinaryContent, ImageUrl, ModelMessagesTypeAdapter
    from pydantic_ai.messages import ModelRequest, ModelResponse, ThinkingPart, ToolReturnPart, UserPromptPart

    messages = [
        ModelRequest(
            parts=[
                UserPromptPart(["Look", ImageUrl("https://e.com/a.png"), BinaryContent(b"abc", media_type="audio/wav")])
            ],
            instructions="Be brief.",
        ),
        ModelResponse(parts=[ThinkingPart(content="hmm", signature="sig")]),
        ModelRequest(parts=[ToolReturnPart("weather", "bad city", tool_call_id="c1", outcome="failed")]),
    ]
    imported = logs.read("pydantic-ai", ModelMessagesTypeAdapter.dump_json(messages))
    assert imported.request.messages == [
        il.Message.system("Be brief."),
        il.Message(
            role="user",
            parts=[
                il.Text(text="Look"),
                il.Image(source=il.UrlSource(url="https://e.com/a.png", media_type="image/png")),
                il.Audio(source=il.Base64Source(media_type="audio/wav", data="YWJj")),
            ],
        ),
        il.Message(role="assistant", parts=[il.Thinking(text="hmm")]),
        il.Message(
            role="tool",
            parts=[
                il.ToolResult(tool_use_id="c1", name="weather", content="bad city", is_error=True)
            ],
        ),
    ]
    assert [(w.kind, w.path) for w in imported.warnings] == [("lossy_decode", "[1].parts[0]")]


# -- LangChain ----------------------------------------------------------------------------------


def _langchain_messages() -> list[Any]:
    pytest.importorskip("langchain_core", reason="langchain-core not installed (pip install langchain-core)")
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    return [
        SystemMessage("Be brief."),
        HumanMessage("Weather in Paris?"),
        AIMessage(content="Checking.", tool_calls=[{"name": "weather", "args": {"city": "Paris"}, "id": "call_1"}]),
        ToolMessage("sunny", tool_call_id="call_1", name="weather"),
        AIMessage(content="Sunny."),
    ]


def test_langchain_messages_import_as_their_chat_form_decodes() -> None:
    """langchain-core's own ``convert_to_openai_messages`` is the chat body of the same messages."""
    messages = _langchain_messages()
    from langchain_core.messages import convert_to_openai_messages, messages_to_dict

    logged = json.loads(json.dumps(messages_to_dict(messages)))
    transcript = il.Transcript.from_langchain(logged)
    chat = il.get_codec("openai-chat").decode_request({"messages": convert_to_openai_messages(messages)})
    # the chat codec also keeps the spacing langchain-core wrote the arguments with, as an echo
    assert transcript.messages == [_without_echoes(m) for m in chat.messages]
    assert il.Transcript.from_langchain(messages) == transcript
    assert detect_body(logged).wire == "langchain"


def test_langchain_v1_content_blocks_map_to_ir_parts() -> None:
    pytest.importorskip("langchain_core", reason="langchain-core not installed (pip install langchain-core)")
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict

    messages = [
        HumanMessage(
            content_blocks=[
                {"type": "text", "text": "What is here?"},
                {"type": "image", "url": "https://e.com/a.png"},
                {"type": "file", "base64": "JVBE", "mime_type": "application/pdf"},
            ]
        ),
        AIMessage(
            content_blocks=[
                {"type": "reasoning", "reasoning": "look closer"},
                {"type": "tool_call", "id": "c1", "name": "zoom", "args": {"x": 1}},
            ]
        ),
        ToolMessage("failed", tool_call_id="c1", name="zoom", status="error"),
    ]
    imported = logs.read("langchain", json.dumps(messages_to_dict(messages)))
    assert imported.request.messages == [
        il.Message(
            role="user",
            parts=[
                il.Text(text="What is here?"),
                il.Image(source=il.UrlSource(url="https://e.com/a.png")),
                il.Document(source=il.Base64Source(media_type="application/pdf", data="JVBE")),
            ],
        ),
        il.Message(
            role="assistant",
            parts=[il.Thinking(text="look closer"), il.ToolUse(id="c1", name="zoom", input={"x": 1})],
        ),
        il.Message(
            role="tool",
            parts=[il.ToolResult(tool_use_id="c1", name="zoom", content="failed", is_error=True)],
            name="zoom",
        ),
    ]
    assert imported.warnings == []


# -- AI SDK -------------------------------------------------------------------------------------


def test_ai_sdk_model_messages_map_to_ir_parts() -> None:
    data = json.loads((HERE / "ai-sdk-tool-turn.json").read_text())
    imported = logs.read("ai-sdk", data)
    messages = imported.request.messages
    assert [m.role for m in messages] == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert messages[1].parts[1:] == [
        il.Image(source=il.UrlSource(url="https://example.com/map.png", media_type="image/png")),
        il.Document(source=il.Base64Source(media_type="application/pdf", data="JVBERi0xLjQK"), name="forecast.pdf"),
    ]
    assert messages[2].parts == [
        il.Thinking(text="I need the weather tool."),
        il.Text(text="Let me check."),
        il.ToolUse(id="call-1", name="weather", input={"city": "Paris"}),
    ]
    assert messages[3].parts == [
        il.ToolResult(tool_use_id="call-1", name="weather", content={"sky": "sunny", "celsius": 21})
    ]
    assert messages[5].parts == [
        il.ToolResult(tool_use_id="call-2", name="alerts", content="service down", is_error=True)
    ]
    assert imported.warnings == []
    assert detect_body(data).wire == "ai-sdk"


# -- detection ----------------------------------------------------------------------------------


def test_a_plain_message_list_names_its_runner_up() -> None:
    """``[{role, content: "..."}]`` is an AI SDK ModelMessage list and other formats' too."""
    detected = detect_body([{"role": "user", "content": "Hi"}])
    assert not detected.certain and "fits too: pass --from to choose" in detected.reason


def test_an_array_of_nothing_known_is_a_detect_error() -> None:
    from interlingua.cli.detect import DetectError

    with pytest.raises(DetectError, match="no known log format"):
        detect_body([1, 2])


def test_ai_sdk_messages_recorded_from_its_own_run_import() -> None:
    """The ModelMessage array the AI SDK's generateText returned in its own test run (a vitest
    snapshot, source in the file) reads as the tool round it is, and as an openai-chat body of the
    same round decodes."""
    data = json.loads((HERE / "ai-sdk-recorded-response-messages.json").read_text())
    assert detect_body(data).wire == "ai-sdk"
    imported = logs.read("ai-sdk", data)
    assert imported.warnings == []
    assert [(m.role, m.parts) for m in imported.request.messages] == [
        ("assistant", [il.ToolUse(id="call-1", name="tool1", input={"value": "value"})]),
        ("tool", [il.ToolResult(tool_use_id="call-1", name="tool1", content="result1")]),
        ("assistant", [il.Text(text="Hello, world!")]),
    ]
    call = {"id": "call-1", "type": "function", "function": {"name": "tool1", "arguments": '{"value":"value"}'}}
    chat = il.get_codec("openai-chat").decode_request(
        {
            "messages": [
                {"role": "assistant", "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "call-1", "content": "result1"},
                {"role": "assistant", "content": "Hello, world!"},
            ]
        }
    )
    assert [m.role for m in chat.messages] == [m.role for m in imported.request.messages]
    sent, read = chat.messages[0].parts[0], imported.request.messages[0].parts[0]
    assert sent.model_dump(exclude={"provider_echoes"}) == read.model_dump(exclude={"provider_echoes"})
