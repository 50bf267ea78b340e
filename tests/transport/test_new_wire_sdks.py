"""The official SDK clients of the new wires against a local server that answers with what our
codecs write: boto3's ``bedrock-runtime`` client (Converse and ConverseStream, SigV4-signed) and
cohere's ``ClientV2`` (chat and chat_stream). The SDK parsing our answers, and our decoders
reading what the SDKs send, is the test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua.kit import render_frames
from interlingua.testing import load_body

from .vendor_server import Answer, VendorServer

FIXTURES = Path(__file__).parents[2] / "fixtures"
CLAUDE = "us.anthropic.claude-sonnet-4-20250514-v1:0"


def _request() -> il.Request:
    return il.Request(model=CLAUDE, max_tokens=64, messages=[il.Message.user("Hello")])


def _answer_events() -> list[il.StreamEvent]:
    return [
        il.MessageStart(id="a1", model=CLAUDE),
        il.PartStart(0, il.Text("")),
        il.TextDelta(0, "Hi "),
        il.TextDelta(0, "there"),
        il.PartEnd(0),
        il.PartStart(1, il.ToolUse(id="tooluse_1", name="lookup", input={})),
        il.ToolInputDelta(1, '{"q": "x"}'),
        il.PartEnd(1),
        il.MessageEnd("tool_use", None, il.Usage(input_tokens=5, output_tokens=7)),
    ]


@pytest.fixture
def bedrock(vendor: VendorServer, monkeypatch: pytest.MonkeyPatch) -> Any:
    boto3 = pytest.importorskip("boto3")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    return boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=vendor.url,
        aws_access_key_id="AKIDEXAMPLE",
        aws_secret_access_key="secret",
    )


def test_boto3_converse_reads_our_answer_and_we_read_its_request(vendor: VendorServer, bedrock: Any) -> None:
    codec = il.get_codec("bedrock-converse")
    body = load_body(FIXTURES / "bedrock-converse/response/signed-reasoning-then-tool-use.json")
    vendor.answer = Answer(json=codec.encode_response(codec.decode_response(body)).body)
    got = bedrock.converse(
        modelId=CLAUDE,
        messages=[{"role": "user", "content": [{"text": "Hello"}]}],
        inferenceConfig={"maxTokens": 64, "temperature": 0.5},
    )
    assert got["stopReason"] == "tool_use" and got["usage"]["cacheReadInputTokens"] == 1322
    assert got["output"]["message"]["content"][2] == {"text": "I'll look up clause 7."}
    assert got["output"]["message"]["content"][1]["reasoningContent"]["redactedContent"] == b"opaque reasoning"
    (received,) = vendor.received
    assert received.path == "/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse"
    request = codec.decode_request(received.body, model=CLAUDE)
    assert (request.max_tokens, request.temperature) == (64, 0.5)
    assert request.messages == [il.Message.user("Hello")]


def test_boto3_converse_stream_reads_our_frames(vendor: VendorServer, bedrock: Any) -> None:
    codec = il.get_codec("bedrock-converse")
    written = codec.encode_stream(_answer_events())
    vendor.answer = Answer(sse=b"".join(render_frames((e.event, e.data.encode()) for e in written)), chunk=23)
    got = bedrock.converse_stream(modelId=CLAUDE, messages=[{"role": "user", "content": [{"text": "Hello"}]}])
    events = list(got["stream"])
    kinds = [next(iter(e)) for e in events]
    assert kinds == [
        "messageStart",
        "contentBlockDelta",
        "contentBlockDelta",
        "contentBlockStop",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
    ]
    text = "".join(e["contentBlockDelta"]["delta"].get("text", "") for e in events if "contentBlockDelta" in e)
    assert text == "Hi there" and events[-2]["messageStop"]["stopReason"] == "tool_use"
    assert events[-1]["metadata"]["usage"] == {"inputTokens": 5, "outputTokens": 7, "totalTokens": 12}


@pytest.fixture
def cohere_client(vendor: VendorServer) -> Any:
    cohere = pytest.importorskip("cohere")
    return cohere.ClientV2(api_key="co-test", base_url=vendor.url)


def test_cohere_client_reads_our_answer_and_we_read_its_request(vendor: VendorServer, cohere_client: Any) -> None:
    codec = il.get_codec("cohere-chat")
    body = load_body(FIXTURES / "cohere-chat/response/thinking-with-citations.json")
    vendor.answer = Answer(json=codec.encode_response(codec.decode_response(body)).body)
    got = cohere_client.chat(
        model="command-a-reasoning-08-2025",
        messages=[{"role": "user", "content": "Plans for 40?"}],
        thinking={"type": "enabled", "token_budget": 1024},
    )
    assert got.finish_reason == "COMPLETE" and got.message.content[1].text == "The Business plan covers 40 seats."
    assert got.usage.cached_tokens == 512
    (received,) = vendor.received
    assert received.path == "/v2/chat"
    request = codec.decode_request(received.body)
    assert request.thinking == il.ThinkingConfig(budget_tokens=1024)
    assert request.messages == [il.Message.user("Plans for 40?")]


def test_cohere_client_streams_our_events(vendor: VendorServer, cohere_client: Any) -> None:
    codec = il.get_codec("cohere-chat")
    events = [e for e in _answer_events() if not isinstance(e, il.MessageStart)]
    written = list(codec.encode_stream([il.MessageStart(id="c1"), *events]))
    vendor.answer = Answer(sse=b"".join(il.render_sse(written)))
    got = list(cohere_client.chat_stream(model="command-a-03-2025", messages=[{"role": "user", "content": "hi"}]))
    kinds = [e.type for e in got]
    assert kinds[0] == "message-start" and kinds[-1] == "message-end"
    text = "".join(e.delta.message.content.text for e in got if e.type == "content-delta")
    assert text == "Hi there"
    assert got[-1].delta.finish_reason == "TOOL_CALL"
    (received,) = vendor.received
    assert json.loads(json.dumps(received.body))["stream"] is True
