"""Invariant 3: whatever IR comes in, the body validates against the openai SDK's own types and
keeps the Chat Completions rules (tool messages follow their calls, ids of at most 40 characters)."""

from __future__ import annotations

from hypothesis import given

from interlingua import Request, Response
from interlingua.testing import check_rules, strategies, validate_wire
from interlingua_openai.chat import OpenAIChatCodec

CODEC = OpenAIChatCodec()


@given(strategies.requests())
def test_every_encoded_conversation_validates_and_keeps_the_rules(request: Request) -> None:
    body = CODEC.encode_request(request).body
    assert validate_wire("openai-chat", "request", body) == []
    assert check_rules("openai-chat", body) == []


@given(strategies.requests(well_formed=False))
def test_any_messages_at_all_encode_to_a_valid_body(request: Request) -> None:
    body = CODEC.encode_request(request).body
    assert validate_wire("openai-chat", "request", body) == []


@given(strategies.responses())
def test_every_encoded_response_validates(response: Response) -> None:
    body = CODEC.encode_response(response).body
    assert validate_wire("openai-chat", "response", body) == []
