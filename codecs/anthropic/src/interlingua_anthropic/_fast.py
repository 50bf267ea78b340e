"""The common request messages and content blocks, both directions, without path bookkeeping
(PERF.md).

An agent transcript is almost all a handful of shapes: a ``{"role", "content"}`` message whose
content is a string or a list of plain text, image, thinking, tool_use and tool_result blocks.
These functions read exactly those shapes, checking every value's type as they go, and return
None for anything else (another key, a wrong type, a null, a citation, a document); the careful
decoders of ``_request.py`` and ``_parts.py`` then handle that message or block list, with every
wire detail and a DecodeError naming the path of anything malformed. Wherever these answer, both
give the same IR: the same values, number types and set fields (``test_fast_decode.py`` checks the
real corpus, the golden fixtures, the benchmark transcript and generated IR and wire).

The tool_use names a read meets go to ``ctx`` only when the whole block list is taken: a declined
read leaves ``ctx`` as it found it, so the careful decoder meets each name in its own order (had
a declined read recorded them, a result before its call in the same message would have taken the
call's name, which the careful decoder does not give it).

The writer (``encode_message``) is the same idea the other way: a message of plain text, images,
calls, string results and signed thinking becomes its blocks, or None for anything an echo, a
warning or a rule would have a say in; ``_request._encode_messages`` then writes that message
part by part (``test_fast_encode.py`` holds the two to the same bodies and warnings).
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
from interlingua.kit import Turn, maker

from ._parts import IMAGE_TYPES, PROVIDER, Block, Context, encode_cache_control

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


Names = dict[str, str]
"""The tool_use names a read has met so far (call id -> name), recorded in ``ctx`` once it is taken."""


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
        names: Names = {}
        blocks = _decode_blocks(content, ctx, names)  # decode_blocks written out: one call less a message
        if blocks is None:
            return None
        if names:
            ctx.tool_names.update(names)
        parts = blocks
    else:
        return None
    return _message(role=role, parts=parts, id=None, name=None, provider_echoes=echoes)


def decode_blocks(items: list[Any], ctx: Context) -> list[ContentPart] | None:
    """Every block of a content list, or None when any one of them is not a common shape."""
    names: Names = {}
    parts = _decode_blocks(items, ctx, names)
    if parts is not None and names:
        ctx.tool_names.update(names)
    return parts


def _decode_blocks(items: list[Any], ctx: Context, names: Names) -> list[ContentPart] | None:
    parts: list[ContentPart] = []
    for block in items:
        if type(block) is not dict:
            return None
        kind = block.get("type")
        if type(kind) is not str or kind in _CAREFUL:
            return None
        decoder = _DECODERS.get(kind)
        part = _native(provider=PROVIDER, data=dict(block)) if decoder is None else decoder(block, ctx, names)
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


def _decode_text(block: Block, ctx: Context, names: Names) -> ContentPart | None:
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


def _decode_image(block: Block, ctx: Context, names: Names) -> ContentPart | None:
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


def _decode_thinking(block: Block, ctx: Context, names: Names) -> ContentPart | None:
    """A signed thinking block (no cache mark: the API takes none on thinking)."""
    text, signature = block.get("thinking"), block.get("signature")
    if type(text) is not str or type(signature) is not str or block.keys() != _THINKING:
        return None
    echo = _echo(provider=PROVIDER, data={"signature": signature}, model=ctx.model)
    return _thinking(text=text, cache_control=None, provider_echoes=[echo])


def _decode_redacted(block: Block, ctx: Context, names: Names) -> ContentPart | None:
    data = block.get("data")
    if type(data) is not str or block.keys() != _REDACTED:
        return None
    echo = _echo(provider=PROVIDER, data={"data": data}, model=ctx.model)
    return _redacted(provider_echoes=[echo])


def _decode_tool_use(block: Block, ctx: Context, names: Names) -> ContentPart | None:
    wire_id, name, tool_input = block.get("id"), block.get("name"), block.get("input")
    if type(wire_id) is not str or type(name) is not str or type(tool_input) is not dict:
        return None
    if block.keys() != _TOOL_USE:
        return None
    call_id = ctx.tool_id(wire_id)
    names[call_id] = name
    return _tool_use(id=call_id, name=name, input=tool_input, raw_input=None, provider_echoes=[])


def _decode_tool_result(block: Block, ctx: Context, names: Names) -> ContentPart | None:
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
        nested = _decode_blocks(raw, ctx, names)
        if nested is None:
            return None
        content = nested
    else:
        return None
    return _tool_result(
        tool_use_id=call_id,
        name=names[call_id] if call_id in names else ctx.tool_names.get(call_id, ""),
        content=content,
        is_error=is_error,
        cache_control=mark,
        provider_echoes=echoes,
    )


_DECODERS: dict[str, Callable[[Block, Context, Names], ContentPart | None]] = {
    "text": _decode_text,
    "image": _decode_image,
    "thinking": _decode_thinking,
    "redacted_thinking": _decode_redacted,
    "tool_use": _decode_tool_use,
    "tool_result": _decode_tool_result,
}
_CAREFUL = frozenset({"document"})
"""Known block types left to the careful decoders; any type not known there becomes Native."""


# --- encoding ------------------------------------------------------------------------------------

Marks = list[tuple[Block, str]]
"""The cache marks written, each with the IR path of its part (``Encoder.cache_marks``)."""

_STRING_ECHO = {STRING: True}
_SIGNATURE = frozenset({"signature"})
_DATA = frozenset({"data"})
_CALLER_ROLES = frozenset({"user", "tool"})


def encode_message(message: Message, index: int, turns: list[Turn], marks: Marks) -> tuple[bool, list[Block]] | None:
    """``message`` (at ``messages[index]``) as its blocks when every part has a common shape,
    with whether its content went as a bare string (decode's message echo says so); None for
    anything else, which the careful writer takes. A message taken notes its ``Turn`` in
    ``turns``: a user or tool message of results only as a ``tool`` turn, as the turn rules read
    it. Every part taken is one the rules of this codec keep as it is: non-empty text (they drop
    empty text), thinking Claude signed; call ids are the turn check's to judge."""
    fields = message.__dict__  # one attribute read for five (see the decoders above)
    if fields["name"] is not None or fields["id"] is not None or not (parts := fields["parts"]):
        return None
    string = False
    if echoes := fields["provider_echoes"]:
        if len(echoes) != 1 or echoes[0].provider != PROVIDER or echoes[0].data != _STRING_ECHO:
            return None
        string = echoes[0].data[STRING] is True  # 1 == True: only JSON true says "a string"
        if not string:
            return None
    role = fields["role"]
    ids: list[str] = []
    marked: list[int] = []
    if role == "assistant":
        blocks = _assistant_blocks(parts, ids)
    elif role in _CALLER_ROLES or role == "system":
        blocks = _caller_blocks(parts, ids, marked, text_only=role == "system")
        if blocks is not None and ids:
            if len(ids) != len(parts):
                return None  # results beside other blocks: the turn rules read those from the IR
            role = "tool"
        elif role == "tool":
            return None  # a tool message holds results (a ``tool`` turn holds at least one)
    else:
        return None  # developer: sent as system, with a warning
    if blocks is None:
        return None
    turns.append((role, ids))
    if marked:
        marks += [(blocks[j], f"messages[{index}].parts[{j}]") for j in marked]
    return string, blocks


def _assistant_blocks(parts: list[ContentPart], calls: list[str]) -> list[Block] | None:
    """Plain text, calls with object input, and thinking Claude signed; call ids go to ``calls``."""
    blocks: list[Block] = []
    for part in parts:
        fields = part.__dict__
        kind = type(part)
        if kind is Text:
            if not _plain_text(fields):
                return None
            blocks.append({"type": "text", "text": fields["text"]})
        elif kind is ToolUse:
            if fields["provider_echoes"] or fields["raw_input"] is not None:
                return None
            calls.append(call_id := fields["id"])
            blocks.append({"type": "tool_use", "id": call_id, "name": fields["name"], "input": fields["input"]})
        elif kind is Thinking or kind is RedactedThinking:
            block = _signed_thinking(fields) if kind is Thinking else _redacted_block(fields)
            if block is None:
                return None
            blocks.append(block)
        else:
            return None
    return blocks


def _caller_blocks(
    parts: list[ContentPart], results: list[str], marked: list[int], *, text_only: bool
) -> list[Block] | None:
    """Text, images and string results, each maybe with a cache mark; the call ids the results
    answer go to ``results``, the indexes of the marked blocks to ``marked`` (for the caller to
    list once it takes the message). ``text_only``: a system prompt, which holds only text."""
    blocks: list[Block] = []
    for j, part in enumerate(parts):
        fields = part.__dict__
        kind = type(part)
        block: Block | None
        if kind is Text:
            block = {"type": "text", "text": fields["text"]} if _plain_text(fields, marked=True) else None
        elif text_only:
            return None
        elif kind is ToolResult:
            block = _result_block(fields)
            if block is not None:
                results.append(fields["tool_use_id"])
        elif kind is Image:
            block = _image_block(fields)
        else:
            return None
        if block is None:
            return None
        if (mark := fields["cache_control"]) is not None:
            block["cache_control"] = encode_cache_control(mark)
            marked.append(j)
        blocks.append(block)
    return blocks


def _plain_text(fields: dict[str, Any], *, marked: bool = False) -> bool:
    """A Text's fields, when it is a plain non-empty text block (a cache mark only if ``marked``)."""
    if fields["provider_echoes"] or fields["citations"] or not fields["text"]:
        return False
    return marked or fields["cache_control"] is None


_IS_ERROR_FALSE = {"is_error": False}


def _result_block(fields: dict[str, Any]) -> Block | None:
    """A ToolResult's fields as a block, when its content is a string and it has no echo but
    the explicit ``is_error: false`` decode keeps (what the SDKs send)."""
    content = fields["content"]
    if type(content) is not str:
        return None
    block: Block = {"type": "tool_result", "tool_use_id": fields["tool_use_id"]}
    if content:
        block["content"] = content
    is_error = fields["is_error"]
    if echoes := fields["provider_echoes"]:
        if is_error or len(echoes) != 1 or echoes[0].provider != PROVIDER or echoes[0].data != _IS_ERROR_FALSE:
            return None
        if echoes[0].data["is_error"] is not False:  # 0 == False: only JSON false is that echo
            return None
        block["is_error"] = False
    elif is_error:
        block["is_error"] = True
    return block


def _image_block(fields: dict[str, Any]) -> Block | None:
    """An Image's fields as a block: inline data of a type the API takes, or a URL; no echo."""
    if fields["provider_echoes"]:
        return None
    source = fields["source"]
    if type(source) is Base64Source and source.media_type in IMAGE_TYPES:
        wire: Block = {"type": "base64", "media_type": source.media_type, "data": source.data}
    elif type(source) is UrlSource:
        wire = {"type": "url", "url": source.url}
    else:
        return None
    return {"type": "image", "source": wire}


def _own_echo(fields: dict[str, Any], keys: frozenset[str]) -> dict[str, Any] | None:
    """The data of a part's one echo when it is Anthropic's and holds exactly ``keys``."""
    echoes = fields["provider_echoes"]
    if len(echoes) != 1 or echoes[0].provider != PROVIDER:
        return None
    data: dict[str, Any] = echoes[0].data
    return data if data.keys() == keys else None


def _redacted_block(fields: dict[str, Any]) -> Block | None:
    """A RedactedThinking's fields as a block, when its one echo is the ``data`` decode kept."""
    data = _own_echo(fields, _DATA)
    if data is None or type(redacted := data["data"]) is not str:
        return None
    return {"type": "redacted_thinking", "data": redacted}


def _signed_thinking(fields: dict[str, Any]) -> Block | None:
    """A Thinking's fields as a block, when its one echo is the signature decode kept."""
    data = _own_echo(fields, _SIGNATURE)
    if data is None or type(signature := data["signature"]) is not str or fields["cache_control"] is not None:
        return None
    return {"type": "thinking", "thinking": fields["text"], "signature": signature}
