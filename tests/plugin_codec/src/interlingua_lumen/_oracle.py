"""lumen-chat's oracle, for tests (``LumenChatCodec.oracle`` names it). lumen has no SDK: its types
are the IR's own, so a body is checked by validating it as the IR model it spells."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from interlingua import Response
from interlingua.kit import table_check
from interlingua.testing import Oracle, RuleView, Sendable

from ._codec import RULES


def _problems(model: type[BaseModel], body: Mapping[str, Any]) -> list[str]:
    try:
        model.model_validate(body)
    except ValidationError as error:
        return [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()]
    return []


def _request(body: Mapping[str, Any]) -> list[str]:
    from interlingua import Request

    return _problems(Request, body)


def _response(body: Mapping[str, Any]) -> list[str]:
    return _problems(Response, body)


def _stream_event(body: Mapping[str, Any]) -> list[str]:
    if "part" in body:
        return [] if isinstance(body.get("index"), int) else ["index: missing"]
    return _problems(Response, {k: v for k, v in body.items() if k != "status" and k != "message"})


def _error(body: Mapping[str, Any]) -> list[str]:
    return [] if isinstance(body.get("message"), str) else ["message: missing"]


def _tool_names(body: Mapping[str, Any]) -> list[tuple[str, Any]]:
    tools = body.get("tools")
    return [
        (f"tools[{i}].name", tool.get("name"))
        for i, tool in enumerate(tools if isinstance(tools, list) else [])
        if isinstance(tool, Mapping) and tool.get("type", "function") == "function"
    ]


def _rule_view(body: Mapping[str, Any]) -> RuleView:
    names = ("temperature", "top_p", "top_k", "seed")
    view = RuleView({name: body[name] for name in names if body.get(name) is not None})
    if isinstance(body.get("max_tokens"), int):
        view.max_output = body["max_tokens"]
    return view


ORACLE = Oracle(
    checks={"request": _request, "response": _response, "stream_event": _stream_event, "error": _error},
    rules=table_check(RULES),
    sendable=Sendable(
        tool_name=re.compile(r".+"),  # lumen takes any tool name the IR holds
        max_tokens=("max_tokens",),
        sampling=("temperature", "top_p"),
        turns=("messages",),
        tool_names=_tool_names,
    ),
    rule_view=_rule_view,
)
