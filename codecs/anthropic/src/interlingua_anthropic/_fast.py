"""The common request messages and content blocks, wire -> IR, without path bookkeeping (PERF.md).

An agent transcript is almost all a handful of shapes: a ``{"role", "content"}`` message whose
content is a string or a list of plain text, image, thinking, tool_use and tool_result blocks.
These functions read exactly those shapes, checking every value's type as they go, and return
None for anything else (another key, a wrong type, a null, a citation, a document); the careful
decoders of ``_request.py`` and ``_parts.py`` then handle that message or block list, with every
wire detail and a DecodeError naming the path of anything malformed. Wherever these answer, both
give the same IR: the same values, number types and set fields (``test_fast_decode.py`` checks the
real corpus, the golden fixtures, the benchmark transcript and generated IR and wire).

A declined message may already have recorded some of its tool_use names in ``ctx``; the careful
decoder records the very same names again, so the result does not depend on where a fast read
gave up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interlingua import (
    Base64Source,
    CacheControl,
    ContentPart,
    Image,
    Message,
    Native,
    ProviderEcho,
    RedactedThinking,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
)
from interlingua.kit import maker

from ._parts import PROVIDER, Block, Context

_MESSAGE = frozenset({"role", "content"})
_ROLES = frozenset({"user", "assistant", "system"})
_PLAIN_TEXT = frozenset({"type", "text"})
_TEXT = frozenset({"type", "text", "cache_control"})
_IMAGE = frozenset({"type", "source", "cache_control"})
_BASE64 = frozenset({"type", "media_type", "data"})
_URL = frozenset({"type", "url"})
_THINKING = frozenset({"type", "thinking", "signature"})
_REDACTED = frozenset({"type", "data"})
_TOOL_USE = frozenset({"type", "id", "name", "input"})
_TOOL_RESULT = frozenset({"type", "tool_use_id", "content", "is_error", "cache_control"})
_TTLS = (None, "5m", "1h")
STRING = "content_string"
"""The message echo's key saying the wire sent ``content`` as a bare string (read on encode)."""

_NO_MARK = object()
"""What ``_cache_control`` returns for a mark it does not read (the careful reader decides)."""

# Every shape built here, each a constructor made once (``maker``): a third cheaper than
# ``construct``, with the same fields set (defaults passed by name stay set).
_echo = maker(ProviderEcho, "provider", "data", "model")
_message = maker(Message, "role", "parts", "id", "name", "provider_echoes")
_text = maker(Text, "text", "citations", "cache_control", "provider_echoes")
_mark = maker(CacheControl, "ttl")
_base64 = maker(Base64Source, "media_type", "data")
_url = maker(UrlSource, "url", "media_type")
_image = maker(Image, "source", "cache_control", "provider_echoes")
_thinking = maker(Thinking, "text", "cache_control", "provider_echoes")
_redacted = maker(RedactedThinking, "provider_echoes")
_tool_use = maker(ToolUse, "id", "name", "input", "raw_input", "provider_echoes")
_tool_result = maker(ToolResult, "tool_use_id", "name", "content", "is_error", "cache_control", "provider_echoes")
_native = maker(Native, "provider", "data")


def decode_message(raw: Any, ctx: Context) -> Message | None:
    """``{"role": "user" | "assistant" | "system", "content": ...}`` with string or common content."""
    if type(raw) is not dict or raw.keys() != _MESSAGE:
        return None
    role = raw["role"]
    if type(role) is not str or role not in _ROLES:
        return None
    content = raw["content"]
    echoes: list[ProviderEcho] = []
    if type(content) is str:
        parts: list[ContentPart] = [_text(text=content, citations=[], cache_control=None, provider_echoes=[])]
        echoes = [_echo(provider=PROVIDER, data={STRING: True}, model=None)]
    elif type(content) is list:
        blocks = decode_blocks(content, ctx)
        if blocks is None:
            return None
        parts = blocks
    else:
        return None
    return _message(role=role, parts=parts, id=None, name=None, provider_echoes=echoes)


def decode_blocks(items: list[Any], ctx: Context) -> list[ContentPart] | None:
    """Every block of a content list, or None when any one of them is not a common shape."""
    parts: list[ContentPart] = []
    for block in items:
        if type(block) is not dict:
            return None
        kind = block.get("type")
        if type(kind) is not str or kind in _CAREFUL:
            return None
        decoder = _DECODERS.get(kind)
        part = _native(provider=PROVIDER, data=dict(block)) if decoder is None else decoder(block, ctx)
        if part is None:
            return None
        parts.append(part)
    return parts


def _cache_control(block: Block) -> Any:
    """The block's mark as the careful reader makes it, or ``_NO_MARK`` for one it must judge."""
    mark = block.get("cache_control")
    if mark is None:
        return None
    if type(mark) is not dict:
        return _NO_MARK
    ttl = mark.get("ttl")
    if ttl is not None and (type(ttl) is not str or ttl not in _TTLS):
        return _NO_MARK
    return _mark(ttl=ttl)


def _decode_text(block: Block, ctx: Context) -> ContentPart | None:
    text = block.get("text")
    if type(text) is not str:
        return None
    if block.keys() == _PLAIN_TEXT:
        return _text(text=text, citations=[], cache_control=None, provider_echoes=[])
    if not block.keys() <= _TEXT:
        return None
    mark = _cache_control(block)
    if mark is _NO_MARK:
        return None
    return _text(text=text, citations=[], cache_control=mark, provider_echoes=[])


def _decode_image(block: Block, ctx: Context) -> ContentPart | None:
    source = block.get("source")
    if type(source) is not dict or not block.keys() <= _IMAGE:
        return None
    kind = source.get("type")
    made: Base64Source | UrlSource
    if kind == "base64" and source.keys() == _BASE64:
        media_type, data = source["media_type"], source["data"]
        if type(media_type) is not str or type(data) is not str:
            return None
        made = _base64(media_type=media_type, data=data)
    elif kind == "url" and source.keys() == _URL and type(url := source["url"]) is str:
        made = _url(url=url, media_type=None)
    else:
        return None
    mark = _cache_control(block)
    if mark is _NO_MARK:
        return None
    return _image(source=made, cache_control=mark, provider_echoes=[])


def _decode_thinking(block: Block, ctx: Context) -> ContentPart | None:
    """A signed thinking block (no cache mark: the API takes none on thinking)."""
    text, signature = block.get("thinking"), block.get("signature")
    if type(text) is not str or type(signature) is not str or block.keys() != _THINKING:
        return None
    echo = _echo(provider=PROVIDER, data={"signature": signature}, model=ctx.model)
    return _thinking(text=text, cache_control=None, provider_echoes=[echo])


def _decode_redacted(block: Block, ctx: Context) -> ContentPart | None:
    data = block.get("data")
    if type(data) is not str or block.keys() != _REDACTED:
        return None
    echo = _echo(provider=PROVIDER, data={"data": data}, model=ctx.model)
    return _redacted(provider_echoes=[echo])


def _decode_tool_use(block: Block, ctx: Context) -> ContentPart | None:
    wire_id, name, tool_input = block.get("id"), block.get("name"), block.get("input")
    if type(wire_id) is not str or type(name) is not str or type(tool_input) is not dict:
        return None
    if block.keys() != _TOOL_USE:
        return None
    call_id = ctx.tool_id(wire_id)
    ctx.tool_names[call_id] = name
    return _tool_use(id=call_id, name=name, input=tool_input, raw_input=None, provider_echoes=[])


def _decode_tool_result(block: Block, ctx: Context) -> ContentPart | None:
    """A result with string or common block content. An explicit ``is_error: false`` (what the
    SDKs send) rides in the echo, so it re-encodes exactly; ``true`` is the IR's flag."""
    wire_id = block.get("tool_use_id")
    if type(wire_id) is not str or not block.keys() <= _TOOL_RESULT:
        return None
    is_error = block.get("is_error", False)
    if type(is_error) is not bool:
        return None
    echoes: list[ProviderEcho] = []
    if is_error is False and "is_error" in block:
        echoes = [_echo(provider=PROVIDER, data={"is_error": False}, model=None)]
    mark = _cache_control(block)
    if mark is _NO_MARK:
        return None
    call_id = ctx.tool_id(wire_id)
    raw = block.get("content", "")
    content: str | list[ContentPart]
    if type(raw) is str:
        content = raw
    elif type(raw) is list:
        nested = decode_blocks(raw, ctx)
        if nested is None:
            return None
        content = nested
    else:
        return None
    return _tool_result(
        tool_use_id=call_id,
        name=ctx.tool_names.get(call_id, ""),
        content=content,
        is_error=is_error,
        cache_control=mark,
        provider_echoes=echoes,
    )


_DECODERS: dict[str, Callable[[Block, Context], ContentPart | None]] = {
    "text": _decode_text,
    "image": _decode_image,
    "thinking": _decode_thinking,
    "redacted_thinking": _decode_redacted,
    "tool_use": _decode_tool_use,
    "tool_result": _decode_tool_result,
}
_CAREFUL = frozenset({"document"})
"""Known block types left to the careful decoders; any type not known there becomes Native."""
