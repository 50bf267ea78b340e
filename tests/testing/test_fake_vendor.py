"""FakeVendor serves every wire: the official SDK clients (anthropic, openai, google-genai, boto3,
cohere) and interlingua's own Client talk to it as to the vendor, get its scripted answers, streams
and errors, and what they sent is decoded on ``exchanges``; ``validate=True`` holds each body to
the wire's oracle. The CLI command serves the same until interrupted."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import warnings
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import FakeVendor, Reply

WIRES = ["anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat"]
HI = [{"role": "user", "content": "hi"}]
SETTINGS = {"bedrock-converse": {"aws_region": "us-east-1"}}  # a Converse URL names a region


def _request(**extra: Any) -> il.Request:
    return il.Request(model="m-1", max_tokens=20, messages=[il.Message.user("Capital of France?")], **extra)


def _client(fake: FakeVendor, **kwargs: Any) -> il.Client:
    return il.Client(fake.wire, api_key="k", base_url=fake.base_url, settings=SETTINGS.get(fake.wire), **kwargs)


def test_every_installed_wire_is_one_of_the_six() -> None:
    assert sorted(il.codecs()) == sorted(WIRES)


@pytest.mark.parametrize("wire", WIRES)
def test_interlingua_client_gets_scripted_text_tool_call_stream_and_error(wire: str) -> None:
    script = [
        Reply.text("Paris is the capital."),
        Reply.tool_call("weather", {"city": "Oslo"}, id="call_7"),
        Reply.text("Streamed Paris answer."),
        Reply.error(429, "slow down", retry_after=3),
    ]
    with FakeVendor(wire, *script, validate=True) as fake, _client(fake, max_retries=0) as client:
        answer = client.send(_request())
        assert answer.message.parts[0].text == "Paris is the capital." and answer.stop_reason == "end_turn"
        called = client.send(_request())
        (tool,) = [p for p in called.message.parts if isinstance(p, il.ToolUse)]
        assert (tool.name, tool.input, called.stop_reason) == ("weather", {"city": "Oslo"}, "tool_use")
        events = list(client.stream(_request()))
        text = "".join(e.text for e in events if isinstance(e, il.TextDelta))
        assert text == "Streamed Paris answer." and sum(isinstance(e, il.TextDelta) for e in events) == 3
        with pytest.raises(il.RateLimitError) as raised:
            client.send(_request())
        assert raised.value.status == 429 and "slow down" in raised.value.message
        assert [e.stream for e in fake.exchanges] == [False, False, True, False]
        assert all(r.messages == [il.Message.user("Capital of France?")] for r in fake.requests)
        assert {r.model for r in fake.requests} == {"m-1"} and fake.problems == []


def test_the_default_answer_follows_the_script() -> None:
    with FakeVendor("openai-chat", Reply.text("first"), default=Reply.text("again")) as fake, _client(fake) as client:
        assert [client.send(_request()).message.parts[0].text for _ in range(3)] == ["first", "again", "again"]


def test_a_delay_holds_the_answer_past_the_client_timeout() -> None:
    fake = FakeVendor("anthropic-messages", Reply.text("late", delay=1.5))
    with fake, _client(fake, timeout=0.3, max_retries=0) as client, pytest.raises(il.TimeoutError):
        client.send(_request())


def test_validate_refuses_a_body_the_vendor_would_refuse() -> None:
    """An unknown key is not in the SDK's types: the oracle names it and the fake answers 400."""
    with FakeVendor("anthropic-messages", validate=True) as fake:
        import httpx2

        body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}], "bogus_key": 1}
        got = httpx2.post(fake.base_url + "/v1/messages", json=body, timeout=60)
        assert got.status_code == 400 and got.json()["type"] == "error"
        assert "bogus_key" in got.json()["error"]["message"]
        assert any("bogus_key" in p for p in fake.problems)
        del body["bogus_key"]
        assert httpx2.post(fake.base_url + "/v1/messages", json=body, timeout=60).status_code == 200


def test_a_wrong_base_url_is_a_404_that_says_where_the_wire_is_served() -> None:
    with FakeVendor("openai-chat") as fake:
        client = il.Client("openai-chat", api_key="k", base_url=fake.url, max_retries=0)  # no /v1
        with client, pytest.raises(il.ProviderError) as raised:
            client.send(_request())
        assert raised.value.status == 404
        assert "/v1/chat/completions" in raised.value.message and "end with /v1" in raised.value.message


def test_a_body_that_does_not_decode_is_a_400_naming_its_path() -> None:
    with FakeVendor("openai-chat") as fake:
        import httpx2

        got = httpx2.post(fake.base_url + "/chat/completions", json={"model": "m", "messages": "not a list"})
        assert got.status_code == 400 and "messages" in got.json()["error"]["message"]
        assert fake.exchanges[0].request is None and fake.problems


# --- the official SDK clients ------------------------------------------------------------------


def test_anthropic_sdk() -> None:
    anthropic = pytest.importorskip("anthropic")
    script = [Reply.text("Paris."), Reply.tool_call("weather", {"city": "Oslo"})]
    with FakeVendor("anthropic-messages", *script, validate=True) as fake:
        client = anthropic.Anthropic(api_key="k", base_url=fake.base_url, max_retries=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the SDK's own notice on retiring models
            got = client.messages.create(model="claude-sonnet-4-6", max_tokens=50, messages=HI)
            with client.messages.stream(model="claude-sonnet-4-6", max_tokens=50, messages=HI) as stream:
                final = stream.get_final_message()
    assert got.content[0].text == "Paris." and got.stop_reason == "end_turn"
    assert final.stop_reason == "tool_use" and final.content[0].input == {"city": "Oslo"}
    assert [e.stream for e in fake.exchanges] == [False, True] and fake.problems == []


def test_openai_sdk_chat_and_responses() -> None:
    openai = pytest.importorskip("openai")
    with FakeVendor("openai-chat", Reply.text("Paris."), Reply.tool_call("weather", {"city": "Oslo"})) as fake:
        client = openai.OpenAI(api_key="k", base_url=fake.base_url, max_retries=0)
        got = client.chat.completions.create(model="gpt-5.1", messages=HI)
        chunks = list(client.chat.completions.create(model="gpt-5.1", messages=HI, stream=True))
    assert got.choices[0].message.content == "Paris."
    calls = [c for chunk in chunks if chunk.choices for c in chunk.choices[0].delta.tool_calls or []]
    assert calls[0].function.name == "weather"
    assert "".join(c.function.arguments or "" for c in calls) == '{"city": "Oslo"}'
    with FakeVendor("openai-responses", Reply.text("Paris."), Reply.text("Paris, streamed."), validate=True) as fake:
        client = openai.OpenAI(api_key="k", base_url=fake.base_url, max_retries=0)
        assert client.responses.create(model="gpt-5.1", input="hi").output_text == "Paris."
        events = list(client.responses.create(model="gpt-5.1", input="hi", stream=True))
        assert events[-1].type == "response.completed" and events[-1].response.output_text == "Paris, streamed."
        assert fake.problems == []


def test_google_genai_sdk() -> None:
    genai = pytest.importorskip("google.genai")
    with FakeVendor("gemini", Reply.text("Paris."), Reply.text("Paris, streamed."), validate=True) as fake:
        options = genai.types.HttpOptions(base_url=fake.base_url, api_version="v1beta")
        client = genai.Client(api_key="k", http_options=options)
        assert client.models.generate_content(model="gemini-2.5-flash", contents="hi").text == "Paris."
        chunks = client.models.generate_content_stream(model="gemini-2.5-flash", contents="hi")
        assert "".join(c.text or "" for c in chunks) == "Paris, streamed."
    assert [(e.stream, e.request and e.request.model) for e in fake.exchanges] == [
        (False, "gemini-2.5-flash"),
        (True, "gemini-2.5-flash"),
    ]
    assert fake.problems == []


def test_boto3_bedrock_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    boto3 = pytest.importorskip("boto3")
    from botocore.config import Config

    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    model = "us.anthropic.claude-sonnet-4-20250514-v1:0"
    script = [Reply.text("Paris."), Reply.tool_call("weather", {"city": "Oslo"}), Reply.error(429, "slow down")]
    with FakeVendor("bedrock-converse", *script, validate=True) as fake:
        client = boto3.client(
            "bedrock-runtime",
            region_name="us-east-1",
            endpoint_url=fake.base_url,
            aws_access_key_id="AKIDEXAMPLE",
            aws_secret_access_key="secret",
            config=Config(retries={"total_max_attempts": 1}),
        )
        messages = [{"role": "user", "content": [{"text": "hi"}]}]
        got = client.converse(modelId=model, messages=messages)
        stream = client.converse_stream(modelId=model, messages=messages)["stream"]
        events = list(stream)
        with pytest.raises(client.exceptions.ClientError) as raised:
            client.converse(modelId=model, messages=messages)
    assert got["output"]["message"]["content"] == [{"text": "Paris."}]
    starts = [e["contentBlockStart"]["start"]["toolUse"] for e in events if "contentBlockStart" in e]
    assert starts == [{"toolUseId": "call_1", "name": "weather"}]
    assert events[-2]["messageStop"]["stopReason"] == "tool_use"
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 429
    assert fake.requests[0].model == model and fake.problems == []


def test_cohere_sdk() -> None:
    cohere = pytest.importorskip("cohere")
    with FakeVendor("cohere-chat", Reply.text("Paris."), Reply.text("Paris, streamed."), validate=True) as fake:
        client = cohere.ClientV2(api_key="k", base_url=fake.base_url)
        got = client.chat(model="command-a-03-2025", messages=[{"role": "user", "content": "hi"}])
        events = list(client.chat_stream(model="command-a-03-2025", messages=[{"role": "user", "content": "hi"}]))
    assert got.message.content[0].text == "Paris."
    text = "".join(e.delta.message.content.text for e in events if e.type == "content-delta")
    assert text == "Paris, streamed." and events[-1].type == "message-end"
    assert fake.problems == []


# --- the command -------------------------------------------------------------------------------


def test_the_fake_command_serves_until_interrupted() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "interlingua.cli", "fake", "--wire", "openai-chat", "--port", "0", "--text", "Hi."],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("fake openai-chat listening on http://127.0.0.1:")
        assert "POST /v1/chat/completions" in first
        base_url = first.rpartition("base_url=")[2].strip()
        with il.Client("openai-chat", api_key="k", base_url=base_url) as client:
            assert client.send(_request()).message.parts[0].text == "Hi."
        time.sleep(0.5)  # the request line is printed on the next poll
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == 130
    assert "POST /v1/chat/completions model=m-1 answer" in err and "stopped after 1 request(s)" in err


def test_the_fake_command_refuses_an_unknown_wire() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "interlingua.cli", "fake", "--wire", "nope"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "nope" in done.stderr


def test_json_roundtrip_of_the_reply_script() -> None:
    """A reply's parts become the wire's own answer body: the codec writes it, the codec reads it back."""
    codec = il.get_codec("gemini")
    body = codec.encode_response(Reply.tool_call("f", {"a": 1}, text="ok").response("m")).body
    assert json.loads(json.dumps(body))["candidates"][0]["content"]["parts"][1]["functionCall"] == {
        "name": "f",
        "args": {"a": 1},
        "id": "call_1",
    }
