"""The openai-chat oracle, for tests: bodies against the ``openai`` SDK's chat types, the Chat
Completions rules that types miss, and the reader of its model-ruled settings.

The test kit imports this module (``interlingua.testing.validate_wire`` / ``check_rules`` find it
through ``OpenAIChatCodec.oracle``); the SDK types load when a check first runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.testing import Oracle, RuleView, Sendable, dig, either, objects, request_check, sdk_type

from .._schema_dialects import DIALECTS, chat_schemas
from .._shared_oracle import TOOL_NAME, check_error, read_effort


def _rules(body: Mapping[str, Any], model: str | None) -> list[str]:
    """Tool messages come straight after the assistant message that called them, every call is
    answered before the next non-tool message, and call ids are at most 40 characters."""
    problems: list[str] = []
    messages = [m for m in body.get("messages") or [] if isinstance(m, Mapping)]
    pending: list[Any] = []
    open_at = -1
    for index, message in enumerate(messages):
        role = message.get("role")
        if role == "tool":
            call = message.get("tool_call_id")
            if call in pending:
                pending.remove(call)
            else:
                problems.append(f"messages[{index}]: tool message answers no pending tool call ({call!r})")
            continue
        if pending:
            problems.append(f"messages[{open_at}]: tool calls {pending} not answered before messages[{index}]")
        pending = []
        calls = message.get("tool_calls") if role == "assistant" else None
        for position, call in enumerate(calls if isinstance(calls, list) else []):
            call_id = call.get("id") if isinstance(call, Mapping) else None
            if isinstance(call_id, str) and len(call_id) > 40:
                problems.append(f"messages[{index}].tool_calls[{position}].id: longer than 40 characters")
            pending.append(call_id)
            open_at = index
    return problems


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
    dialects=DIALECTS,
    checks={
        "request": request_check(("openai.types.chat.completion_create_params", *_PARAMS)),
        "response": either(sdk_type("openai.types.chat", "ChatCompletion")),
        "stream_event": either(sdk_type("openai.types.chat", "ChatCompletionChunk")),
        "error": check_error,
    },
    rules=_rules,
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
