"""LangChain's persisted messages (``messages_to_dict``: ``{type, data}`` per message), with content
as a string, as v1 standard content blocks, or as the chat-completions-style blocks older messages carry
-> IR.

Shapes from langchain-core (``langchain_core/messages/base.py`` ``messages_to_dict``; the v1 blocks
in ``langchain_core/messages/content.py``: ``text``, ``reasoning``, ``tool_call``, ``image`` /
``audio`` / ``video`` / ``file`` with ``url``, ``base64`` or ``file_id``, ``text-plain``,
``server_tool_call`` / ``server_tool_result``, ``non_standard``); the tests generate them with
langchain-core itself. An AI message's ``tool_calls`` become tool calls after its content (unless
its v1 content holds them already); a tool message with ``status: "error"`` is an error result.
Ids, ``response_metadata`` and ``usage_metadata`` are the log's own and are not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._message import Message, Role
from .._parts import (
    Audio,
    Base64Source,
    Document,
    FileSource,
    Image,
    Native,
    Text,
    TextSource,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
    Video,
)
from .._read import expect, join, optional, require
from .._request import Request
from .._sniff import DISTINCTIVE, Sniffed
from .._warnings import WarningSink
from ._format import Imported, LogFormat

NAME = "langchain"
_ROLES: dict[str, Role] = {
    "system": "system",
    "human": "user",
    "ai": "assistant",
    "tool": "tool",
    "AIMessageChunk": "assistant",
    "HumanMessageChunk": "user",
}
_MEDIA: dict[str, Any] = {"image": Image, "audio": Audio, "video": Video, "file": Document}


def read(data: Any) -> Imported:
    if isinstance(data, list) and data and hasattr(data[0], "model_dump") and not isinstance(data[0], Mapping):
        from langchain_core.messages import messages_to_dict

        data = messages_to_dict(data)
    items = expect(data, list, "")
    out = WarningSink(NAME)
    messages = [_message(item, f"[{i}]", out) for i, item in enumerate(items)]
    return Imported(Request(messages=[m for m in messages if m is not None]), None, list(out.warnings))


def _message(item: Any, at: str, out: WarningSink) -> Message | None:
    item = expect(item, dict, at)
    kind = require(item, "type", str, at)
    body = expect(item.get("data"), dict, join(at, "data"))
    where = join(at, "data")
    role = _ROLES.get(kind)
    if role is None:
        out.lossy_decode(join(at, "type"), f"a {kind!r} message has no IR role: not read")
        return None
    content = body.get("content", "")
    if role == "tool":
        result = _tool_result(body, content, where, out)
        return Message(role="tool", parts=[result], name=optional(body, "name", str, where))
    parts = _content(content, join(where, "content"), out)
    if role == "assistant":
        called = {p.id for p in parts if isinstance(p, ToolUse)}
        for i, call in enumerate(expect(body.get("tool_calls") or [], list, join(where, "tool_calls"))):
            use = _tool_call(expect(call, dict, f"{where}.tool_calls[{i}]"), f"{where}.tool_calls[{i}]")
            if use.id not in called:
                parts.append(use)
    return Message(role=role, parts=parts, name=optional(body, "name", str, where))


def _tool_result(body: Mapping[str, Any], content: Any, at: str, out: WarningSink) -> ToolResult:
    value: Any = content if isinstance(content, str) else _content(content, join(at, "content"), out)
    result = ToolResult(
        tool_use_id=require(body, "tool_call_id", str, at), name=optional(body, "name", str, at, ""), content=value
    )
    if not result.name:
        out.lossy_decode(join(at, "name"), "a tool message without its tool's name")
    return result.model_copy(update={"is_error": True}) if body.get("status") == "error" else result


def _tool_call(call: Mapping[str, Any], at: str) -> ToolUse:
    return ToolUse(
        id=optional(call, "id", str, at, ""),
        name=require(call, "name", str, at),
        input=optional(call, "args", dict, at, {}),
    )


def _content(content: Any, at: str, out: WarningSink) -> list[Any]:
    if isinstance(content, str):
        return [Text(text=content)] if content else []
    parts: list[Any] = []
    for i, block in enumerate(expect(content, list, at)):
        where = f"{at}[{i}]"
        if isinstance(block, str):
            parts.append(Text(text=block))
            continue
        part = _block(expect(block, dict, where), where, out)
        if part is not None:
            parts.append(part)
    return parts


def _block(block: Mapping[str, Any], at: str, out: WarningSink) -> Any:
    """One content block; one with no IR home (a server tool's call or result, ``non_standard``)
    is kept whole as a native part under ``langchain``."""
    kind = optional(block, "type", str, at, "")
    if kind == "text":
        return Text(text=require(block, "text", str, at))
    if kind in ("reasoning", "thinking"):
        return Thinking(text=optional(block, "reasoning", str, at) or optional(block, "thinking", str, at, ""))
    if kind == "tool_call":
        return _tool_call(block, at)
    if kind == "text-plain":
        return Document(source=TextSource(text=require(block, "text", str, at)), name=optional(block, "title", str, at))
    if kind in _MEDIA:
        return _media(block, kind, at)
    if kind == "image_url":  # the chat-completions-style block older messages carry: {"image_url": {"url": ...}}
        url = block.get("image_url")
        where = join(at, "image_url")
        return Image(source=UrlSource(url=require(url, "url", str, where) if isinstance(url, dict) else str(url)))
    return Native(provider=NAME, data=dict(block))


def _media(block: Mapping[str, Any], kind: str, at: str) -> Any:
    mime = optional(block, "mime_type", str, at)
    source: Any
    if "base64" in block:
        source = Base64Source(media_type=mime or "application/octet-stream", data=require(block, "base64", str, at))
    elif "file_id" in block:
        source = FileSource(file_id=require(block, "file_id", str, at), media_type=mime)
    else:
        source = UrlSource(url=require(block, "url", str, at), media_type=mime)
    return _MEDIA[kind](source=source)


def sniff(data: Any) -> Sniffed | None:
    if not isinstance(data, list) or not data or not isinstance(data[0], Mapping):
        return None
    first = data[0]
    if first.get("type") in _ROLES and isinstance(first.get("data"), Mapping) and "content" in first["data"]:
        return Sniffed("request", DISTINCTIVE, "messages as {'type', 'data': {'content'}} (messages_to_dict)")
    return None


FORMAT = LogFormat(NAME, read, sniff, "LangChain messages_to_dict, with v1 content blocks")
