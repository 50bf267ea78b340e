"""Requests, both directions: top-level fields, system prompt, messages, tools and settings.

Choices where the wire and the IR differ (see also docs/codecs/anthropic-messages.md):

- Leading system (and developer) messages become ``system``, which holds only text; later ones
  become the wire's ``{"role": "system"}`` messages, which take other blocks too (a
  ``tool_addition``), and stay apart as consecutive user and assistant messages do. Anthropic has
  no developer role: it is sent as system, with a warning. ``tool`` messages join the user turn
  beside them; consecutive user (or assistant) messages stay apart, as the API takes them.
- Thinking: ``budget_tokens`` is sent as is; a ``level`` alone maps through BUDGETS (or the
  caller's ThinkingBudgets, where a level it lacks goes to its nearest level, with a warning);
  neither is ``{"type": "adaptive"}``; ``off`` is ``disabled``; ``summary`` is ``display``
  (summarized / omitted). The budget stays in [1024, max_tokens).
- ``max_tokens`` is required by the wire: when the IR has none, ``default_max_tokens`` (plus the
  thinking budget, when there is one) is sent.
- The target model's rules come from ``models.toml`` (the model catalog): a sampling setting it
  refuses is dropped, one it takes only in a range (top_p while thinking) is moved into it,
  ``max_tokens`` is held to its output limit, and a model that thinks only adaptively gets
  ``{"type": "adaptive"}`` with the level (or the budget's level) as ``output_config.effort``;
  each with a warning naming the model and the rule. An unknown model is sent as asked.
- ``response_format`` json_schema is ``output_config.format`` (Anthropic's structured outputs are
  always strict and unnamed: a name, a description or ``strict=False`` warns); ``json_object``
  has no wire form and warns.
- The wire's limits are kept: at most 4 cache breakpoints (the earliest extra ones are dropped),
  a 1h breakpoint never after a 5m one (it is shortened), thinking blocks first in an assistant
  turn, and thinking turned off (with a warning) when the assistant turn before the latest tool
  results does not start with a signed thinking block (after a detour through another vendor).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from interlingua import (
    CacheControl,
    ContentPart,
    Encoded,
    Message,
    Native,
    NativeTool,
    ProviderEcho,
    RedactedThinking,
    Request,
    ResponseFormat,
    Role,
    Text,
    Thinking,
    ThinkingBudgets,
    ThinkingConfig,
    Tool,
    ToolChoice,
    WarningSink,
)
from interlingua.kit import (
    ToolIds,
    article,
    binding_of,
    cap_max_tokens,
    construct,
    drop_prefill,
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

from ._parts import (
    PROVIDER,
    Block,
    Context,
    Encoder,
    decode_blocks,
    decode_cache_control,
    encode_cache_control,
    make_echo,
    make_message,
    make_text,
)
from ._schema_dialects import STRICT_TOOL, STRUCTURED, TOOL

# model_construct: a constant its tests validate, so importing the codec builds no validator.
BUDGETS = ThinkingBudgets.model_construct(minimal=1024, low=2048, medium=8192, high=16384, xhigh=32768)
"""Thinking level -> ``budget_tokens`` (Anthropic's minimum budget is 1024); a caller's table
passed as ``budgets=`` replaces it."""

MIN_BUDGET = 1024
_PACKAGE = __name__.rsplit(".", 1)[0]  # where models.toml lives
_EFFORTS = ("low", "medium", "high", "xhigh", "max")  # output_config.effort (the SDK's OutputConfigParam)
_STRING = "content_string"  # message echo: the wire sent ``content`` as a bare string
WIRE = "_wire"
"""The options key recording how a decoded body spelled what the IR holds (``stop_sequences: []``:
no stop sequence); written back by this codec only, and (a ``_`` key) reported by no other."""
_THINKING_TYPES = ("thinking", "redacted_thinking")

# --- decoding ----------------------------------------------------------------------------------

_MAPPED = frozenset(
    {"model", "max_tokens", "messages", "system", "tools", "tool_choice", "thinking", "stop_sequences"}
    | {"temperature", "top_p", "top_k", "output_config"}
)


def decode_request(body: Mapping[str, Any], ids: ToolIds | None = None) -> Request:
    """Every field without an IR home goes to ``provider_options["anthropic"]`` verbatim."""
    model = optional(body, "model", str, "")
    ctx = Context(model, ids)
    options = {k: v for k, v in body.items() if k not in _MAPPED}
    messages = _decode_system(body)
    messages += _decode_messages(body, ctx)
    fields: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "tools": [_decode_tool(t, at) for at, t in each(body, "tools", "")],
        "max_tokens": optional(body, "max_tokens", int, ""),
        "temperature": optional(body, "temperature", float, ""),
        "top_p": optional(body, "top_p", float, ""),
        "top_k": optional(body, "top_k", int, ""),
        "stop": [expect(s, str, at) for at, s in each(body, "stop_sequences", "")] or None,
    }
    if "stop_sequences" in body and fields["stop"] is None:  # an empty list: a private spelling record
        options[WIRE] = {"stop_sequences": body["stop_sequences"]}
    if body.get("tools") == []:  # the IR's no tools; the record (never sent, never reported) keeps the form
        options[EMPTY_TOOLS] = True
    fields.update(_decode_tool_choice(body, options))
    fields["thinking"] = _decode_thinking(body, options)
    fields["response_format"] = _decode_output_config(body, options)
    fields["provider_options"] = {PROVIDER: options} if options else {}
    return construct(Request, **fields)


_STRING_ECHO = {_STRING: True}


def _decode_content(raw: Any, at: str, ctx: Context) -> tuple[list[ContentPart], list[ProviderEcho]]:
    """The parts, and the message echo saying the content came as a bare string."""
    if type(raw) is list:
        return decode_blocks(raw, at, ctx), []
    if isinstance(raw, str):
        text = make_text(text=raw, citations=[], cache_control=None, provider_echoes=[])
        return [text], [make_echo(provider=PROVIDER, data=dict(_STRING_ECHO), model=None)]
    return decode_blocks(expect(raw, list, at), at, ctx), []


def _decode_messages(body: Mapping[str, Any], ctx: Context) -> list[Message]:
    items = require(body, "messages", list, "")
    return [_decode_message(m, i, ctx) for i, m in enumerate(items)]


def _decode_system(body: Mapping[str, Any]) -> list[Message]:
    raw = body.get("system")
    if raw is None:
        return []
    parts, echoes = _decode_content(raw, "system", Context(None))
    return [make_message(role="system", parts=parts, id=None, name=None, provider_echoes=echoes)]


def _decode_message(raw: Any, i: int, ctx: Context) -> Message:
    """A wire message; keys beside ``role`` and ``content`` ride in its echo. Its path is built
    only for the readers that may need it (a message of the two keys needs none)."""
    message = raw if type(raw) is dict else expect(raw, dict, f"messages[{i}]")
    role = message.get("role")
    if type(role) is not str or role not in _ROLES:
        role = _role(message, f"messages[{i}]")
    parts, echoes = _decode_content(message.get("content"), f"messages[{i}].content", ctx)
    if len(message) > 2:
        extra = {k: v for k, v in message.items() if k not in ("role", "content") and v is not None}
        if echoes:
            extra = {**echoes[0].data, **extra}
        echoes = [make_echo(provider=PROVIDER, data=extra, model=None)] if extra else []
    return make_message(role=role, parts=parts, id=None, name=None, provider_echoes=echoes)


def _role(message: Mapping[str, Any], at: str) -> Role:
    role = _ROLES.get(require(message, "role", str, at))
    if role is None:
        from interlingua import DecodeError

        raise DecodeError("", join(at, "role"), f"unknown role {message['role']!r}")
    return role


_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant", "system": "system"}
_TOOL_KEYS = frozenset({"name", "description", "input_schema", "strict", "cache_control"})


def _decode_tool(raw: Any, at: str) -> Tool | NativeTool:
    """A plain function tool is a Tool; a server tool (or one with fields the IR lacks) is kept
    whole as a NativeTool."""
    tool = expect(raw, dict, at)
    if not tool.keys() <= _TOOL_KEYS:
        return construct(NativeTool, provider=PROVIDER, data=dict(tool))
    return construct(
        Tool,
        name=require(tool, "name", str, at),
        description=optional(tool, "description", str, at),
        input_schema=require(tool, "input_schema", dict, at),
        strict=optional(tool, "strict", bool, at),
        cache_control=decode_cache_control(tool, at),
    )


_CHOICES = {"auto": "auto", "any": "required", "none": "none"}


_CHOICE_TYPES = frozenset({"auto", "any", "tool", "none"})
"""``ToolChoiceParam``'s members (anthropic.types); another value is refused, never guessed."""
_THINKING_MODES = frozenset({"enabled", "disabled", "adaptive", "between_tools"})
"""``ThinkingConfigParam``'s members (anthropic.types)."""


def _unknown(obj: Mapping[str, Any], key: str, at: str, what: str) -> None:
    """An enum value the API does not define (``Auto``, ``auto ``): a DecodeError at its path."""
    from interlingua import DecodeError

    raise DecodeError("", join(at, key), f"unknown {what} {require(obj, key, str, at)!r}")


def _decode_tool_choice(body: Mapping[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    choice = optional(body, "tool_choice", dict, "")
    if choice is None:
        return {}
    kind = choice.get("type")
    if kind not in _CHOICE_TYPES:
        _unknown(choice, "type", "tool_choice", "tool choice")
    known = {"type", "disable_parallel_tool_use"} | ({"name"} if kind == "tool" else set())
    if not choice.keys() <= known or (kind not in _CHOICES and kind != "tool") or (kind == "none" and len(choice) > 1):
        options["tool_choice"] = choice
        return {}
    out: dict[str, Any] = {
        "tool_choice": construct(ToolChoice, name=require(choice, "name", str, "tool_choice"))
        if kind == "tool"
        else _CHOICES[kind]
    }
    disable = optional(choice, "disable_parallel_tool_use", bool, "tool_choice")
    if disable is not None:
        out["parallel_tool_calls"] = not disable
    return out


def _decode_thinking(body: Mapping[str, Any], options: dict[str, Any]) -> ThinkingConfig | None:
    thinking = optional(body, "thinking", dict, "")
    if thinking is None:
        return None
    kind = thinking.get("type")
    if kind not in _THINKING_MODES:
        _unknown(thinking, "type", "thinking", "thinking type")
    display = thinking.get("display")
    summary = {"summarized": True, "omitted": False}.get(display) if isinstance(display, str) else None
    keys = {"type", "display"} | ({"budget_tokens"} if kind == "enabled" else set())
    if not thinking.keys() <= keys or (display is not None and summary is None):
        options["thinking"] = thinking
        return None
    if kind == "enabled":
        budget = require(thinking, "budget_tokens", int, "thinking")
        return construct(ThinkingConfig, level=None, budget_tokens=budget, summary=summary)
    if kind == "adaptive":
        return construct(ThinkingConfig, level=None, budget_tokens=None, summary=summary)
    if kind == "disabled" and len(thinking) == 1:
        return construct(ThinkingConfig, level="off", budget_tokens=None, summary=None)
    options["thinking"] = thinking
    return None


def _decode_output_config(body: Mapping[str, Any], options: dict[str, Any]) -> ResponseFormat | None:
    config = optional(body, "output_config", dict, "")
    if config is None:
        return None
    rest = dict(config)
    fmt = rest.pop("format", None)
    if not isinstance(fmt, Mapping) or fmt.get("type") != "json_schema" or set(fmt) != {"type", "schema"}:
        options["output_config"] = config
        return None
    if rest:
        options["output_config"] = rest
    schema = require(fmt, "schema", dict, "output_config.format")
    return construct(ResponseFormat, type="json_schema", name=None, description=None, json_schema=schema, strict=None)


# --- encoding ----------------------------------------------------------------------------------


def encode_request(
    request: Request,
    codec: str,
    default_max_tokens: int,
    *,
    strict: bool,
    budgets: ThinkingBudgets = BUDGETS,
    host: str | None = None,
) -> Encoded:
    """IR -> a ``POST /v1/messages`` body, for a transcript that keeps the turn rules; ``host``:
    the door it goes through (a block signed through a host it does not take is withheld)."""
    out = WarningSink(codec)
    encoder = Encoder(out, binding_of=lambda: binding_of(PROVIDER, _PACKAGE, request, host))
    body: dict[str, Any] = {"model": request.model}
    tools = _encode_tools(request, encoder)
    system, messages = _encode_messages(_without_prefill(request, out), encoder)
    if system is not None:
        body["system"] = system
    body["messages"] = messages
    body["max_tokens"] = request.max_tokens
    if tools:
        body["tools"] = tools
    elif not request.tools and request.options(PROVIDER).get(EMPTY_TOOLS) is True:
        body["tools"] = []
    mode = _thinking_mode(request, default_max_tokens, budgets)  # rules that differ by mode read the one sent
    _encode_tool_choice(request, body, mode, out)
    _encode_sampling(request, body, mode, out)
    _encode_thinking(request, body, default_max_tokens, budgets, out)
    _encode_response_format(request, body, out)
    _merge_options(request.options(PROVIDER), body)
    out.foreign_options(request.provider_options, own=PROVIDER)
    _keep_thinking_rule(body, out)
    _keep_cache_limits(encoder, body, out)
    return out.finish(body, strict=strict)


def _encode_tools(request: Request, encoder: Encoder) -> list[Block]:
    tools: list[Block] = []
    for i, tool in enumerate(request.tools):
        at = f"tools[{i}]"
        if isinstance(tool, NativeTool):
            if tool.provider != PROVIDER:
                encoder.out.unsupported(at, "native_tools", f"{article(tool.provider)} tool means nothing to Anthropic")
                continue
            block = dict(tool.data)
        else:
            block = {"name": tool.name}
            if tool.description is not None:
                block["description"] = tool.description
            dialect = STRICT_TOOL if tool.strict else TOOL
            block["input_schema"] = fit_schema(tool.input_schema, dialect, f"{at}.input_schema", encoder.out)
            if tool.strict is not None:
                block["strict"] = tool.strict
            if tool.cache_control is not None:
                block["cache_control"] = encode_cache_control(tool.cache_control, encoder.out, f"{at}.cache_control")
        if isinstance(block.get("cache_control"), Mapping):
            encoder.cache_marks.append((block, at))
        tools.append(block)
    return tools


class _Turn:
    """One wire message being built: its blocks, and the IR messages they came from, each as its
    index and the part index of each of its blocks in order: paths are spelled out only for a
    warning."""

    __slots__ = ("blocks", "last", "role", "sources", "string")

    def __init__(self, role: str, string: bool, last: str) -> None:
        self.role = role
        self.last = last  # the IR role of the last message written into it
        self.blocks: list[Block] = []
        self.sources: list[tuple[int, list[int]]] = []
        self.string = string

    def paths(self) -> list[str]:
        """The IR path of each block, in order."""
        return [f"messages[{i}].parts[{j}]" for i, parts in self.sources for j in parts]


class _Turns:
    """The wire messages as the IR messages are written: leading system messages go to the
    system prompt; a ``tool`` message joins the user turn beside it (and a ``developer`` message
    the system turn), as the wire has no such roles. Consecutive ``user`` or ``assistant``
    messages stay apart: the API accepts them and combines them itself ("Consecutive user or
    assistant turns in your request will be combined into a single turn",
    https://docs.claude.com/en/api/messages), so a body it accepted comes back as it was
    (lingua ``chatCompletionsAssistantCacheControlParam``: two assistant turns, the first cached).
    An assistant message holding thinking joins the assistant turn before it all the same: the
    API would combine them into one turn with thinking after other blocks, which it refuses, so
    the joined turn is put right by ``_thinking_first`` (with its warning)."""

    __slots__ = ("system", "wire")

    def __init__(self) -> None:
        self.system: _Turn | None = None
        self.wire: list[_Turn] = []

    def open(self, role: str, string: bool, own_role: str, thinking: bool) -> _Turn:
        """The turn the next IR message (of wire ``role`` and IR ``own_role``; ``string``: its
        content came as one; ``thinking``: it holds reasoning) writes into."""
        wire = self.wire
        if role == "system" and not wire:
            if self.system is None:
                self.system = _Turn("system", string, own_role)
            elif self.system.blocks:
                self.system.string = False
            return self.system
        if wire and wire[-1].role == role and (thinking or own_role != wire[-1].last or own_role not in _OWN_TURNS):
            turn = wire[-1]
            turn.string = False
            turn.last = own_role
            return turn
        turn = _Turn(role, string, own_role)
        wire.append(turn)
        return turn


# Roles whose consecutive messages stay apart. A mid-conversation system turn is one of them: two
# in a row were accepted as sent (pydantic-ai corpus, test_anthropic_mid_conversation_system).
_OWN_TURNS = frozenset({"user", "assistant", "system"})
# The blocks of a system turn besides text (the SDK's BetaSystemMessageParam content).
_SYSTEM_BLOCKS = frozenset({"tool_addition", "tool_removal"})


def _system_block(part: ContentPart) -> bool:
    """Whether ``part`` is one of this wire's tool changes, which a system turn also holds."""
    return isinstance(part, Native) and part.provider == PROVIDER and part.data.get("type") in _SYSTEM_BLOCKS


_WIRE_ROLES = {"tool": "user", "developer": "system"}
_PLAIN_TEXT = frozenset({"type", "text"})
_REASONING = (Thinking, RedactedThinking)


def _encode_messages(messages: list[Message], encoder: Encoder) -> tuple[Any, list[Block]]:
    """The system prompt and the wire messages, part by part, warnings at their paths."""
    turns = _Turns()
    out = encoder.out
    encode_part = encoder.part
    for i, message in enumerate(messages):
        listed = f"messages[{i}].parts"
        own_role = message.role
        role = _WIRE_ROLES.get(own_role, own_role)
        if own_role == "developer":
            out.unsupported(f"messages[{i}]", "developer", "Anthropic has no developer role: sent as system")
        if message.name is not None or message.id is not None:
            out.unsent_message_fields(message, f"messages[{i}]")
        blocks: list[Block] = []
        taken: list[int] = []
        thinking = False
        prompt = role == "system" and not turns.wire  # the system prompt, else a system turn
        for j, part in enumerate(message.parts):
            thinking = thinking or type(part) in _REASONING  # written or not: see ``_Turns``
            if role == "system" and not isinstance(part, Text) and (prompt or not _system_block(part)):
                why = "a system prompt holds only text" if prompt else "a system turn holds only text and tool changes"
                out.lossy(f"{listed}[{j}]", part.type, why)
                continue
            block = encode_part(part, listed, j)
            if block is None:
                continue
            blocks.append(block)
            taken.append(j)
        echo = message.echo(PROVIDER) if message.provider_echoes else None
        turn = turns.open(role, bool(echo and echo.data.get(_STRING)), own_role, thinking and own_role == "assistant")
        turn.blocks += blocks
        turn.sources.append((i, taken))
    for turn in turns.wire:
        if not turn.blocks:
            _note_empty(turn, messages, encoder.out)
    wire = [_wire_message(turn, encoder.out) for turn in turns.wire if turn.blocks]
    system = turns.system
    return (_content(system) if system and system.blocks else None), wire


def _note_empty(turn: _Turn, messages: list[Message], out: WarningSink) -> None:
    """A message with no parts (a Gemini model turn kept empty) is left out: the API refuses
    empty content ("all messages must have non-empty content except for the optional final
    assistant message", https://docs.claude.com/en/api/messages). Messages whose parts were all
    dropped have warned already, part by part."""
    for i, _ in turn.sources:
        if not messages[i].parts:
            out.unsupported(f"messages[{i}]", "empty_turn", "Anthropic refuses a message with empty content")


def _content(turn: _Turn) -> Any:
    if turn.string and len(turn.blocks) == 1 and turn.blocks[0].keys() == _PLAIN_TEXT:
        return turn.blocks[0]["text"]
    return turn.blocks


def _wire_message(turn: _Turn, out: WarningSink) -> Block:
    if turn.role == "assistant":
        _thinking_first(turn, out)
    return {"role": turn.role, "content": _content(turn)}


def _thinking_first(turn: _Turn, out: WarningSink) -> None:
    """The API wants the thinking blocks of each step of an assistant turn before the step's other
    blocks. A server tool's result ends a step: the model thinks again before its next one
    (recorded requests with thinking between code-execution blocks were accepted: pydantic-ai
    corpus, test_anthropic_code_execution_files_cache_prefix_stable_*-sonnet-5__2)."""
    seen_other = False
    for block in turn.blocks:
        thinking = block["type"] in _THINKING_TYPES
        if thinking and seen_other:
            break
        seen_other = not _ends_step(block["type"]) and (seen_other or not thinking)
    else:
        return  # already in order: the common case, nothing to rebuild
    seen_other = False
    blocks = []
    for block, at in zip(turn.blocks, turn.paths(), strict=True):
        if block["type"] in _THINKING_TYPES and seen_other:
            out.lossy(at, block["type"], "thinking after other blocks of a turn is refused by the API")
            continue
        seen_other = not _ends_step(block["type"]) and (seen_other or block["type"] not in _THINKING_TYPES)
        blocks.append(block)
    turn.blocks = blocks  # its paths are not read again


def _thinking_mode(request: Request, default_max_tokens: int, budgets: ThinkingBudgets) -> str | None:
    """The thinking mode ``_encode_thinking`` writes (``enabled``, ``adaptive``), None when it
    writes none, asked of it on a scratch body, for the rules that differ by mode (a model's
    ``mode_rejects``); only a request setting what such a rule judges asks."""
    if request.thinking is None or request.model is None:
        return None
    forced = request.tool_choice == "required" or isinstance(request.tool_choice, ToolChoice)
    if not forced and request.temperature is None and request.top_p is None and request.top_k is None:
        return None
    scratch: dict[str, Any] = {"max_tokens": request.max_tokens}
    _encode_thinking(request, scratch, default_max_tokens, budgets, WarningSink(""))
    block = scratch.get("thinking")
    kind = block.get("type") if isinstance(block, dict) else None
    return kind if isinstance(kind, str) and kind != "disabled" else None


def _ends_step(kind: str) -> bool:
    """A server tool's result block (``web_search_tool_result``, ``bash_code_execution_tool_result``,
    ...: the SDK's ``*_tool_result`` block params), not a client ``tool_result``."""
    return kind.endswith("_tool_result")


def _encode_tool_choice(request: Request, body: dict[str, Any], mode: str | None, out: WarningSink) -> None:
    choice, parallel = request.tool_choice, request.parallel_tool_calls
    if choice is None and parallel is None:
        return
    if (choice == "required" or isinstance(choice, ToolChoice)) and _forcing_refused(request, mode, out):
        choice = "auto"
    block: Block
    if isinstance(choice, ToolChoice):
        block = {"type": "tool", "name": choice.name}
    else:
        block = {"type": {"auto": "auto", "required": "any", "none": "none", None: "auto"}[choice]}
    if parallel is not None:
        if choice == "none":
            out.unsupported("parallel_tool_calls", "parallel_tool_calls", "tool_choice none takes no parallel setting")
        else:
            block["disable_parallel_tool_use"] = not parallel
    body["tool_choice"] = block


def _catalog_entry(request: Request, out: WarningSink) -> ModelSpec | None:
    return lookup(PROVIDER, _PACKAGE, request.model, out)


def _without_prefill(request: Request, out: WarningSink) -> list[Message]:
    """The messages, less a final assistant turn the target model refuses (see ``drop_prefill``)."""
    messages = request.messages
    if not messages or messages[-1].role != "assistant" or request.model is None:
        return messages  # the common case: no lookup
    spec = _catalog_entry(request, out)
    return messages if spec is None else drop_prefill(spec, messages, out)


def _forcing_refused(request: Request, mode: str | None, out: WarningSink) -> bool:
    """With thinking on (asked, or the model's default, or a model that cannot turn it off), a
    model whose catalog entry refuses a forced tool choice in the thinking ``mode`` sent gets
    ``auto`` (Opus 4.6 refuses it with a budget, takes it thinking adaptively)."""
    if request.model is None:
        return False
    spec = _catalog_entry(request, out)
    if spec is None or "forced_tool_choice" not in spec.refused_while_thinking(mode):
        return False
    thinking = request.thinking
    if not spec.thinks(None if thinking is None else ("off" if thinking.level == "off" else "on")):
        return False
    source = spec.cite("thinking_rules", "thinking")  # the rule's page, kept through extends
    why = f"with thinking on, {spec.id} takes tool_choice auto or none: sent as auto ({source})"
    out.unsupported("tool_choice", "tool_choice", why)
    return True


def _encode_sampling(request: Request, body: dict[str, Any], mode: str | None, out: WarningSink) -> None:
    values = {"temperature": request.temperature, "top_p": request.top_p, "top_k": request.top_k}
    asked = request.model is not None and any(value is not None for value in values.values())
    spec = _catalog_entry(request, out) if asked else None  # most requests set no sampling: no lookup
    if spec is not None:
        thinking = request.thinking
        level = None if thinking is None else ("off" if thinking.level == "off" else "on")
        values = keep_sampling(spec, values, spec.thinks(level), out, mode=mode)
    for name, value in values.items():
        if value is not None:
            body[name] = value
    if request.stop is not None:
        body["stop_sequences"] = list(request.stop)
    for name in ("seed", "presence_penalty", "frequency_penalty"):
        if getattr(request, name) is not None:
            out.unsupported(name, name, f"the Messages API has no {name}")


def _encode_thinking(
    request: Request, body: dict[str, Any], default_max_tokens: int, budgets: ThinkingBudgets, out: WarningSink
) -> None:
    thinking = request.thinking
    spec = _catalog_entry(request, out) if request.model is not None else None
    max_tokens = _max_tokens(request, spec, out)
    if thinking is None or thinking.level == "off":
        body["max_tokens"] = _default_max_tokens(default_max_tokens, spec) if max_tokens is None else max_tokens
        if thinking is not None and not _thinks_anyway(spec, out):
            body["thinking"] = {"type": "disabled"}
        return
    block: Block
    budget = thinking.budget_tokens
    if spec is not None and spec.thinking is not None and "enabled" not in spec.thinking.modes:
        _encode_effort(thinking, spec, budgets, body, out)
        budget = None
    elif budget is None and thinking.level is not None:
        budget = budgets.encode_level(thinking.level, out)
    elif budget is None and spec is not None and spec.thinking is not None and "adaptive" not in spec.thinking.modes:
        budget = budgets.encode_level("medium", out)
        why = f"{spec.id} has no adaptive thinking: sent as the medium budget {budget} ({spec.cite('thinking')})"
        out.lossy("thinking", "thinking", why, action="converted")
    if budget is None:
        block = {"type": "adaptive"}
        body["max_tokens"] = _default_max_tokens(default_max_tokens, spec) if max_tokens is None else max_tokens
    else:
        if budget < MIN_BUDGET:
            out.lossy(
                "thinking.budget_tokens", "thinking", f"budget raised to the minimum {MIN_BUDGET}", action="converted"
            )
            budget = MIN_BUDGET
        if max_tokens is None:
            max_tokens = _default_max_tokens(default_max_tokens + budget, spec)
        body["max_tokens"] = max_tokens
        if budget >= max_tokens:
            if max_tokens - 1 < MIN_BUDGET:
                out.unsupported("thinking", "thinking", f"max_tokens {max_tokens} leaves no room for thinking")
                return
            out.lossy("thinking.budget_tokens", "thinking", "budget lowered below max_tokens", action="converted")
            budget = max_tokens - 1
        block = {"type": "enabled", "budget_tokens": budget}
    if thinking.summary is not None:
        block["display"] = "summarized" if thinking.summary else "omitted"
    body["thinking"] = block


def _thinks_anyway(spec: ModelSpec | None, out: WarningSink) -> bool:
    """A model that cannot turn thinking off answers ``thinking: {type: disabled}`` with 400
    (its catalog entry's ``can_off = false``): the block is left out and the model thinks as it
    does by default, with a warning."""
    rules = spec.thinking if spec is not None else None
    if spec is None or rules is None or rules.can_off is not False:
        return False
    why = f"{spec.id} cannot turn thinking off: sent without a thinking block, at its default ({spec.cite('thinking')})"
    out.lossy("thinking.level", "thinking", why, action="converted")
    return True


def _max_tokens(request: Request, spec: ModelSpec | None, out: WarningSink) -> int | None:
    value = request.max_tokens
    return value if value is None or spec is None else cap_max_tokens(spec, value, out)


def _default_max_tokens(value: int, spec: ModelSpec | None) -> int:
    """Our own default, held quietly to the model's output limit."""
    limit = spec.max_output_tokens if spec is not None else None
    return value if limit is None else min(value, limit)


def _encode_effort(
    thinking: ThinkingConfig, spec: ModelSpec, budgets: ThinkingBudgets, body: dict[str, Any], out: WarningSink
) -> None:
    """A model that thinks only adaptively (no ``budget_tokens``) takes the level as
    ``output_config.effort``; a budget is sent as its level's effort, with one warning."""
    level, budget = thinking.level, thinking.budget_tokens
    if level is None and budget is None:
        return
    source = spec.cite("thinking")
    if level is None:
        effort = _effort(spec, budgets.level(budget or 0))
        why = f"{spec.id} thinks only adaptively: budget sent as effort {effort!r} ({source})"
        out.lossy("thinking.budget_tokens", "thinking", why, action="converted")
    else:
        effort = _effort(spec, level)
        if effort != level:
            why = f"{spec.id} takes no {level!r} level: sent as {effort!r} ({source})"
            out.lossy("thinking.level", "thinking", why, action="converted")
        if budget is not None:
            why = f"{spec.id} thinks only adaptively: the budget is not sent, the level is ({source})"
            out.lossy("thinking.budget_tokens", "thinking", why)
    body["output_config"] = {"effort": effort}


def _effort(spec: ModelSpec, level: str) -> str:
    """The nearest effort the model takes, within the wire's own (minimal has none: low)."""
    rules = spec.thinking
    effort = rules.nearest(level) if rules is not None else level
    return effort if effort in _EFFORTS else "low"


_FORMAT_AT = "response_format.json_schema"


def _encode_response_format(request: Request, body: dict[str, Any], out: WarningSink) -> None:
    fmt = request.response_format
    if fmt is None or fmt.type == "text":
        return
    if fmt.type == "json_object" or fmt.json_schema is None:
        out.unsupported("response_format", "response_format", "Anthropic takes a JSON schema, not any JSON object")
        return
    body["output_config"] = {
        **body.get("output_config", {}),
        "format": {"type": "json_schema", "schema": fit_schema(fmt.json_schema, STRUCTURED, _FORMAT_AT, out)},
    }
    # output_config.format is {type, schema} only, and always enforced (anthropic/types/
    # json_output_format_param.py; https://platform.claude.com/docs/en/build-with-claude/structured-outputs)
    if fmt.name is not None:
        out.unsupported("response_format.name", "response_format", "Anthropic's output format has no name")
    if fmt.description is not None:
        out.unsupported(
            "response_format.description", "response_format", "Anthropic's output format has no description"
        )
    if fmt.strict is False:
        out.unsupported("response_format.strict", "response_format", "Anthropic always enforces the schema")


EMPTY_TOOLS = "_empty_tools"
"""The options record of a body's ``"tools": []``, which the IR holds as no tools: written back so."""


def _merge_options(options: Mapping[str, Any], body: dict[str, Any]) -> None:
    """Options fill fields the IR left empty; an ``output_config`` is merged key by key; the
    private ``_wire`` record gives back how the decoded body spelled what the IR holds."""
    for key, value in options.items():
        if key == WIRE:
            if isinstance(value, Mapping) and "stop_sequences" in value and "stop_sequences" not in body:
                body["stop_sequences"] = value["stop_sequences"]
        elif key[:1] == "_":
            continue  # a record of this wire's spelling, read where it applies
        elif key == "output_config" and isinstance(value, Mapping) and "output_config" in body:
            body["output_config"] = {**value, **body["output_config"]}
        elif key not in body:
            body[key] = value


def _keep_thinking_rule(body: dict[str, Any], out: WarningSink) -> None:
    """With thinking on, the assistant turn before the latest tool results must start with a
    signed thinking block (one Claude wrote); after a detour through another vendor it does not,
    and thinking is turned off rather than sending a request the API refuses."""
    thinking = body.get("thinking")
    if not isinstance(thinking, Mapping) or thinking.get("type") not in ("enabled", "adaptive"):
        return
    messages = body["messages"]
    if len(messages) < 2 or messages[-1]["role"] != "user" or messages[-2]["role"] != "assistant":
        return
    last = messages[-1]["content"]
    if isinstance(last, str) or not any(b.get("type") == "tool_result" for b in last):
        return
    before = messages[-2]["content"]
    first = before[0] if isinstance(before, list) and before else {}
    if first.get("type") not in _THINKING_TYPES:
        del body["thinking"]
        out.unsupported("thinking", "thinking", "the tool-calling turn has no Claude thinking to continue from")


def _keep_cache_limits(encoder: Encoder, body: dict[str, Any], out: WarningSink) -> None:
    marks = encoder.cache_marks
    limit = 4 - (1 if isinstance(body.get("cache_control"), Mapping) else 0)
    while len(marks) > max(limit, 0):
        block, at = marks.pop(0)
        del block["cache_control"]
        out.lossy(join(at, "cache_control"), "cache_control", "the API takes at most 4 cache breakpoints")
    seen_short = False
    for block, at in marks:
        ttl = block["cache_control"].get("ttl", "5m")
        if ttl == "1h" and seen_short:
            block["cache_control"] = encode_cache_control(CacheControl(ttl="5m"))
            out.lossy(
                join(at, "cache_control"), "cache_control", "a 1h mark after a 5m one is shortened", action="converted"
            )
        seen_short = seen_short or ttl != "1h"
