"""encode_request / decode_request: top-level fields, tools, tool_choice, reasoning and text
format. Fields with no IR home travel in ``provider_options["openai"]``, merged back as they were."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from interlingua import (
    DecodeError,
    Document,
    Encoded,
    Image,
    Message,
    NativeTool,
    Request,
    ResponseFormat,
    Text,
    ThinkingBudgets,
    ThinkingConfig,
    Tool,
    ToolChoice,
    WarningSink,
)
from interlingua.kit import (
    article,
    binding_of,
    cap_max_tokens,
    expect,
    keep_sampling,
    lookup,
    maker,
    optional,
)

from .._shared import (
    CATALOG_PACKAGE,
    CHAT,
    EFFORTS,
    PROVIDER,
    RESPONSES,
    WIRE,
    decoded_by,
    effort_for,
    mark_breakpoints,
    own_options,
    spelling,
)

if TYPE_CHECKING:
    from interlingua.kit import ModelSpec
from interlingua.kit import fit_schema

from .._schema_dialects import STRICT
from . import _echo
from ._items import decode_input, encode_messages
from ._parts import respell_breakpoint, spelled_breakpoint

NAME = "openai-responses"

_LEVEL = EFFORTS

# model_construct: a constant its tests validate, so importing the codec builds no validator.
BUDGETS = ThinkingBudgets.model_construct(low=2048, medium=8192, high=32768)
"""Level -> tokens, read backwards when only a budget is given (OpenAI takes no token budget;
nearest by ratio): under 4096 -> low, under 16384 -> medium, else high, which every reasoning
model accepts. A caller's table passed as ``budgets=`` replaces it."""

_TOOL_KEYS = frozenset({"type", "name", "description", "parameters", "strict"})
_OPTIONAL_STR = (str, type(None))
_OPTIONAL_BOOL = (bool, type(None))
_tool = maker(Tool, "name", "description", "input_schema", "strict")
_PLAIN = ("model", "messages", "tools", "parallel_tool_calls", "max_tokens", "temperature", "top_p")
_PLAIN_FIELDS = frozenset(_PLAIN)  # what decode_request sets for a body of no other field
_plain_request = maker(Request, *_PLAIN)
_MERGED = ("reasoning", "text")
_NUMBERS = ("temperature", "top_p")  # an integer on the wire (-1) is kept as written
_UNSUPPORTED = ("top_k", "stop", "seed", "presence_penalty", "frequency_penalty")
_READ = (
    "model",
    "thinking",
    "temperature",
    "top_p",
    "max_tokens",
    "parallel_tool_calls",
    "response_format",
    *_UNSUPPORTED,
)
_SETTINGS = (  # Request field -> body key, each sent as it is
    ("parallel_tool_calls", "parallel_tool_calls"),
    ("max_tokens", "max_output_tokens"),
    ("temperature", "temperature"),
    ("top_p", "top_p"),
)


# --- encode ------------------------------------------------------------------------------------


def _spelled(request: Request, flag: str) -> bool:
    """Whether the decoded body's spelling record (``_wire``) holds ``flag``."""
    wire = request.options(PROVIDER).get(WIRE)
    return isinstance(wire, Mapping) and wire.get(flag) is True


def encode_request(
    request: Request, *, strict: bool = False, budgets: ThinkingBudgets = BUDGETS, host: str | None = None
) -> Encoded:
    """IR -> a ``POST /responses`` body (the turn rules already kept: ``encode_with_rules``);
    ``host``: ``openai`` or ``azure`` (encrypted reasoning made through the other is withheld)."""
    out = WarningSink(NAME)
    body: dict[str, Any] = {}
    if request.model is not None:
        body["model"] = request.model
    request = mark_breakpoints(request, _BREAKPOINT_PARTS, spelled_breakpoint, respell_breakpoint, out, "Responses")
    bound = None if host is None else partial(binding_of, PROVIDER, CATALOG_PACKAGE, request, host)
    instructions, items = encode_messages(request.messages, request.model, out, bound)
    if instructions is not None:
        body["instructions"] = instructions
    body["input"] = _bare_input(request.messages, items)
    if request.tools:
        body["tools"] = [t for i, tool in enumerate(request.tools) if (t := _encode_tool(tool, i, out)) is not None]
    elif _spelled(request, "empty_tools"):
        body["tools"] = []
    if request.tool_choice is not None:
        body["tool_choice"] = _encode_tool_choice(request.tool_choice)
    _encode_settings(request, body, out, budgets)
    given = request.options(PROVIDER)
    options = own_options(given, RESPONSES, CHAT, out)
    _merge_options(body, options)
    spelled = spelling(given, RESPONSES)
    _respell_integers(body, spelled)
    _unset_strict(request, body, spelled.get("strict_unset"))
    for key in spelled.get("empty", ()):
        body.setdefault(key, {})
    out.foreign_options(request.provider_options, own=PROVIDER)
    return out.finish(body, strict=strict)


def _bare_input(messages: list[Message], items: list[dict[str, Any]]) -> Any:
    """``input`` as a plain string when it came as one (decode marks that message ``bare``)."""
    if len(items) != 1:
        return items
    rest = [m for m in messages if not _echo.flag(_echo.own(m), "instructions")]
    if len(rest) == 1 and _echo.flag(_echo.own(rest[0]), "bare"):
        content = items[0].get("content")
        if isinstance(content, str):
            return content
    return items


def _encode_tool(tool: Tool | NativeTool, index: int, out: WarningSink) -> dict[str, Any] | None:
    if type(tool) is not Tool and isinstance(tool, NativeTool):  # a pydantic class's isinstance is slow
        if tool.provider != PROVIDER:
            out.unsupported(f"tools[{index}]", "native_tools", f"{article(tool.provider)} tool has no OpenAI form")
            return None
        return dict(tool.data)
    if tool.cache_control is not None:
        out.lossy(f"tools[{index}]", "cache_control", "the Responses API has no cache breakpoints")
    block: dict[str, Any] = {"type": "function", "name": tool.name}
    if (description := tool.description) is not None:
        block["description"] = description
    schema = tool.input_schema
    block["parameters"] = fit_schema(schema, STRICT, f"tools[{index}].input_schema", out) if tool.strict else schema
    block["strict"] = tool.strict
    return block


def _unset_strict(request: Request, body: dict[str, Any], unset: Any) -> None:
    """Function tools the decoded body sent without ``strict`` go back without it while it is
    still unset (the SDK's type requires the key, as null at least; the API takes it absent)."""
    tools = body.get("tools")
    if not isinstance(unset, list) or not isinstance(tools, list) or len(tools) != len(request.tools):
        return
    for i in unset:
        if isinstance(i, int) and 0 <= i < len(tools) and tools[i].get("strict", False) is None:
            del tools[i]["strict"]


def _encode_tool_choice(choice: str | ToolChoice) -> Any:
    if isinstance(choice, ToolChoice):
        return {"type": "function", "name": choice.name}
    return choice


def _encode_settings(request: Request, body: dict[str, Any], out: WarningSink, budgets: ThinkingBudgets) -> None:
    """Settings as the IR has them, less what the target model (from the catalog) refuses: an
    effort it lacks goes to its nearest; while it reasons, the sampling it refuses is dropped."""
    fields = {setting: getattr(request, setting) for setting in _READ}  # each once: some are read twice below
    spec = lookup(PROVIDER, CATALOG_PACKAGE, fields["model"], out)
    thinking = fields["thinking"]
    reasoning = _encode_thinking(thinking, out, budgets, spec) if thinking is not None else None
    if spec is not None:
        effort = reasoning.get("effort") if reasoning else None
        level = None if effort is None else EFFORTS.get(effort, effort)
        sampling = {"temperature": fields["temperature"], "top_p": fields["top_p"]}
        fields = {
            **fields,
            "temperature": None,
            "top_p": None,
            **keep_sampling(spec, sampling, spec.thinks(level), out),
        }
        if fields["max_tokens"] is not None:
            fields["max_tokens"] = cap_max_tokens(spec, fields["max_tokens"], out)
    for setting, key in _SETTINGS:
        if (value := fields[setting]) is not None:
            body[key] = value
    for setting in _UNSUPPORTED:
        if fields[setting] is not None:
            out.unsupported(setting, setting, f"the Responses API has no {setting}")
    if reasoning:
        body["reasoning"] = reasoning
    if (response_format := fields["response_format"]) is not None:
        body["text"] = {"format": _encode_format(response_format, out)}


def _encode_thinking(
    thinking: ThinkingConfig, out: WarningSink, budgets: ThinkingBudgets = BUDGETS, spec: ModelSpec | None = None
) -> dict[str, Any]:
    reasoning: dict[str, Any] = {}
    if thinking.level is not None:
        reasoning["effort"] = effort_for(thinking.level, spec, out)
        if thinking.budget_tokens is not None:
            out.unsupported("thinking.budget_tokens", "thinking", "OpenAI takes an effort level, not a token budget")
    elif thinking.budget_tokens is not None:
        effort = effort_for(budgets.level(thinking.budget_tokens), spec, out)
        out.unsupported("thinking.budget_tokens", "thinking", f"token budget sent as reasoning effort {effort!r}")
        reasoning["effort"] = effort
    if thinking.summary:
        reasoning["summary"] = "auto"
    return reasoning


def _encode_format(fmt: ResponseFormat, out: WarningSink) -> dict[str, Any]:
    if fmt.type != "json_schema":
        return {"type": fmt.type}
    schema = fmt.json_schema or {}
    if fmt.strict is True:
        schema = fit_schema(schema, STRICT, "response_format.json_schema", out)
    block: dict[str, Any] = {"type": "json_schema", "name": fmt.name or "response", "schema": schema}
    if fmt.description is not None:
        block["description"] = fmt.description
    if fmt.strict is not None:
        block["strict"] = fmt.strict
    return block


def _respell_integers(body: dict[str, Any], wire: Any) -> None:
    """A number the decoded body wrote as an integer (``-1``) is written so again."""
    if not isinstance(wire, Mapping) or not isinstance(integers := wire.get("integers"), list):
        return
    for key in integers:
        value = body.get(key)
        if isinstance(value, float) and value.is_integer():
            body[key] = int(value)


def _merge_options(body: dict[str, Any], options: Mapping[str, Any]) -> None:
    """Options win; ``reasoning`` and ``text`` merge key by key with what the IR gave."""
    for key, value in options.items():
        if key in _MERGED and isinstance(value, dict) and isinstance(body.get(key), dict):
            body[key] = {**body[key], **value}
        else:
            body[key] = value


# --- decode ------------------------------------------------------------------------------------


def decode_request(body: Mapping[str, Any]) -> Request:
    """A ``POST /responses`` body -> IR; every field it does not map goes to provider_options."""
    model = optional(body, "model", str, "")
    messages: list[Message] = []
    options: dict[str, Any] = {}
    fields: dict[str, Any] = {"model": model}
    instructions = body.get("instructions")
    if isinstance(instructions, str):
        marker = _echo.make({"instructions": True})
        messages.append(
            _echo.build(Message, role="system", parts=[_echo.build(Text, text=instructions)], provider_echoes=marker)
        )
    elif "instructions" in body:
        options["instructions"] = instructions
    given = body.get("input")
    if isinstance(given, str):
        bare = _echo.make({"bare": True})
        messages.append(_echo.build(Message, role="user", parts=[_echo.build(Text, text=given)], provider_echoes=bare))
    elif given is not None:
        messages.extend(decode_input(expect(given, list, "input"), "input", model))
    fields["messages"] = messages
    fields["tools"] = [_decode_tool(tool, i) for i, tool in enumerate(_list(body, "tools"))]
    if body.get("tools") == []:  # the IR's no tools: the spelling record keeps the form
        options.setdefault(WIRE, {})["empty_tools"] = True
    elif unset := [i for i, t in enumerate(fields["tools"]) if type(t) is Tool and "strict" not in body["tools"][i]]:
        options.setdefault(WIRE, {})["strict_unset"] = unset  # FunctionToolParam requires it; the API does not
    _decode_tool_choice(body.get("tool_choice"), fields, options)
    _decode_settings(body, fields, options)
    for key, value in body.items():
        if key not in _MAPPED and key not in options:
            options[key] = value
    if options:
        decoded_by(options, RESPONSES)
        fields["provider_options"] = {PROVIDER: options}
    if fields.keys() == _PLAIN_FIELDS:  # most bodies: the maker, at about half the cost of build
        return _plain_request(**fields)
    return _echo.build(Request, **fields)  # every field was read and checked above


_MAPPED = frozenset(
    {
        "model",
        "input",
        "instructions",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "max_output_tokens",
        "temperature",
        "top_p",
        "reasoning",
        "text",
    }
)


def _list(body: Mapping[str, Any], key: str) -> list[Any]:
    value = body.get(key)
    return [] if value is None else expect(value, list, key)


def _decode_tool(tool: Any, index: int) -> Tool | NativeTool:
    """A function tool, or a built-in one kept as it is. Its path is spelled out only for an error."""
    if type(tool) is not dict:
        tool = expect(tool, dict, f"tools[{index}]")
    schema = tool.get("parameters")
    if tool.get("type") != "function" or not tool.keys() <= _TOOL_KEYS or not isinstance(schema, dict):
        return NativeTool(provider=PROVIDER, data=dict(tool))
    name, description, strict = tool.get("name"), tool.get("description"), tool.get("strict")
    if type(name) is not str or type(description) not in _OPTIONAL_STR or type(strict) not in _OPTIONAL_BOOL:
        at = f"tools[{index}]"
        name = expect(name, str, f"{at}.name")
        description, strict = optional(tool, "description", str, at), optional(tool, "strict", bool, at)
    return _tool(name, description, schema, strict)


def _decode_tool_choice(choice: Any, fields: dict[str, Any], options: dict[str, Any]) -> None:
    if choice is None:
        return
    if choice in ("auto", "none", "required"):
        fields["tool_choice"] = choice
    elif not isinstance(choice, dict):  # a mode the API does not define (``Auto``): never guessed at
        raise DecodeError(NAME, "tool_choice", f"unknown tool choice {expect(choice, str, 'tool_choice')!r}")
    elif isinstance(choice, dict) and set(choice) == {"type", "name"} and choice["type"] == "function":
        fields["tool_choice"] = ToolChoice(name=expect(choice["name"], str, "tool_choice.name"))
    else:
        options["tool_choice"] = choice


def _decode_settings(body: Mapping[str, Any], fields: dict[str, Any], options: dict[str, Any]) -> None:
    fields["parallel_tool_calls"] = optional(body, "parallel_tool_calls", bool, "")
    fields["max_tokens"] = optional(body, "max_output_tokens", int, "")
    for key in _NUMBERS:  # the IR holds a float; an integer on the wire is also kept as written
        value = optional(body, key, float, "")
        fields[key] = None if value is None else float(value)
        if type(value) is int:
            options.setdefault(WIRE, {}).setdefault("integers", []).append(key)
    reasoning = body.get("reasoning")
    if reasoning is not None:
        reasoning = expect(reasoning, dict, "reasoning")
        thinking = _decode_thinking(reasoning)
        fields["thinking"] = thinking
        canonical = _encode_thinking(thinking, WarningSink(NAME)) if thinking else {}
        _keep_rest("reasoning", reasoning, canonical, options)
    text = body.get("text")
    if text is not None:
        text = expect(text, dict, "text")
        fmt = _decode_format(text.get("format"))
        fields["response_format"] = fmt
        _keep_rest("text", text, {"format": _encode_format(fmt, WarningSink(NAME))} if fmt else {}, options)


def _keep_rest(key: str, wire: dict[str, Any], canonical: dict[str, Any], options: dict[str, Any]) -> None:
    """What of ``wire`` the IR does not reproduce goes to options, merged back on encode."""
    missing = object()
    rest = {k: v for k, v in wire.items() if canonical.get(k, missing) != v}
    if rest:
        options[key] = rest
    elif not wire:  # ``"reasoning": {}`` asks for nothing: a private spelling record
        options.setdefault(WIRE, {}).setdefault("empty", []).append(key)


_EFFORTS = frozenset({"none", "minimal", "low", "medium", "high", "xhigh", "max"})
"""``ReasoningEffort`` (openai.types.shared)."""
_SUMMARIES = frozenset({"auto", "concise", "detailed"})
"""``Reasoning.summary`` (openai.types.shared_params)."""


def _decode_thinking(reasoning: dict[str, Any]) -> ThinkingConfig | None:
    for key, known in (("effort", _EFFORTS), ("summary", _SUMMARIES), ("generate_summary", _SUMMARIES)):
        value = reasoning.get(key)
        if value is not None and value not in known:  # ``HIGH``, ``Auto``: refused, never guessed at
            raise DecodeError(NAME, f"reasoning.{key}", f"unknown {key} {expect(value, str, f'reasoning.{key}')!r}")
    effort = reasoning.get("effort")
    level = _LEVEL.get(effort) if isinstance(effort, str) else None
    summary = True if isinstance(reasoning.get("summary"), str) else None
    if level is None and summary is None:
        return None
    return ThinkingConfig(level=level, summary=summary)


def _decode_format(fmt: Any) -> ResponseFormat | None:
    if not isinstance(fmt, dict):
        return None
    kind = fmt.get("type")
    if kind in ("text", "json_object") and set(fmt) == {"type"}:
        return ResponseFormat(type=kind)
    if kind == "json_schema" and isinstance(fmt.get("schema"), dict) and isinstance(fmt.get("name"), str):
        return ResponseFormat(
            type="json_schema",
            name=fmt["name"],
            json_schema=fmt["schema"],
            description=optional(fmt, "description", str, "text.format"),
            strict=optional(fmt, "strict", bool, "text.format"),
        )
    return None


_BREAKPOINT_PARTS = (Text, Image, Document)
"""The parts whose blocks take a breakpoint (openai.types.responses: ResponseInputTextParam,
ResponseInputImageParam and ResponseInputFileParam have ``prompt_cache_breakpoint``)."""
