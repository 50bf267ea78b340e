"""Requests, both directions: contents and systemInstruction, tools, toolConfig, generationConfig.

Mappings (docs/codecs/gemini.md has the full list):

- ``systemInstruction`` <-> the leading system (or developer) messages; a system message later
  in the conversation is sent as a user turn, with a warning.
- ``contents`` roles ``user`` / ``model`` <-> ``user`` (and ``tool``) / ``assistant``.
- ``generationConfig``: maxOutputTokens, temperature, topP, topK, stopSequences, seed,
  presencePenalty, frequencyPenalty; responseMimeType + responseJsonSchema (or a responseSchema of
  the keywords JSON Schema shares, see ``_schema``) <-> response_format;
  ``thinkingConfig`` <-> thinking: budget_tokens <-> thinkingBudget, level off -> thinkingBudget 0,
  other levels <-> thinkingLevel (MINIMAL..XHIGH), summary <-> includeThoughts. With both a budget
  and a level, the budget is sent (Gemini takes one or the other). With a caller's
  ThinkingBudgets (``GeminiCodec(budgets=...)``), a level is sent as thinkingBudget from that
  table instead; a level the table lacks goes to its nearest level, with a warning. A Gemini 2.x
  model (which rejects thinkingLevel) gets :data:`GEMINI_2_BUDGETS` when no table is given.
  For a model in the catalog (``models.toml``), a budget is held to the model's range (``off`` on
  a model that cannot turn thinking off is its lowest budget, or lowest level), a level it lacks
  goes to its nearest, and maxOutputTokens to its output limit, each with a warning.
- ``toolConfig.functionCallingConfig``: auto AUTO, none NONE, required ANY, Tool(name) ANY +
  allowedFunctionNames [name].
- Every other field (safetySettings, cachedContent, labels, unknown ones, and generationConfig /
  toolConfig fields without an IR home) rides in ``provider_options["gemini"]``.

The model is in the URL: ``decode_request(body, model=...)`` takes it when the caller knows it;
a body that also names it (``model``, as the REST request type has it) gives it when the caller
does not, and gets it back; otherwise ``Request.model`` is None and ``encode_request`` writes none.
``provider_options["gemini"]["_wire"]`` records how the decoded body spelled things the IR does
not keep (snake_case keys, ``parameters`` vs ``parametersJsonSchema``, the body's ``model``, an
empty ``generationConfig``, ``responseModalities: ["TEXT"]``), so re-encoding is exact; it is
private (never sent, and no other encoder reports it: what it spells crossed through the IR).
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

from interlingua import (
    DecodeError,
    Encoded,
    Message,
    NativeTool,
    Request,
    ResponseFormat,
    Role,
    ThinkingBudgets,
    ThinkingConfig,
    ThinkingLevel,
    Tool,
    ToolChoice,
    WarningSink,
)
from interlingua.kit import (
    article,
    as_object,
    cap_max_tokens,
    clamp_budget,
    construct,
    describe,
    each,
    expect,
    fit_schema,
    lookup,
    maker,
    nearest_level,
    optional,
)

if TYPE_CHECKING:
    from interlingua.kit import ModelSpec

from ._keys import SnakeCase, normalize, respell
from ._parts import (
    NAME,
    PLACEHOLDER_SIGNATURE,
    PROVIDER,
    Decoding,
    Encoding,
    bare_model,
    decode_parts,
    encode_parts,
    within,
)
from ._schema import decode_schema, encode_schema
from ._schema_dialects import JSON_SCHEMA

WIRE = "_wire"
RESPONSE_SCHEMA = "responseSchema"
"""``_wire`` entry: the response schema came as ``responseSchema``, spelled so (see ``_schema``)."""
BODY_MODEL = "model"
"""``_wire`` entry: the body named the model, True when it is ``Request.model``, else the name it gave."""
EMPTY_CONFIG = "emptyGenerationConfig"
"""``_wire`` entry: the body had ``"generationConfig": {}``."""
TEXT_ONLY = "textModalities"
"""``_wire`` entry: ``generationConfig.responseModalities`` was ``["TEXT"]``: a text answer, what a
request without the field gets (the recorded corpus's bodies without it are answered in text) and
what every other wire gives, so nothing is lost when it is not sent elsewhere."""
FLOAT_INTEGERS = "floatIntegers"
"""``_wire`` entry: the integer fields of ``generationConfig`` (``topK``: 40.0) that came as a
float with no fraction, which proto3's JSON mapping reads as the integer; written back so."""
PARAMETER_SPELLING = "parameterSpelling"
"""``_wire`` entry: tool name -> how its ``parameters`` Schema was spelled (see ``_schema``)."""
_PACKAGE = __name__.rsplit(".", 1)[0]  # where models.toml lives
_MAPPED = frozenset({"contents", "systemInstruction", "tools", "toolConfig", "generationConfig"})
_READ = frozenset({"contents", "systemInstruction"})
"""What the one-pass decode reads key by key, checking its spelling as it goes."""
_LEVELS: dict[str, ThinkingLevel] = {
    "MINIMAL": "minimal",
    "LOW": "low",
    "MEDIUM": "medium",
    "HIGH": "high",
    "XHIGH": "xhigh",
}
_ALL_LEVELS = frozenset({*_LEVELS, "THINKING_LEVEL_UNSPECIFIED"})
"""``ThinkingLevel`` (google.genai.types)."""
_SCALARS: dict[str, tuple[str, type]] = {
    "maxOutputTokens": ("max_tokens", int),
    "temperature": ("temperature", float),
    "topP": ("top_p", float),
    "topK": ("top_k", int),
    "seed": ("seed", int),
    "presencePenalty": ("presence_penalty", float),
    "frequencyPenalty": ("frequency_penalty", float),
}
_MODES = {"AUTO": "auto", "NONE": "none", "ANY": "required"}
_ALL_MODES = frozenset({*_MODES, "VALIDATED", "MODE_UNSPECIFIED"})
"""``FunctionCallingConfigMode`` (google.genai.types): VALIDATED stays in the options."""

# The shape every content decodes to, a constructor made once (``maker``): a third cheaper than
# ``construct``, with the same fields set. The rest of a body is built once per request.
_message = maker(Message, "role", "parts", "provider_echoes")


# --- encoding ----------------------------------------------------------------------------------


def encode_request(
    request: Request, *, strict: bool, budgets: ThinkingBudgets | None = None, host: str | None = None
) -> Encoded:
    """IR -> generateContent body, one walk over the messages; ``host``: the one it goes through
    (``gemini-api`` or ``vertex``: a signature made through the other is not sent)."""
    out = WarningSink(NAME)
    ctx = Encoding(out, request.model, host)
    options = dict(request.options(PROVIDER))
    wire = options.pop(WIRE, None)
    wire = wire if isinstance(wire, dict) else {}
    spec = ctx.spec = lookup(PROVIDER, _PACKAGE, request.model, out) if request.model is not None else None
    system, contents = encode_messages(request.messages, ctx, spec)
    body: dict[str, Any] = {"contents": contents}
    if system is not None and system.get("parts"):
        body["systemInstruction"] = system
    if tools := _encode_tools(request, out, wire):
        body["tools"] = tools[0] if len(tools) == 1 and wire.get("toolsObject") is True else tools
    elif not request.tools and wire.get("emptyTools") is True:
        body["tools"] = []
    tool_config = _encode_tool_choice(request, options.pop("toolConfig", None))
    if tool_config is not None:
        body["toolConfig"] = tool_config
    if request.parallel_tool_calls is False:
        out.unsupported(
            "parallel_tool_calls", "parallel_tool_calls", "Gemini cannot be told to call one tool at a time"
        )
    generation = _encode_generation(request, options.pop("generationConfig", None), budgets, spec, out, wire)
    if generation is not None:
        body["generationConfig"] = generation
    for key, value in options.items():
        body.setdefault(key, value)
    named = wire.get(BODY_MODEL)
    if named is not None and request.model is not None:
        body["model"] = request.model if named is True else named
    out.foreign_options(request.provider_options, own=PROVIDER)
    snake = wire.get("snakeCase")
    if isinstance(snake, list):
        respell(body, snake)
    return out.finish(body, strict=strict)


def encode_messages(
    messages: list[Message], ctx: Encoding, spec: ModelSpec | None = None
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """(systemInstruction, contents). Leading system/developer messages form the instruction;
    a current-turn model step whose first functionCall has no signature gets the placeholder
    (on models that check: ``spec``, the target model's catalog entry, or its name). Consecutive
    tool messages go in one content: Gemini wants a turn's results together, and a chat log sends
    one tool message per result (the turn rules let such a run through, see ``joins_results``,
    instead of rebuilding the transcript). An assistant
    message with no parts is sent as an empty model turn: Gemini accepts one (a truncated answer
    kept in history), so a body it took comes back as it was; a message whose parts all failed to
    encode is left out (each part warned)."""
    system: dict[str, Any] | None = None
    contents: list[dict[str, Any]] = []
    results: dict[str, Any] | None = None  # the content the last tool message went to
    for index, message in enumerate(messages):
        ctx.out.unsent_message_fields(message, f"messages[{index}]")
        parts = encode_parts(message.parts, index, ctx)
        role = message.role
        if role == "tool" and results is not None:
            results["parts"] += parts  # a turn's results in one content (``joins_results`` in _rules.py)
            continue
        if role != "tool":
            results = None
        if role == "system" or role == "developer":
            if role == "developer":
                ctx.out.unsupported(
                    f"messages[{index}]", "developer", "Gemini has one system instruction; developer text joins it"
                )
            if not contents:
                system = system or _shell(message, {})
                system.setdefault("parts", []).extend(parts)
                continue
            ctx.out.unsupported(
                f"messages[{index}]",
                "mid_conversation_system",
                "Gemini has no system turn mid-conversation; sent as user",
            )
            if parts:
                contents.append({"role": "user", "parts": parts})
            continue
        if parts or (role == "assistant" and not message.parts):
            wire_role = "model" if role == "assistant" else "user"
            if message.provider_echoes:
                content = _shell(message, {"role": wire_role})
                echo = message.echo(PROVIDER)
                if parts or not (echo is not None and echo.data.get(_PARTS_ABSENT) is True):
                    content["parts"] = parts
            else:
                content = {"role": wire_role, "parts": parts}
            contents.append(content)
            if role == "tool" and "parts" in content:
                results = content
    if checks_signatures(spec, ctx.model):
        _sign_current_turn(contents)
    return system, contents


_PARTS_ABSENT = "partsAbsent"
"""Message echo flag: the content had no ``parts`` key (as against ``"parts": []``)."""


def _shell(message: Message, default: dict[str, Any]) -> dict[str, Any]:
    """The content object without parts: as the wire had it (echo), else ``default``."""
    echo = message.echo(PROVIDER)
    if echo is not None and isinstance(echo.data.get("content"), dict):
        return dict(echo.data["content"])
    return dict(default)


def checks_signatures(spec: ModelSpec | None, model: str | None) -> bool:
    """Whether the target model refuses a current-turn function call without a thought signature:
    its catalog entry says so (``thinking.signatures`` in models.toml, with the page). For a model
    the catalog does not know, its name decides, by the same pages: Gemini 3 and later check
    ("When using Gemini 3 models, you must pass back thought signatures during function calling,
    otherwise you will get a validation error", https://ai.google.dev/gemini-api/docs/thought-signatures),
    except Gemini 3 Pro Image, which "doesn't enforce this validation"
    (https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures); Gemini 2.x
    takes unsigned calls (lingua ``parallelToolCallsRequest``, answered by gemini-2.5-flash). No
    model at all (None: a body decoded without its URL) is not guessed at, so such a body comes
    back as it was."""
    rules = spec.thinking if spec is not None else None
    if rules is not None and rules.signatures is not None:
        return rules.signatures
    name = bare_model(model)
    if name is None:
        return False
    family = _FAMILY.match(name)
    return family is not None and int(family.group(1)) >= 3 and "-image" not in name


_FAMILY = re.compile(r"gemini-(\d+)")


def _sign_current_turn(contents: list[dict[str, Any]]) -> None:
    """Gemini 3 answers 400 when the first functionCall of a model step in the current turn (since
    the last user text) has no thoughtSignature. A Gemini 3 answer always signs it, so an unsigned
    one came from elsewhere (another vendor, another model, an edit) and gets the placeholder
    Google documents for exactly that case (see :func:`checks_signatures`)."""
    start = 0
    for index in range(len(contents) - 1, -1, -1):
        content = contents[index]
        if content.get("role") != "model" and any("functionResponse" not in p for p in content["parts"]):
            start = index + 1
            break
    for content in contents[start:]:
        if content.get("role") != "model":
            continue
        for block in content["parts"]:
            if "functionCall" in block:
                if not block.get("thoughtSignature"):
                    block["thoughtSignature"] = PLACEHOLDER_SIGNATURE
                break


def _encode_tools(request: Request, out: WarningSink, wire: dict[str, Any]) -> list[dict[str, Any]]:
    """Function tools gather in one functionDeclarations entry (where the first stood); each
    NativeTool of Gemini (googleSearch, codeExecution, urlContext, ...) is its own entry."""
    legacy = set(wire.get("parameters") or ())
    spellings = wire.get(PARAMETER_SPELLING)
    spelled: dict[str, Any] = spellings if isinstance(spellings, dict) else {}
    bare = set(wire.get("noParameters") or ())
    entries: list[dict[str, Any]] = []
    declarations: list[dict[str, Any]] | None = None
    for index, tool in enumerate(request.tools):
        at = f"tools[{index}]"
        if isinstance(tool, NativeTool):
            if tool.provider == PROVIDER:
                entries.append(dict(tool.data))
            else:
                out.unsupported(at, "native_tools", f"{article(tool.provider)} tool has no Gemini form")
            continue
        if declarations is None:
            declarations = []
            entries.append({"functionDeclarations": declarations})
        declarations.append(_declaration(tool, at, out, legacy, bare, spelled.get(tool.name)))
    return entries


def _declaration(
    tool: Tool, at: str, out: WarningSink, legacy: set[str], bare: set[str], spelling: Any = None
) -> dict[str, Any]:
    if tool.strict:
        out.unsupported(at, "tool_strict", "Gemini has no strict mode for function declarations")
    if tool.cache_control is not None:
        out.lossy(at, "cache_control", "Gemini caches through cachedContent, not per-tool marks")
    declaration: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        declaration["description"] = tool.description
    legacy_schema = _legacy_parameters(tool, spelling) if tool.name in legacy else None
    if legacy_schema is not None:  # written back as the OpenAPI-subset Schema it was decoded from
        declaration["parameters"] = legacy_schema
    elif tool.name not in bare:
        declaration["parametersJsonSchema"] = fit_schema(tool.input_schema, JSON_SCHEMA, f"{at}.input_schema", out)
    return declaration


def _legacy_parameters(tool: Tool, spelling: Any) -> dict[str, Any] | None:
    """The ``parameters`` a decoded declaration came with: as it was where it was kept verbatim,
    respelled where it crossed as JSON Schema (None: changed since beyond what Schema shares)."""
    if not isinstance(spelling, dict):
        return tool.input_schema
    return encode_schema(tool.input_schema, spelling)


def _encode_tool_choice(request: Request, kept: Any) -> dict[str, Any] | None:
    config = copy.deepcopy(kept) if isinstance(kept, dict) else None
    choice = request.tool_choice
    if choice is None:
        return config
    calling: dict[str, Any]
    if isinstance(choice, ToolChoice):
        calling = {"mode": "ANY", "allowedFunctionNames": [choice.name]}
    else:
        calling = {"mode": {"auto": "AUTO", "none": "NONE", "required": "ANY"}[choice]}
    config = config or {}
    config["functionCallingConfig"] = {**(config.get("functionCallingConfig") or {}), **calling}
    return config


def _encode_generation(
    request: Request,
    kept: Any,
    budgets: ThinkingBudgets | None,
    spec: ModelSpec | None,
    out: WarningSink,
    wire: dict[str, Any],
) -> dict[str, Any] | None:
    config: dict[str, Any] | None = copy.deepcopy(kept) if isinstance(kept, dict) else None
    if config is None and wire.get(EMPTY_CONFIG) is True:
        config = {}
    if wire.get(TEXT_ONLY) is True:
        config = {**(config or {}), "responseModalities": ["TEXT"]}
    fields: dict[str, Any] = {}
    for wire_key, (ir_key, _) in _SCALARS.items():
        value = getattr(request, ir_key)
        if value is not None:
            fields[wire_key] = cap_max_tokens(spec, value, out) if ir_key == "max_tokens" else value
            if wire_key in wire.get(FLOAT_INTEGERS, ()) and type(fields[wire_key]) is int:
                fields[wire_key] = float(fields[wire_key])
    if request.stop is not None:
        fields["stopSequences"] = list(request.stop)
    if request.response_format is not None:
        fields.update(_encode_format(request.response_format, out, wire.get(RESPONSE_SCHEMA)))
    rules = spec.thinking if spec is not None else None
    if request.thinking is not None and spec is not None and rules is not None and rules.supported is False:
        out.unsupported("thinking", "thinking", f"{spec.id} takes no thinking configuration ({spec.cite('thinking')})")
    elif request.thinking is not None:
        if budgets is None and budget_only(spec, request.model):
            budgets = GEMINI_2_BUDGETS
        thinking = _encode_thinking(request.thinking, budgets, out, spec)
        fields["thinkingConfig"] = {**(config or {}).get("thinkingConfig", {}), **thinking}
    if not fields:
        return config
    return {**(config or {}), **fields}


def _encode_format(fmt: ResponseFormat, out: WarningSink, spelling: Any = None) -> dict[str, Any]:
    """text -> text/plain; json_object -> application/json; json_schema -> application/json plus
    responseJsonSchema (or responseSchema, where the decoded body had one: ``spelling``). The
    schema's name, description and strict flag have no Gemini field, each warned when set
    (``strict`` only when false: Gemini always holds to the schema)."""
    # GenerateContentConfig has no schema name, description or strictness: Gemini always holds
    # to the schema (https://ai.google.dev/gemini-api/docs/structured-output).
    if fmt.name is not None:
        out.unsupported("response_format.name", "response_format", "Gemini has no schema name field")
    if fmt.description is not None:
        out.unsupported("response_format.description", "response_format", "Gemini has no schema description field")
    if fmt.strict is False:
        out.unsupported("response_format.strict", "response_format", "Gemini always holds to the schema")
    if fmt.type == "text":
        return {"responseMimeType": "text/plain"}
    if fmt.type == "json_object":
        return {"responseMimeType": "application/json"}
    if isinstance(spelling, dict) and fmt.json_schema is not None:
        schema = encode_schema(fmt.json_schema, spelling)
        if schema is not None:
            return {"responseMimeType": "application/json", "responseSchema": schema}
    schema = fit_schema(fmt.json_schema or {}, JSON_SCHEMA, "response_format.json_schema", out)
    return {"responseMimeType": "application/json", "responseJsonSchema": schema}


GEMINI_2_BUDGETS = ThinkingBudgets.model_construct(minimal=512, low=1024, medium=8192, high=24576, xhigh=None)
"""Gemini 2.x models take only ``thinkingBudget`` (a ``thinkingLevel`` is a 400). Every budget
here is inside every 2.5 model's range (Pro 128-32768, Flash 0-24576, Flash-Lite 512-24576);
``xhigh`` is sent as ``high`` with a warning."""


def budget_only(spec: ModelSpec | None, model: str | None) -> bool:
    """Whether the target model takes ``thinkingBudget`` and rejects ``thinkingLevel``: its catalog
    entry's thinking forms say so (``thinking.modes`` in models.toml, with the page). For a model
    the catalog does not know (or whose forms it does not record), the name decides: Gemini 2.x
    takes budgets only. An alias such as ``gemini-flash-latest`` is not guessed at: its level goes
    by name."""
    rules = spec.thinking if spec is not None else None
    if rules is not None and rules.modes:
        return "level" not in rules.modes
    return model is not None and model.removeprefix("models/").startswith("gemini-2.")


def _encode_thinking(
    thinking: ThinkingConfig, budgets: ThinkingBudgets | None, out: WarningSink, spec: ModelSpec | None = None
) -> dict[str, Any]:
    config: dict[str, Any] = {}
    rules = spec.thinking if spec is not None else None
    if thinking.budget_tokens is not None:
        config["thinkingBudget"] = _budget(thinking.budget_tokens, spec, out)
    elif thinking.level == "off" and spec is not None and rules is not None and rules.can_off is False:
        if rules.budget is not None:
            config["thinkingBudget"] = _budget(0, spec, out)
        else:  # a model of levels only: its lowest
            config["thinkingLevel"] = nearest_level(spec, "off", out).upper()
    elif thinking.level == "off":
        config["thinkingBudget"] = 0
    elif thinking.level is not None and budgets is not None:
        config["thinkingBudget"] = _budget(budgets.encode_level(thinking.level, out), spec, out)
    elif thinking.level is not None:
        level = thinking.level if spec is None else nearest_level(spec, thinking.level, out)
        config["thinkingLevel"] = level.upper()
    if thinking.summary is not None:
        config["includeThoughts"] = thinking.summary
    return config


def _budget(budget: int, spec: ModelSpec | None, out: WarningSink) -> int:
    return budget if spec is None else clamp_budget(spec, budget, out)


# --- decoding ----------------------------------------------------------------------------------


def decode_request(body: Any, model: str | None = None) -> Request:
    """generateContent body -> IR. Fields without an IR home go to provider_options["gemini"].

    The contents are most of a body and nearly always camelCase: they are read in one pass that
    checks only what it keeps unread (the small rest of the body is camelCased first, as some
    clients spell tools and settings snake_case). A snake_case key in the contents, or bad
    input, sends the body the careful way: every key camelCased first (``normalize``), the
    spellings recorded for the way back; bad input then fails there, with the path."""
    obj = as_object(body, "")
    try:
        return _decode_body(*normalize(obj, keep=_READ), model, camel_only=True)
    except (SnakeCase, ValueError, LookupError, TypeError, AttributeError):
        pass
    return _decode_body(*normalize(obj), model, camel_only=False)


def _decode_body(obj: dict[str, Any], snake: list[Any], model: str | None, *, camel_only: bool) -> Request:
    options: dict[str, Any] = {key: value for key, value in obj.items() if key not in _MAPPED}
    wire: dict[str, Any] = {"snakeCase": snake} if snake else {}
    named = options.get("model")
    if isinstance(named, str):
        model = model if model is not None else named
        wire[BODY_MODEL] = True if named == model else named
        del options["model"]
    ctx = Decoding(model, camel_only=camel_only)
    messages: list[Message] = []
    if "systemInstruction" in obj:
        try:
            messages.append(_decode_content(obj["systemInstruction"], ctx, True))
        except DecodeError as err:
            raise within("systemInstruction", err) from None
    contents = obj.get("contents")
    for index, content in enumerate(expect(contents, list, "contents") if contents is not None else ()):
        try:
            messages.append(_decode_content(content, ctx, False))
        except DecodeError as err:
            raise within(f"contents[{index}]", err) from None
    fields: dict[str, Any] = {"model": model, "messages": messages}
    fields["tools"] = _decode_tools(obj, wire)
    _decode_tool_config(obj, fields, options)
    _decode_generation(obj, fields, options, wire)
    if wire:
        options[WIRE] = wire
    fields["provider_options"] = {PROVIDER: options} if options else {}
    return construct(Request, **fields)


def _decode_content(content: Any, ctx: Decoding, system: bool) -> Message:
    """One content object -> a Message; paths relative to the content. Its fields beside
    ``parts`` ride in the message's echo unless they are the usual ``{"role": ...}``."""
    if type(content) is not dict:
        content = expect(content, dict, "")
    role = content.get("role")
    if role is not None and type(role) is not str:
        role = expect(role, str, "role")
    if not system and role not in (None, "user", "model"):
        # Content.role "must be either 'user' or 'model'" (absent: the user's); never a guess
        # (https://ai.google.dev/api/caching#Content)
        raise DecodeError("", "role", f"unknown role {role!r}")
    model_role = role == "model"
    parts = decode_parts(content.get("parts"), "parts", ctx, model_role=model_role)
    shell = len(content) - ("parts" in content)
    usual = shell == 0 if system else shell == 1 and (model_role or role == "user")
    echoes = [] if usual else ctx.echo({"content": {key: value for key, value in content.items() if key != "parts"}})
    if "parts" not in content and not system:  # ``{"role": "model"}``: a turn kept with no parts at all
        echoes = ctx.echo({**(echoes[0].data if echoes else {}), _PARTS_ABSENT: True})
    ir_role: Role = "system" if system else ("assistant" if model_role else "user")
    return _message(role=ir_role, parts=parts, provider_echoes=echoes)


def _decode_tools(obj: dict[str, Any], wire: dict[str, Any]) -> list[Tool | NativeTool]:
    """``tools`` is a list of Tool objects; one object in its place is read as a list of it and
    written back so (``toolsObject``). The API reads it so: a recorded request of
    gemini-2.0-flash-exp with ``"tools": {"function_declarations": [...]}`` was answered 200
    with a call of that function (pydantic-ai corpus, test_multiple_agent_tool_calls__0)."""
    tools: list[Tool | NativeTool] = []
    if isinstance(obj.get("tools"), dict):
        wire["toolsObject"] = True
        obj = {"tools": [obj["tools"]]}
    elif obj.get("tools") == []:  # the IR's no tools: the spelling record keeps the form
        wire["emptyTools"] = True
    for at, entry in each(obj, "tools", ""):
        entry = expect(entry, dict, at)
        for where, declaration in each(entry, "functionDeclarations", at):
            tools.append(_decode_declaration(expect(declaration, dict, where), where, wire))
        rest = {key: value for key, value in entry.items() if key != "functionDeclarations"}
        if rest:
            tools.append(construct(NativeTool, provider=PROVIDER, data=rest))
    return tools


def _decode_declaration(declaration: dict[str, Any], at: str, wire: dict[str, Any]) -> Tool | NativeTool:
    known = {"name", "description", "parameters", "parametersJsonSchema"}
    if not known.issuperset(declaration) or ("parameters" in declaration and "parametersJsonSchema" in declaration):
        return construct(NativeTool, provider=PROVIDER, data={"functionDeclarations": [declaration]})
    name = optional(declaration, "name", str, at) or ""
    schema = declaration.get("parametersJsonSchema", declaration.get("parameters"))
    if "parameters" in declaration:
        wire.setdefault("parameters", []).append(name)
        decoded = decode_schema(schema)  # the shared keywords cross as JSON Schema; the spelling stays
        if decoded is not None:
            schema, wire.setdefault(PARAMETER_SPELLING, {})[name] = decoded
    elif schema is None:
        wire.setdefault("noParameters", []).append(name)
    return construct(
        Tool,
        name=name,
        description=optional(declaration, "description", str, at),
        input_schema=expect(schema, dict, at) if schema is not None else {"type": "object", "properties": {}},
        strict=None,
        cache_control=None,
    )


def _decode_tool_config(obj: dict[str, Any], fields: dict[str, Any], options: dict[str, Any]) -> None:
    config = optional(obj, "toolConfig", dict, "")
    if config is None:
        return
    calling = config.get("functionCallingConfig")
    if isinstance(calling, dict) and calling.get("mode") is not None and calling["mode"] not in _ALL_MODES:
        at = "toolConfig.functionCallingConfig.mode"  # ``auto``, ``Any``: refused, never guessed at
        raise DecodeError("", at, f"unknown mode {expect(calling['mode'], str, at)!r}")
    choice = _decode_choice(calling) if isinstance(calling, dict) else None
    if choice is None:
        options["toolConfig"] = config
        return
    fields["tool_choice"] = choice
    rest = {key: value for key, value in config.items() if key != "functionCallingConfig"}
    if rest:
        options["toolConfig"] = rest


def _decode_choice(calling: dict[str, Any]) -> str | ToolChoice | None:
    mode = calling.get("mode")
    names = calling.get("allowedFunctionNames")
    if set(calling) == {"mode"} and mode in _MODES:
        return _MODES[mode]
    pinned = set(calling) == {"mode", "allowedFunctionNames"} and mode == "ANY"
    if pinned and isinstance(names, list) and len(names) == 1 and isinstance(names[0], str):
        return construct(ToolChoice, name=names[0])
    return None


def _decode_generation(
    obj: dict[str, Any], fields: dict[str, Any], options: dict[str, Any], wire: dict[str, Any]
) -> None:
    config = optional(obj, "generationConfig", dict, "")
    if config is None:
        return
    rest = dict(config)
    for wire_key, (ir_key, typ) in _SCALARS.items():
        value = rest.get(wire_key)
        if type(value) is int or (typ is float and type(value) is float):
            fields[ir_key] = rest.pop(wire_key)
        elif typ is int and type(value) is float and value.is_integer():
            # proto3's JSON mapping reads 40.0 as the int32 40 (the API took ``"topK": 40.0``)
            fields[ir_key] = int(rest.pop(wire_key))
            wire.setdefault(FLOAT_INTEGERS, []).append(wire_key)
        elif value is not None and not _proto_number(value, typ):
            raise DecodeError(NAME, f"generationConfig.{wire_key}", f"expected a number, got {describe(value)}")
    stop = rest.get("stopSequences")
    if isinstance(stop, list) and all(isinstance(s, str) for s in stop):
        fields["stop"] = rest.pop("stopSequences")
    fmt = _decode_format(rest, wire)
    if fmt is not None:
        fields["response_format"] = fmt
    level = rest["thinkingConfig"].get("thinkingLevel") if isinstance(rest.get("thinkingConfig"), dict) else None
    if level is not None and level not in _ALL_LEVELS:
        at = "generationConfig.thinkingConfig.thinkingLevel"  # ``high``: refused, never guessed at
        raise DecodeError("", at, f"unknown thinking level {expect(level, str, at)!r}")
    thinking = _decode_thinking(rest.get("thinkingConfig"))
    if thinking is not None:
        fields["thinking"] = thinking
        del rest["thinkingConfig"]
    if rest.get("responseModalities") == ["TEXT"]:
        del rest["responseModalities"]
        wire[TEXT_ONLY] = True
    if rest:
        options["generationConfig"] = rest
    elif not config:
        wire[EMPTY_CONFIG] = True


def _proto_number(value: Any, typ: type) -> bool:
    """Whether the API reads ``value`` as a number: proto3's JSON mapping takes an int32 or a
    float as a number or as a string ("10", "0.5", "NaN"; https://protobuf.dev/programming-guides/json/).
    Such a string stays in the options as it came; anything else (``"ten"``, ``true``) is refused."""
    if not isinstance(value, str):
        return False
    try:
        int(value) if typ is int else float(value)
    except ValueError:
        return False
    return True


def _ir_scalars() -> tuple[str, ...]:
    return tuple(ir_key for ir_key, _ in _SCALARS.values())


def _decode_format(rest: dict[str, Any], wire: dict[str, Any]) -> ResponseFormat | None:
    mime = rest.get("responseMimeType")
    if "responseSchema" in rest:
        return _decode_response_schema(rest, wire)
    if mime not in ("text/plain", "application/json"):
        return None
    schema = rest.get("responseJsonSchema")
    if mime == "text/plain" and schema is None:
        del rest["responseMimeType"]
        return construct(ResponseFormat, type="text")
    if schema is None:
        del rest["responseMimeType"]
        return construct(ResponseFormat, type="json_object")
    if mime == "application/json" and isinstance(schema, dict):
        del rest["responseMimeType"], rest["responseJsonSchema"]
        return construct(ResponseFormat, type="json_schema", json_schema=schema)
    return None


def _decode_response_schema(rest: dict[str, Any], wire: dict[str, Any]) -> ResponseFormat | None:
    """A ``responseSchema`` of the keywords JSON Schema shares (see ``_schema``) is the IR's
    json_schema; its spelling goes to ``_wire`` for the way back."""
    if rest.get("responseMimeType") != "application/json" or "responseJsonSchema" in rest:
        return None
    decoded = decode_schema(rest["responseSchema"])
    if decoded is None:
        return None
    schema, wire[RESPONSE_SCHEMA] = decoded
    del rest["responseMimeType"], rest["responseSchema"]
    return construct(ResponseFormat, type="json_schema", json_schema=schema)


def _decode_thinking(config: Any) -> ThinkingConfig | None:
    """Only a thinkingConfig this table re-encodes exactly maps to the IR; others stay options."""
    if not isinstance(config, dict) or not {"thinkingBudget", "thinkingLevel", "includeThoughts"}.issuperset(config):
        return None
    budget, level, summary = config.get("thinkingBudget"), config.get("thinkingLevel"), config.get("includeThoughts")
    if (budget is not None and type(budget) is not int) or (budget is not None and level is not None):
        return None
    if (level is not None and level not in _LEVELS) or (summary is not None and not isinstance(summary, bool)):
        return None
    return construct(
        ThinkingConfig,
        level="off" if budget == 0 else (_LEVELS[level] if level is not None else None),
        budget_tokens=budget,
        summary=summary,
    )
