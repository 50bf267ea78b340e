"""The Chat Completions rules beyond types, one row each with its source, and the turn rules the
encoder keeps from them (read by ``_codec.py`` and the oracle).

Id rules belong to the host, not to the wire: api.openai.com takes call ids of at most 40
characters and Mistral ids of exactly 9 letters and digits, while OpenRouter hands out longer
ids itself and takes them back. So each dialect's table holds the id row its host has, if any
(``_dialect.Dialect.tool_id_pattern``), and a host with none takes every id as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interlingua.kit import Rule, RuleTable, TurnRules

from ._dialect import Dialect, ToolIds, thinking_test


def _messages(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    messages = body.get("messages")
    return [m for m in messages if isinstance(m, Mapping)] if isinstance(messages, list) else []


def _calls(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    calls = message.get("tool_calls") if message.get("role") == "assistant" else None
    return [c for c in calls if isinstance(c, Mapping)] if isinstance(calls, list) else []


def _tool_messages_follow_calls(body: Mapping[str, Any]) -> list[str]:
    """Tool messages come straight after the assistant message that called them, and every call
    is answered before the next message of another role."""
    problems: list[str] = []
    pending: list[Any] = []
    open_at = -1
    for index, message in enumerate(_messages(body)):
        if message.get("role") == "tool":
            call = message.get("tool_call_id")
            if call in pending:
                pending.remove(call)
            else:
                problems.append(f"messages[{index}]: tool message answers no pending tool call ({call!r})")
            continue
        if pending:
            problems.append(f"messages[{open_at}]: tool calls {pending} not answered before messages[{index}]")
        pending = [call.get("id") for call in _calls(message)]
        open_at = index
    return problems


class _IdsWithin:
    """The check of a host's id rule: every call id matches ``pattern``. A class, not a closure, so
    codecs holding it still pickle (for process pools)."""

    __slots__ = ("pattern",)

    def __init__(self, pattern: str) -> None:
        self.pattern = re.compile(pattern)

    def __call__(self, body: Mapping[str, Any]) -> list[str]:
        return [
            f"messages[{index}].tool_calls[{position}].id: does not match {self.pattern.pattern}"
            for index, message in enumerate(_messages(body))
            for position, call in enumerate(_calls(message))
            if isinstance(call.get("id"), str) and self.pattern.fullmatch(call["id"]) is None
        ]


_ORDER = Rule(
    "tool-messages-follow-calls",
    "an assistant message with tool_calls is followed by tool messages answering each tool_call_id, and a "
    "tool message answers a call of the assistant message before it",
    "https://github.com/microsoft/promptflow/pull/3130",
    _tool_messages_follow_calls,
)
_NAMES = Rule(
    "function-names",
    "function names match [a-zA-Z0-9_-]{1,64} (on hosts that hold them to it)",
    "https://docs.rs/crate/openai-client-base/0.12.0/source/docs/ChatCompletionFunctions.md",
)

_ID_SOURCES = {
    # "Invalid 'messages[36].tool_calls[0].id': string too long. Expected a string with maximum length 40"
    "openai": "https://github.com/vercel/ai/issues/8132",
    # "Tool call id was abc123 but must be a-z, A-Z, 0-9, with a length of 9."
    "mistral": "https://github.com/langchain-ai/langchain/pull/24668",
}
"""Where each host's id rule is written down; a dialect with an id rule and no entry here is a
guess (a test holds every dialect to this)."""


def rules_for(dialect: Dialect) -> RuleTable:
    """The rows that hold on ``dialect``'s host."""
    table = []
    if dialect.tool_id_pattern is not None:
        says = f"tool call ids match {dialect.tool_id_pattern} on {dialect.name}; other ids are mapped"
        source = _ID_SOURCES.get(dialect.name, "")
        table.append(Rule("tool-call-ids", says, source, _IdsWithin(dialect.tool_id_pattern)))
    table.append(_ORDER)
    if dialect.tool_names is not None:
        table.append(_NAMES)
    return tuple(table)


def turn_rules(dialect: Dialect, ids: ToolIds) -> TurnRules:
    """What the encoder demands of a transcript on ``dialect``'s host, from its rows; ``ids``:
    the codec's id mapping (``_dialect.tool_ids``), which it reads back when it decodes. Results
    carry no name: ChatCompletionToolMessageParam is role, content and tool_call_id."""
    return TurnRules(
        accepts_thinking=thinking_test(dialect),
        tool_ids=ids,
        tool_names=dialect.tool_names,
        result_names=False,
        table=rules_for(dialect),
    )
