"""Invariant 3: every body encode_request makes from the IR strategies validates against the SDK's
own types (the oracle) and keeps the API's rules beyond types."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from interlingua import Message, Native, NativeTool, ProviderEcho, RedactedThinking, Request, Thinking, ToolResult
from interlingua.testing import check_rules, strategies, validate_wire
from interlingua_anthropic import AnthropicMessagesCodec

CODEC = AnthropicMessagesCodec()
WIRE = "anthropic-messages"


def _own_echo(part: Any) -> Any:
    """The strategies draw ``anthropic`` echoes and natives with random keys, which Claude never
    produced; keep only what this codec's own decoders would have put there."""
    echoes = [e for e in part.provider_echoes if e.provider != "anthropic"]
    if isinstance(part, Thinking) and any(e.provider == "anthropic" for e in part.provider_echoes):
        echoes.append(ProviderEcho(provider="anthropic", data={"signature": "c2lnbmF0dXJl"}))
    if isinstance(part, RedactedThinking) and any(e.provider == "anthropic" for e in part.provider_echoes):
        echoes.append(ProviderEcho(provider="anthropic", data={"data": "b3BhcXVl"}))
    update: dict[str, Any] = {"provider_echoes": echoes}
    if isinstance(part, ToolResult) and isinstance(part.content, list):
        update["content"] = [_own_echo(p) for p in part.content]
    return part.model_copy(update=update)


def _realistic(request: Request) -> Request:
    messages = [
        Message(
            role=m.role,
            parts=[_own_echo(p) for p in m.parts if not (isinstance(p, Native) and p.provider == "anthropic")],
        )
        for m in request.messages
    ]
    tools = [t for t in request.tools if not (isinstance(t, NativeTool) and t.provider == "anthropic")]
    return request.model_copy(update={"messages": messages, "tools": tools})


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(strategies.requests())
def test_every_encoded_request_validates_and_keeps_the_rules(request: Request) -> None:
    body = CODEC.encode_request(_realistic(request)).body
    assert validate_wire(WIRE, "request", body) == []
    assert check_rules(WIRE, body) == []


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=50)
@given(strategies.requests(well_formed=False))
def test_any_request_encodes_to_valid_types(request: Request) -> None:
    body = CODEC.encode_request(_realistic(request)).body
    assert validate_wire(WIRE, "request", body) == []


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(strategies.responses())
def test_every_encoded_response_validates(response: Any) -> None:
    message = response.message.model_copy(update={"parts": [_own_echo(p) for p in response.message.parts]})
    parts = [p for p in message.parts if not (isinstance(p, Native) and p.provider == "anthropic")]
    body = CODEC.encode_response(
        response.model_copy(update={"message": message.model_copy(update={"parts": parts})})
    ).body
    assert validate_wire(WIRE, "response", body) == []
