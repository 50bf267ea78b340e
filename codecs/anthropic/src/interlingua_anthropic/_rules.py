"""The Messages API's rules beyond types, one row each with its source, and the turn rules the
encoder keeps from them (read by ``_codec.py`` and the oracle)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interlingua import RedactedThinking, Thinking
from interlingua.kit import Rule, RuleTable, ToolIds, TurnRules

from ._parts import PROVIDER

_ID = re.compile(r"[a-zA-Z0-9_-]+")


def blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A wire message's content blocks (a string content has none)."""
    content = message.get("content")
    return [block for block in content if isinstance(block, Mapping)] if isinstance(content, list) else []


def _messages(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [m for m in body.get("messages") or [] if isinstance(m, Mapping)]


def _tool_use_ids(body: Mapping[str, Any]) -> list[str]:
    return [
        f"messages[{index}].content[{position}].id: must match [a-zA-Z0-9_-]+"
        for index, message in enumerate(_messages(body))
        for position, block in enumerate(blocks(message))
        if block.get("type") == "tool_use" and _ID.fullmatch(str(block.get("id", ""))) is None
    ]


_Placed = tuple[int, int, Mapping[str, Any]]  # a block, with its message and its place there


def _turns(messages: list[Mapping[str, Any]]) -> list[tuple[Any, list[_Placed]]]:
    """The turns the API reads: consecutive messages of one role combined ("Consecutive user or
    assistant turns in your request will be combined into a single turn",
    https://docs.claude.com/en/api/messages), each block with its message and place."""
    turns: list[tuple[Any, list[_Placed]]] = []
    for index, message in enumerate(messages):
        role = message.get("role")
        if not turns or turns[-1][0] != role:
            turns.append((role, []))
        turns[-1][1].extend((index, position, block) for position, block in enumerate(blocks(message)))
    return turns


def _results_follow_calls(body: Mapping[str, Any]) -> list[str]:
    """Every tool_use is answered by tool_result blocks at the start of the next user turn, and
    every tool_result answers a tool_use of the assistant turn just before it (turns combined)."""
    problems = []
    turns = _turns(_messages(body))
    for t, (role, placed) in enumerate(turns):
        if role == "assistant":
            calls = [b.get("id") for _, _, b in placed if b.get("type") == "tool_use"]
            if not calls or t + 1 == len(turns):
                continue  # none, or the last turn: the caller is about to run the tools
            leading = []
            for _, _, block in turns[t + 1][1]:
                if block.get("type") != "tool_result":
                    break
                leading.append(block.get("tool_use_id"))
            missing = [call for call in calls if call not in leading]
            if missing and turns[t + 1][1]:
                first = turns[t + 1][1][0][0]
                problems.append(f"messages[{first}]: tool_use ids {missing} not answered by leading tool_results")
            continue
        previous = turns[t - 1][1] if t > 0 and turns[t - 1][0] == "assistant" else []
        asked = {b.get("id") for _, _, b in previous if b.get("type") == "tool_use"}
        for index, position, block in placed:
            if block.get("type") == "tool_result" and block.get("tool_use_id") not in asked:
                why = "tool_result answers no tool_use of the turn before"
                problems.append(f"messages[{index}].content[{position}]: {why}")
    return problems


def _thinking_on(body: Mapping[str, Any]) -> Mapping[str, Any] | None:
    thinking = body.get("thinking")
    return thinking if isinstance(thinking, Mapping) and thinking.get("type") in ("enabled", "adaptive") else None


def _budget_below_max_tokens(body: Mapping[str, Any]) -> list[str]:
    thinking = _thinking_on(body)
    budget, max_tokens = (thinking or {}).get("budget_tokens"), body.get("max_tokens")
    if isinstance(budget, int) and isinstance(max_tokens, int) and budget >= max_tokens:
        return [f"thinking.budget_tokens: {budget} must be below max_tokens {max_tokens}"]
    return []


def _signed_thinking_before_results(body: Mapping[str, Any]) -> list[str]:
    """With thinking on, the assistant turn before the latest tool results starts with a signed
    thinking block."""
    messages = _messages(body)
    if _thinking_on(body) is None or not messages or messages[-1].get("role") != "user":
        return []
    if not any(b.get("type") == "tool_result" for b in blocks(messages[-1])):
        return []
    before = messages[-2] if len(messages) > 1 else {}
    first = next(iter(blocks(before)), {})
    kind = first.get("type")
    if (kind == "thinking" and first.get("signature")) or kind == "redacted_thinking":
        return []
    return [
        f"messages[{len(messages) - 2}]: with thinking on, the assistant turn before the latest "
        "tool results must start with a signed thinking block"
    ]


def _cache_breakpoints(body: Mapping[str, Any]) -> list[str]:
    """At most 4 breakpoints; in the order tools, system, messages a 1h mark never follows 5m."""
    marks: list[tuple[str, str]] = []
    for index, tool in enumerate(body.get("tools") or []):
        if isinstance(tool, Mapping) and isinstance(tool.get("cache_control"), Mapping):
            marks.append((f"tools[{index}]", tool["cache_control"].get("ttl", "5m")))
    system = body.get("system")
    for index, block in enumerate(system if isinstance(system, list) else []):
        if isinstance(block, Mapping) and isinstance(block.get("cache_control"), Mapping):
            marks.append((f"system[{index}]", block["cache_control"].get("ttl", "5m")))
    for index, message in enumerate(_messages(body)):
        for position, block in enumerate(blocks(message)):
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


def _text_not_blank(body: Mapping[str, Any]) -> list[str]:
    """Text holds some non-whitespace text: in system blocks, content blocks and string contents."""
    system = body.get("system")
    places = [("system", system if isinstance(system, list) else [])]
    places += [(f"messages[{i}].content", blocks(message)) for i, message in enumerate(_messages(body))]
    problems = [
        f"{at}[{j}].text: a text block must hold non-whitespace text"
        for at, found in places
        for j, block in enumerate(found)
        if isinstance(block, Mapping)
        and block.get("type") == "text"
        and isinstance(text := block.get("text"), str)
        and not text.strip()
    ]
    for i, message in enumerate(_messages(body)):
        if isinstance(content := message.get("content"), str) and not content.strip():
            problems.append(f"messages[{i}].content: a text content must hold non-whitespace text")
    return problems


_TOOL_USE = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use"
_THINKING_PAGE = "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"

# Thinking blocks come first in each step of an assistant turn, not only in the turn: recorded
# requests with thinking after a server tool's result, and with a turn opening on server_tool_use
# whose thinking follows its result, were answered 200 (pydantic-ai's code-execution cache-prefix
# calls). A step ends with a server tool's result block; the encoder moves thinking that comes
# later in a step out, with a warning (``_request._thinking_first``), and this row judges the same.


def _thinking_opens_steps(body: Mapping[str, Any]) -> list[str]:
    problems = []
    kinds = ("thinking", "redacted_thinking")
    for index, message in enumerate(_messages(body)):
        if message.get("role") != "assistant":
            continue
        seen_other = False
        for block in blocks(message):
            kind = str(block.get("type"))
            if kind in kinds and seen_other:
                problems.append(f"messages[{index}]: thinking blocks must come first in the assistant turn")
                break
            seen_other = not kind.endswith("_tool_result") and (seen_other or kind not in kinds)
    return problems


RULES: RuleTable = (
    Rule(
        "results-follow-calls",
        "every tool_use is answered by tool_result blocks first in the next user turn, and every tool_result "
        "answers a tool_use of the assistant turn before it; consecutive messages of one role are one turn "
        "(https://docs.claude.com/en/api/messages)",
        _TOOL_USE,
        _results_follow_calls,
    ),
    Rule(
        "tool-use-ids",
        "tool_use ids match ^[a-zA-Z0-9_-]+$ (400 'String should match pattern'); other ids are mapped",
        "https://github.com/CommandCodeAI/command-code/issues/323",
        _tool_use_ids,
    ),
    Rule("tool-names", "tool names match [a-zA-Z0-9_-]{1,64}", _TOOL_USE),
    Rule(
        "text-not-empty",
        "text blocks must hold non-whitespace text (400 'text content blocks must be non-empty' and "
        "'... must contain non-whitespace text', anthropics/claude-code#23440); a blank one is left out",
        "https://github.com/anthropics/claude-code/issues/59812",
        _text_not_blank,
    ),
    Rule(
        "thinking-opens-steps",
        "thinking blocks come first in an assistant turn, or in a step of it after a server tool's result "
        "(accepted with thinking between code-execution blocks: pydantic-ai corpus, "
        "test_anthropic_code_execution_files_cache_prefix_stable_*-sonnet-5__2)",
        _THINKING_PAGE,
        _thinking_opens_steps,
    ),
    Rule("budget-below-max-tokens", "budget_tokens stays below max_tokens", _THINKING_PAGE, _budget_below_max_tokens),
    Rule(
        "signed-thinking-before-results",
        "with thinking on, the assistant turn before the latest tool results starts with a signed thinking block",
        _THINKING_PAGE,
        _signed_thinking_before_results,
    ),
    Rule(
        "cache-breakpoints",
        "at most 4 cache breakpoints, and a 1h one never after a 5m one",
        "https://platform.claude.com/docs/en/build-with-claude/prompt-caching",
        _cache_breakpoints,
    ),
    Rule(
        "own-signed-thinking",
        "only thinking Claude signed (signature, or redacted data) goes back: the API checks the signature",
        _THINKING_PAGE,
    ),
)


def _signed(part: Thinking | RedactedThinking) -> bool:
    """Only blocks Claude signed go back: the API checks the signature (or redacted ``data``)."""
    echo = part.echo(PROVIDER)
    key = "signature" if isinstance(part, Thinking) else "data"
    return echo is not None and isinstance(echo.data.get(key), str)


def turn_rules() -> TurnRules:
    """What the encoder demands of a transcript, from the rows above. ``ToolIds`` remembers the
    ids it rewrote (one per codec); a result carries no name (ToolResultBlockParam has none)."""
    return TurnRules(
        accepts_thinking=_signed,
        tool_ids=ToolIds(r"[a-zA-Z0-9_-]+", length=30, prefix="toolu_"),
        drop_empty_text=True,
        tool_names=r"[a-zA-Z0-9_-]{1,64}",
        result_names=False,
        # "Consecutive user or assistant turns in your request will be combined into a single
        # turn" (https://docs.claude.com/en/api/messages): results after two assistant messages
        # answer the calls of both.
        joins_turns=True,
        table=RULES,
    )
