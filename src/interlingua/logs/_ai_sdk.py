"""The AI SDK's ``ModelMessage`` array (what ``response.messages`` holds and apps persist) -> IR.

Shapes from the AI SDK reference (https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message;
``ai`` ``src/prompt/content-part.ts``, ``src/prompt/create-tool-model-output.ts``): a message is
``{role, content}``, content a string or parts: ``text`` (``text``), ``reasoning`` (``text``),
``image`` (``image``: a URL, a data URL or base64; ``mediaType``), ``file`` (``data``,
``mediaType``, ``filename``), ``tool-call`` (``toolCallId``, ``toolName``, ``input``) and
``tool-result`` (``toolCallId``, ``toolName``, ``output``: ``{type: text | json | error-text |
error-json | content, value}``). A whole file ``{"messages": [...]}`` is read too. Other part
types (``tool-approval-request``, ...) are kept whole as native parts under ``ai-sdk``;
``providerOptions`` are the app's settings per provider and are reported, not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._errors import DecodeError
from .._message import ROLES, Message
from .._parts import Audio, Base64Source, Document, Image, Native, Text, Thinking, ToolResult, ToolUse, UrlSource, Video
from .._read import expect, join, optional, require
from .._request import Request
from .._sniff import Sniffed
from .._warnings import WarningSink
from .._wire import dumps
from ._format import Imported, LogFormat

NAME = "ai-sdk"
_MEDIA: dict[str, Any] = {"image": Image, "audio": Audio, "video": Video}
_SIGNS = ("tool-call", "tool-result", "toolCallId", "mediaType", "providerOptions")


def read(data: Any) -> Imported:
    if isinstance(data, Mapping) and "messages" in data:
        data = data["messages"]
    items = expect(data, list, "")
    out = WarningSink(NAME)
    messages = [_message(item, f"[{i}]", out) for i, item in enumerate(items)]
    return Imported(Request(messages=messages), None, list(out.warnings))


def _message(item: Any, at: str, out: WarningSink) -> Message:
    item = expect(item, dict, at)
    role = require(item, "role", str, at)
    if role not in ROLES:
        raise DecodeError(NAME, join(at, "role"), f"unknown role {role!r}")
    if item.get("providerOptions"):
        out.lossy_decode(join(at, "providerOptions"), "per-provider message options are not read")
    content = item.get("content", "")
    if isinstance(content, str):
        return Message(role=role, parts=[Text(text=content)] if content else [])
    blocks = expect(content, list, join(at, "content"))
    parts = [_part(expect(p, dict, f"{at}.content[{i}]"), f"{at}.content[{i}]", out) for i, p in enumerate(blocks)]
    return Message(role=role, parts=parts)


def _part(block: Mapping[str, Any], at: str, out: WarningSink) -> Any:
    kind = require(block, "type", str, at)
    if block.get("providerOptions"):
        out.lossy_decode(join(at, "providerOptions"), "per-provider part options are not read")
    if kind == "text":
        return Text(text=require(block, "text", str, at))
    if kind == "reasoning":
        return Thinking(text=optional(block, "text", str, at, ""))
    if kind == "tool-call":
        arguments = block.get("input", block.get("args"))
        return ToolUse(
            id=require(block, "toolCallId", str, at),
            name=require(block, "toolName", str, at),
            input=expect(arguments if arguments is not None else {}, dict, join(at, "input")),
        )
    if kind == "tool-result":
        return _tool_result(block, at, out)
    if kind == "image":
        return _media(require(block, "image", str, at), optional(block, "mediaType", str, at), at, "image")
    if kind == "file":
        mime = optional(block, "mediaType", str, at) or optional(block, "mimeType", str, at)
        return _media(require(block, "data", str, at), mime, at, "file", optional(block, "filename", str, at))
    return Native(provider=NAME, data=dict(block))


def _tool_result(block: Mapping[str, Any], at: str, out: WarningSink) -> ToolResult:
    output = block.get("output")
    content: Any
    error = False
    if isinstance(output, Mapping) and "type" in output:
        kind, value = output.get("type"), output.get("value")
        error = kind in ("error-text", "error-json")
        if kind == "content" and isinstance(value, list):
            where = f"{at}.output.value"
            content = [_part(expect(p, dict, f"{where}[{i}]"), f"{where}[{i}]", out) for i, p in enumerate(value)]
        else:
            content = value if isinstance(value, str | dict) else dumps(value)
    else:  # AI SDK 4's ``result``: the tool's value as it returned it
        value = block.get("result", output)
        content = value if isinstance(value, str | dict) else dumps(value)
        error = bool(block.get("isError"))
    call_id, name = require(block, "toolCallId", str, at), require(block, "toolName", str, at)
    result = ToolResult(tool_use_id=call_id, name=name, content=content)
    return result.model_copy(update={"is_error": True}) if error else result


def _media(value: str, mime: str | None, at: str, kind: str, name: str | None = None) -> Any:
    """A URL, a data URL, or bare base64 (the AI SDK takes all three)."""
    if value.startswith("data:") and ";base64," in value:
        head, _, data = value.partition(";base64,")
        source: Any = Base64Source(media_type=mime or head[5:] or "application/octet-stream", data=data)
    elif value.startswith(("http://", "https://", "gs://", "s3://")):
        source = UrlSource(url=value, media_type=mime)
    else:
        source = Base64Source(media_type=mime or "application/octet-stream", data=value)
    family = (source.media_type or "").partition("/")[0]
    if kind == "image" or family == "image":
        return Image(source=source)
    if family in _MEDIA:
        return _MEDIA[family](source=source)
    return Document(source=source, name=name)


def sniff(data: Any) -> Sniffed | None:
    """Role-and-content messages; hyphenated part types and camelCase keys are the AI SDK's own,
    one sign each (a plain ``[{role, content: "..."}]`` fits other message lists too). A
    ``{"messages": [...]}`` object is claimed only on those signs: without them it is a chat body."""
    wrapped = isinstance(data, Mapping)
    if isinstance(data, Mapping):
        data = data.get("messages")
    if not isinstance(data, list) or not data or not all(isinstance(m, Mapping) and "role" in m for m in data):
        return None
    if not all("content" in m for m in data):
        return None
    text = dumps(data)
    signs = [sign for sign in _SIGNS if f'"{sign}"' in text]
    if wrapped and not signs:
        return None
    reason = "role and content messages" + (f" with {', '.join(repr(s) for s in signs)}" if signs else "")
    return Sniffed("request", 1.0 + len(signs), reason)


FORMAT = LogFormat(NAME, read, sniff, "AI SDK ModelMessage arrays")
