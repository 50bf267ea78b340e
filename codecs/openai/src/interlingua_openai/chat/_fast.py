"""The common message shapes, written without path bookkeeping (PERF.md): IR -> wire only.

Most traffic is a handful of shapes: a string from the system or the user, text and image parts,
a tool message with a string, an assistant turn of text and tool calls. These functions write
exactly those shapes and return None for anything else (an echo, a warning to give); the careful
writer of ``_messages.py`` then handles it. Both give the same result on what these accept
(``test_fast.py`` holds them to it). Reading has one path (``_messages.decode_message``); this
writer stays because the careful one costs about twice as much on the benchmark transcript
(see the report of issue 25: ``_Assistant`` and ``_encode_turn`` per message).
"""

from __future__ import annotations

from collections.abc import Callable

from interlingua import (
    Base64Source,
    ContentPart,
    Image,
    Message,
    Text,
    ToolResult,
    ToolUse,
    UrlSource,
)
from interlingua.kit import data_url

from ._echo import Ctx
from ._parts import Block, call_arguments, encode_tool_call

_KEPT_ARGUMENTS = frozenset({"_arguments"})


def _plain_text(part: Text) -> bool:
    """A text part with nothing a warning or an echo would have to say."""
    return not part.provider_echoes and part.cache_control is None and not part.citations


def _encode_blocks(parts: list[ContentPart], images: bool) -> list[Block] | None:
    """Plain text parts (and images, in a user turn)."""
    blocks: list[Block] = []
    for part in parts:
        if type(part) is Text and _plain_text(part):
            blocks.append({"type": "text", "text": part.text})
        elif type(part) is Image and images and not part.provider_echoes and part.cache_control is None:
            source = part.source
            if type(source) is Base64Source:
                url = data_url(source.media_type, source.data)
            elif type(source) is UrlSource:
                url = source.url
            else:
                return None
            blocks.append({"type": "image_url", "image_url": {"url": url}})
        else:
            return None
    return blocks


def _encode_plain(message: Message, ctx: Ctx) -> Block | None:
    role = message.role
    if role == "developer" and not ctx.dialect.developer_role:
        return None
    blocks = _encode_blocks(message.parts, role == "user")
    if not blocks:
        return None
    if len(blocks) == 1 and blocks[0]["type"] == "text":
        return {"role": role, "content": blocks[0]["text"]}
    return {"role": role, "content": blocks}


def _encode_tool(message: Message, ctx: Ctx) -> Block | None:
    if len(message.parts) != 1:
        return None
    result = message.parts[0]
    if type(result) is not ToolResult or result.provider_echoes or result.cache_control is not None or result.is_error:
        return None
    content = result.content
    if type(content) is not str:
        return None
    return {"role": "tool", "tool_call_id": ctx.ids.encode(result.tool_use_id), "content": content}


def encode_call(part: ToolUse, ctx: Ctx) -> Block:
    """A tool call with no echo, or with only its kept arguments text (the common case: servers
    space their arguments); any other echo goes to the careful encoder."""
    echoes = part.provider_echoes
    if not echoes:
        arguments = call_arguments(part, {})
    elif len(echoes) == 1 and echoes[0].provider == ctx.provider and echoes[0].data.keys() == _KEPT_ARGUMENTS:
        arguments = call_arguments(part, echoes[0].data)
    else:
        return encode_tool_call(part, ctx)
    return {"id": ctx.ids.encode(part.id), "type": "function", "function": {"name": part.name, "arguments": arguments}}


def _encode_assistant(message: Message, ctx: Ctx) -> Block | None:
    texts: list[Block] = []
    calls: list[Block] = []
    for part in message.parts:
        if type(part) is ToolUse:
            calls.append(encode_call(part, ctx))
        elif type(part) is Text and _plain_text(part):
            texts.append({"type": "text", "text": part.text})
        else:
            return None
    wire: Block = {"role": "assistant"}
    if len(texts) == 1:
        wire["content"] = texts[0]["text"]
    elif texts:
        wire["content"] = texts
    elif not calls:
        wire["content"] = ""
    if calls:
        wire["tool_calls"] = calls
    return wire


_ENCODERS: dict[str, Callable[[Message, Ctx], Block | None]] = {
    "system": _encode_plain,
    "developer": _encode_plain,
    "user": _encode_plain,
    "tool": _encode_tool,
    "assistant": _encode_assistant,
}


def encode_message(message: Message, ctx: Ctx) -> Block | None:
    """``message`` as one wire message when it has a common shape, else None (for the careful encoder)."""
    if message.provider_echoes or message.name is not None or message.id is not None:
        return None
    return _ENCODERS[message.role](message, ctx)
