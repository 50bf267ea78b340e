"""Strict tool schemas on Converse follow the model family: Claude's structured-outputs subset for
Claude models (inference profiles included), none stated for the others; non-strict tools pass."""

from __future__ import annotations

import pytest

import interlingua as il

CODEC = il.get_codec("bedrock-converse")
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]}


def _sent(model: str, strict: bool) -> tuple[dict, list[str]]:
    tools = [il.Tool(name="t", input_schema=SCHEMA, strict=strict)]
    request = il.Request(model=model, messages=[il.Message.user("go")], tools=tools)
    encoded = CODEC.encode_request(request)
    return encoded.body["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"]["json"], [w.path for w in encoded.warnings]


CLAUDE = ["anthropic.claude-sonnet-4-5-20250929-v1:0", "us.anthropic.claude-haiku-4-5-20251001-v1:0"]


@pytest.mark.parametrize("model", CLAUDE)
def test_a_strict_tool_for_claude_takes_claudes_subset(model: str) -> None:
    schema, warned = _sent(model, strict=True)
    closed = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    closed["additionalProperties"] = False
    assert schema == closed
    assert warned == ["tools[0].input_schema.additionalProperties", "tools[0].input_schema.properties.n.minimum"]


@pytest.mark.parametrize(("model", "strict"), [("amazon.nova-pro-v1:0", True), (CLAUDE[0], False)])
def test_other_families_and_non_strict_tools_pass_as_written(model: str, strict: bool) -> None:
    assert _sent(model, strict) == (SCHEMA, [])
