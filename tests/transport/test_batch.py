"""Client.batch and AsyncClient.batch against FakeVendor's batch APIs on loopback (OpenAI Files +
Batches, Anthropic Message Batches, Gemini batch mode): submitted, polled, fetched; each answer
under its request's id, a failed one as its failure; and the fake's side read by the vendors' own
SDKs, so the fake answers as the vendor does."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from interlingua import AsyncClient, Client, Message, Request, Text, TimeoutError, ToolUse
from interlingua._batching import BatchUnsupportedError
from interlingua.testing import FakeVendor, Reply

MODELS = {
    "openai-chat": "gpt-4.1",
    "openai-responses": "gpt-4.1",
    "anthropic-messages": "claude-sonnet-4-6",
    "gemini": "gemini-2.5-flash",
}
REPLIES = (
    Reply.text("Paris is the capital."),
    Reply.error(400, "max_tokens is too large", kind="invalid_request_error"),
    Reply.tool_call("get_weather", {"city": "Paris"}),
)


def _requests(wire: str) -> dict[str, Request]:
    asked = [[Message.system("Be brief."), Message.user(f"question {i}")] for i in range(3)]
    return {f"q{i}": Request(model=MODELS[wire], max_tokens=64, messages=messages) for i, messages in enumerate(asked)}


def _check(wire: str, fake: FakeVendor, outcomes: Any) -> None:
    assert [o.id for o in outcomes] == ["q0", "q1", "q2"]
    first, failed, called = outcomes
    assert first.failure is None and [p.text for p in first.response.message.parts] == ["Paris is the capital."]
    assert failed.response is None and failed.failure.kind == "errored" and failed.failure.status == 400
    assert failed.failure.message == "max_tokens is too large"
    call = called.response.message.parts[0]
    assert isinstance(call, ToolUse) and (call.name, call.input) == ("get_weather", {"city": "Paris"})
    assert called.response.stop_reason == "tool_use"
    # The vendor got the three requests as the wire writes them, in order.
    assert [r.messages[-1].parts for r in fake.requests] == [[Text(f"question {i}")] for i in range(3)]
    assert [r.messages[0].parts for r in fake.requests] == [[Text("Be brief.")]] * 3
    assert fake.problems == []
    # Submitted, then polled (the fake's batch runs for one poll), then fetched.
    methods = [r.method for r in fake.received]
    assert methods[0] == "POST" and methods.count("GET") >= 2


@pytest.mark.parametrize("wire", sorted(MODELS))
def test_a_batch_is_submitted_polled_and_fetched(wire: str) -> None:
    with FakeVendor(wire, *REPLIES, validate=True) as fake, Client(wire, base_url=fake.base_url, api_key="k") as client:
        outcomes = client.batch(_requests(wire), poll_interval=0.01)
    _check(wire, fake, outcomes)


@pytest.mark.parametrize("wire", sorted(MODELS))
def test_an_async_batch_is_submitted_polled_and_fetched(wire: str) -> None:
    async def run(fake: FakeVendor) -> Any:
        async with AsyncClient(wire, base_url=fake.base_url, api_key="k") as client:
            return await client.batch(_requests(wire), poll_interval=0.01)

    with FakeVendor(wire, *REPLIES, validate=True) as fake:
        outcomes = asyncio.run(run(fake))
    _check(wire, fake, outcomes)


def test_what_a_request_could_not_carry_rides_on_its_answer() -> None:
    request = Request(model="gpt-4.1", max_tokens=64, top_k=5, messages=[Message.user("hi")])
    with FakeVendor("openai-chat") as fake, Client("openai-chat", base_url=fake.base_url, api_key="k") as client:
        job = client.submit_batch({"only": request})
        assert not job.done and job.status == "in_progress"
        job = client.poll_batch(job)
        assert job.done and job.status == "completed"
        [outcome] = client.fetch_batch(job)
    warnings = outcome.response.warnings
    assert [(w.side, w.kind, w.path) for w in warnings] == [("request", "unsupported_setting", "top_k")]


def test_a_batch_still_running_at_the_timeout_raises_and_is_left_running() -> None:
    wire = "anthropic-messages"
    with FakeVendor(wire) as fake, Client(wire, base_url=fake.base_url, api_key="k") as client:
        fake.batches.polls = 1000
        with pytest.raises(TimeoutError, match=r"still in_progress after 0\.05 s"):
            client.batch(_requests("anthropic-messages"), poll_interval=0.01, timeout=0.05)


def test_a_wire_without_a_batch_api_says_so() -> None:
    with Client("bedrock-converse", api_key="k", settings={"aws_region": "us-east-1"}) as client, pytest.raises(
        BatchUnsupportedError, match="bedrock-converse has no batch API"
    ):
        client.submit_batch(_requests("gemini"))


def test_the_fakes_openai_batch_api_answers_the_openai_sdk() -> None:
    openai = pytest.importorskip("openai")
    body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]}
    line = {"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": body}
    with FakeVendor("openai-chat", Reply.text("hello")) as fake:
        sdk = openai.OpenAI(base_url=fake.base_url, api_key="k", max_retries=0)
        uploaded = sdk.files.create(file=("in.jsonl", json.dumps(line).encode()), purpose="batch")
        batch = sdk.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h")
        assert batch.status == "in_progress" and batch.input_file_id == uploaded.id
        batch = sdk.batches.retrieve(batch.id)
        assert batch.status == "completed" and batch.error_file_id is None and batch.output_file_id
        [output] = [json.loads(raw) for raw in sdk.files.content(batch.output_file_id).text.splitlines()]
    assert output["custom_id"] == "a" and output["response"]["status_code"] == 200
    completion = openai.types.chat.ChatCompletion.model_validate(output["response"]["body"], strict=False)
    assert completion.choices[0].message.content == "hello"


def test_the_fakes_message_batches_answer_the_anthropic_sdk() -> None:
    anthropic = pytest.importorskip("anthropic")
    params = {"model": "claude-sonnet-4-6", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
    with FakeVendor("anthropic-messages", Reply.text("hello")) as fake:
        sdk = anthropic.Anthropic(base_url=fake.base_url, api_key="k", max_retries=0)
        batch = sdk.messages.batches.create(requests=[{"custom_id": "a", "params": params}])
        assert batch.processing_status == "in_progress"
        assert sdk.messages.batches.retrieve(batch.id).processing_status == "ended"
        [result] = list(sdk.messages.batches.results(batch.id))
    assert result.custom_id == "a" and result.result.type == "succeeded"
    assert result.result.message.content[0].text == "hello"
