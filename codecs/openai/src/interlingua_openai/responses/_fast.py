"""The common input items and messages, both directions, without path bookkeeping (PERF.md).

Most request traffic is a handful of shapes: a user, system or developer message of a string or
of plain text and image blocks, an assistant string, a function call and its string output.
These functions read and write exactly those shapes and return None for anything else (another
key, a wrong type, an echo they do not know, a warning to give); the careful functions of
``_items.py`` and ``_parts.py`` then handle it, with every wire detail and a DecodeError naming
the path of anything malformed. Both give the same result wherever the fast ones answer
(``test_responses_fast.py`` checks the real corpus and generated IR).

The writers read the fields of a message or part from its ``__dict__`` where they need several:
an attribute read on a pydantic model goes through its ``__getattr__`` hook, which CPython cannot
specialise, at about twice the cost of a dict read.
"""

from __future__ import annotations

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
from interlingua.kit import Turn, data_url, maker, parse_data_url

from .._shared import PROVIDER
from ._echo import build, echo_of
from ._parts import encode_function_call

Item = dict[str, Any]

_OWN_ROLES = frozenset({"user", "system", "developer"})
_TEXT = frozenset({"type", "text"})
_IMAGE = frozenset({"type", "image_url", "detail"})
_EASY_DATA: dict[str, Any] = {"item": {}, "string": True}
_EXTRA = frozenset({"extra"})
_DETAIL = frozenset({"detail"})
_NO_DETAIL = {"omit": ["detail"]}
_OMITTED = object()

# The shapes built most, each a constructor made once (``maker``): a third cheaper than ``build``.
_text = maker(Text, "text")
_bare_text = maker(Text, "text", "provider_echoes")
_image = maker(Image, "source", "provider_echoes")
_result = maker(ToolResult, "tool_use_id", "name", "content", "provider_echoes")
_message = maker(Message, "role", "parts", "provider_echoes")

# --- decoding ------------------------------------------------------------------------------------


def _echo(data: dict[str, Any]) -> list[ProviderEcho]:
    return [echo_of(provider=PROVIDER, data=data, model=None)]


def _decode_image(block: Item) -> Image | None:
    """``input_image`` with an ``image_url`` (data or web URL) and maybe a ``detail``."""
    url = block.get("image_url")
    if type(url) is not str or not block.keys() <= _IMAGE:
        return None
    inline = parse_data_url(url)
    source: Base64Source | UrlSource
    if inline is not None:
        source = build(Base64Source, media_type=inline[0], data=inline[1])
    else:
        source = build(UrlSource, url=url)
    detail = block.get("detail", _OMITTED)
    if detail == "auto":  # the encoder's default: no echo, as in _parts.decode_input_image
        return _image(source=source, provider_echoes=[])
    data: dict[str, Any] = {"omit": ["detail"]} if detail is _OMITTED else {"extra": {"detail": detail}}
    return _image(source=source, provider_echoes=_echo(data))


def _decode_blocks(content: list[Any]) -> list[ContentPart] | None:
    """Plain ``input_text`` and ``input_image`` blocks."""
    parts: list[ContentPart] = []
    for block in content:
        if type(block) is not dict:
            return None
        kind = block.get("type")
        part: ContentPart | None
        if kind == "input_text" and block.keys() == _TEXT and type(text := block["text"]) is str:
            part = _bare_text(text=text, provider_echoes=[])
        elif kind == "input_image":
            part = _decode_image(block)
        else:
            return None
        if part is None:
            return None
        parts.append(part)
    return parts


def decode_own_message(item: Item) -> Message | None:
    """``{"role": "user" | "system" | "developer", "content": ...}`` with a string or plain blocks."""
    role = item.get("role")
    if role not in _OWN_ROLES or len(item) != 2:
        return None  # two keys, ``role`` and (checked below) ``content``: nothing else
    content = item.get("content")
    echoes: list[ProviderEcho] = []
    if type(content) is str:
        parts: list[ContentPart] = [_text(text=content)]
    elif type(content) is list:
        blocks = _decode_blocks(content)
        if blocks is None:
            return None
        parts = blocks
        if len(parts) == 1 and type(parts[0]) is Text:
            echoes = _echo({"list": True})  # one text that came as a list stays a list
    else:
        return None
    return _message(role=role, parts=parts, provider_echoes=echoes)


def decode_assistant_string(item: Item, *, after_content: bool) -> Text | None:
    """``{"role": "assistant", "content": "..."}``: an EasyInputMessage. Plain text goes as one
    anyway; only ``after_content`` (see ``_items._Messages.after_content``) needs the echo to stay one."""
    content = item.get("content")
    if type(content) is not str or len(item) != 2 or item.get("role") != "assistant":
        return None  # two keys, ``content`` and ``role``: nothing else
    if not after_content:
        return _text(text=content)
    return _bare_text(text=content, provider_echoes=_echo({"item": {}, "string": True}))


def decode_call_output(item: Item, names: dict[str, str]) -> ToolResult | None:
    """``{"type": "function_call_output", "call_id", "output": "..."}`` and nothing more."""
    call_id, output = item.get("call_id"), item.get("output")
    if type(call_id) is not str or type(output) is not str or len(item) != 3 or "type" not in item:
        return None  # three keys, those two and ``type``: nothing else
    return _result(tool_use_id=call_id, name=names.get(call_id, ""), content=output, provider_echoes=[])


# --- encoding ------------------------------------------------------------------------------------


def _plain(fields: dict[str, Any]) -> bool:
    """A Text's fields, when it goes as plain text: nothing an echo, a warning or a citation
    would have to say."""
    return not fields["provider_echoes"] and fields["cache_control"] is None and not fields["citations"]


def _encode_image(part: Image) -> Item | None:
    """An image from a data or web URL, with no echo or only the ``detail`` decode kept."""
    source = part.source
    if type(source) is Base64Source:
        url = data_url(source.media_type, source.data)
    elif type(source) is UrlSource:
        url = source.url
    else:
        return None
    block: Item = {"type": "input_image", "detail": "auto", "image_url": url}
    echoes = part.provider_echoes
    if not echoes:
        return block
    if len(echoes) != 1 or echoes[0].provider != PROVIDER:
        return None
    data = echoes[0].data
    if data == _NO_DETAIL:
        del block["detail"]
        return block
    extra = data.get("extra")
    if data.keys() == _EXTRA and type(extra) is dict and extra.keys() == _DETAIL:
        block["detail"] = extra["detail"]
        return block
    return None


def _encode_blocks(parts: list[ContentPart]) -> list[Item] | None:
    blocks: list[Item] = []
    for part in parts:
        block: Item | None = None
        if type(part) is Text:
            if _plain(fields := part.__dict__):
                block = {"type": "input_text", "text": fields["text"]}
        elif type(part) is Image and part.cache_control is None:
            block = _encode_image(part)
        if block is None:
            return None
        blocks.append(block)
    return blocks


def _encode_own(role: str, parts: list[ContentPart]) -> list[Item] | None:
    """A user, system or developer message of plain text and image parts: one message item."""
    if len(parts) == 1 and type(text := parts[0]) is Text and _plain(fields := text.__dict__):
        return [{"role": role, "content": fields["text"]}]
    blocks = _encode_blocks(parts)
    if not blocks:
        return None
    return [{"role": role, "content": blocks}]


def _encode_tool(parts: list[ContentPart], ids: list[str]) -> list[Item] | None:
    """A tool message of string results: one ``function_call_output`` item each; their call ids
    go to ``ids``."""
    items: list[Item] = []
    for part in parts:
        if type(part) is not ToolResult:
            return None
        fields = part.__dict__
        if fields["provider_echoes"] or fields["cache_control"] is not None or fields["is_error"]:
            return None
        if type(content := fields["content"]) is not str:
            return None
        ids.append(call_id := fields["tool_use_id"])
        items.append({"type": "function_call_output", "call_id": call_id, "output": content})
    return items or None


def _easy_text(fields: dict[str, Any]) -> bool:
    """A Text's fields, when it goes as an EasyInputMessage: no echo, or the one decode gives it."""
    if fields["cache_control"] is not None or fields["citations"]:
        return False
    echoes = fields["provider_echoes"]
    if not echoes:
        return True
    if len(echoes) != 1 or echoes[0].provider != PROVIDER:
        return False
    data = echoes[0].data
    return data == _EASY_DATA and data["string"] is True  # a flag is true only as JSON true


def _encode_assistant(parts: list[ContentPart], calls: list[str]) -> list[Item] | None:
    """An assistant turn of texts (each an EasyInputMessage) and function calls, whose ids go to
    ``calls``."""
    items: list[Item] = []
    for part in parts:
        if type(part) is ToolUse:
            items.append(item := encode_function_call(part))
            calls.append(item["call_id"])
        elif type(part) is Text and _easy_text(fields := part.__dict__):
            items.append({"role": "assistant", "content": fields["text"]})
        else:
            return None
    if not items or items[-1].get("type") == "reasoning":
        return None  # an echo that made a call a reasoning item: the careful writer warns
    return items


def encode_message(message: Message, turns: list[Turn]) -> list[Item] | None:
    """``message`` as its input items when it has a common shape, else None (for the careful
    writer). A message with an echo of its own (``instructions``, ``list``, an item's keys), a
    ``name`` or an ``id`` is never common. A common message adds its ``Turn`` to ``turns``: the
    turn rules are checked from those (``turns_keep_rules``), not by walking the IR again; every
    other part taken here is one the rules of this codec keep (no reasoning, no handle, and they
    keep empty text)."""
    fields = message.__dict__  # one attribute read for five (see the module docstring)
    if fields["provider_echoes"] or fields["name"] is not None or fields["id"] is not None:
        return None
    role, parts = fields["role"], fields["parts"]
    if role != "assistant" and role != "tool":
        items = _encode_own(role, parts)
        if items is not None:
            turns.append((role, ()))
        return items
    ids: list[str] = []
    items = _encode_assistant(parts, ids) if role == "assistant" else _encode_tool(parts, ids)
    if items is not None:
        turns.append((role, ids))
    return items
