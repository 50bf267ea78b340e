"""The Agents SDK's run items as a log (``--from openai-agents``), written by the SDK itself: an
agent run against its own Responses model on a mock transport."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import interlingua as il
from interlingua import logs
from interlingua.cli.detect import detect_body

agents = pytest.importorskip("agents", reason="openai-agents not installed (pip install openai-agents)")


@pytest.fixture(scope="module")
def run() -> tuple[Any, list[dict[str, Any]]]:
    """A run with one tool call: its result, and the Responses bodies the SDK sent."""
    import httpx2
    from openai import AsyncOpenAI

    agents.set_tracing_disabled(True)
    bodies: list[dict[str, Any]] = []
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "weather", "arguments": '{"city":"P"}'}
    text = {"type": "output_text", "text": "Sunny.", "annotations": []}
    reply = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": [text]}

    def answer(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        output = [{**call, "status": "completed"}] if len(bodies) == 1 else [reply]
        usage = {"input_tokens": 5, "output_tokens": 3, "total_tokens": 8}
        usage |= {"input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}
        body = {"id": f"resp_{len(bodies)}", "object": "response", "created_at": 1, "model": "m", "output": output}
        body |= {"status": "completed", "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "usage": usage}
        return httpx2.Response(200, json=body)

    client = AsyncOpenAI(api_key="k", http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(answer)))

    @agents.function_tool
    def weather(city: str) -> str:
        """The weather in a city."""
        return f"sunny in {city}"

    model = agents.OpenAIResponsesModel("m", openai_client=client)
    agent = agents.Agent(name="w", instructions="Be brief.", model=model, tools=[weather])
    return asyncio.run(agents.Runner.run(agent, "Weather?")), bodies


def test_run_items_import_as_the_responses_input_the_sdk_sent_decodes(run: tuple[Any, list[dict[str, Any]]]) -> None:
    result, bodies = run
    items = json.loads(json.dumps(result.to_input_list()))  # as an app persists them
    transcript = il.Transcript.from_log("openai-agents", items)
    sent = il.get_codec("openai-responses").decode_request({"input": bodies[-1]["input"]})
    assert transcript.messages[:-1] == sent.messages
    assert [p.type for p in transcript.messages[-1].parts] == ["text"]
    assert il.Transcript.from_log("openai-agents", result) == transcript  # the RunResult itself reads alike
    detected = detect_body(items)
    assert (detected.wire, detected.certain) == ("openai-agents", True)


def test_a_run_converts_to_another_wire_from_the_cli_converter(run: tuple[Any, list[dict[str, Any]]]) -> None:
    from interlingua.cli.conversion import Converter

    result, _ = run
    converted = Converter(target="anthropic-messages", model="claude-x").convert(result.to_input_list())
    assert converted.detected.wire == "openai-agents"
    body = converted.output
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user", "assistant"]
    call = {"type": "tool_use", "id": "call_1", "name": "weather", "input": {"city": "P"}}
    assert body["messages"][1]["content"][0] == call


def test_the_format_is_listed_with_the_built_in_ones() -> None:
    assert "openai-agents" in logs.formats()
