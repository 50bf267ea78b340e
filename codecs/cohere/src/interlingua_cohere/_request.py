"""Chat requests, both directions (the parameters of cohere's ``v2.chat``).

Settings: ``max_tokens``, ``stop_sequences`` (stop), ``temperature``, ``seed``,
``frequency_penalty``, ``presence_penalty``, ``k`` (top_k), ``p`` (top_p); ``tool_choice``
``REQUIRED`` / ``NONE``; ``thinking`` ``{"type": "enabled", "token_budget": n}`` (a budget) or
``{"type": "disabled"}`` (off); ``tools`` of ``type: function``. Every other field
(``documents``, ``citation_options``, ``safety_mode``, ``response_format``, ``strict_tools``,
``logprobs``, ``priority``, ...) stays in ``provider_options["cohere"]`` and is written back.
Each message's fields beyond the IR's ride in ``provider_options["cohere"]["_messages"]``.
"""

from __future__ import annotations

from typing import Any

from interlingua import DecodeError, NativeTool, Request, ThinkingConfig, Tool, WarningSink
from interlingua.kit import article, construct, expect, optional

from ._messages import decode_message, encode_turn
from ._parts import PROVIDER, Decoding, within

_SETTINGS = {
    "max_tokens": "max_tokens",
    "stop_sequences": "stop",
    "temperature": "temperature",
    "seed": "seed",
    "frequency_penalty": "frequency_penalty",
    "presence_penalty": "presence_penalty",
    "k": "top_k",
    "p": "top_p",
}
_TYPES: dict[str, type] = {
    "max_tokens": int,
    "seed": int,
    "k": int,
    "temperature": float,
    "frequency_penalty": float,
    "presence_penalty": float,
    "p": float,
}
"""The JSON type of each setting (cohere's v2 chat parameters): a decoder lets in only these."""
_MAPPED = frozenset({"model", "messages", "tools", "tool_choice", "thinking", *_SETTINGS})
BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384, "xhigh": 32768}
"""A thinking level -> ``token_budget`` (the table the other budget wires use)."""


def decode_request(body: dict[str, Any]) -> Request:
    ctx = Decoding()
    options: dict[str, Any] = {k: v for k, v in body.items() if k not in _MAPPED}
    messages = []
    extras: dict[str, Any] = {}
    for index, message in enumerate(expect(body.get("messages", []), list, "messages")):
        if type(message) is not dict:
            message = expect(message, dict, f"messages[{index}]")
        try:  # read with paths relative to the message, spelled out only for a bad one
            decoded, rest = decode_message(message, ctx)
        except DecodeError as err:
            raise within(f"messages[{index}]", err) from None
        messages.append(decoded)
        if rest:
            extras[str(index)] = rest
    if extras:
        options["_messages"] = extras
    settings: dict[str, Any] = {}
    for key, field in _SETTINGS.items():
        if body.get(key) is None:
            continue
        if key == "stop_sequences":
            stops = expect(body[key], list, key)
            settings[field] = [expect(stop, str, f"{key}[{i}]") for i, stop in enumerate(stops)]
        else:
            settings[field] = expect(body[key], _TYPES[key], key)
    tools: list[Tool | NativeTool] = []
    for index, tool in enumerate(expect(body.get("tools") or [], list, "tools")):
        tool = expect(tool, dict, f"tools[{index}]")
        function = tool.get("function")
        if (
            tool.get("type") == "function"
            and set(tool) == {"type", "function"}
            and isinstance(function, dict)
            and (set(function) <= {"name", "description", "parameters"} and isinstance(function.get("name"), str))
        ):
            tools.append(
                Tool(
                    name=function["name"],
                    description=function.get("description"),
                    input_schema=function.get("parameters") or {},
                )
            )
            if "parameters" not in function:
                options.setdefault("_noParameters", []).append(index)
        else:
            tools.append(NativeTool(provider=PROVIDER, data=tool))
    if body.get("tools") == []:
        options["_emptyTools"] = True
    raw_choice = body.get("tool_choice")
    if raw_choice is not None and raw_choice not in ("REQUIRED", "NONE"):  # ``required``: never guessed at
        raise DecodeError("", "tool_choice", f"unknown tool choice {expect(raw_choice, str, 'tool_choice')!r}")
    choice = {"REQUIRED": "required", "NONE": "none"}.get(raw_choice) if isinstance(raw_choice, str) else None
    if body.get("tool_choice") is not None and choice is None:
        options["tool_choice"] = body["tool_choice"]
    thinking = _decode_thinking(body.get("thinking"), options)
    return construct(
        Request,
        model=optional(body, "model", str, ""),
        messages=messages,
        tools=tools,
        tool_choice=choice,
        thinking=thinking,
        provider_options={PROVIDER: options} if options else {},
        **settings,
    )


def _decode_thinking(value: Any, options: dict[str, Any]) -> ThinkingConfig | None:
    if value is None:
        return None
    if value == {"type": "disabled"}:
        return ThinkingConfig(level="off")
    kind = value.get("type") if isinstance(value, dict) else None
    if kind is not None and kind not in ("enabled", "disabled"):  # ``ThinkingType`` (cohere): never guessed at
        raise DecodeError("", "thinking.type", f"unknown thinking type {expect(kind, str, 'thinking.type')!r}")
    budget = value.get("token_budget") if isinstance(value, dict) else None
    if (
        isinstance(value, dict)
        and value.get("type") == "enabled"
        and set(value) == {"type", "token_budget"}
        and (isinstance(budget, int))
    ):
        return ThinkingConfig(budget_tokens=budget)
    options["thinking"] = value
    return None


def encode_request(request: Request, out: WarningSink) -> dict[str, Any]:
    out.foreign_options(request.provider_options, own=PROVIDER)
    options = dict(request.provider_options.get(PROVIDER, {}))
    extras: dict[str, Any] = options.pop("_messages", {})
    no_parameters = set(options.pop("_noParameters", []))
    body: dict[str, Any] = {}
    if request.model is not None:
        body["model"] = request.model
    messages: list[dict[str, Any]] = []
    for index, message in enumerate(request.messages):  # a path is spelled out only for a warning
        encode_turn(message, index, out, dict(extras.get(str(index), ())) if extras else {}, messages)
    body["messages"] = messages
    tools: list[dict[str, Any]] = []
    for index, tool in enumerate(request.tools):
        if isinstance(tool, NativeTool):
            if tool.provider == PROVIDER:
                tools.append(dict(tool.data))
            else:
                out.lossy(f"tools[{index}]", "native_tools", f"{article(tool.provider)} tool has no place on Cohere")
            continue
        function: dict[str, Any] = {"name": tool.name}
        if tool.description is not None:
            function["description"] = tool.description
        if index not in no_parameters:
            function["parameters"] = tool.input_schema
        if tool.strict:
            out.unsupported(
                f"tools[{index}].strict", "tool_strict", "Cohere's strictness is strict_tools, for all tools"
            )
        if tool.cache_control is not None:
            out.lossy(f"tools[{index}].cache_control", "cache_control", "Cohere caches on its own; no breakpoints")
        tools.append({"type": "function", "function": function})
    if tools or options.pop("_emptyTools", False):
        body["tools"] = tools
    match request.tool_choice:
        case "required":
            body["tool_choice"] = "REQUIRED"
        case "none":
            body["tool_choice"] = "NONE"
        case "auto" | None:
            pass
        case _:
            out.unsupported("tool_choice", "tool_choice", "Cohere cannot force one named tool; REQUIRED is sent")
            body["tool_choice"] = "REQUIRED"
    for key, field in _SETTINGS.items():
        value = getattr(request, field)
        if value is not None:
            body[key] = value
    thinking = request.thinking
    if thinking is not None:
        if thinking.level == "off":
            body["thinking"] = {"type": "disabled"}
        elif thinking.budget_tokens is not None or thinking.level is not None:
            budget = (
                thinking.budget_tokens if thinking.budget_tokens is not None else BUDGETS[thinking.level or "medium"]
            )
            body["thinking"] = {"type": "enabled", "token_budget": budget}
        if thinking.summary is not None:  # Thinking has type and token_budget only
            out.unsupported("thinking.summary", "thinking", "Cohere takes no reasoning summary setting")
    if request.parallel_tool_calls is not None:
        out.unsupported("parallel_tool_calls", "parallel_tool_calls", "Cohere has no parallel tool call switch")
    if request.response_format is not None:
        out.unsupported("response_format", "response_format", "set provider_options.cohere.response_format")
    body.update(options)
    return body
