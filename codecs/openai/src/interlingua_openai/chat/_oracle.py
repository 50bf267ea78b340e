"""The openai-chat oracle, for tests: bodies against the ``openai`` SDK's chat types, the Chat
Completions rules that types miss, and the reader of its model-ruled settings.

The test kit imports this module (``interlingua.testing.validate_wire`` / ``check_rules`` find it
through ``OpenAIChatCodec.oracle``); the SDK types load when a check first runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import table_check
from interlingua.testing import Oracle, RuleView, Sendable, dig, either, objects, request_check, sdk_type

from .._schema_dialects import DIALECTS as SCHEMA_DIALECTS
from .._schema_dialects import chat_schemas
from .._shared_oracle import TOOL_NAME, check_error, read_effort
from ._dialect import dialect_named
from ._rules import rules_for


def _tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    tools = enumerate(objects(body.get("tools")))
    return [(f"tools[{i}].function.name", dig(tool, "function.name")) for i, tool in tools if _is_function(tool)]


def _is_function(tool: Mapping[str, Any]) -> bool:
    return tool.get("type") == "function"


def _turn_call_ids(body: Mapping[str, Any]) -> list[tuple[str, list[tuple[int, Any]]]]:
    return [
        (f"messages[{i}].tool_calls", [(j, c.get("id")) for j, c in enumerate(objects(message.get("tool_calls")))])
        for i, message in enumerate(objects(body.get("messages")))
    ]


def _rule_view(body: Mapping[str, Any]) -> RuleView:
    """The IR's sampling names, and the wire words the catalog speaks of (``logprobs``,
    ``logit_bias``, the legacy ``max_tokens``)."""
    names = ("temperature", "top_p", "presence_penalty", "frequency_penalty", "logprobs", "logit_bias", "max_tokens")
    view = RuleView({name: body[name] for name in names if body.get(name) is not None})
    view.max_output = body.get("max_completion_tokens", body.get("max_tokens"))
    read_effort(view, body.get("reasoning_effort"))
    return view


_PARAMS = ("CompletionCreateParamsNonStreaming", "CompletionCreateParamsStreaming")

ORACLE = Oracle(
    schemas=chat_schemas,
    dialects=SCHEMA_DIALECTS,
    checks={
        "request": request_check(("openai.types.chat.completion_create_params", *_PARAMS)),
        "response": either(sdk_type("openai.types.chat", "ChatCompletion")),
        "stream_event": either(sdk_type("openai.types.chat", "ChatCompletionChunk")),
        "error": check_error,
    },
    rules=table_check(rules_for(dialect_named("openai"))),  # api.openai.com's rows of _rules.py
    sendable=Sendable(
        tool_name=TOOL_NAME,
        max_tokens=("max_completion_tokens", "max_tokens"),
        sampling=("temperature", "top_p", "presence_penalty", "frequency_penalty"),
        turns=("messages",),
        tool_names=_tool_names,
        turn_call_ids=_turn_call_ids,
        empty_ids=True,  # OpenAI-compatible servers (Gemini's) send and take them
    ),
    rule_view=_rule_view,
)
