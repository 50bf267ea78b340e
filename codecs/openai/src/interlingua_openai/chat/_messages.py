"""Messages, both directions: a wire message per role <-> an IR Message of parts.

Wire details with no IR field (a content array where a string would do, ``"tool_calls": []``,
Mistral's ``prefix``) ride in this codec's message echo, so decode -> encode is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, assert_never

from interlingua import (
    Audio,
    AudioOutput,
    Base64Source,
    ContentPart,
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

from ._echo import OMIT, Ctx, build, echo_list, extras, merge_into, own
from ._fast import encode_message
from ._parts import (
    Block,
    audio_answer,
    audio_reference,
    decode_blocks,
    decode_tool_call,
    encode_text,
    encode_tool_call,
    encode_user_part,
    thinking_block,
)

_PLAIN = frozenset({"role", "content", "name"})
_TOOL = frozenset({"role", "content", "tool_call_id"})
_ASSISTANT = frozenset({"role", "content", "name", "refusal", "audio"})
_ASSISTANT_CALLS = _ASSISTANT | {"tool_calls"}
_TEXT_BLOCK = frozenset({"type", "text"})

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
    """The dialect's reasoning text (and OpenRouter's reasoning_details) -> thinking parts."""
    dialect = ctx.dialect
    field = dialect.reasoning_field
    if field is None and not dialect.reasoning_details:
        return []  # OpenAI's own wire: no reasoning text comes back
    text = optional(item, field, str, at) if field else None
    details = item.get("reasoning_details") if dialect.reasoning_details else None
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
    known = _ASSISTANT_CALLS if item.get("tool_calls") else _ASSISTANT
    if ctx.dialect.reasoning_field:
        known = known | {ctx.dialect.reasoning_field}
    if ctx.dialect.reasoning_details:
        known = known | {"reasoning_details"}
    data = extras(item, known)
    parts = decode_assistant_parts(item, at, ctx, data)
    return _message("assistant", parts, item, at, ctx, data)


def _decode_other(item: Block, at: str, ctx: Ctx) -> Message:
    """A role the IR lacks (the deprecated ``function``): kept whole."""
    native = build(Native, provider=ctx.provider, data=item)
    return build(Message, role="user", parts=[native], provider_echoes=echo_list(ctx.provider, {"_whole": True}))


_DECODERS: dict[str, Callable[[Block, str, Ctx], Message]] = {
    "system": _decode_plain,
    "developer": _decode_plain,
    "user": _decode_plain,
    "assistant": _decode_assistant,
    "tool": _decode_tool,
}


def decode_message(item: Any, at: str, ctx: Ctx) -> Message:
    """Any wire message, every detail kept; a DecodeError names the path of what is malformed."""
    role = item.get("role") if type(item) is dict else None
    if type(role) is not str:
        role = require(expect(item, dict, at), "role", str, at)
    return _DECODERS.get(role, _decode_other)(item, at, ctx)


def decode_messages(items: list[Any], ctx: Ctx) -> list[Message]:
    return [decode_message(item, f"messages[{i}]", ctx) for i, item in enumerate(items)]


# --- encoding ------------------------------------------------------------------------------------


def _content_value(blocks: list[Block], data: dict[str, Any]) -> Any:
    """A single plain text part goes as a string (how SDK users write it) unless the wire had an array."""
    if len(blocks) == 1 and blocks[0].keys() == _TEXT_BLOCK and blocks[0]["type"] == "text" and not data.get("_list"):
        return blocks[0]["text"]
    return blocks


def _encode_plain(
    role: str, message: Message, at: str, ctx: Ctx, parts: Sequence[tuple[int, ContentPart]] | None = None
) -> Block:
    """A system, developer or user message; ``parts`` (index, part), when given, instead of all its parts."""
    if role == "developer" and not ctx.dialect.developer_role:
        ctx.out.unsupported(at, "developer", f"{ctx.dialect.name} has no developer role; sent as system")
        role = "system"
    blocks = []
    for i, part in enumerate(message.parts) if parts is None else parts:
        where = f"{at}.parts[{i}]"
        if role != "user" and not isinstance(part, Text):
            ctx.out.lossy(where, part.type, f"{article(role)} message holds text only")
            continue
        block = encode_user_part(part, where, ctx)
        if block is not None:
            blocks.append(block)
    data = own(message.provider_echoes, ctx.provider)
    wire: Block = {"role": role, "content": data.get("content", "") if not blocks else _content_value(blocks, data)}
    if message.name is not None:
        wire["name"] = message.name
    return merge_into(wire, data)


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
        where = f"{at}.content[{i}]"
        if isinstance(inner, Text):
            blocks.append(encode_text(inner, where, ctx))
        elif isinstance(inner, Image | Audio | Document):
            block = encode_user_part(inner, where, ctx)
            if block is not None:
                ctx.out.lossy(
                    where, inner.type, "a tool message holds text; moved to a user message after it", action="converted"
                )
                follow.append(block)
        else:
            ctx.out.lossy(where, inner.type, "a tool message holds text only")
    return blocks


def _encode_tool_result(part: ToolResult, at: str, ctx: Ctx, data: dict[str, Any], follow: list[Block]) -> Block:
    if part.cache_control is not None:
        ctx.out.lossy(at, "cache_control", "Chat Completions has no cache breakpoints")
    if part.is_error:
        ctx.out.lossy(
            at, "tool_result", "a tool message cannot mark an error; the content is sent as is", action="converted"
        )
    wire = {
        "role": "tool",
        "tool_call_id": ctx.ids.encode(part.tool_use_id),
        "content": _tool_result_content(part, at, ctx, follow),
    }
    return merge_into(wire, data)


def _encode_turn(message: Message, at: str, ctx: Ctx, follow: list[Block]) -> list[Block]:
    """A user or tool message: tool results first (each its own tool message), then the rest."""
    data = own(message.provider_echoes, ctx.provider)
    if data.get("_whole") is True and len(message.parts) == 1 and isinstance(message.parts[0], Native):
        return [dict(message.parts[0].data)]
    results = [(i, p) for i, p in enumerate(message.parts) if isinstance(p, ToolResult)]
    out = [
        _encode_tool_result(p, f"{at}.parts[{i}]", ctx, data if message.role == "tool" else {}, follow)
        for i, p in results
    ]
    rest = [(i, p) for i, p in enumerate(message.parts) if not isinstance(p, ToolResult)]
    if message.name is not None and results and not rest:
        ctx.out.unsupported(f"{at}.name", "message_name", "tool messages carry no name")
    if rest or not results:
        if message.role == "tool":
            ctx.out.lossy(at, "text", "parts beside tool results go in a user message", action="converted")
        out.append(_encode_plain("user", message, at, ctx, rest))
    return out


class _Assistant:
    """Collects one assistant message's parts into the wire fields they belong to."""

    def __init__(self, ctx: Ctx, *, response: bool = False) -> None:
        self.ctx = ctx
        self.response = response
        self.annotations: list[Block] = []
        self.content: list[Block] = []
        self.reasoning: list[str] = []
        self.details: list[Block] = []
        self.signed = False
        self.calls: list[Block] = []
        self.refusal: str | None = None
        self.audio: Block | None = None

    def add(self, part: ContentPart, at: str) -> None:
        ctx = self.ctx
        match part:
            case Text():
                self._text(part, at)
            case Thinking():
                self._thinking(part, at)
            case RedactedThinking():
                self._redacted(part, at)
            case ToolUse():
                self.calls.append(encode_tool_call(part, ctx))
            case AudioOutput():
                self.audio = (
                    audio_answer(part, at, ctx) if self.response else audio_reference(part, at, ctx)
                ) or self.audio
            case Native():
                block = encode_user_part(part, at, ctx)
                if block is not None:
                    self.content.append(block)
            case Image() | Audio() | Video() | Document() | ImageOutput() | ToolResult():
                ctx.out.lossy(at, part.type, f"an assistant message cannot carry a {part.type} part")
            case _:
                assert_never(part)

    def _text(self, part: Text, at: str) -> None:
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
            self._annotate(part, at, base)
        else:
            self.content.append(encode_text(part, at, self.ctx))

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

    def _thinking(self, part: Thinking, at: str) -> None:
        ctx = self.ctx
        if part.cache_control is not None:
            ctx.out.lossy(at, "cache_control", "Chat Completions has no cache breakpoints")
        data = own(part.provider_echoes, ctx.provider)
        match ctx.dialect.reasoning:
            case "none":
                ctx.out.lossy(at, "thinking", "Chat Completions takes no reasoning back from earlier turns")
            case "mistral_blocks":
                last = self.content[-1] if self.content else None
                if data.get("_more") is True and last is not None and last.get("type") == "thinking":
                    last["thinking"].append({"type": "text", "text": part.text})
                else:
                    self.content.append(thinking_block(part, ctx))
            case "field":
                self.reasoning.append(part.text)
                detail = data.get("_detail")
                if isinstance(detail, dict):
                    self.signed = True
                    key = "summary" if detail.get("type") == "reasoning.summary" else "text"
                    self.details.append({**detail, key: part.text})
                elif ctx.dialect.reasoning_details:
                    self.details.append({"type": "reasoning.text", "text": part.text})
            case _:
                assert_never(ctx.dialect.reasoning)

    def _redacted(self, part: RedactedThinking, at: str) -> None:
        detail = own(part.provider_echoes, self.ctx.provider).get("_detail")
        if self.ctx.dialect.reasoning_details and isinstance(detail, dict):
            self.signed = True
            self.details.append(detail)
        else:
            self.ctx.out.lossy(at, "redacted_thinking", f"{self.ctx.dialect.name} cannot take encrypted reasoning back")

    def _joined(self, message: Message) -> str:
        """An answer's content is one string: several text parts are joined (warned)."""
        texts = [b["text"] for b in self.content if b.get("type") == "text" and isinstance(b.get("text"), str)]
        if len(self.content) > 1:
            self.ctx.out.lossy(
                "message", "text", "an answer's content is one string; its parts were joined", action="converted"
            )
        return "".join(texts)

    def wire(self, message: Message) -> Block:
        data = own(message.provider_echoes, self.ctx.provider)
        wire: Block = {"role": "assistant"}
        if self.content and self.response and self.ctx.dialect.reasoning != "mistral_blocks":
            wire["content"] = self._joined(message)
        elif self.content:
            wire["content"] = _content_value(self.content, data)
        elif self.response:
            wire["content"] = None
        elif not (self.calls or self.refusal is not None or self.audio):
            wire["content"] = ""
        if self.response and (self.annotations or self.ctx.dialect.annotations):
            wire["annotations"] = self.annotations
        field = self.ctx.dialect.reasoning_field
        if self.reasoning and field:
            wire[field] = "".join(self.reasoning)
        if self.signed:
            wire["reasoning_details"] = self.details
        if self.refusal is not None:
            wire["refusal"] = self.refusal
        if self.audio is not None:
            wire["audio"] = self.audio
        if self.calls:
            wire["tool_calls"] = self.calls
        if message.name is not None and not self.response:
            wire["name"] = message.name
        return merge_into(wire, data)


def encode_assistant(message: Message, at: str, ctx: Ctx, *, response: bool = False) -> Block:
    assistant = _Assistant(ctx, response=response)
    for i, part in enumerate(message.parts):
        assistant.add(part, f"{at}.parts[{i}]")
    return assistant.wire(message)


def encode_careful(message: Message, at: str, ctx: Ctx, follow: list[Block]) -> list[Block]:
    """Any IR message: one wire message or more (tool results each get one), warnings given;
    media from tool results is added to ``follow`` for the user message after them."""
    ctx.out.unsent_message_fields(message, at, carries_name=True)
    match message.role:
        case "assistant":
            return [encode_assistant(message, at, ctx)]
        case "user" | "tool":
            return _encode_turn(message, at, ctx, follow)
        case "system" | "developer":
            return [_encode_plain(message.role, message, at, ctx)]
        case _:
            assert_never(message.role)


def encode_messages(messages: list[Message], ctx: Ctx) -> list[Block]:
    """IR messages -> wire messages. Media from tool results follows the run of tool messages
    in one user message, so tool messages still come straight after their calls."""
    out: list[Block] = []
    follow: list[Block] = []
    for i, message in enumerate(messages):
        fast = encode_message(message, ctx)
        if fast is not None and not follow:
            out.append(fast)
            continue
        blocks = [fast] if fast is not None else encode_careful(message, f"messages[{i}]", ctx, follow)
        for block in blocks:
            if follow and block["role"] != "tool":
                out.append({"role": "user", "content": follow})
                follow = []
            out.append(block)
    if follow:
        out.append({"role": "user", "content": follow})
    return out
