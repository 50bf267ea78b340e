"""The cohere-chat oracle, for tests (``CohereChatCodec.oracle`` names it): bodies against the
cohere SDK's own types (the parameters of ``client.v2.chat`` and ``V2ChatResponse``), loaded when
a check first runs. Cohere's models allow extra keys; the kit's walk reports undeclared ones."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interlingua.kit import table_check
from interlingua.testing import Oracle, RuleView, Sendable, sdk_problems

from ._rules import RULES
from ._schema_dialects import DIALECTS, schemas_in


def _request_types() -> dict[str, Any]:
    import cohere

    return {
        "model": str,
        "messages": list[cohere.ChatMessageV2],
        "tools": list[cohere.ToolV2],
        "strict_tools": bool,
        "documents": list[cohere.V2ChatRequestDocumentsItem],
        "citation_options": cohere.CitationOptions,
        "response_format": cohere.ResponseFormatV2,
        "safety_mode": cohere.V2ChatRequestSafetyMode,
        "max_tokens": int,
        "stop_sequences": list[str],
        "temperature": float,
        "seed": int,
        "frequency_penalty": float,
        "presence_penalty": float,
        "k": int,
        "p": float,
        "logprobs": bool,
        "tool_choice": cohere.V2ChatRequestToolChoice,
        "thinking": cohere.Thinking,
        "priority": int,
        "stream": bool,
    }


def _request(body: Mapping[str, Any]) -> list[str]:
    types = _request_types()
    problems = []
    for key, value in body.items():
        target = types.get(key)
        if target is None:
            problems.append(f"{key}: unknown key (not a v2 chat parameter)")
        else:
            problems.extend(sdk_problems(target, value, key))
    problems.extend(f"{key}: missing" for key in ("model", "messages") if key not in body)
    return problems


def _response(body: Mapping[str, Any]) -> list[str]:
    import cohere

    return sdk_problems(cohere.V2ChatResponse, body)


def _stream_event(body: Mapping[str, Any]) -> list[str]:
    import cohere

    return sdk_problems(cohere.StreamedChatResponseV2, body)


def _error(body: Mapping[str, Any]) -> list[str]:
    return [] if isinstance(body.get("message"), str) else ["message: missing"]


def _tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    tools = body.get("tools")
    return [
        (f"tools[{i}].function.name", tool["function"].get("name"))
        for i, tool in enumerate(tools if isinstance(tools, list) else [])
        if isinstance(tool, Mapping) and isinstance(tool.get("function"), Mapping)
    ]


def _rule_view(body: Mapping[str, Any]) -> RuleView:
    names = {"temperature": "temperature", "p": "top_p", "k": "top_k", "seed": "seed"}
    view = RuleView({neutral: body[key] for key, neutral in names.items() if body.get(key) is not None})
    if isinstance(body.get("max_tokens"), int):
        view.max_output = body["max_tokens"]
    thinking = body.get("thinking")
    if isinstance(thinking, Mapping):
        view.thinks = thinking.get("type") == "enabled"
        if isinstance(thinking.get("token_budget"), int):
            view.budget = thinking["token_budget"]
            view.forms.append("budget")
    return view


ORACLE = Oracle(
    schemas=schemas_in,
    dialects=DIALECTS,
    checks={"request": _request, "response": _response, "stream_event": _stream_event, "error": _error},
    rules=table_check(RULES),  # the rows of _rules.py, each with its source
    sendable=Sendable(
        tool_name=re.compile(r"[a-zA-Z0-9_-]{1,64}"),
        max_tokens=("max_tokens",),
        sampling=("temperature", "p", "frequency_penalty", "presence_penalty"),
        turns=("messages",),
        tool_names=_tool_names,
    ),
    rule_view=_rule_view,
)
