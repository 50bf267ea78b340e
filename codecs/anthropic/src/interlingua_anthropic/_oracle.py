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

from interlingua.kit import table_check
from interlingua.testing import Oracle, RuleView, Sendable, either, objects, request_check, sdk_type

from ._rules import RULES, blocks
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


# --- what no vendor takes, in this wire's words ---------------------------------------------------


def _tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    tools = enumerate(objects(body.get("tools")))
    return [(f"tools[{i}].name", tool.get("name")) for i, tool in tools if tool.get("type") in (None, "custom")]


def _turn_call_ids(body: Mapping[str, Any]) -> list[tuple[str, list[tuple[int, Any]]]]:
    turns = []
    for i, message in enumerate(objects(body.get("messages"))):
        uses = [(j, b.get("id")) for j, b in enumerate(blocks(message)) if b.get("type") == "tool_use"]
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
    rules=table_check(RULES),  # the rows of _rules.py, each with its source
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
