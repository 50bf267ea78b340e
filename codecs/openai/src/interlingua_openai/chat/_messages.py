"""Messages, both directions: a wire message per role <-> an IR Message of parts.

Wire details with no IR field (a content array where a string would do, ``"tool_calls": []``,
Mistral's ``prefix``) ride in this codec's message echo, so decode -> encode is exact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

from interlingua import (
    Audio,
    AudioOutput,
    Base64Source,
    ContentPart,
    DecodeError,
    Document,
    FileSource,
    Image,
    ImageOutput,
    Message,
    Native,
    RedactedThinking,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    Video,
)
from interlingua.kit import article, dumps, expect, join, maker, optional, require

from ._echo import OMIT, REASONING_AS, Ctx, build, echo_list, extras, merge_into, own
from ._parts import (
    Block,
    audio_answer,
    audio_reference,
    decode_blocks,
    decode_tool_call,
    encode_text,
    encode_tool_call,
    encode_user_part,
    part_path,
    thinking_block,
)

_PLAIN = frozenset({"role", "content", "name"})
_TOOL = frozenset({"role", "content", "tool_call_id"})
_ASSISTANT = frozenset({"role", "content", "name", "refusal", "audio"})
_ASSISTANT_CALLS = _ASSISTANT | {"tool_calls"}
_NONE: dict[str, Any] = {}  # no echo of ours (read, never written to)
# The IR's part classes other than ToolResult: a part of one of them is no result, known by identity
# (a subclass is asked by isinstance).
_NOT_RESULTS = frozenset(
    {Text, Image, Audio, Video, Document, Thinking, RedactedThinking, ToolUse, ImageOutput, AudioOutput, Native}
)
_PATH_COUNT = 512
_PATHS = [f"messages[{i}]" for i in range(_PATH_COUNT)]  # spelled once, not per message of every encode

# The shapes built most, each a constructor made once (``maker``): a third cheaper than ``build``.
_text = maker(Text, "text")
_result = maker(ToolResult, "tool_use_id", "name", "content")
_message_of = maker(Message, "role", "parts", "name", "provider_echoes")

# --- decoding ------------------------------------------------------------------------------------


def _content(item: Block, at: str, ctx: Ctx, data: dict[str, Any]) -> list[ContentPart]:
    """``content`` (string, array or absent) -> parts; notes in ``data`` what a re-encode needs."""
    content = item.get("content")
    if content is None:
        return []
    if type(content) is str:
        return [_text(text=content)]
    parts = decode_blocks(expect(content, list, join(at, "content")), join(at, "content"), ctx)
    if not parts:
        data["content"] = []
    elif len(parts) == 1 and isinstance(parts[0], Text) and not parts[0].provider_echoes:
        data["_list"] = True
    return parts


def _message(role: str, parts: list[ContentPart], item: Block, at: str, ctx: Ctx, data: dict[str, Any]) -> Message:
    name = item.get("name")
    if name is not None and type(name) is not str:
        name = optional(item, "name", str, at)  # the reader names what is wrong
    return _message_of(role=role, parts=parts, name=name, provider_echoes=echo_list(ctx.provider, data) if data else [])


def _decode_plain(item: Block, at: str, ctx: Ctx) -> Message:
    data = {} if item.keys() <= _PLAIN else extras(item, _PLAIN)
    parts = _content(item, at, ctx, data)
    return _message(item["role"], parts, item, at, ctx, data)


def _decode_tool(item: Block, at: str, ctx: Ctx) -> Message:
    """A tool message: one ToolResult, named after the call it answers (the wire has no name)."""
    wire_id = item.get("tool_call_id")
    if type(wire_id) is not str:
        wire_id = require(item, "tool_call_id", str, at)
    content = item.get("content")
    value: Any = ""
    if type(content) is str:
        value = content
    elif content is not None:
        value = decode_blocks(expect(content, list, join(at, "content")), join(at, "content"), ctx)
    result = _result(tool_use_id=ctx.ids.decode(wire_id), name=ctx.names.get(wire_id, ""), content=value)
    return _message("tool", [result], item, at, ctx, {} if item.keys() <= _TOOL else extras(item, _TOOL))


def decode_reasoning(item: Block, at: str, ctx: Ctx, data: dict[str, Any]) -> list[ContentPart]:
    """The dialect's reasoning text, and ``reasoning_details`` on any host that sends them, ->
    thinking parts. The details are OpenRouter's form, which other hosts use too (Snowflake
    Cortex, on no dialect of its own: pydantic-ai's test_snowflake_thinking); each detail's keys
    but its text ride in the part's echo (``_detail``), so the host gets back what it signed."""
    field = ctx.dialect.reasoning_field
    details = item.get("reasoning_details")
    if field is None and details is None:
        return []  # OpenAI's own wire: no reasoning text comes back
    if field and field not in item and ctx.dialect.reasoning_also:
        field = _spelled_reasoning(item, field, ctx, data)
    text = optional(item, field, str, at) if field else None
    if details is None:
        if text is None:
            return []
        return [build(Thinking, text=text)]
    parts: list[ContentPart] = []
    for i, detail in enumerate(expect(details, list, join(at, "reasoning_details"))):
        detail = expect(detail, dict, join(join(at, "reasoning_details"), i))
        key = {"reasoning.text": "text", "reasoning.summary": "summary"}.get(detail.get("type", ""))
        if key is not None and isinstance(detail.get(key), str):
            echo = echo_list(ctx.provider, {"_detail": extras(detail, frozenset({key}))})
            parts.append(build(Thinking, text=detail[key], provider_echoes=echo))
        else:
            parts.append(build(RedactedThinking, provider_echoes=echo_list(ctx.provider, {"_detail": detail})))
    joined = "".join(p.text for p in parts if isinstance(p, Thinking))
    if field and text is not None and text != joined:
        data[field] = text
    elif field and text is None and joined:
        data[OMIT] = [field]
    return parts


def _spelled_reasoning(item: Block, field: str, ctx: Ctx, data: dict[str, Any]) -> str:
    """The key this message holds its reasoning under: the dialect's own, or another the host also
    uses (vLLM's older ``reasoning_content``), recorded so the message goes back as it came."""
    for other in ctx.dialect.reasoning_also:
        if other in item:
            data[REASONING_AS] = other
            return other
    return field


def decode_assistant_parts(item: Block, at: str, ctx: Ctx, data: dict[str, Any]) -> list[ContentPart]:
    """Reasoning, content, refusal, audio, tool calls: the order a stream delivers them in."""
    parts = decode_reasoning(item, at, ctx, data)
    if item.get("content") == "":  # an empty answer text is no part (streams never open one)
        data["content"] = ""
    else:
        parts.extend(_content(item, at, ctx, data))
    if item.get("refusal") is not None:
        refusal = require(item, "refusal", str, at)
        parts.append(build(Text, text=refusal, provider_echoes=echo_list(ctx.provider, {"_refusal": True})))
    if item.get("audio") is not None:
        parts.append(decode_audio_output(require(item, "audio", dict, at), join(at, "audio"), ctx))
    calls = item.get("tool_calls")
    if isinstance(calls, list) and calls:
        where = join(at, "tool_calls")
        for i, call in enumerate(calls):
            parts.append(decode_tool_call(call, where, ctx, i))
    elif "tool_calls" in item:
        data["tool_calls"] = calls
    return parts


def decode_audio_output(audio: Block, at: str, ctx: Ctx) -> AudioOutput:
    """A request's ``{"id"}`` refers to an earlier answer; a response's carries the bytes. The
    response does not say the format (the request's ``audio.format`` did), so it is unknown."""
    audio_id = require(audio, "id", str, at)
    data = optional(audio, "data", str, at)
    if data is None:
        source: Any = build(FileSource, file_id=audio_id, provider=ctx.provider, media_type=None)
        return build(
            AudioOutput,
            source=source,
            transcript=None,
            provider_echoes=echo_list(ctx.provider, extras(audio, frozenset({"id"}))),
        )
    source = build(Base64Source, media_type="application/octet-stream", data=data)
    echo = extras(audio, frozenset({"data", "transcript"}))
    return build(
        AudioOutput,
        source=source,
        transcript=optional(audio, "transcript", str, at),
        provider_echoes=echo_list(ctx.provider, echo),
    )


def _decode_assistant(item: Block, at: str, ctx: Ctx) -> Message:
    if item.keys() <= _ASSISTANT_CALLS and (item.get("tool_calls") or "tool_calls" not in item):
        data: dict[str, Any] = {}  # nothing beyond the mapped keys (most turns)
        parts = decode_assistant_parts(item, at, ctx, data)
        return _message("assistant", parts, item, at, ctx, data)
    known = (_ASSISTANT_CALLS if item.get("tool_calls") else _ASSISTANT) | {"reasoning_details"}
    if ctx.dialect.reasoning_field:
        known = known | {ctx.dialect.reasoning_field, *ctx.dialect.reasoning_also}
    data = extras(item, known)
    parts = decode_assistant_parts(item, at, ctx, data)
    return _message("assistant", parts, item, at, ctx, data)


def _decode_function(item: Block, at: str, ctx: Ctx) -> Message:
    """The deprecated ``function`` role, which the IR lacks: kept whole."""
    native = build(Native, provider=ctx.provider, data=item)
    return build(Message, role="user", parts=[native], provider_echoes=echo_list(ctx.provider, {"_whole": True}))


_DECODERS: dict[str, Callable[[Block, str, Ctx], Message]] = {
    "system": _decode_plain,
    "developer": _decode_plain,
    "user": _decode_plain,
    "assistant": _decode_assistant,
    "tool": _decode_tool,
    "function": _decode_function,
}


def decode_message(item: Any, at: str, ctx: Ctx) -> Message:
    """Any wire message, every detail kept; a DecodeError names the path of what is malformed."""
    role = item.get("role") if type(item) is dict else None
    if type(role) is not str:
        role = require(expect(item, dict, at), "role", str, at)
    decode = _DECODERS.get(role)
    if decode is None:  # a role the API does not define (``User``, ``wizard``): never guessed at
        raise DecodeError("", join(at, "role"), f"unknown role {role!r}")
    return decode(item, at, ctx)


def decode_messages(items: list[Any], ctx: Ctx) -> list[Message]:
    return [decode_message(item, f"messages[{i}]", ctx) for i, item in enumerate(items)]


# --- encoding ------------------------------------------------------------------------------------


def _content_value(blocks: list[Block], data: dict[str, Any]) -> Any:
    """A single plain text part goes as a string (how SDK users write it) unless the wire had an array."""
    block = blocks[0] if len(blocks) == 1 else None  # a plain text block has two keys: type and text
    if block is None or len(block) != 2 or block.get("type") != "text" or "text" not in block:
        return blocks
    return blocks if data and data.get("_list") else block["text"]


def _encode_plain(
    role: str,
    message: Message,
    parts: list[ContentPart],
    at: str,
    ctx: Ctx,
    places: list[int] | None = None,
    data: dict[str, Any] | None = None,
) -> Block:
    """A system, developer or user message of ``parts``: all the message's, or (``places``: their
    indices in it) those its tool results left; ``data``: its echo of ours, when already read."""
    if role == "developer" and not ctx.dialect.developer_role:
        ctx.out.unsupported(at, "developer", f"{ctx.dialect.name} has no developer role; sent as system")
        role = "system"
    blocks = []
    text_only = role != "user"
    j = -1
    for part in parts:  # counted, not enumerate(): an enumerate per message costs more than its one part
        j += 1
        where = j if places is None else places[j]
        if type(part) is Text:  # most parts: straight to their encoder, not through the dispatch
            blocks.append(encode_text(part, at, where, ctx))
            continue
        if text_only and not isinstance(part, Text):
            ctx.out.lossy(part_path(at, where), part.type, f"{article(role)} message holds text only")
            continue
        block = encode_user_part(part, at, where, ctx)
        if block is not None:
            blocks.append(block)
    if data is None:
        echoes = message.provider_echoes
        data = own(echoes, ctx.provider) if echoes else _NONE
    wire: Block = {"role": role, "content": _content_value(blocks, data) if blocks else data.get("content", "")}
    name = message.name
    if name is not None:
        wire["name"] = name
    return merge_into(wire, data) if data else wire


def _tool_result_content(part: ToolResult, at: str, ctx: Ctx, follow: list[Block]) -> Any:
    """A tool message holds text; images, audio and documents move to a user message after it."""
    content = part.content
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        ctx.out.lossy(at, "tool_result", "a JSON result is sent as its JSON text", action="converted")
        return dumps(content)
    blocks = []
    for i, inner in enumerate(content):
        if isinstance(inner, Text):
            blocks.append(encode_text(inner, at, i, ctx, "content"))
        elif isinstance(inner, Image | Audio | Document):
            block = encode_user_part(inner, at, i, ctx, "content")
            if block is not None:
                why = "a tool message holds text; moved to a user message after it"
                ctx.out.lossy(part_path(at, i, "content"), inner.type, why, action="converted")
                follow.append(block)
        else:
            ctx.out.lossy(part_path(at, i, "content"), inner.type, "a tool message holds text only")
    return blocks


def _encode_tool_result(
    part: ToolResult, at: str, j: int, ctx: Ctx, data: dict[str, Any], follow: list[Block]
) -> Block:
    """One tool message for part ``j`` of the message at ``at``; ``data``: the tool message's own echo."""
    if part.cache_control is not None:
        ctx.out.lossy(part_path(at, j), "cache_control", "Chat Completions has no cache breakpoints")
    if part.is_error:
        why = "a tool message cannot mark an error; the content is sent as is"
        ctx.out.lossy(part_path(at, j), "tool_result", why, action="converted")
    content = part.content
    wire = {
        "role": "tool",
        "tool_call_id": ctx.ids.encode(part.tool_use_id),
        "content": content if type(content) is str else _tool_result_content(part, part_path(at, j), ctx, follow),
    }
    return merge_into(wire, data) if data else wire


def _encode_turn(message: Message, role: str, at: str, ctx: Ctx, out: list[Block], follow: list[Block]) -> Block | None:
    """A user or tool message: each tool result goes to ``out`` at once, as a tool message of its
    own; the other parts make the user message returned to follow them (None when there are none)."""
    parts = message.parts
    echoes = message.provider_echoes
    data = own(echoes, ctx.provider) if echoes else _NONE
    if data and data.get("_whole") is True and len(parts) == 1 and isinstance(parts[0], Native):
        block = dict(parts[0].data)
        if block.get("role") != "tool":
            return block
        out.append(block)
        return None
    kept = data if role == "tool" else _NONE
    rest: list[ContentPart] | None = None  # the other parts, once a result is met, and their places
    places: list[int] | None = None
    results = False
    j = -1
    for part in parts:  # counted, not enumerate(): an enumerate per message costs more than its one part
        j += 1
        # the IR's own classes by identity: a failing isinstance on a pydantic class is an ABC check
        if type(part) is ToolResult or (type(part) not in _NOT_RESULTS and isinstance(part, ToolResult)):
            out.append(_encode_tool_result(part, at, j, ctx, kept, follow))
            if not results and j:
                rest, places = parts[:j], list(range(j))  # every part before the first result
            results = True
        elif results:
            if rest is None or places is None:
                rest, places = [], []
            rest.append(part)
            places.append(j)
    if not results or rest:
        if role == "tool":
            ctx.out.lossy(at, "text", "parts beside tool results go in a user message", action="converted")
        return _encode_plain("user", message, parts if rest is None else rest, at, ctx, places, data)
    if message.name is not None:
        ctx.out.unsupported(f"{at}.name", "message_name", "tool messages carry no name")
    return None


class _Assistant:
    """What few assistant messages carry beyond plain text and calls (reasoning, refusals, audio,
    citations, kept blocks), collected into the wire fields they belong to; ``content`` and
    ``calls`` are the message's own lists, shared with ``encode_assistant``."""

    __slots__ = (
        "annotations",
        "at",
        "audio",
        "calls",
        "content",
        "ctx",
        "details",
        "reasoning",
        "refusal",
        "response",
        "signed",
    )

    def __init__(self, ctx: Ctx, at: str, content: list[Block], calls: list[Block], response: bool) -> None:
        self.ctx = ctx
        self.at = at  # the message's path; a part's is spelled out only for a warning
        self.response = response
        self.content = content
        self.calls = calls
        self.annotations: list[Block] = []
        self.reasoning: list[str] = []
        self.details: list[Block] = []
        self.signed = False
        self.refusal: str | None = None
        self.audio: Block | None = None

    def add(self, part: ContentPart, j: int) -> None:
        ctx = self.ctx
        match part:  # the commonest types first: each arm is one isinstance check
            case ToolUse():
                self.calls.append(encode_tool_call(part, ctx))
            case Text():
                self._text(part, j)
            case Thinking():
                self._thinking(part, j)
            case RedactedThinking():
                self._redacted(part, j)
            case AudioOutput():
                at = part_path(self.at, j)
                self.audio = (
                    audio_answer(part, at, ctx) if self.response else audio_reference(part, at, ctx)
                ) or self.audio
            case Native():
                block = encode_user_part(part, self.at, j, ctx)
                if block is not None:
                    self.content.append(block)
            case Image() | Audio() | Video() | Document() | ImageOutput() | ToolResult():
                why = f"an assistant message cannot carry a {part.type} part"
                ctx.out.lossy(part_path(self.at, j), part.type, why)
            case _:
                assert_never(part)

    def _text(self, part: Text, j: int) -> None:
        flag = own(part.provider_echoes, self.ctx.provider).get("_refusal")
        if flag is True:
            self.refusal = (self.refusal or "") + part.text
        elif flag == "part":
            self.content.append({"type": "refusal", "refusal": part.text})
        elif self.response and part.citations:
            base = sum(len(b["text"]) for b in self.content if b.get("type") == "text")
            self.content.append(
                merge_into({"type": "text", "text": part.text}, own(part.provider_echoes, self.ctx.provider))
            )
            self._annotate(part, part_path(self.at, j), base)
        else:
            self.content.append(encode_text(part, self.at, j, self.ctx))

    def _annotate(self, part: Text, at: str, base: int) -> None:
        """Citations of an answer -> url_citation annotations; other kinds have no form here."""
        for i, citation in enumerate(part.citations):
            source = citation.source
            if source.type != "url" or source.url is None:
                self.ctx.out.lossy(
                    f"{at}.citations[{i}]", "citations", f"{article(source.type)} citation has no annotation form"
                )
                continue
            start = citation.start if citation.start is not None else 0
            end = citation.end if citation.end is not None else len(part.text)
            cite = {
                "end_index": base + end,
                "start_index": base + start,
                "title": source.title or "",
                "url": source.url,
            }
            self.annotations.append({"type": "url_citation", "url_citation": cite})

    def _thinking(self, part: Thinking, j: int) -> None:
        ctx = self.ctx
        if part.cache_control is not None:
            ctx.out.lossy(part_path(self.at, j), "cache_control", "Chat Completions has no cache breakpoints")
        data = own(part.provider_echoes, ctx.provider)
        detail = data.get("_detail")
        if isinstance(detail, dict):  # a detail this host sent: back as it came, on any dialect
            self.signed = True
            key = "summary" if detail.get("type") == "reasoning.summary" else "text"
            self.details.append({**detail, key: part.text})
            if ctx.dialect.reasoning == "field":
                self.reasoning.append(part.text)
            return
        match ctx.dialect.reasoning:
            case "none":
                ctx.out.lossy(
                    part_path(self.at, j), "thinking", "Chat Completions takes no reasoning back from earlier turns"
                )
            case "mistral_blocks":
                last = self.content[-1] if self.content else None
                if data.get("_more") is True and last is not None and last.get("type") == "thinking":
                    last["thinking"].append({"type": "text", "text": part.text})
                else:
                    self.content.append(thinking_block(part, ctx))
            case "field":
                self.reasoning.append(part.text)
                if ctx.dialect.reasoning_details:
                    self.details.append({"type": "reasoning.text", "text": part.text})
            case _:
                assert_never(ctx.dialect.reasoning)

    def _redacted(self, part: RedactedThinking, j: int) -> None:
        detail = own(part.provider_echoes, self.ctx.provider).get("_detail")
        if isinstance(detail, dict):  # encrypted reasoning this host sent: back to it as it came
            self.signed = True
            self.details.append(detail)
        else:
            why = f"{self.ctx.dialect.name} cannot take encrypted reasoning back"
            self.ctx.out.lossy(part_path(self.at, j), "redacted_thinking", why)

    def fields(self, wire: Block) -> None:
        """Reasoning, refusal and audio, in the order the wire lists them."""
        field = self.ctx.dialect.reasoning_field
        if self.reasoning and field:
            wire[field] = "".join(self.reasoning)
        if self.signed:
            wire["reasoning_details"] = self.details
        if self.refusal is not None:
            wire["refusal"] = self.refusal
        if self.audio is not None:
            wire["audio"] = self.audio


def encode_assistant(message: Message, at: str, ctx: Ctx, *, response: bool = False) -> Block:
    """An assistant message (``response``: a choice's message, which takes annotations and audio
    bytes); plain text and calls are written here, anything else by ``_Assistant``."""
    content: list[Block] = []
    calls: list[Block] = []
    more: _Assistant | None = None
    j = -1
    for part in message.parts:  # counted: an enumerate per message costs more than its few parts
        j += 1
        # exact classes by identity: a failing isinstance on a pydantic class is an ABC check
        if type(part) is ToolUse:
            calls.append(encode_tool_call(part, ctx))
        elif type(part) is Text and not part.provider_echoes and not (response and part.citations):
            content.append(encode_text(part, at, j, ctx))
        else:  # every other part (subclasses too), each by its own method (``_Assistant.add``)
            if more is None:
                more = _Assistant(ctx, at, content, calls, response)
            more.add(part, j)
    echoes = message.provider_echoes
    data = own(echoes, ctx.provider) if echoes else _NONE
    wire: Block = {"role": "assistant"}
    if content and response and ctx.dialect.reasoning != "mistral_blocks":
        wire["content"] = _joined(content, ctx)
    elif more is None and len(content) == 1 and not data:  # one plain text part: its block is type and text
        wire["content"] = content[0]["text"]
    elif content:
        wire["content"] = _content_value(content, data)
    elif response:
        wire["content"] = None
    elif not (calls or (more is not None and (more.refusal is not None or more.audio))):
        wire["content"] = ""
    if response and ((more is not None and more.annotations) or ctx.dialect.annotations):
        wire["annotations"] = [] if more is None else more.annotations
    if more is not None:
        more.fields(wire)
        if data and (spelled := data.get(REASONING_AS)) and (field := ctx.dialect.reasoning_field) in wire:
            wire[spelled] = wire.pop(field)  # the host's other spelling, as the message came
    if calls:
        wire["tool_calls"] = calls
    if not response and message.name is not None:
        wire["name"] = message.name
    return merge_into(wire, data) if data else wire


def _joined(content: list[Block], ctx: Ctx) -> str:
    """An answer's content is one string: several text parts are joined (warned)."""
    texts = [b["text"] for b in content if b.get("type") == "text" and isinstance(b.get("text"), str)]
    if len(content) > 1:
        ctx.out.lossy("message", "text", "an answer's content is one string; its parts were joined", action="converted")
    return "".join(texts)


def encode_messages(messages: list[Message], ctx: Ctx) -> list[Block]:
    """IR messages -> wire messages: one each, but a tool message per tool result. Media from tool
    results follows the run of tool messages in one user message, so tool messages still come
    straight after their calls."""
    out: list[Block] = []
    follow: list[Block] = []
    for i, message in enumerate(messages):
        at = _PATHS[i] if i < _PATH_COUNT else f"messages[{i}]"
        if message.id is not None:
            ctx.out.unsent_message_fields(message, at, carries_name=True)
        role = message.role
        match role:
            case "user" | "tool":
                turn = _encode_turn(message, role, at, ctx, out, follow)
                if turn is None:
                    continue
                block = turn
            case "assistant":
                block = encode_assistant(message, at, ctx)
            case "system" | "developer":
                block = _encode_plain(role, message, message.parts, at, ctx)
            case _:
                assert_never(role)
        if follow:
            out.append({"role": "user", "content": follow})
            follow = []
        out.append(block)
    if follow:
        out.append({"role": "user", "content": follow})
    return out
