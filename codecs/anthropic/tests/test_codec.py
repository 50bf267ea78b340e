"""The codec class: registry entry, http_request, decode_error, capabilities (invariant 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

import interlingua
from interlingua import (
    AuthenticationError,
    BadRequestError,
    Endpoint,
    Message,
    Native,
    NativeTool,
    NotFoundError,
    OverloadedError,
    ProviderEcho,
    RateLimitError,
    RedactedThinking,
    Request,
    Thinking,
)
from interlingua.testing import assert_capabilities_hold, real_fixtures
from interlingua_anthropic import AnthropicMessagesCodec

CODEC = AnthropicMessagesCodec()


def test_registered_under_its_wire_name() -> None:
    codec = interlingua.get_codec("anthropic-messages")
    assert isinstance(codec, AnthropicMessagesCodec) and isinstance(codec, interlingua.Codec)
    assert (codec.provider, codec.api_key_env) == ("anthropic", ("ANTHROPIC_API_KEY",))


def test_http_request_posts_with_key_version_and_betas() -> None:
    request = Request(
        model="claude-x",
        max_tokens=10,
        messages=[Message.user("hi")],
        provider_options={"anthropic": {"betas": ["mcp-client-2025-04-04", "files-api-2025-04-14"]}},
    )
    http = CODEC.http_request(request, stream=True, endpoint=Endpoint(api_key="sk-secret", headers={"x-extra": "1"}))
    assert (http.method, http.url, http.stream) == ("POST", "https://api.anthropic.com/v1/messages", True)
    assert http.headers == {
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
        "x-api-key": "sk-secret",
        "anthropic-beta": "mcp-client-2025-04-04,files-api-2025-04-14",
        "x-extra": "1",
    }
    assert http.json == {
        "model": "claude-x",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        "max_tokens": 10,
        "stream": True,
    }
    assert "sk-secret" not in repr(http)


def test_http_request_honours_a_base_url() -> None:
    http = CODEC.http_request(
        Request(model="m", messages=[]), stream=False, endpoint=Endpoint(base_url="http://proxy/")
    )
    assert http.url == "http://proxy/v1/messages" and "x-api-key" not in http.headers


ERRORS = real_fixtures("anthropic-messages", "error")


@pytest.mark.parametrize("path", ERRORS, ids=[p.stem for p in ERRORS])
def test_real_errors_decode(path: Path) -> None:
    import json

    document = json.loads(path.read_text())
    error = CODEC.decode_error(document["status"] or 400, json.dumps(document["body"]).encode(), {})
    assert error.type == document["body"]["error"]["type"]
    assert error.message == document["body"]["error"]["message"]
    assert isinstance(error, (BadRequestError, NotFoundError))


@pytest.mark.parametrize(
    ("status", "kind", "cls"),
    [
        (401, "authentication_error", AuthenticationError),
        (429, "rate_limit_error", RateLimitError),
        (529, "overloaded_error", OverloadedError),
    ],
)
def test_error_status_picks_the_class_and_retry_after(status: int, kind: str, cls: type) -> None:
    body = b'{"type":"error","error":{"type":"%s","message":"slow down"},"request_id":"req_1"}' % kind.encode()
    error = CODEC.decode_error(status, body, {"retry-after": "3"})
    assert (type(error), error.status, error.retry_after, error.request_id) == (cls, status, 3.0, "req_1")


def test_non_json_error_body_keeps_its_text() -> None:
    error = CODEC.decode_error(502, b"<html>Bad gateway</html>", {})
    assert (error.status, error.message, error.raw) == (502, "<html>Bad gateway</html>", "<html>Bad gateway</html>")


def test_capabilities_hold() -> None:
    samples = {
        "native": Native(
            "anthropic", {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}}
        ),
        "native_tools": NativeTool(
            provider="anthropic", data={"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
        ),
        "thinking": Thinking(
            "let me think", provider_echoes=[ProviderEcho(provider="anthropic", data={"signature": "c2ln"})]
        ),
        "redacted_thinking": RedactedThinking(
            provider_echoes=[ProviderEcho(provider="anthropic", data={"data": "b3BhcXVl"})]
        ),
    }
    checked = assert_capabilities_hold(CODEC, samples)
    assert checked["audio"] == "lossy" and checked["thinking"] == "native"
