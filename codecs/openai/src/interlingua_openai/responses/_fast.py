"""The common messages written as input items without path bookkeeping: a measured second writer
(docs/contributing.md: the general one, ``_items.encode_message``, costs +46% instructions on the
benchmark transcript's messages, and the round trip +19% instead of +9.5%).

Most request traffic is a handful of shapes: a user, system or developer message of a string or
of plain text and image blocks, an assistant turn of plain text and function calls, a tool turn
of string results. ``encode_message`` writes exactly those and returns None for anything else (an
echo it does not know, a warning to give, a ``name`` or an ``id``); the general writer then
handles it. Both give the same items wherever this one answers (``test_responses_writers.py``
holds them to it on the real corpus, the goldens, the benchmark transcript and generated IR).
"""

from __future__ import annotations

from typing import Any

from interlingua import Base64Source, ContentPart, Image, Message, Text, ToolResult, ToolUse, UrlSource
from interlingua.kit import data_url

from .._media_types import refused_image
from .._shared import PROVIDER
from ._parts import encode_function_call

Item = dict[str, Any]

_EASY_DATA: dict[str, Any] = {"item": {}, "string": True}
_EXTRA = frozenset({"extra"})
_DETAIL = frozenset({"detail"})
_NO_DETAIL = {"omit": ["detail"]}


def _plain(part: Text) -> bool:
    """Whether a Text goes as plain text: nothing an echo, a warning or a citation would have to say."""
    return not part.provider_echoes and part.cache_control is None and not part.citations


def _encode_image(part: Image) -> Item | None:
    """An image from a data or web URL, with no echo or only the ``detail`` decode kept."""
    source = part.source
    if type(source) is Base64Source:
        if refused_image(source.media_type) is not None:
            return None  # the general writer warns and leaves it out
        url = data_url(source.media_type, source.data)
    elif type(source) is UrlSource:
        url = source.url
    else:
        return None
    block: Item = {"type": "input_image", "detail": part.detail or "auto", "image_url": url}
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
            if _plain(part):
                block = {"type": "input_text", "text": part.text}
        elif type(part) is Image and part.cache_control is None:
            block = _encode_image(part)
        if block is None:
            return None
        blocks.append(block)
    return blocks


def _encode_own(role: str, parts: list[ContentPart]) -> list[Item] | None:
    """A user, system or developer message of plain text and image parts: one message item."""
    if len(parts) == 1 and type(text := parts[0]) is Text and _plain(text):
        return [{"role": role, "content": text.text}]
    blocks = _encode_blocks(parts)
    if not blocks:
        return None
    return [{"role": role, "content": blocks}]


def _encode_tool(parts: list[ContentPart]) -> list[Item] | None:
    """A tool message of string results: one ``function_call_output`` item each."""
    items: list[Item] = []
    for part in parts:
        if type(part) is not ToolResult or part.provider_echoes or part.cache_control is not None or part.is_error:
            return None
        if type(content := part.content) is not str:
            return None
        items.append({"type": "function_call_output", "call_id": part.tool_use_id, "output": content})
    return items or None


def _easy_text(part: Text) -> bool:
    """Whether a Text goes as an EasyInputMessage: no echo, or the one decode gives it."""
    if part.cache_control is not None or part.citations:
        return False
    echoes = part.provider_echoes
    if not echoes:
        return True
    if len(echoes) != 1 or echoes[0].provider != PROVIDER:
        return False
    data = echoes[0].data
    return data == _EASY_DATA and data["string"] is True  # a flag is true only as JSON true


def _encode_assistant(parts: list[ContentPart]) -> list[Item] | None:
    """An assistant turn of texts (each an EasyInputMessage) and function calls."""
    items: list[Item] = []
    for part in parts:
        if type(part) is ToolUse:
            items.append(encode_function_call(part))
        elif type(part) is Text and _easy_text(part):
            items.append({"role": "assistant", "content": part.text})
        else:
            return None
    if not items or items[-1].get("type") == "reasoning":
        return None  # an echo that made a call a reasoning item: the general writer warns
    return items


def encode_message(message: Message) -> list[Item] | None:
    """``message`` as its input items when it has a common shape, else None (for the general
    writer). A message with an echo of its own (``instructions``, ``list``, an item's keys), a
    ``name`` or an ``id`` is never common."""
    if message.provider_echoes or message.name is not None or message.id is not None:
        return None
    role, parts = message.role, message.parts
    if role == "assistant":
        return _encode_assistant(parts)
    if role == "tool":
        return _encode_tool(parts)
    return _encode_own(role, parts)
