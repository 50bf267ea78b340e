"""pydantic-ai's persisted messages (``ModelMessagesTypeAdapter`` JSON) -> IR.

The shapes are pydantic-ai's own (``pydantic_ai/messages.py``: ``ModelRequest`` / ``ModelResponse``
by ``kind``, their parts by ``part_kind``), as ``ModelMessagesTypeAdapter.dump_json`` writes them;
the tests generate them with pydantic-ai itself. A request's parts become messages in order:
``system-prompt`` a system message, ``user-prompt`` a user message (strings, ``*-url`` and
``binary`` content, a ``cache-point`` marking the part before it), each ``tool-return`` a tool
message (an error result when its ``outcome`` is not ``success``; so is an older ``retry-prompt``
naming a tool), ``retry-feedback`` (and a ``retry-prompt`` naming no tool) a user message; a
response is an assistant message (``text``, ``thinking``, ``tool-call``, ``file``; built-in tool
calls and returns kept as native parts under ``pydantic-ai``). The latest request's
``instructions`` follow the leading system prompts, as a system message: pydantic-ai sends the
instructions of the latest request only, there ("the leading messages holding system prompts,
which is where instructions belong": the ``_caching.py`` of pydantic-ai's chat models). Timestamps, run
ids and usage are the log's own and are not read; a thinking signature is bound to the vendor that
signed it and is dropped with a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._message import Message, Role
from .._parts import (
    Audio,
    AudioOutput,
    Base64Source,
    CacheControl,
    Document,
    Image,
    ImageOutput,
    Native,
    Text,
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
from .._wire import loads, tool_arguments
from ._format import Imported, LogFormat

NAME = "pydantic-ai"
_URL_PARTS: dict[str, Any] = {"image-url": Image, "audio-url": Audio, "video-url": Video, "document-url": Document}
_MEDIA: dict[str, Any] = {"image": Image, "audio": Audio, "video": Video}
_FAILED = frozenset({"failed", "denied", "interrupted", "retried"})
"""ToolReturnPart outcomes other than ``success``: "its content is an error" (pydantic_ai/messages.py)."""


def read(data: Any) -> Imported:
    if not isinstance(data, list) and hasattr(data, "__iter__") and not isinstance(data, Mapping):
        data = list(data)
    items = expect(_as_json(data), list, "")
    out = WarningSink(NAME)
    messages: list[Message] = []
    instructions: str | None = None
    for i, item in enumerate(items):
        at = f"[{i}]"
        item = expect(item, dict, at)
        kind = require(item, "kind", str, at)
        if kind == "request":
            instructions = optional(item, "instructions", str, at) or instructions
            messages.extend(_request(item, at, out))
        elif kind == "response":
            messages.append(Message(role="assistant", parts=_response_parts(item, at, out)))
        else:
            out.lossy_decode(join(at, "kind"), f"unknown message kind {kind!r}: not read")
    if instructions:
        lead = next((i for i, message in enumerate(messages) if message.role != "system"), len(messages))
        messages.insert(lead, Message(role="system", parts=[Text(text=instructions)]))
    return Imported(Request(messages=messages), None, list(out.warnings))


def _as_json(data: Any) -> Any:
    """Messages as pydantic-ai's objects are dumped by its own adapter (imported only then)."""
    if isinstance(data, list) and data and not isinstance(data[0], Mapping):
        from pydantic_ai import ModelMessagesTypeAdapter

        return loads(ModelMessagesTypeAdapter.dump_json(data))
    return data


def _request(item: Mapping[str, Any], at: str, out: WarningSink) -> list[Message]:
    messages: list[Message] = []
    for i, part in enumerate(expect(item.get("parts") or [], list, join(at, "parts"))):
        where = f"{at}.parts[{i}]"
        part = expect(part, dict, where)
        kind = require(part, "part_kind", str, where)
        role, parts = _request_part(part, kind, where, out)
        if not parts:
            continue
        if messages and messages[-1].role == role and role != "tool":
            messages[-1] = messages[-1].model_copy(update={"parts": [*messages[-1].parts, *parts]})
        else:
            messages.append(Message(role=role, parts=parts))
    return messages


def _request_part(part: Mapping[str, Any], kind: str, at: str, out: WarningSink) -> tuple[Role, list[Any]]:
    if kind == "system-prompt":
        return "system", [Text(text=require(part, "content", str, at))]
    if kind == "user-prompt":
        return "user", _user_content(part.get("content"), join(at, "content"), out)
    if kind == "tool-return":
        content = part.get("content")
        body = content if isinstance(content, str | dict) else _json_text(content)
        name = require(part, "tool_name", str, at)
        result = ToolResult(tool_use_id=_call_id(part, at), name=name, content=body)
        failed = part.get("outcome") in _FAILED  # the outcome says the content is an error
        return "tool", [result.model_copy(update={"is_error": True}) if failed else result]
    if kind == "retry-prompt":  # pydantic-ai before 2.6x: RetryPromptPart
        return _retry(part, at)
    if kind == "retry-feedback":  # a retry that answers no tool call: the model is told in a user turn
        content = part.get("content")
        return "user", [Text(text=content if isinstance(content, str) else _json_text(content))]
    return "user", [Native(provider=NAME, data=dict(part))]


def _retry(part: Mapping[str, Any], at: str) -> tuple[Role, list[Any]]:
    """pydantic-ai's RetryPromptPart: to a tool's call, an error result; else a user message
    (its ``model_response()`` words, which pydantic-ai sends: the content, then the fix asked)."""
    content = part.get("content")
    text = content if isinstance(content, str) else _json_text(content)
    name = optional(part, "tool_name", str, at)
    if name is None:
        return "user", [Text(text=f"{text}\n\nFix the errors and try again.")]
    result = ToolResult(tool_use_id=_call_id(part, at), name=name, content=f"{text}\n\nFix the errors and try again.")
    return "tool", [result.model_copy(update={"is_error": True})]


def _call_id(part: Mapping[str, Any], at: str) -> str:
    return optional(part, "tool_call_id", str, at, "")


def _json_text(value: Any) -> str:
    from .._wire import dumps

    return dumps(value)


def _user_content(content: Any, at: str, out: WarningSink) -> list[Any]:
    if isinstance(content, str):
        return [Text(text=content)]
    parts: list[Any] = []
    for i, item in enumerate(expect(content or [], list, at)):
        where = f"{at}[{i}]"
        if isinstance(item, str):
            parts.append(Text(text=item))
            continue
        item = expect(item, dict, where)
        kind = optional(item, "kind", str, where, "")
        if kind == "cache-point":
            if parts:
                ttl = item.get("ttl") if item.get("ttl") in ("5m", "1h") else None
                parts[-1] = parts[-1].model_copy(update={"cache_control": CacheControl(ttl=ttl)})
            continue
        parts.append(_media(item, kind, where, out, output=False))
    return parts


def _media(item: Mapping[str, Any], kind: str, at: str, out: WarningSink, *, output: bool) -> Any:
    mime = optional(item, "media_type", str, at)
    if kind in _URL_PARTS:
        return _URL_PARTS[kind](source=UrlSource(url=require(item, "url", str, at), media_type=mime))
    if kind == "binary":
        source = Base64Source(media_type=mime or "application/octet-stream", data=require(item, "data", str, at))
        family = (mime or "").partition("/")[0]
        if output:
            return ImageOutput(source=source) if family != "audio" else AudioOutput(source=source)
        return _MEDIA.get(family, Document)(source=source)
    return Native(provider=NAME, data=dict(item))


def _response_parts(item: Mapping[str, Any], at: str, out: WarningSink) -> list[Any]:
    parts: list[Any] = []
    for i, part in enumerate(expect(item.get("parts") or [], list, join(at, "parts"))):
        where = f"{at}.parts[{i}]"
        part = expect(part, dict, where)
        kind = require(part, "part_kind", str, where)
        if kind == "text":
            parts.append(Text(text=require(part, "content", str, where)))
        elif kind == "thinking":
            if part.get("signature"):
                out.lossy_decode(where, "a thinking signature is bound to the vendor that signed it: not kept")
            parts.append(Thinking(text=optional(part, "content", str, where, "")))
        elif kind == "tool-call":
            parts.append(_tool_call(part, where))
        elif kind == "file":
            content = expect(part.get("content"), dict, join(where, "content"))
            parts.append(_media(content, "binary", where, out, output=True))
        else:  # builtin-tool-call, builtin-tool-return and what comes next: whole
            parts.append(Native(provider=NAME, data=dict(part)))
    return parts


def _tool_call(part: Mapping[str, Any], at: str) -> ToolUse:
    args = part.get("args")
    call = ToolUse(id=_call_id(part, at), name=require(part, "tool_name", str, at))
    if isinstance(args, str):  # as the model wrote them: read as a wire's arguments text is
        value, raw = tool_arguments(args)
        return call.model_copy(update={"input": value, "raw_input": raw})
    return call.model_copy(update={"input": expect(args or {}, dict, join(at, "args"))})


def sniff(data: Any) -> Sniffed | None:
    if not isinstance(data, list) or not data or not isinstance(data[0], Mapping):
        return None
    first = data[0]
    parts = first.get("parts")
    head = parts[0] if isinstance(parts, list) and parts else None
    if first.get("kind") in ("request", "response") and isinstance(head, Mapping) and "part_kind" in head:
        return Sniffed("request", DISTINCTIVE, "messages with 'kind' and parts with 'part_kind'")
    return None


FORMAT = LogFormat(NAME, read, sniff, "pydantic-ai messages (ModelMessagesTypeAdapter JSON)")
