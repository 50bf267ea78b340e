"""The Chat Completions rules beyond types, one row each with its source, and the turn rules the
encoder keeps from them (read by ``_codec.py`` and the oracle).

Id rules belong to the host, not to the wire: api.openai.com takes call ids of at most 40
characters and Mistral ids of exactly 9 letters and digits, while OpenRouter hands out longer
ids itself and takes them back. So each dialect's table holds the id row its host has, if any
(``_dialect.Dialect.tool_id_pattern``), and a host with none takes every id as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
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


def _signature(block: Mapping[str, Any]) -> Any:
    """A block's ``extra_content.google.thought_signature`` (Gemini's endpoint), or None."""
    extra = block.get("extra_content")
    google = extra.get("google") if isinstance(extra, Mapping) else None
    return google.get("thought_signature") if isinstance(google, Mapping) else None


def _unsigned_steps(messages: Sequence[Mapping[str, Any]]) -> list[tuple[int, Mapping[str, Any]]]:
    """(index, first call) of each assistant step of the current turn (after the last user message)
    whose first call carries no thought signature, nor its message one (where Gemini 2.5 put it:
    real corpus, gemini-openai-compat-tool-call)."""
    start = 0
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user":
            start = index + 1
            break
    found = []
    for index in range(start, len(messages)):
        calls = _calls(messages[index])
        if calls and not _signature(calls[0]) and not _signature(messages[index]):
            found.append((index, calls[0]))
    return found


def signs_for(dialect: Dialect, model: str | None) -> bool:
    """Whether ``model`` on ``dialect``'s host refuses an unsigned current-turn call (``signed_models``,
    matched whole on the bare id; no model at all is not guessed at, so such a body goes as it came)."""
    pattern = dialect.signed_models
    return pattern is not None and model is not None and re.fullmatch(pattern, model.rsplit("/", 1)[-1]) is not None


def sign_current_turn(messages: list[dict[str, Any]], dialect: Dialect, model: str | None) -> None:
    """Gemini 3 answers 400 ("Function call is missing a thought_signature") when the first call of a
    current-turn step has no signature; one a Gemini 3 answer made is always signed, so an unsigned
    one came from elsewhere and gets the stand-in Google documents for such calls (dialects.toml,
    ``placeholder_signature``). The call's other ``extra_content`` stays; echo dicts are not touched."""
    if not signs_for(dialect, model):
        return
    for index, _ in _unsigned_steps(messages):
        call = messages[index]["tool_calls"][0]  # the encoder's own dicts: every call is one
        extra = call.get("extra_content")
        extra = extra if isinstance(extra, dict) else {}
        google = extra.get("google")
        google = google if isinstance(google, dict) else {}
        signed = {**google, "thought_signature": dialect.placeholder_signature}
        call["extra_content"] = {**extra, "google": signed}


class _SignedSteps:
    """The check of the signature rule on a body whose model the host holds to it."""

    __slots__ = ("dialect",)

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect

    def __call__(self, body: Mapping[str, Any]) -> list[str]:
        model = body.get("model")
        if not signs_for(self.dialect, model if isinstance(model, str) else None):
            return []
        found = _unsigned_steps(_messages(body))
        return [f"messages[{index}].tool_calls[0]: no thought signature in the current turn" for index, _ in found]


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
    if dialect.signed_models is not None:
        says = "the first call of each current-turn step carries a thought signature (a foreign one: the placeholder)"
        table.append(Rule("signed-current-turn", says, dialect.cite("signed_models"), _SignedSteps(dialect)))
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
