"""Converse requests, both directions (botocore's ``ConverseRequest``).

The model is in the URL (``/model/{modelId}/converse``), not in the body: ``decode_request``
takes it as ``model=`` (a body that carries ``modelId``, as a boto3 call's keyword arguments
do, gives it too and gets it back).

- ``system`` (text blocks, cache points, guard content) is the first system message;
- ``inferenceConfig``: ``maxTokens``, ``temperature``, ``topP``, ``stopSequences``;
- ``toolConfig``: ``toolSpec`` tools (``inputSchema.json``), a ``cachePoint`` after a tool as that
  tool's ``cache_control``, ``systemTool`` and other tools as ``NativeTool``; ``toolChoice``
  ``auto`` / ``any`` (``required``) / ``tool``;
- ``additionalModelRequestFields``: the model's own fields. Claude's ``thinking``
  (``{"type": "enabled", "budget_tokens": n}``) and ``top_k`` are read into the IR's settings
  (https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html);
  the rest stays in ``provider_options["bedrock"]["additionalModelRequestFields"]``.
- the target model's rules (the bedrock catalog, ``models.toml``) are applied by ``_models``:
  what the model behind the Bedrock model id refuses is dropped or changed, with a warning;
- every other field (``guardrailConfig``, ``promptVariables``, ``requestMetadata``,
  ``performanceConfig``, ``serviceTier``, ``outputConfig``, ...) is kept in
  ``provider_options["bedrock"]`` and written back as it came.

A field that arrived empty (``"system": []``, ``"inferenceConfig": {}``) is recorded in
``provider_options["bedrock"]["_empty"]`` and written back empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from interlingua import (
    ContentPart,
    DecodeError,
    Message,
    NativeTool,
    Request,
    ResponseFormat,
    Text,
    ThinkingConfig,
    Tool,
    ToolChoice,
    ToolChoiceMode,
    WarningSink,
)
from interlingua.kit import article, construct, expect, fit_schema, maker, optional

from . import _models
from ._parts import (
    PROVIDER,
    Decoding,
    Keep,
    add_part,
    cache_control,
    cache_point,
    decode_blocks,
    within,
)
from ._schema_dialects import TOOL, strict_dialect

if TYPE_CHECKING:
    from interlingua.kit import ModelSpec

BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384, "xhigh": 32768}
"""A thinking level -> Claude's ``budget_tokens`` on Bedrock (Anthropic's table; 1024 is the minimum),
smallest first."""

_message = maker(Message, "role", "parts")  # built once: role and parts are checked here
_ROLES = frozenset({"user", "assistant", "system"})
_MESSAGE_KEYS = frozenset({"role", "content"})
_MAPPED = frozenset({"modelId", "messages", "system", "inferenceConfig", "toolConfig", "additionalModelRequestFields"})
_INFERENCE = {"maxTokens": "max_tokens", "temperature": "temperature", "topP": "top_p", "stopSequences": "stop"}
_RANGES: dict[str, tuple[float | None, float | None]] = {
    "temperature": (0, 1),
    "top_p": (0, 1),
    "max_tokens": (1, None),
}
"""botocore's bounds on InferenceConfiguration (``min``/``max`` of its member shapes)."""


def decode_request(body: dict[str, Any], model: str | None) -> Request:
    named = body.get("modelId")
    ctx = Decoding(named if isinstance(named, str) else model)  # the model signed reasoning is bound to
    options: dict[str, Any] = {key: value for key, value in body.items() if key not in _MAPPED}
    empty: list[str] = []
    messages: list[Message] = []
    system = body.get("system")
    if system is not None:
        blocks = expect(system, list, "system")
        if blocks:
            messages.append(_message(role="system", parts=decode_blocks(blocks, "system", ctx, role="system")))
        else:
            empty.append("system")
    wire_messages = body.get("messages", [])
    if type(wire_messages) is not list:
        wire_messages = expect(wire_messages, list, "messages")
    for index, message in enumerate(wire_messages):
        if type(message) is not dict:
            message = expect(message, dict, f"messages[{index}]")
        try:  # read with paths relative to the message, spelled out only for a bad one
            role = message.get("role")
            if type(role) is not str:
                role = expect(role, str, "role")
            if role not in _ROLES:  # Converse's ConversationRole: never a guess (``User``, ``bot``)
                raise DecodeError("", "role", f"unknown role {role!r}")
            if not message.keys() <= _MESSAGE_KEYS:
                options.setdefault("_messages", {})[str(index)] = {k: v for k, v in message.items() if k != "content"}
            parts = decode_blocks(message.get("content", []), "content", ctx, role=role)
        except DecodeError as err:
            raise within(f"messages[{index}]", err) from None
        messages.append(_message(role=role, parts=parts))
    settings: dict[str, Any] = {}
    inference = optional(body, "inferenceConfig", dict, "")
    if inference is not None:
        if not inference:
            empty.append("inferenceConfig")
        rest = {}
        for key, value in inference.items():
            if key == "stopSequences":
                stops = expect(value, list, "inferenceConfig.stopSequences")
                settings["stop"] = [expect(s, str, f"inferenceConfig.stopSequences[{i}]") for i, s in enumerate(stops)]
            elif key in _INFERENCE:
                typ = int if key == "maxTokens" else float
                settings[_INFERENCE[key]] = expect(value, typ, f"inferenceConfig.{key}")
            else:
                rest[key] = value
        if rest:
            options["_inferenceConfig"] = rest
    tools, choice = _decode_tools(body.get("toolConfig"), options, empty)
    extra = optional(body, "additionalModelRequestFields", dict, "")
    thinking: ThinkingConfig | None = None
    if extra is not None:
        extra = dict(extra)
        if not extra:
            empty.append("additionalModelRequestFields")
        thinking = _decode_thinking(extra)
        if isinstance(extra.get("top_k"), int):
            settings["top_k"] = extra.pop("top_k")
        if extra:
            options["additionalModelRequestFields"] = extra
    if empty:
        options["_empty"] = empty
    if "modelId" in body:
        options["_modelId"] = True
        model = expect(body["modelId"], str, "modelId")
    # construct: the values are read and checked here; a number keeps its JSON spelling (1 stays 1)
    return construct(
        Request,
        model=model,
        messages=messages,
        tools=tools,
        tool_choice=choice,
        thinking=thinking,
        provider_options={PROVIDER: options} if options else {},
        **settings,
    )


def _decode_tools(config: Any, options: dict[str, Any], empty: list[str]) -> tuple[list[Tool | NativeTool], Any]:
    if config is None:
        return [], None
    config = expect(config, dict, "toolConfig")
    tools: list[Tool | NativeTool] = []
    for index, item in enumerate(expect(config.get("tools", []), list, "toolConfig.tools")):
        at = f"toolConfig.tools[{index}]"
        item = expect(item, dict, at)
        if set(item) == {"cachePoint"} and tools and isinstance(tools[-1], Tool) and tools[-1].cache_control is None:
            try:
                tools[-1] = tools[-1].model_copy(update={"cache_control": cache_control(item["cachePoint"], at)})
                continue
            except Keep:  # a cache point this codec does not read: kept whole, below
                pass
        spec = item.get("toolSpec")
        schema = spec.get("inputSchema") if isinstance(spec, dict) else None
        if (
            len(item) == 1
            and isinstance(spec, dict)
            and isinstance(spec.get("name"), str)
            and isinstance(schema, dict)
            and set(schema) == {"json"}
            and isinstance(schema["json"], dict)
            and set(spec) <= {"name", "description", "inputSchema", "strict"}
        ):
            tools.append(
                Tool(
                    name=spec["name"],
                    description=spec.get("description"),
                    input_schema=schema["json"],
                    strict=spec.get("strict"),
                )
            )
        else:
            tools.append(NativeTool(provider=PROVIDER, data=item))
    if not config.get("tools"):
        empty.append("toolConfig")
    if set(config) - {"tools", "toolChoice"}:
        options["_toolConfig"] = {k: v for k, v in config.items() if k not in ("tools", "toolChoice")}
    choice = config.get("toolChoice")
    if choice is None:
        return tools, None
    choice = expect(choice, dict, "toolConfig.toolChoice")
    if unknown := sorted(set(choice) - {"auto", "any", "tool"}):  # ToolChoice's members (botocore)
        raise DecodeError("", "toolConfig.toolChoice", f"unknown tool choice {unknown[0]!r}")
    if choice == {"auto": {}}:
        return tools, "auto"
    if choice == {"any": {}}:
        return tools, "required"
    named = choice.get("tool")
    if (
        set(choice) == {"tool"}
        and isinstance(named, dict)
        and set(named) == {"name"}
        and isinstance(named["name"], str)
    ):
        return tools, ToolChoice(name=named["name"])
    options["_toolChoice"] = choice
    return tools, None


def _decode_thinking(extra: dict[str, Any]) -> ThinkingConfig | None:
    thinking = extra.get("thinking")
    if not isinstance(thinking, dict):
        return None
    if thinking == {"type": "disabled"}:
        del extra["thinking"]
        return ThinkingConfig(level="off")
    budget = thinking.get("budget_tokens")
    if set(thinking) == {"type", "budget_tokens"} and thinking["type"] == "enabled" and isinstance(budget, int):
        del extra["thinking"]
        return ThinkingConfig(budget_tokens=budget)
    return None


# --- encoding ----------------------------------------------------------------------------------


def _add_turn(messages: list[dict[str, Any]], wire: dict[str, Any]) -> None:
    """``wire`` after ``messages``: Converse turns alternate (``_rules``: roles-alternate), so a
    second turn of one role joins the first (one with keys of its own besides role and content
    stays apart: a recorded request's, which alternates already)."""
    if messages and messages[-1]["role"] == wire["role"] and len(messages[-1]) == 2 and len(wire) == 2:
        messages[-1]["content"] = messages[-1]["content"] + wire["content"]
    else:
        messages.append(wire)


def encode_request(request: Request, out: WarningSink) -> dict[str, Any]:
    """The steps of a Converse body, each following the target model's rules (models.toml)."""
    options = dict(request.provider_options.get(PROVIDER, {}))
    out.foreign_options(request.provider_options, own=PROVIDER)
    empty = set(options.pop("_empty", ()))
    body: dict[str, Any] = {}
    if options.pop("_modelId", False) and request.model:
        body["modelId"] = request.model
    spec = _models.entry(request, out)  # the target model's rules (models.toml); None: unknown
    _encode_turns(request, spec, options.pop("_messages", {}), empty, body, out)
    settings = _models.settings(spec, request, out)
    _encode_inference(settings, options.pop("_inferenceConfig", {}), empty, body, out)
    if _models.refuses_tools(spec, request, out):
        for key in ("_toolConfig", "_toolChoice"):  # what a Converse body had with its tools goes with them
            options.pop(key, None)
    else:
        tool_config = _encode_tools(request, _models.tool_choice(spec, request, out), options, empty, out)
        if tool_config is not None:
            body["toolConfig"] = tool_config
    _encode_model_fields(request, spec, settings, options.pop("additionalModelRequestFields", {}), empty, body, out)
    _report_unsent(request, out)
    body.update(options)
    return body


def _encode_turns(
    request: Request,
    spec: ModelSpec | None,
    message_extras: dict[str, Any],
    empty: set[str],
    body: dict[str, Any],
    out: WarningSink,
) -> None:
    """``system`` and ``messages``: system blocks before the conversation, the turns merged where
    Converse wants one turn per role (``_add_turn``), unless the body kept its own turns."""
    encode_parts = _models.part_encoder(spec)
    system: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = []
    for index, message in enumerate(_models.without_prefill(spec, request, out)):
        at = f"messages[{index}]"
        if message.name is not None or message.id is not None:
            out.unsent_message_fields(message, at)
        role = message.role
        if role == "system" or role == "developer":
            if messages:
                why = "Converse takes system blocks only before the conversation; sent as a user turn"
                out.unsupported(at, "mid_conversation_system", why)
                _add_turn(messages, {"role": "user", "content": encode_parts(message.parts, f"{at}.parts", out)})
                continue
            if role == "developer":
                out.unsupported(f"{at}.role", "developer", "Converse has no developer role; sent as system blocks")
            system.extend(_system_blocks(message.parts, at, out))
            continue
        wire: dict[str, Any] = {
            "role": "user" if role == "tool" else role,
            "content": encode_parts(message.parts, f"{at}.parts", out),
        }
        if message_extras:
            wire.update(message_extras.get(str(len(messages)), {}))
            messages.append(wire)
        else:
            _add_turn(messages, wire)
    if system and spec is not None and _models.refuses(spec, "system_prompts"):
        _models.move_system(spec, system, messages, request, out)
        system = []
    if system or "system" in empty:
        body["system"] = system
    body["messages"] = messages


def _encode_inference(
    settings: Mapping[str, Any], kept: dict[str, Any], empty: set[str], body: dict[str, Any], out: WarningSink
) -> None:
    """``inferenceConfig``: each setting in the range Converse takes (a value outside it is not sent)."""
    inference: dict[str, Any] = dict(kept)
    for wire_key, field in _INFERENCE.items():
        value = settings[field]
        if value is None:
            continue
        low, high = _RANGES.get(field, (None, None))
        if (low is not None and value < low) or (high is not None and value > high):
            out.unsupported(
                field, field, f"Converse takes {field} from {low} to {high or 'any'}, not {value}; not sent"
            )
            continue
        inference[wire_key] = value
    if inference or "inferenceConfig" in empty:
        body["inferenceConfig"] = inference


def _encode_model_fields(
    request: Request,
    spec: ModelSpec | None,
    settings: Mapping[str, Any],
    kept: dict[str, Any],
    empty: set[str],
    body: dict[str, Any],
    out: WarningSink,
) -> None:
    """``additionalModelRequestFields``: the model's own fields (``top_k``, Claude's ``thinking``)."""
    extra = dict(kept)
    if settings["top_k"] is not None:
        extra["top_k"] = settings["top_k"]
    if spec is not None and spec.thinking is not None:
        _models.write_thinking(spec, request, BUDGETS, extra, out)
    elif (thinking := _encode_thinking(request, out)) is not None:
        extra["thinking"] = thinking
    if extra or "additionalModelRequestFields" in empty:
        body["additionalModelRequestFields"] = extra


def _report_unsent(request: Request, out: WarningSink) -> None:
    """The settings Converse has no field for."""
    for field in ("seed", "presence_penalty", "frequency_penalty", "parallel_tool_calls"):
        if getattr(request, field) is not None:
            out.unsupported(field, field, f"Converse has no {field}; not sent")
    if request.thinking is not None and request.thinking.summary is not None:  # whatever writes the thinking
        out.unsupported("thinking.summary", "thinking", "Claude on Bedrock takes no summary setting")
    if request.response_format is not None and request.response_format.type != "text":
        out.unsupported("response_format", "response_format", _format_why(request.response_format))


def _system_blocks(parts: list[ContentPart], at: str, out: WarningSink) -> list[dict[str, Any]]:
    """A system message's blocks; SystemContentBlock.text is a NonEmptyString, so an empty text
    part is left out (reported)."""
    blocks: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        if isinstance(part, Text) and part.text == "" and part.cache_control is None:
            out.lossy(f"{at}.parts[{index}]", "text", "Converse takes no empty system text; left out")
            continue
        add_part(blocks, part, f"{at}.parts", index, out)
    return blocks


def _format_why(fmt: ResponseFormat) -> str:
    return f"Converse has no {fmt.type} response format in this codec; ask for JSON in the prompt or use a tool"


def _encode_tools(
    request: Request,
    tool_choice: ToolChoiceMode | ToolChoice | None,
    options: dict[str, Any],
    empty: set[str],
    out: WarningSink,
) -> dict[str, Any] | None:
    tools: list[dict[str, Any]] = []
    for index, tool in enumerate(request.tools):
        at = f"tools[{index}]"
        if isinstance(tool, NativeTool):
            if tool.provider == PROVIDER:
                tools.append(dict(tool.data))
            else:
                out.lossy(at, "native_tools", f"{article(tool.provider)} tool has no place on Converse")
            continue
        spec: dict[str, Any] = {"name": tool.name}
        if tool.description:  # NonEmptyString: an empty description is no description
            spec["description"] = tool.description
        dialect = strict_dialect(request.model) if tool.strict else TOOL
        spec["inputSchema"] = {"json": fit_schema(tool.input_schema, dialect, f"{at}.input_schema", out)}
        if tool.strict is not None:
            spec["strict"] = tool.strict
        tools.append({"toolSpec": spec})
        if tool.cache_control is not None:
            tools.append({"cachePoint": cache_point(tool.cache_control, out, at)})
    config: dict[str, Any] = dict(options.pop("_toolConfig", {}))
    choice = options.pop("_toolChoice", None)
    match tool_choice:
        case None:
            pass
        case "auto":
            choice = {"auto": {}}
        case "required":
            choice = {"any": {}}
        case "none":
            out.unsupported("tool_choice", "tool_choice", "Converse has no tool_choice none; the tools are sent")
        case ToolChoice(name=name):
            choice = {"tool": {"name": name}}
    if not tools and "toolConfig" not in empty and not config:
        return None
    config = {"tools": tools, **config}
    if choice is not None:
        config["toolChoice"] = choice
    return config


def _encode_thinking(request: Request, out: WarningSink) -> dict[str, Any] | None:
    thinking = request.thinking
    if thinking is None:
        return None
    if thinking.level == "off":
        return {"type": "disabled"}
    budget = thinking.budget_tokens
    if budget is None and thinking.level is not None:
        budget = BUDGETS[thinking.level]
    if budget is None:
        return None
    return {"type": "enabled", "budget_tokens": budget}
