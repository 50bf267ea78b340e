"""Property (issue 26): for every catalog model, any request encoded for it passes both the SDK
oracle and the vendor-rule checker, the model's catalog rules included."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interlingua import Message, Request, Tool, ToolChoice, get_codec, models
from interlingua.testing import check_rules, strategies, validate_wire

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse")


def _models(wire: str) -> list[str]:
    provider = get_codec(wire).provider
    return sorted(s.id for s in models.all_models(provider) if not s.wires or wire in s.wires)


def _settings_only(request: Request) -> Request:
    """The generated request's settings (and function tools) around one user message: the
    messages have their own oracle tests in each codec; this one is about what a model takes."""
    tools = [t for t in request.tools if isinstance(t, Tool)]
    choice = request.tool_choice if tools or not isinstance(request.tool_choice, ToolChoice) else None
    return request.model_copy(update={"messages": [Message.user("hi")], "tools": tools, "tool_choice": choice})


_CASES = [(wire, model) for wire in WIRES for model in _models(wire)]


def test_every_catalog_model_is_a_case() -> None:
    """Each model of each catalog is drawn for each wire that serves it (a new entry is covered
    by adding it to its models.toml, nothing else)."""
    providers = {get_codec(wire).provider for wire in WIRES}
    shipped = {(s.provider, s.id) for s in models.all_models() if s.provider in providers}
    assert {(get_codec(wire).provider, model) for wire, model in _CASES} == shipped


@pytest.mark.parametrize(("wire", "model"), _CASES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_catalog_model_gets_bodies_its_api_accepts(wire: str, model: str, data: st.DataObject) -> None:
    codec = get_codec(wire)
    request = _settings_only(data.draw(strategies.requests())).model_copy(update={"model": model})
    encoded = codec.encode_request(request)
    assert encoded.notes == []  # every model here is known
    assert validate_wire(wire, "request", encoded.body) == []
    assert check_rules(wire, encoded.body, model=model) == []
