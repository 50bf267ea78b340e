"""The openai-responses oracle, for tests: bodies against the ``openai`` SDK's Responses types,
the Responses API's rules that types miss, and the reader of its model-ruled settings.

The test kit imports this module (``interlingua.testing.validate_wire`` / ``check_rules`` find it
through ``OpenAIResponsesCodec.oracle``); the SDK types load when a check first runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import table_check
from interlingua.testing import Oracle, RuleView, Sendable, either, objects, request_check, sdk_type

from .._schema_dialects import DIALECTS, responses_schemas
from .._shared_oracle import TOOL_NAME, check_error, read_effort
from ._rules import RULES


def _tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    tools = enumerate(objects(body.get("tools")))
    return [(f"tools[{i}].name", tool.get("name")) for i, tool in tools if tool.get("type") == "function"]


def _turn_call_ids(body: Mapping[str, Any]) -> list[tuple[str, list[tuple[int, Any]]]]:
    """A turn's calls run until an output or a user item."""
    turns: list[tuple[str, list[tuple[int, Any]]]] = []
    calls: list[tuple[int, Any]] = []
    for j, item in enumerate(objects(body.get("input"))):
        kind = item.get("type")
        if item.get("role") == "user" or (isinstance(kind, str) and kind.endswith("_output")):
            turns.append(("input", calls))
            calls = []
        elif kind == "function_call":
            calls.append((j, item.get("call_id")))
    turns.append(("input", calls))
    return turns


def _rule_view(body: Mapping[str, Any]) -> RuleView:
    view = RuleView({name: body[name] for name in ("temperature", "top_p") if body.get(name) is not None})
    view.max_output = body.get("max_output_tokens")
    reasoning = body.get("reasoning")
    read_effort(view, reasoning.get("effort") if isinstance(reasoning, Mapping) else None)
    return view


_PARAMS = ("ResponseCreateParamsNonStreaming", "ResponseCreateParamsStreaming")

ORACLE = Oracle(
    schemas=responses_schemas,
    dialects=DIALECTS,
    checks={
        "request": request_check(("openai.types.responses.response_create_params", *_PARAMS)),
        "response": either(sdk_type("openai.types.responses", "Response")),
        "stream_event": either(sdk_type("openai.types.responses", "ResponseStreamEvent")),
        "error": check_error,
    },
    rules=table_check(RULES),  # the rows of _rules.py, each with its source
    sendable=Sendable(
        tool_name=TOOL_NAME,
        max_tokens=("max_output_tokens",),
        sampling=("temperature", "top_p"),
        turns=("input",),
        tool_names=_tool_names,
        turn_call_ids=_turn_call_ids,
    ),
    rule_view=_rule_view,
)
