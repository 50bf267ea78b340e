"""Bedrock Converse's rules beyond types, one row each with its source, and the turn rules the
encoder keeps from them (read by ``_codec.py``, ``_request.py`` and the oracle)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import Rule, RuleTable, ToolIds, TurnRules, own_thinking

from ._parts import PROVIDER


def _messages(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    messages = body.get("messages")
    return [m if isinstance(m, Mapping) else {} for m in messages] if isinstance(messages, list) else []


def _roles_alternate(body: Mapping[str, Any]) -> list[str]:
    messages = _messages(body)
    return [
        f"messages[{index}]: a second {message.get('role')} turn in a row"
        for index, message in enumerate(messages)
        if index and message.get("role") == messages[index - 1].get("role")
    ]


RULES: RuleTable = (
    Rule(
        "roles-alternate",
        "user and assistant turns alternate (ValidationException: 'A conversation must alternate between "
        "user and assistant roles'): all results of a turn go in one user message, and consecutive turns of "
        "one role are sent as one",
        "https://github.com/langchain-ai/langchain-aws/issues/130",
        _roles_alternate,
    ),
    Rule(
        "tool-use-ids",
        "toolUseId is 1 to 64 characters (the API reference's pattern [a-zA-Z0-9_-]+; botocore's newer ToolUseId "
        "shape adds dots and colons, which the encoder follows); other ids are mapped",
        "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultBlock.html",
    ),
    Rule(
        "tool-names",
        "a toolSpec name is 1 to 64 characters of [a-zA-Z0-9_-] (botocore's ToolName shape)",
        "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html",
    ),
    Rule(
        "own-reasoning",
        "only reasoning Bedrock produced (reasoningText with its signature, redactedContent) goes back",
        "https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html",
    ),
)


def turn_rules() -> TurnRules:
    """What the encoder demands of a transcript, from the rows above. ``ToolIds`` remembers the
    ids it rewrote, so each codec gets its own."""
    return TurnRules(
        accepts_thinking=own_thinking(PROVIDER),
        tool_ids=ToolIds(r"[a-zA-Z0-9_.:-]{1,64}", length=64, prefix="tooluse_"),
        tool_names=r"[a-zA-Z0-9_-]{1,64}",
        one_results_message=True,
        joins_results=True,  # _request._add_turn joins consecutive turns of one role (tool messages are user turns)
        result_names=False,
        table=RULES,
    )
