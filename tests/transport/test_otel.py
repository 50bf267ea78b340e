"""OpenTelemetry on the GenAI semantic conventions (issue 42 item 3), read back through the OTel
SDK's in-memory exporters: Client and AsyncClient calls (plain, streamed, failed) over FakeVendor,
and calls through the gateway driven by an official SDK client. The attribute and metric names
asserted are the semantic-conventions package's own constants, so a rename there fails here."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import FakeVendor, Reply

pytest.importorskip("opentelemetry.sdk")
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as GA
from opentelemetry.semconv._incubating.metrics import gen_ai_metrics as GM
from opentelemetry.trace import SpanKind, StatusCode

USAGE = il.Usage(input_tokens=40, output_tokens=9, cache_read_tokens=30, cache_write_tokens=5, reasoning_tokens=4)


class Telemetry:
    def __init__(self) -> None:
        self.spans = InMemorySpanExporter()
        self.metrics = InMemoryMetricReader()
        self.tracer_provider = TracerProvider()
        self.tracer_provider.add_span_processor(SimpleSpanProcessor(self.spans))
        self.meter_provider = MeterProvider(metric_readers=[self.metrics])

    def finished(self) -> list[Any]:
        return list(self.spans.get_finished_spans())

    def points(self, name: str) -> list[Any]:
        data = self.metrics.get_metrics_data()
        found = []
        for resource in data.resource_metrics if data else ():
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    if metric.name == name:
                        found += list(metric.data.data_points)
        return found


@pytest.fixture
def otel() -> Iterator[Telemetry]:
    telemetry = Telemetry()
    il.instrument(tracer_provider=telemetry.tracer_provider, meter_provider=telemetry.meter_provider, content=False)
    yield telemetry
    il.uninstrument()


def _request(**settings: Any) -> il.Request:
    return il.Request(
        model="acme-1",
        messages=[il.Message.system("Be brief."), il.Message.user("Weather in Paris?")],
        tools=[il.Tool(name="weather", description="The weather.", input_schema={"type": "object"})],
        max_tokens=64,
        temperature=0.25,
        **settings,
    )


def test_a_client_call_is_one_span_with_the_genai_attributes_and_metrics(otel: Telemetry) -> None:
    with FakeVendor("anthropic-messages", Reply.text("Sunny.", usage=USAGE)) as fake:
        with il.Client("anthropic-messages", api_key="k", base_url=fake.base_url) as client:
            client.send(_request(top_p=0.9, stop=["END"]))
        port = int(fake.url.rsplit(":", 1)[1])
    [span] = otel.finished()
    assert span.name == "chat acme-1" and span.kind is SpanKind.CLIENT
    attributes = dict(span.attributes)
    assert attributes == {
        GA.GEN_AI_OPERATION_NAME: "chat",
        GA.GEN_AI_PROVIDER_NAME: "anthropic",
        GA.GEN_AI_REQUEST_MODEL: "acme-1",
        GA.GEN_AI_REQUEST_MAX_TOKENS: 64,
        GA.GEN_AI_REQUEST_TEMPERATURE: 0.25,
        GA.GEN_AI_REQUEST_TOP_P: 0.9,
        GA.GEN_AI_REQUEST_STOP_SEQUENCES: ("END",),
        GA.GEN_AI_REQUEST_STREAM: False,
        GA.GEN_AI_RESPONSE_ID: "fake_1",
        GA.GEN_AI_RESPONSE_MODEL: "acme-1",
        GA.GEN_AI_RESPONSE_FINISH_REASONS: ("end_turn",),
        GA.GEN_AI_USAGE_INPUT_TOKENS: 40,
        GA.GEN_AI_USAGE_OUTPUT_TOKENS: 9,
        GA.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS: 30,
        GA.GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS: 5,
        GA.GEN_AI_USAGE_REASONING_OUTPUT_TOKENS: 4,
        "server.address": "127.0.0.1",
        "server.port": port,
        "interlingua.wire": "anthropic-messages",
        "interlingua.warnings": attributes["interlingua.warnings"],
    }
    # no content unless asked for
    assert not any(key in attributes for key in (GA.GEN_AI_INPUT_MESSAGES, GA.GEN_AI_OUTPUT_MESSAGES))
    tokens = {p.attributes[GA.GEN_AI_TOKEN_TYPE]: p for p in otel.points(GM.GEN_AI_CLIENT_TOKEN_USAGE)}
    assert (tokens["input"].sum, tokens["output"].sum) == (40, 9)
    assert tokens["input"].attributes[GA.GEN_AI_RESPONSE_MODEL] == "acme-1"
    assert tokens["input"].explicit_bounds[:3] == (1, 4, 16)  # the conventions' advisory buckets
    [duration] = otel.points(GM.GEN_AI_CLIENT_OPERATION_DURATION)
    assert duration.count == 1 and 0 < duration.sum < 10 and "error.type" not in duration.attributes


def test_content_is_recorded_only_on_opt_in_and_keeps_the_ir_types(otel: Telemetry) -> None:
    il.instrument(tracer_provider=otel.tracer_provider, meter_provider=otel.meter_provider, content=True)
    history = [
        il.Message.system("Be brief."),
        il.Message.user("Weather in Paris?"),
        il.Message(
            role="assistant",
            parts=[il.Thinking("They want weather."), il.ToolUse("call_9", "weather", {"city": "Paris"})],
        ),
        il.Message(role="user", parts=[il.ToolResult(tool_use_id="call_9", name="weather", content="sunny")]),
    ]
    request = _request().model_copy(update={"messages": history})
    reply = Reply.tool_call("weather", {"city": "Lyon"}, id="call_10", text="And Lyon.")
    with FakeVendor("gemini", reply) as fake, il.Client("gemini", api_key="k", base_url=fake.base_url) as client:
        client.send(request)
    [span] = otel.finished()
    attributes = span.attributes
    assert json.loads(attributes[GA.GEN_AI_SYSTEM_INSTRUCTIONS]) == [{"type": "text", "content": "Be brief."}]
    assert json.loads(attributes[GA.GEN_AI_INPUT_MESSAGES]) == [
        {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]},
        {
            "role": "assistant",
            "parts": [
                {"type": "reasoning", "content": "They want weather."},
                {"type": "tool_call", "id": "call_9", "name": "weather", "arguments": {"city": "Paris"}},
            ],
        },
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_9", "response": "sunny"}]},
    ]
    [output] = json.loads(attributes[GA.GEN_AI_OUTPUT_MESSAGES])
    assert output == {
        "role": "assistant",
        "parts": [
            {"type": "text", "content": "And Lyon."},
            {"type": "tool_call", "id": "call_10", "name": "weather", "arguments": {"city": "Lyon"}},
        ],
        "finish_reason": "tool_call",
    }
    [tool] = json.loads(attributes[GA.GEN_AI_TOOL_DEFINITIONS])
    assert tool == {
        "type": "function",
        "name": "weather",
        "parameters": {"type": "object"},
        "description": "The weather.",
    }


def test_streams_sync_and_async_end_their_span_with_the_usage(otel: Telemetry) -> None:
    with FakeVendor("openai-responses", default=Reply.text("Sunny in Paris.", usage=USAGE)) as fake:
        with il.Client("openai-responses", api_key="k", base_url=fake.base_url) as client, client.stream(
            _request()
        ) as events:
            for _ in events:
                pass

        async def run() -> None:
            async with il.AsyncClient("openai-responses", api_key="k", base_url=fake.base_url) as client:
                async with client.stream(_request()) as events:
                    async for _ in events:
                        pass
                await client.send(_request())

        asyncio.run(run())
    spans = otel.finished()
    assert [s.attributes[GA.GEN_AI_REQUEST_STREAM] for s in spans] == [True, True, False]
    for span in spans:
        assert span.attributes[GA.GEN_AI_PROVIDER_NAME] == "openai"
        assert span.attributes[GA.GEN_AI_USAGE_OUTPUT_TOKENS] == 9 and span.status.status_code is StatusCode.UNSET
    assert sum(p.sum for p in otel.points(GM.GEN_AI_CLIENT_TOKEN_USAGE)) == 3 * (40 + 9)


def test_a_failed_call_says_why_and_the_warnings_are_counted_by_kind_and_path(otel: Telemetry) -> None:
    # top_k has no place on Chat: an UnsupportedSetting at top_k, counted whatever the outcome
    with FakeVendor("openai-chat", Reply.error(429, "slow down")) as fake:
        client = il.Client("openai-chat", api_key="k", base_url=fake.base_url, max_retries=0)
        with client, pytest.raises(il.RateLimitError):
            client.send(_request(top_k=5))
    [span] = otel.finished()
    assert span.status.status_code is StatusCode.ERROR and span.attributes["error.type"] == "429"
    [duration] = otel.points(GM.GEN_AI_CLIENT_OPERATION_DURATION)
    assert duration.attributes["error.type"] == "429"
    counted = {
        (p.attributes["interlingua.warning.kind"], p.attributes["interlingua.warning.path"]): p.value
        for p in otel.points("interlingua.warnings")
    }
    assert counted[("unsupported_setting", "top_k")] == 1
    events = [e for e in span.events if e.name == "interlingua.warning"]
    assert any(e.attributes["interlingua.warning.path"] == "top_k" for e in events)


def test_the_gateway_traces_each_upstream_call_plain_and_streamed(otel: Telemetry) -> None:
    import httpx2

    from interlingua.gateway import Gateway, GatewayConfig, Route

    uvicorn = pytest.importorskip("uvicorn")
    with FakeVendor("gemini", default=Reply.text("Sunny in Paris.", usage=USAGE)) as fake, socket.socket() as sock:
        route = Route(match="acme-*", codec="gemini", base_url=fake.base_url, model="gemini-up-1")
        sock.bind(("127.0.0.1", 0))
        config = uvicorn.Config(Gateway(GatewayConfig([route])).app(), log_level="warning", lifespan="on")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        try:
            body = {"model": "acme-1", "max_tokens": 32, "messages": [{"role": "user", "content": "Weather?"}]}
            with httpx2.Client(base_url=url, timeout=10) as http:
                assert http.post("/v1/messages", json=body).status_code == 200
                streamed = http.post("/v1/messages", json={**body, "stream": True})
                assert streamed.status_code == 200 and "message_stop" in streamed.text
        finally:
            server.should_exit = True
            thread.join(10)
    spans = otel.finished()
    assert [s.attributes[GA.GEN_AI_REQUEST_STREAM] for s in spans] == [False, True]
    for span in spans:
        assert span.name == "chat gemini-up-1" and span.attributes[GA.GEN_AI_PROVIDER_NAME] == "gcp.gemini"
        assert span.attributes[GA.GEN_AI_USAGE_INPUT_TOKENS] == 40
        assert span.attributes[GA.GEN_AI_RESPONSE_FINISH_REASONS]


def test_off_means_no_span_and_no_opentelemetry_import() -> None:
    code = (
        "import sys, interlingua as il\n"
        "from interlingua.testing import FakeVendor\n"
        "with FakeVendor('openai-chat') as fake, il.Client('openai-chat', api_key='k', base_url=fake.base_url) as c:\n"
        "    c.send(il.Request(model='m', messages=[il.Message.user('hi')]))\n"
        "assert not [m for m in sys.modules if m.startswith('opentelemetry')], 'opentelemetry was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
