"""The common message shapes, both directions, without path bookkeeping (PERF.md).

Most traffic is a handful of shapes: a string from the system or the user, text and image parts,
a tool message with a string, an assistant turn of text and tool calls. These functions read and
write exactly those shapes and return None for anything else (another key, a wrong type, an echo,
a warning to give); the careful functions of ``_messages.py`` then handle it, with every wire
detail and a DecodeError naming the path of anything malformed. Both give the same result on what
the fast ones accept (``test_fast.py`` checks every fixture).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interlingua import (
    Base64Source,
    ContentPart,
    Image,
    Message,
    ProviderEcho,
    Text,
    ToolResult,
    ToolUse,
    UrlSource,
)
from interlingua.kit import data_url, maker, tool_arguments

from ._echo import OMIT, Ctx, echo_list
from ._parts import Block, call_arguments, encode_tool_call, respelled, url_source

_PLAIN = frozenset({"role", "content", "name"})
_TOOL = frozenset({"role", "content", "tool_call_id"})
_ASSISTANT = frozenset({"role", "content", "tool_calls"})
_CALL = frozenset({"id", "type", "function"})
_FUNCTION = frozenset({"name", "arguments"})
_IMAGE = frozenset({"type", "image_url"})
_TEXT = frozenset({"type", "text"})
_KEPT_ARGUMENTS = frozenset({"_arguments"})
_ANSWER = frozenset({"role", "content", "refusal", "audio", "tool_calls", "annotations"})

# The shapes built most, each a constructor made once (``maker``): a third cheaper than ``build``.
_echo_of = maker(ProviderEcho, "provider", "data", "model")
_text = maker(Text, "text")
_bare_text = maker(Text, "text", "provider_echoes")
_image = maker(Image, "source", "provider_echoes")
_result = maker(ToolResult, "tool_use_id", "name", "content")
_call = maker(ToolUse, "id", "name", "input", "raw_input", "provider_echoes")
_message = maker(Message, "role", "parts", "name", "provider_echoes")
_answer = maker(Message, "role", "parts", "provider_echoes")

# --- decoding ------------------------------------------------------------------------------------


def _list_echo(ctx: Ctx) -> list[ProviderEcho]:
    """The careful decoder's ``_list`` flag: one text part that came as an array."""
    return [_echo_of(provider=ctx.provider, data={"_list": True}, model=None)]


def _decode_block(block: Any) -> ContentPart | None:
    if type(block) is not dict:
        return None
    kind = block.get("type")
    if kind == "text" and block.keys() == _TEXT and type(text := block["text"]) is str:
        return _bare_text(text=text, provider_echoes=[])
    if kind == "image_url" and block.keys() == _IMAGE:
        image = block["image_url"]
        if type(image) is dict and image.keys() == {"url"} and type(url := image["url"]) is str:
            return _image(source=url_source(url), provider_echoes=[])
    return None


def _decode_plain(item: Block, ctx: Ctx) -> Message | None:
    """System, developer and user messages of a string or of text and image parts."""
    if not item.keys() <= _PLAIN:
        return None
    name = item.get("name")
    content = item.get("content")
    if (name is not None and type(name) is not str) or not content:
        return None
    echoes: list[ProviderEcho] = []
    if type(content) is str:
        parts: list[ContentPart] = [_text(text=content)]
    elif type(content) is list:
        parts = []
        for block in content:
            part = _decode_block(block)
            if part is None:
                return None
            parts.append(part)
        if len(parts) == 1 and type(parts[0]) is Text:
            echoes = _list_echo(ctx)
    else:
        return None
    return _message(role=item["role"], parts=parts, name=name, provider_echoes=echoes)


def _decode_tool(item: Block, ctx: Ctx) -> Message | None:
    """A tool message whose content is a string."""
    if item.keys() != _TOOL:
        return None
    wire_id, content = item["tool_call_id"], item["content"]
    if type(wire_id) is not str or type(content) is not str:
        return None
    result = _result(tool_use_id=ctx.ids.decode(wire_id), name=ctx.names.get(wire_id, ""), content=content)
    return _message(role="tool", parts=[result], name=None, provider_echoes=[])


def decode_call(call: Any, ctx: Ctx) -> ToolUse | None:
    """``{"id", "type": "function", "function": {"name", "arguments"}}`` and nothing more."""
    if type(call) is not dict or call.keys() != _CALL or call["type"] != "function":
        return None
    wire_id, function = call["id"], call["function"]
    if type(wire_id) is not str or type(function) is not dict or function.keys() != _FUNCTION:
        return None
    name, text = function["name"], function["arguments"]
    if type(name) is not str or type(text) is not str:
        return None
    value, raw = tool_arguments(text)
    echoes: list[ProviderEcho] = []
    if raw is None and text and respelled(value, text):
        echoes.append(_echo_of(provider=ctx.provider, data={"_arguments": text}, model=None))
    ctx.names[wire_id] = name
    return _call(id=ctx.ids.decode(wire_id), name=name, input=value, raw_input=raw, provider_echoes=echoes)


def decode_calls(calls: Any, ctx: Ctx, parts: list[ContentPart]) -> bool:
    """Append the tool calls to ``parts``; False (``parts`` then unusable) at any other shape."""
    if type(calls) is not list or not calls:
        return False
    for call in calls:
        part = decode_call(call, ctx)
        if part is None:
            return False
        parts.append(part)
    return True


def _string_content(content: Any) -> list[ContentPart] | None:
    """An assistant's content as parts: a non-empty string is one text, null is none; anything
    else is not a shape the fast readers take."""
    if type(content) is str and content:
        return [_text(text=content)]
    return [] if content is None else None


def _decode_assistant(item: Block, ctx: Ctx) -> Message | None:
    """An assistant turn of a (non-empty) string and tool calls."""
    if not item.keys() <= _ASSISTANT:
        return None
    parts = _string_content(item.get("content"))
    if parts is None:
        return None
    if "tool_calls" in item and not decode_calls(item["tool_calls"], ctx, parts):
        return None
    return _message(role="assistant", parts=parts, name=None, provider_echoes=[])


def decode_answer(item: Any, ctx: Ctx) -> Message | None:
    """A response's message of a string and tool calls; nulls are absent keys there (no refusal,
    audio, reasoning or citations: those go to the careful decoder)."""
    if type(item) is not dict or any(item[key] is not None for key in item.keys() - _ANSWER):
        return None
    parts = _string_content(item.get("content"))
    if parts is None:
        return None
    if item.get("refusal") is not None or item.get("audio") is not None:
        return None
    if "tool_calls" in item and not decode_calls(item["tool_calls"], ctx, parts):
        return None
    annotations = item.get("annotations")
    if annotations is None:
        data: dict[str, Any] = {OMIT: ["annotations"]} if ctx.dialect.annotations else {}
    elif annotations == []:
        data = {} if ctx.dialect.annotations else {"annotations": []}
    else:
        return None
    return _answer(role="assistant", parts=parts, provider_echoes=echo_list(ctx.provider, data))


_DECODERS: dict[str, Callable[[Block, Ctx], Message | None]] = {
    "system": _decode_plain,
    "developer": _decode_plain,
    "user": _decode_plain,
    "tool": _decode_tool,
    "assistant": _decode_assistant,
}


def decode_message(item: Any, ctx: Ctx) -> Message | None:
    """``item`` as a Message when it has a common shape, else None (for the careful decoder)."""
    if type(item) is not dict:
        return None
    role = item.get("role")
    decoder = _DECODERS.get(role) if type(role) is str else None
    return None if decoder is None else decoder(item, ctx)


# --- encoding ------------------------------------------------------------------------------------


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
