"""The anthropic-messages oracle, for tests: bodies against the ``anthropic`` SDK's own types, the
Messages API's rules that types miss, and the reader of its model-ruled settings.

The test kit imports this module (``interlingua.testing.validate_wire`` / ``check_rules`` find it
through ``AnthropicMessagesCodec.oracle``); the SDK types load when a check first runs. Request,
response and stream bodies pass when they fit either the GA types or the beta types (what the SDK
sends with an ``anthropic-beta`` header).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from interlingua.testing import Oracle, RuleView, Sendable, either, objects, request_check, sdk_type

from ._schema_dialects import DIALECTS, schemas_in

# anthropic 2.12 dropped the sampling fields from its params (Opus 4.7 and later refuse them);
# the API still takes them for earlier models, and the recorded requests carry them.
_SAMPLING: dict[str, type | tuple[type, ...]] = {
    "temperature": (int, float),
    "top_p": (int, float),
    "top_k": int,
}
_PARAMS = ("MessageCreateParamsNonStreaming", "MessageCreateParamsStreaming")


def _event(beta: bool) -> Any:
    from anthropic.types.shared import ErrorResponse

    if beta:
        from anthropic.types.beta import BetaRawMessageStreamEvent as Event
    else:
        from anthropic.types import RawMessageStreamEvent as Event
    return typing.Union[Event, _Ping, ErrorResponse]  # noqa: UP007  # Event is an Annotated alias


class _Ping(BaseModel):
    """The keep-alive event, which the SDK skips and declares no type for."""

    model_config = {"extra": "forbid"}
    type: Literal["ping"]


# --- the rules types miss -----------------------------------------------------------------------

_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


def _blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = message.get("content")
    if isinstance(content, list):
        return [block for block in content if isinstance(block, Mapping)]
    return []


def _rules(body: Mapping[str, Any], model: str | None) -> list[str]:
    problems: list[str] = []
    messages = [m for m in body.get("messages") or [] if isinstance(m, Mapping)]
    problems += _tool_pairs(messages)
    problems += _thinking_rules(body, messages)
    problems += _cache_rules(body, messages)
    return problems


def _tool_pairs(messages: list[Mapping[str, Any]]) -> list[str]:
    """Every tool_use is answered by tool_result blocks at the start of the next user message,
    and every tool_result answers a tool_use of the assistant message just before it
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use)."""
    problems = []
    for index, message in enumerate(messages):
        at = f"messages[{index}]"
        blocks = _blocks(message)
        for position, block in enumerate(blocks):
            if block.get("type") == "tool_use" and not _ID.match(str(block.get("id", ""))):
                problems.append(f"{at}.content[{position}].id: must match [a-zA-Z0-9_-]+")
        if message.get("role") == "assistant":
            calls = [b.get("id") for b in blocks if b.get("type") == "tool_use"]
            if not calls:
                continue
            following = _blocks(messages[index + 1]) if index + 1 < len(messages) else None
            if following is None:
                continue  # the last turn: the caller is about to run the tools
            leading = []
            for block in following:
                if block.get("type") != "tool_result":
                    break
                leading.append(block.get("tool_use_id"))
            missing = [call for call in calls if call not in leading]
            if missing:
                problems.append(f"messages[{index + 1}]: tool_use ids {missing} not answered by leading tool_results")
        else:
            before = messages[index - 1] if index > 0 else {}
            previous = _blocks(before) if before.get("role") == "assistant" else []
            asked = {b.get("id") for b in previous if b.get("type") == "tool_use"}
            for position, block in enumerate(blocks):
                if block.get("type") == "tool_result" and block.get("tool_use_id") not in asked:
                    problems.append(f"{at}.content[{position}]: tool_result answers no tool_use of the turn before")
    return problems


def _thinking_rules(body: Mapping[str, Any], messages: list[Mapping[str, Any]]) -> list[str]:
    """Thinking blocks open their assistant turn; the budget stays below max_tokens; with thinking
    on, the assistant turn before the latest tool results starts with a signed thinking block
    (https://platform.claude.com/docs/en/build-with-claude/extended-thinking)."""
    problems = []
    thinking_kinds = ("thinking", "redacted_thinking")
    for index, message in enumerate(messages):
        blocks = _blocks(message)
        if message.get("role") == "assistant" and any(b.get("type") in thinking_kinds for b in blocks):
            first_other = next((i for i, b in enumerate(blocks) if b.get("type") not in thinking_kinds), len(blocks))
            if any(b.get("type") in thinking_kinds for b in blocks[first_other:]):
                problems.append(f"messages[{index}]: thinking blocks must come first in the assistant turn")
    thinking = body.get("thinking")
    if not isinstance(thinking, Mapping) or thinking.get("type") not in ("enabled", "adaptive"):
        return problems
    budget, max_tokens = thinking.get("budget_tokens"), body.get("max_tokens")
    if isinstance(budget, int) and isinstance(max_tokens, int) and budget >= max_tokens:
        problems.append(f"thinking.budget_tokens: {budget} must be below max_tokens {max_tokens}")
    if (
        messages
        and messages[-1].get("role") == "user"
        and any(b.get("type") == "tool_result" for b in _blocks(messages[-1]))
    ):
        before = messages[-2] if len(messages) > 1 else {}
        first = next(iter(_blocks(before)), {})
        kind = first.get("type")
        signed = (kind == "thinking" and first.get("signature")) or kind == "redacted_thinking"
        if not signed:
            problems.append(
                f"messages[{len(messages) - 2}]: with thinking on, the assistant turn before the latest "
                "tool results must start with a signed thinking block"
            )
    return problems


def _cache_rules(body: Mapping[str, Any], messages: list[Mapping[str, Any]]) -> list[str]:
    """At most 4 breakpoints; in the order tools, system, messages a 1h mark never follows 5m
    (https://platform.claude.com/docs/en/build-with-claude/prompt-caching)."""
    marks: list[tuple[str, str]] = []
    for index, tool in enumerate(body.get("tools") or []):
        if isinstance(tool, Mapping) and isinstance(tool.get("cache_control"), Mapping):
            marks.append((f"tools[{index}]", tool["cache_control"].get("ttl", "5m")))
    system = body.get("system")
    for index, block in enumerate(system if isinstance(system, list) else []):
        if isinstance(block, Mapping) and isinstance(block.get("cache_control"), Mapping):
            marks.append((f"system[{index}]", block["cache_control"].get("ttl", "5m")))
    for index, message in enumerate(messages):
        for position, block in enumerate(_blocks(message)):
            if isinstance(block.get("cache_control"), Mapping):
                marks.append((f"messages[{index}].content[{position}]", block["cache_control"].get("ttl", "5m")))
    problems = []
    if len(marks) > 4:
        problems.append(f"cache_control: {len(marks)} breakpoints, at most 4 allowed")
    seen_short = False
    for at, ttl in marks:
        if ttl == "1h" and seen_short:
            problems.append(f"{at}.cache_control: a 1h breakpoint must not follow a 5m one")
        seen_short = seen_short or ttl != "1h"
    return problems


# --- what no vendor takes, in this wire's words ---------------------------------------------------


def _tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    tools = enumerate(objects(body.get("tools")))
    return [(f"tools[{i}].name", tool.get("name")) for i, tool in tools if tool.get("type") in (None, "custom")]


def _turn_call_ids(body: Mapping[str, Any]) -> list[tuple[str, list[tuple[int, Any]]]]:
    turns = []
    for i, message in enumerate(objects(body.get("messages"))):
        uses = [(j, b.get("id")) for j, b in enumerate(_blocks(message)) if b.get("type") == "tool_use"]
        turns.append((f"messages[{i}].content", uses))
    return turns


def _payload(value: Mapping[str, Any]) -> tuple[str, Any] | None:
    source = value.get("source")
    if isinstance(source, Mapping) and source.get("type") == "base64":
        return "source.data", source.get("data")
    return None


# --- the model-ruled settings, for the catalog's judge --------------------------------------------


def _rule_view(body: Mapping[str, Any]) -> RuleView:
    names = ("temperature", "top_p", "top_k")
    view = RuleView({name: body[name] for name in names if body.get(name) is not None})
    view.max_output = body.get("max_tokens")
    messages = body.get("messages")
    last = messages[-1] if isinstance(messages, list) and messages else None
    view.prefill = isinstance(last, Mapping) and last.get("role") == "assistant"
    thinking = body.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, Mapping) else None
    if kind is not None:
        view.thinks = kind != "disabled"
        view.forms = [kind] if kind != "disabled" else []
        view.budget = thinking.get("budget_tokens") if isinstance(thinking, Mapping) else None
    config = body.get("output_config")
    if isinstance(config, Mapping) and isinstance(config.get("effort"), str) and kind == "adaptive":
        view.level = config["effort"]
    choice = body.get("tool_choice")
    if isinstance(choice, Mapping) and choice.get("type") in ("any", "tool"):
        view.settings["forced_tool_choice"] = choice["type"]
    return view


ORACLE = Oracle(
    schemas=schemas_in,
    dialects=DIALECTS,
    checks={
        "request": request_check(
            ("anthropic.types.message_create_params", *_PARAMS),
            ("anthropic.types.beta.message_create_params", *_PARAMS),
            legacy=_SAMPLING,
        ),
        "response": either(sdk_type("anthropic.types", "Message"), sdk_type("anthropic.types.beta", "BetaMessage")),
        "stream_event": either(lambda: _event(False), lambda: _event(True)),
        "error": either(sdk_type("anthropic.types.shared", "ErrorResponse")),
    },
    rules=_rules,
    sendable=Sendable(
        # https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use
        tool_name=re.compile(r"[a-zA-Z0-9_-]{1,64}"),
        max_tokens=("max_tokens",),
        sampling=("temperature", "top_p"),
        turns=("messages", "system"),
        tool_names=_tool_names,
        turn_call_ids=_turn_call_ids,
        payload=_payload,
    ),
    rule_view=_rule_view,
)
