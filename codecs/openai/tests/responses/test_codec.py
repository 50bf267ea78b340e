"""The codec as a whole: capabilities walk (invariant 2), the SDK oracle over hypothesis IR
(invariant 3), echoes of other providers left alone (invariant 4), errors, http_request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua import (
    Endpoint,
    Message,
    Native,
    NativeTool,
    ProviderEcho,
    RateLimitError,
    Request,
    Text,
)
from interlingua.testing import (
    assert_capabilities_hold,
    check_rules,
    real_fixtures,
    strategies,
    validate_wire,
)
from interlingua_openai.responses import OpenAIResponsesCodec

CODEC = OpenAIResponsesCodec()
GOLDEN = Path(__file__).parents[4] / "fixtures" / "openai-responses"


def test_capabilities_hold() -> None:
    checked = assert_capabilities_hold(
        CODEC,
        {
            "native": Native("openai", {"type": "web_search_call", "id": "ws_1", "status": "completed"}),
            "native_tools": NativeTool(provider="openai", data={"type": "web_search"}),
        },
    )
    # "thinking" names both a part type and a setting; the walk probes it as the setting (a bare
    # token budget, which goes as an effort level with a warning), so both rows read lossy here.
    assert checked["thinking"] == "lossy" and checked["native"] == "native" and checked["citations"] == "lossy"


def _own_natives_made_real(request: Request) -> Request:
    """Hypothesis invents ``openai`` natives (``acme_block``) this codec would send verbatim, as it
    trusts its own echoes; give them to a stranger instead."""
    messages = []
    for message in request.messages:
        parts = [
            p.model_copy(update={"provider": "acme"}) if isinstance(p, Native) and p.provider == "openai" else p
            for p in message.parts
        ]
        messages.append(message.model_copy(update={"parts": parts}))
    tools = [t.model_copy(update={"provider": "acme"}) if isinstance(t, NativeTool) else t for t in request.tools]
    return request.model_copy(update={"messages": messages, "tools": tools})


@given(strategies.requests())
def test_every_encoded_request_passes_the_sdk_oracle_and_the_rules(request: Request) -> None:
    body = CODEC.encode_request(_own_natives_made_real(request)).body
    assert validate_wire("openai-responses", "request", body) == []
    assert check_rules("openai-responses", body) == []


@given(st.lists(strategies.messages(), min_size=1, max_size=4))
def test_any_messages_encode_and_decode_without_crashing(messages: list[Message]) -> None:
    encoded = CODEC.encode_request(Request(model="m", messages=messages))
    decoded = CODEC.decode_request(encoded.body)
    assert decoded.model == "m"


def test_other_providers_echoes_are_left_alone() -> None:
    foreign = ProviderEcho(provider="acme", data={"sig": "x"})
    text = Text("hi", provider_echoes=[foreign])
    body = CODEC.encode_request(Request(model="m", messages=[Message.user(text)])).body
    assert body["input"] == [{"role": "user", "content": "hi"}]


def test_decode_error_gives_the_typed_error_with_retry_after() -> None:
    raw = (GOLDEN / "error" / "rate-limit.json").read_bytes()
    error = CODEC.decode_error(429, raw, {"retry-after-ms": "1500", "x-request-id": "req_9"})
    expected = json.loads((GOLDEN / "error" / "rate-limit.ir.json").read_text())
    assert isinstance(error, RateLimitError)
    assert (error.type, error.message, error.retry_after, error.request_id) == (
        expected["type"],
        expected["message"],
        1.5,
        "req_9",
    )
    for path in real_fixtures("openai-responses", "error"):
        recorded = json.loads(path.read_text())
        decoded = CODEC.decode_error(recorded["status"], json.dumps(recorded["body"]).encode(), {})
        assert decoded.message == recorded["body"]["error"]["message"] and decoded.status == recorded["status"]


GOLDEN_ERRORS = sorted(p for p in (GOLDEN / "error").glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", GOLDEN_ERRORS, ids=lambda p: p.stem)
def test_golden_error_body_decodes_to_its_class_and_fields(path: Path) -> None:
    """The recorded IR holds the status the body came with (the files are bare bodies)."""
    expected = json.loads(path.with_suffix(".ir.json").read_text())
    assert validate_wire("openai-responses", "error", json.loads(path.read_text())) == []
    error = CODEC.decode_error(expected["status"], path.read_bytes(), {})
    found = {"class": type(error).__name__, "status": error.status, "type": error.type, "message": error.message}
    assert found == expected


def test_http_request_posts_to_responses_with_bearer_auth() -> None:
    request = Request(model="gpt-5", messages=[Message.user("hi")])
    http = CODEC.http_request(
        request, stream=True, endpoint=Endpoint(api_key="sk-secret", base_url="https://x.test/v1/")
    )
    assert (http.method, http.url, http.stream) == ("POST", "https://x.test/v1/responses", True)
    assert http.json == {"model": "gpt-5", "input": [{"role": "user", "content": "hi"}], "stream": True}
    assert http.headers["authorization"] == "Bearer sk-secret" and "sk-secret" not in repr(http)
    plain = CODEC.http_request(request, stream=False, endpoint=Endpoint())
    assert plain.url == "https://api.openai.com/v1/responses" and "stream" not in plain.json


def test_sdk_objects_decode_like_their_json() -> None:
    from openai.types.responses import Response as SDKResponse

    body = json.loads((GOLDEN / "response" / "reasoning-function-call-turn1.json").read_text())
    sdk = SDKResponse.model_validate(body)
    assert CODEC.decode_response(sdk).message == CODEC.decode_response(body).message  # type: ignore[arg-type]


def test_codec_attributes() -> None:
    assert (CODEC.name, CODEC.provider, CODEC.api_key_env) == ("openai-responses", "openai", ("OPENAI_API_KEY",))
