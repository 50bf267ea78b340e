"""Requests, both directions: top-level fields, tools, tool choice, response format, reasoning effort.

Reasoning effort <-> ThinkingConfig.level, one to one: ``none`` <-> ``off``, and ``minimal``,
``low``, ``medium``, ``high``, ``xhigh`` by name. A budget without a level maps to the nearest
level of :data:`BUDGETS`, or of the caller's ThinkingBudgets (with a warning: the wire has no
budget). Any other effort string (``max``) stays verbatim in provider_options.

For a model in the catalog (``models.toml``; the ``openai`` dialect only), an effort the model
lacks goes to its nearest, and while it reasons the sampling settings it refuses are dropped;
``max_tokens`` is held to its output limit. Each with a warning naming the model and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, assert_never

from interlingua import (
    Audio,
    DecodeError,
    Image,
    NativeTool,
    Request,
    ResponseFormat,
    Text,
    ThinkingBudgets,
    ThinkingConfig,
    Tool,
    ToolChoice,
)
from interlingua.kit import (
    WarningSink,
    article,
    cap_max_tokens,
    each,
    expect,
    fit_schema,
    join,
    keep_sampling,
    lookup,
    optional,
    require,
)

if TYPE_CHECKING:
    from interlingua.kit import ModelSpec

from .._schema_dialects import STRICT
from .._shared import (
    CATALOG_PACKAGE,
    CHAT,
    EFFORTS,
    LEVELS,
    PROVIDER,
    RESPONSES,
    WIRE,
    decoded_by,
    effort_for,
    mark_breakpoints,
    own_options,
    spelling,
)
from ._echo import Ctx, build
from ._messages import decode_messages, encode_messages
from ._parts import Block, respell_breakpoint, spelled_breakpoint
from ._rules import sign_current_turn

_DEFAULT_SCHEMA = {"type": "object", "properties": {}}
# model_construct: a constant its tests validate, so importing the codec builds no validator.
BUDGETS = ThinkingBudgets.model_construct(low=1024, medium=4096, high=16384, xhigh=65536)
"""Level -> tokens, read backwards for a budget alone (nearest by ratio): a budget under 2048
tokens is ``low``, under 8192 ``medium``, under 32768 ``high``, anything larger ``xhigh``."""

_NUMBERS = ("temperature", "top_p", "presence_penalty", "frequency_penalty")
_KNOWN = frozenset(
    {
        "model",
        "messages",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "seed",
        "response_format",
        "reasoning_effort",
        "stop",
        *_NUMBERS,
    }
)

# --- decoding ------------------------------------------------------------------------------------


def _decode_tool(block: Block, at: str, ctx: Ctx) -> Tool | NativeTool:
    if block.get("type") != "function" or block.keys() != {"type", "function"}:
        return build(NativeTool, provider=ctx.provider, data=block)
    function = require(block, "function", dict, at)
    where = join(at, "function")
    if function.keys() - {"name", "description", "parameters", "strict"}:
        return build(NativeTool, provider=ctx.provider, data=block)
    return build(
        Tool,
        name=require(function, "name", str, where),
        description=optional(function, "description", str, where),
        input_schema=optional(function, "parameters", dict, where, _DEFAULT_SCHEMA),
        strict=optional(function, "strict", bool, where),
    )


def _typed(block: Block, ctx: Ctx) -> Block:
    """A tool as its type says: on a host whose tools default to functions (Mistral's spec,
    FunctionTool ``type`` optional, default ``function``) one with ``function`` alone is one."""
    if ctx.dialect.typeless_tools and block.keys() == {"function"}:
        return {"type": "function", **block}
    return block


def _untyped(body: Mapping[str, Any]) -> list[int]:
    """Where the body's tools left ``type`` out (the spelling record, so they go back so)."""
    tools = body.get("tools")
    return [i for i, t in enumerate(tools) if isinstance(t, dict) and t.keys() == {"function"}] if tools else []


def _explicit_default_schemas(body: Mapping[str, Any]) -> list[int]:
    """Where the body's function tools spelled out the empty object schema the IR holds for no
    ``parameters`` (the spelling record, so they go back spelled out)."""
    tools = body.get("tools")
    found: list[int] = []
    for i, tool in enumerate(tools if isinstance(tools, list) else ()):
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and function.get("parameters") == _DEFAULT_SCHEMA:
            found.append(i)
    return found


_CHOICE_MODES = frozenset({"auto", "none", "required", "any"})
"""``ChatCompletionToolChoiceOptionParam``'s modes (openai.types.chat), and Mistral's ``any``
(https://docs.mistral.ai/capabilities/function_calling/): ``required`` on the dialects that say so
(``Dialect.choice_any``), elsewhere kept in the options."""
_CHOICE_TYPES = frozenset({"function", "allowed_tools", "custom"})
"""Its object members' ``type``."""


def _decode_tool_choice(value: Any, at: str) -> str | ToolChoice | None:
    if value in ("auto", "none", "required"):
        return value  # type: ignore[no-any-return]  # one of the three literals
    if not isinstance(value, dict):
        if value not in _CHOICE_MODES:  # ``Auto``, ``auto ``: refused, never guessed at
            raise DecodeError("", at, f"unknown tool choice {expect(value, str, at)!r}")
        return None
    if value.get("type") not in _CHOICE_TYPES:
        raise DecodeError("", join(at, "type"), f"unknown tool choice {require(value, 'type', str, at)!r}")
    if isinstance(value, dict) and value.get("type") == "function" and value.keys() == {"type", "function"}:
        function = require(value, "function", dict, at)
        if function.keys() == {"name"}:
            return build(ToolChoice, name=require(function, "name", str, join(at, "function")))
    return None


def _decode_response_format(value: Any, at: str) -> ResponseFormat | None:
    block = expect(value, dict, at)
    kind = block.get("type")
    if kind in ("text", "json_object") and block.keys() == {"type"}:
        return build(ResponseFormat, type=kind)
    if kind != "json_schema" or block.keys() != {"type", "json_schema"}:
        return None
    schema = require(block, "json_schema", dict, at)
    where = join(at, "json_schema")
    if schema.keys() - {"name", "description", "schema", "strict"}:
        return None
    return build(
        ResponseFormat,
        type="json_schema",
        name=require(schema, "name", str, where),
        description=optional(schema, "description", str, where),
        json_schema=optional(schema, "schema", dict, where),
        strict=optional(schema, "strict", bool, where),
    )


def decode_request(body: Mapping[str, Any], ctx: Ctx) -> Request:
    """Every field without an IR home goes to provider_options, verbatim, so encode gives it back;
    how the body spelled what the IR holds goes to the private ``_wire`` record."""
    options = {k: v for k, v in body.items() if k not in _KNOWN}
    wire: dict[str, Any] = {}
    fields: dict[str, Any] = {"model": optional(body, "model", str, "")}
    fields["messages"] = decode_messages(require(body, "messages", list, ""), ctx)
    fields["tools"] = [_decode_tool(_typed(expect(t, dict, at), ctx), at, ctx) for at, t in each(body, "tools", "")]
    if ctx.dialect.typeless_tools and (untyped := _untyped(body)):
        wire["untyped_tools"] = untyped
    if explicit := _explicit_default_schemas(body):
        wire["default_parameters"] = explicit
    if body.get("tools") == []:  # an empty list the IR holds as no tools: the spelling record keeps it
        options[WIRE] = {**options.get(WIRE, {}), "empty_tools": True}
    for key in _NUMBERS:
        fields[key] = optional(body, key, float, "")
    fields["seed"] = optional(body, "seed", int, "")
    fields["parallel_tool_calls"] = optional(body, "parallel_tool_calls", bool, "")
    _decode_max_tokens(body, fields, options, wire, ctx)
    if ctx.dialect.choice_any and body.get("tool_choice") == "any":  # the host's spelling of required
        fields["tool_choice"], wire["tool_choice"] = "required", "any"
    else:
        _keep_or_map(body, "tool_choice", _decode_tool_choice, fields, options)
    _keep_or_map(body, "response_format", _decode_response_format, fields, options)
    _keep_or_map(body, "reasoning_effort", _decode_effort, fields, options, target="thinking")
    stop = body.get("stop")
    if isinstance(stop, str):  # one stop string: the IR holds a list, the spelling record keeps the form
        fields["stop"], wire["stop_string"] = [stop], True
    elif stop is not None:
        fields["stop"] = [expect(s, str, f"stop[{i}]") for i, s in enumerate(expect(stop, list, "stop"))]
    if ctx.dialect.top_k and "top_k" in options:
        fields["top_k"] = optional(options, "top_k", int, "")
        options.pop("top_k")
    if options.get("n") == 1 and type(options["n"]) is int:
        wire["n"] = options.pop("n")  # one choice, the API's default and what every wire gives: a spelling
    if wire:
        options[WIRE] = wire
    if ctx.provider == PROVIDER:
        decoded_by(options, CHAT)
    if options:
        fields["provider_options"] = {ctx.provider: options}
    return build(Request, **{k: v for k, v in fields.items() if v is not None})


def _decode_max_tokens(
    body: Mapping[str, Any], fields: dict[str, Any], options: dict[str, Any], wire: dict[str, Any], ctx: Ctx
) -> None:
    """The dialect's own field maps to max_tokens, else the other spelling does. Which fields carried
    it, when not the dialect's own alone, is the spelling record ``_wire["max_tokens"]`` (private:
    the value crosses as the IR's max_tokens). A second field with a value of its own stays in the
    options."""
    preferred = ctx.dialect.max_tokens_field
    other = "max_tokens" if preferred == "max_completion_tokens" else "max_completion_tokens"
    value, legacy = optional(body, preferred, int, ""), optional(body, other, int, "")
    options.pop(preferred, None)
    if value is None and legacy is not None:
        fields["max_tokens"], wire["max_tokens"] = options.pop(other), [other]
    elif value is not None:
        fields["max_tokens"] = value
        if legacy is not None:
            wire["max_tokens"] = [preferred, other] if legacy == value else [preferred]
            if legacy == value:
                options.pop(other)


def _decode_effort(value: Any, at: str) -> ThinkingConfig | None:
    level = EFFORTS.get(value) if isinstance(value, str) else None
    return None if level is None else build(ThinkingConfig, level=level)


def _keep_or_map(
    body: Mapping[str, Any], key: str, decode: Any, fields: dict[str, Any], options: dict[str, Any], target: str = ""
) -> None:
    """Map ``body[key]`` into the IR field, or keep it verbatim in options when the IR has no form for it."""
    value = body.get(key)
    if value is None:
        return
    mapped = decode(value, key)
    if mapped is None:
        options[key] = value
    else:
        fields[target or key] = mapped


# --- encoding ------------------------------------------------------------------------------------


def _encode_tools(request: Request, ctx: Ctx) -> list[Block]:
    tools: list[Block] = []
    explicit = _spelling(request, ctx).get("default_parameters")
    spelled_out = set(explicit) if isinstance(explicit, list) else set()
    for i, tool in enumerate(request.tools):
        match tool:  # function tools first: most lists hold nothing else
            case Tool():
                tools.append(_encode_tool(tool, i, ctx, i in spelled_out))
            case NativeTool():
                block = _encode_native_tool(tool, f"tools[{i}]", ctx)
                if block is not None:
                    tools.append(block)
            case _:
                assert_never(tool)
    return tools


def _encode_tool(tool: Tool, i: int, ctx: Ctx, spelled_out: bool = False) -> Block:
    function: Block = {"name": tool.name}
    description = tool.description
    if description is not None:
        function["description"] = description
    schema = tool.input_schema
    if spelled_out or schema != _DEFAULT_SCHEMA:
        at = f"tools[{i}].input_schema"
        function["parameters"] = fit_schema(schema, STRICT, at, ctx.out) if tool.strict else schema
    strict = tool.strict
    if strict is not None:
        function["strict"] = strict
    if tool.cache_control is not None:
        ctx.out.lossy(f"tools[{i}]", "cache_control", "Chat Completions has no cache breakpoints")
    return {"type": "function", "function": function}


def _encode_native_tool(tool: NativeTool, at: str, ctx: Ctx) -> Block | None:
    """A vendor tool: ours as it came (a Responses-form function or custom tool in Chat's form);
    another provider's, or a type OpenAI does not know, left out with a warning."""
    if tool.provider != ctx.provider:
        ctx.out.lossy(at, "native_tools", f"{article(tool.provider)} tool means nothing to {ctx.provider}")
        return None
    data = tool.data
    kind = data.get("type")
    if ctx.dialect.name == "openai" and kind not in ("function", "custom"):
        ctx.out.lossy(at, "native_tools", f"OpenAI knows no tool of type {kind!r}")
        return None
    if kind in _FLAT_TOOL_KEYS and kind not in data:
        return _encode_flat_tool(data, str(kind), at, ctx)
    return dict(data)


# The fields a Responses function or custom tool shares with Chat's, which nests them under the
# tool's type (openai/types/chat/chat_completion_function_tool_param.py,
# chat_completion_custom_tool_param.py; openai/types/responses/function_tool_param.py,
# custom_tool_param.py).
_FLAT_TOOL_KEYS = {
    "function": ("name", "description", "parameters", "strict"),
    "custom": ("name", "description", "format"),
}


def _encode_flat_tool(data: Mapping[str, Any], kind: str, at: str, ctx: Ctx) -> Block | None:
    """A tool in the Responses form (``name`` beside ``type``; the Responses decoder keeps one
    verbatim when it has fields the IR's Tool lacks, as ``output_schema`` or ``allowed_callers``
    for programmatic tool calling), in Chat's nested form. Fields Chat has no place for are left
    out, each with a warning; a custom tool's grammar format moves under ``grammar``."""
    inner: Block = {key: data[key] for key in _FLAT_TOOL_KEYS[kind] if key in data}
    if not isinstance(inner.get("name"), str):
        ctx.out.lossy(at, "native_tools", f"a {kind} tool without a name has no Chat form")
        return None
    for key in sorted(data.keys() - {"type", *_FLAT_TOOL_KEYS[kind]}):
        ctx.out.lossy(join(at, key), "native_tools", f"Chat Completions tools have no {key}")
    fmt = inner.get("format")
    if isinstance(fmt, Mapping) and fmt.get("type") == "grammar" and "grammar" not in fmt:
        inner["format"] = {"type": "grammar", "grammar": {k: v for k, v in fmt.items() if k != "type"}}
    return {"type": kind, kind: inner}


def _encode_response_format(fmt: ResponseFormat, out: WarningSink) -> Block:
    if fmt.type != "json_schema":
        return {"type": fmt.type}
    schema: Block = {"name": fmt.name or "response"}
    if fmt.description is not None:
        schema["description"] = fmt.description
    if fmt.json_schema is not None:
        at = "response_format.json_schema"
        schema["schema"] = fit_schema(fmt.json_schema, STRICT, at, out) if fmt.strict else fmt.json_schema
    if fmt.strict is not None:
        schema["strict"] = fmt.strict
    return {"type": "json_schema", "json_schema": schema}


def _encode_thinking(
    thinking: ThinkingConfig, ctx: Ctx, budgets: ThinkingBudgets, spec: ModelSpec | None = None
) -> str | None:
    if thinking.summary is not None:
        ctx.out.unsupported("thinking.summary", "thinking", "Chat Completions returns no reasoning summaries")
    level = thinking.level
    budget = thinking.budget_tokens
    if budget is not None:
        level = level if level is not None else budgets.level(budget)
        why = f"no token budget on the wire; sent as effort {LEVELS[level]!r}"
        ctx.out.unsupported("thinking.budget_tokens", "thinking", why)
    return effort_for(level, spec, ctx.out) if level is not None else None


def _encode_sampling(request: Request, spec: ModelSpec | None, effort: str | None, ctx: Ctx) -> dict[str, Any]:
    """The sampling settings, less what the target model refuses while it reasons."""
    values = {key: getattr(request, key) for key in _NUMBERS}
    if spec is None:
        return values
    return keep_sampling(spec, values, spec.thinks(None if effort is None else EFFORTS.get(effort, effort)), ctx.out)


def _spelling(request: Request, ctx: Ctx) -> Mapping[str, Any]:
    """How the decoded body spelled what the IR does not keep (``_wire``, never sent)."""
    return spelling(request.options(ctx.provider), CHAT)


def _encode_max_tokens(
    request: Request, options: Mapping[str, Any], spec: ModelSpec | None, ctx: Ctx, body: Block
) -> None:
    """max_tokens in the fields the decoded body used (the dialect's own by default); when the
    options hold a max-tokens field with no record of the decoded spelling, the caller chose it."""
    if request.max_tokens is None:
        return
    spelled = _spelling(request, ctx).get("max_tokens")
    if not isinstance(spelled, list):
        if {"max_tokens", "max_completion_tokens"} & options.keys():
            return
        spelled = [ctx.dialect.max_tokens_field]
    value = cap_max_tokens(spec, request.max_tokens, ctx.out)
    for field in spelled:
        if field not in options:
            body[field] = value


def encode_request(request: Request, ctx: Ctx, budgets: ThinkingBudgets = BUDGETS) -> Block:
    """The body for ``POST /chat/completions``; provider_options are merged last and win."""
    if ctx.provider == PROVIDER:  # cache marks as breakpoints, where the target model takes them
        request = mark_breakpoints(request, _BREAKPOINT_PARTS, _spelled, _respell, ctx.out, "Chat Completions")
    body: Block = {"model": request.model, "messages": encode_messages(request.messages, ctx)}
    if ctx.dialect.signed_models is not None:
        sign_current_turn(body["messages"], ctx.dialect, request.model)
    if request.model is None:
        body.pop("model")
    if request.tools:
        body["tools"] = _encode_tools(request, ctx)
        untyped = _spelling(request, ctx).get("untyped_tools") if ctx.dialect.typeless_tools else None
        for i in untyped if isinstance(untyped, list) else ():
            if isinstance(i, int) and 0 <= i < len(body["tools"]) and isinstance(request.tools[i], Tool):
                body["tools"][i].pop("type", None)  # as the decoded body spelled it
    elif _spelling(request, ctx).get("empty_tools") is True:  # sent so (accepted: Hugging Face's router)
        body["tools"] = []
    choice = request.tool_choice
    if choice == "required" and ctx.dialect.choice_any and _spelling(request, ctx).get("tool_choice") == "any":
        body["tool_choice"] = "any"  # as the decoded body spelled it
    elif choice is not None:
        body["tool_choice"] = (
            choice if isinstance(choice, str) else {"type": "function", "function": {"name": choice.name}}
        )
    if request.parallel_tool_calls is not None:
        body["parallel_tool_calls"] = request.parallel_tool_calls
    options = request.options(ctx.provider)
    if ctx.provider == PROVIDER:  # shared with openai-responses: keep only what Chat Completions takes
        options = own_options(options, CHAT, RESPONSES, ctx.out)
    elif WIRE in options:
        options = {k: v for k, v in options.items() if k != WIRE}
    own = ctx.provider == PROVIDER
    spec = lookup(PROVIDER, CATALOG_PACKAGE, request.model, ctx.out, "openai-chat") if own else None
    _encode_max_tokens(request, options, spec, ctx, body)
    effort = None
    if request.thinking is not None:
        effort = _encode_thinking(request.thinking, ctx, budgets, spec)
    for key, value in _encode_sampling(request, spec, effort, ctx).items():
        if value is not None:
            body[key] = value
    if request.top_k is not None:
        if ctx.dialect.top_k:
            body["top_k"] = request.top_k
        else:
            ctx.out.unsupported("top_k", "top_k", f"{ctx.dialect.name} has no top_k")
    if request.stop is not None:
        string = len(request.stop) == 1 and _spelling(request, ctx).get("stop_string") is True
        body["stop"] = request.stop[0] if string else request.stop
    if request.seed is not None:
        body["seed"] = request.seed
    if request.response_format is not None:
        body["response_format"] = _encode_response_format(request.response_format, ctx.out)
    if effort is not None:
        body["reasoning_effort"] = effort
    if "n" in (spelled := _spelling(request, ctx)):
        body["n"] = spelled["n"]
    body.update(options)
    ctx.out.foreign_options(request.provider_options, own=ctx.provider)
    return body


_BREAKPOINT_PARTS = (Text, Image, Audio)
"""The parts whose wire blocks take a breakpoint (openai.types.chat: ChatCompletionContentPartTextParam,
ChatCompletionContentPartImageParam and ChatCompletionContentPartInputAudioParam have ``prompt_cache_breakpoint``)."""


def _spelled(part: Any) -> dict[str, Any] | None:
    return spelled_breakpoint(part, PROVIDER)


def _respell(part: Any, mark: dict[str, Any] | None) -> Any:
    return respell_breakpoint(part, mark, PROVIDER)
