"""Messages, both directions (cohere's ``ChatMessageV2``: user, assistant, system, tool).

- ``content`` is a string or a list of typed blocks (``text``, ``thinking``, ``image_url``,
  ``document``). A list is remembered (a ``listContent`` echo on the first part), so a body
  comes back as it was; a message from another wire is written as a list.
- An assistant's ``tool_plan`` (the plan it states before calling tools) is a ``Text`` part
  with a ``toolPlan`` echo, first in the message; its ``tool_calls`` are ``ToolUse`` parts (the
  arguments text kept in the echo when it is not the compact JSON of its object); its message
  ``citations`` ride in the echo of its first text part.
- ``thinking`` blocks are ``Thinking`` with an empty ``cohere`` echo (this wire's own).
- A ``tool`` message answers one call (``tool_call_id``) with a string (``ToolResult`` with
  text) or blocks; its name comes from the call earlier in the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interlingua import (
    Base64Source,
    ContentPart,
    Document,
    Image,
    Message,
    Native,
    ProviderEcho,
    Text,
    TextSource,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
    WarningSink,
)
from interlingua.kit import (
    arguments_text,
    article,
    data_url,
    dumps,
    expect,
    join,
    maker,
    optional,
    parse_data_url,
    require,
    tool_arguments,
    unresolved_handle,
)

PROVIDER = "cohere"
NAME = "cohere-chat"


# Each IR shape this module builds, a constructor made once (``maker``): the values are read and
# checked here, so pydantic's validation would only repeat it (a round trip costs a third less).
_echo = maker(ProviderEcho, "provider", "data")
_text = maker(Text, "text")
_echoed_text = maker(Text, "text", "provider_echoes")
_thinking = maker(Thinking, "text", "provider_echoes")
_message = maker(Message, "role", "parts")
_tool_use = maker(ToolUse, "id", "name", "input", "raw_input", "provider_echoes")
_result = maker(ToolResult, "tool_use_id", "name", "content", "provider_echoes")
_native = maker(Native, "provider", "data")


def echo(data: dict[str, Any]) -> list[ProviderEcho]:
    return [_echo(provider=PROVIDER, data=data)]


def own(part: Any) -> dict[str, Any]:
    found = part.echo(PROVIDER)
    return dict(found.data) if found is not None else {}


class Decoding:
    """One body's state: each call's tool name by id (a tool message names only the id)."""

    __slots__ = ("names",)

    def __init__(self) -> None:
        self.names: dict[str, str] = {}


def decode_message(message: dict[str, Any], at: str, ctx: Decoding) -> tuple[Message, dict[str, Any]]:
    """One message -> (IR message, fields of it the IR has no place for)."""
    role = require(message, "role", str, at)
    known = {"role", "content", "tool_calls", "tool_plan", "citations", "tool_call_id"}
    rest = {k: v for k, v in message.items() if k not in known}
    parts: list[ContentPart] = []
    if role == "assistant" and (plan := optional(message, "tool_plan", str, at)) is not None:
        parts.append(_echoed_text(text=plan, provider_echoes=echo({"toolPlan": True})))
    if role == "tool":
        call_id = require(message, "tool_call_id", str, at)
        content = message.get("content")
        body: str | list[ContentPart]
        extra: dict[str, Any] = {}
        if isinstance(content, str):
            body = content
        else:
            body = _blocks(expect(content, list, join(at, "content")), join(at, "content"))
            extra["listContent"] = True
        result = ToolResult(
            tool_use_id=call_id,
            name=ctx.names.get(call_id, ""),
            content=body,
            provider_echoes=echo(extra) if extra else [],
        )
        return Message(role="tool", parts=[result]), rest
    content = message.get("content")
    if isinstance(content, str):
        parts.append(_text(text=content))
    elif content is not None:
        blocks = _blocks(expect(content, list, join(at, "content")), join(at, "content"))
        if blocks:
            blocks[0] = blocks[0].model_copy(update={"provider_echoes": _with(blocks[0], {"listContent": True})})
        else:
            rest["_emptyContent"] = True
        parts.extend(blocks)
    elif "content" in message:
        rest["_nullContent"] = True
    citations = message.get("citations")
    if citations is not None:
        index = next((i for i, p in enumerate(parts) if isinstance(p, Text) and not own(p).get("toolPlan")), None)
        if index is None:
            rest["citations"] = citations
        else:
            parts[index] = parts[index].model_copy(
                update={"provider_echoes": _with(parts[index], {"citations": citations})}
            )
    for index, call in enumerate(expect(message.get("tool_calls") or [], list, join(at, "tool_calls"))):
        parts.append(_call(expect(call, dict, f"{at}.tool_calls[{index}]"), f"{at}.tool_calls[{index}]", ctx))
    if role == "assistant" and message.get("tool_calls") == []:
        rest["_emptyCalls"] = True
    ir_role = role if role in ("user", "assistant", "system") else "user"
    if ir_role != role:
        rest["_role"] = role
    return _message(role=ir_role, parts=parts), rest


def _with(part: ContentPart, data: dict[str, Any]) -> list[ProviderEcho]:
    return echo({**own(part), **data})


def _blocks(items: list[Any], at: str) -> list[ContentPart]:
    parts: list[ContentPart] = []
    for index, item in enumerate(items):
        where = join(at, index)
        item = expect(item, dict, where)
        kind = item.get("type")
        if kind == "text" and set(item) == {"type", "text"}:
            parts.append(_text(text=require(item, "text", str, where)))
        elif kind == "thinking" and set(item) == {"type", "thinking"}:
            parts.append(_thinking(text=require(item, "thinking", str, where), provider_echoes=echo({})))
        elif kind == "image_url" and set(item) == {"type", "image_url"} and isinstance(item["image_url"], dict):
            parts.append(_image(item["image_url"], join(where, "image_url")))
        elif kind == "document" and set(item) == {"type", "document"} and isinstance(item["document"], dict):
            document = item["document"]
            data = document.get("data")
            extras = {k: v for k, v in document.items() if k != "data"}
            source = TextSource(text=data if isinstance(data, str) else dumps(data), media_type="text/plain")
            if not isinstance(data, str):  # an object: kept as it came; its JSON text is for other wires
                extras["jsonData"] = data
            parts.append(Document(source=source, provider_echoes=echo(extras) if extras else []))
        else:
            parts.append(_native(provider=PROVIDER, data=item))
    return parts


def _image(image: dict[str, Any], at: str) -> ContentPart:
    url = require(image, "url", str, at)
    extras = {k: v for k, v in image.items() if k != "url"}
    parsed = parse_data_url(url)  # a data: URL is inline bytes, kept as base64 text
    source = UrlSource(url=url) if parsed is None else Base64Source(media_type=parsed[0], data=parsed[1])
    return Image(source=source, provider_echoes=echo(extras) if extras else [])


def _call(call: dict[str, Any], at: str, ctx: Decoding) -> ContentPart:
    call_id = require(call, "id", str, at)
    function = expect(call.get("function"), dict, join(at, "function"))
    name = require(function, "name", str, join(at, "function"))
    text = optional(function, "arguments", str, join(at, "function"), "")
    value, raw = tool_arguments(text)
    extras: dict[str, Any] = {k: v for k, v in call.items() if k not in ("id", "type", "function")}
    if call.get("type") != "function":
        extras["type"] = call.get("type")
    if raw is None and arguments_text(value, None) != text:
        extras["arguments"] = text
    ctx.names[call_id] = name
    return _tool_use(id=call_id, name=name, input=value, raw_input=raw, provider_echoes=echo(extras) if extras else [])


# --- encoding ----------------------------------------------------------------------------------


def encode_turn(message: Message, at: str, out: WarningSink, rest: dict[str, Any]) -> list[dict[str, Any]]:
    """One IR message -> Cohere messages: a ``tool`` message per tool result (this wire answers
    one call per message), then the message's other parts, if any, as one message of its role."""
    results = [(i, p) for i, p in enumerate(message.parts) if isinstance(p, ToolResult)]
    if not results:
        return [encode_message(message, at, out, rest)]
    single = len(message.parts) == 1
    wire = [_tool_message(result, f"{at}.parts[{i}]", out, rest if single else {}) for i, result in results]
    others = [(i, p) for i, p in enumerate(message.parts) if not isinstance(p, ToolResult)]
    if not others:  # a tool message has no name or id either (encode_message reports them otherwise)
        out.unsent_message_fields(message, at)
    if others:
        role = "user" if message.role == "tool" else message.role
        wire.append(encode_message(message.model_copy(update={"role": role}), at, out, {}, indexed=others))
    return wire


def encode_message(
    message: Message,
    at: str,
    out: WarningSink,
    rest: dict[str, Any],
    *,
    answer: bool = False,
    indexed: Sequence[tuple[int, ContentPart]] | None = None,
) -> dict[str, Any]:
    """One message without tool results; ``indexed``: only these of its parts, by position."""
    parts = list(enumerate(message.parts)) if indexed is None else indexed
    role = rest.pop("_role", None) or ("user" if message.role in ("developer", "tool") else message.role)
    if message.role == "developer":
        out.unsupported(f"{at}.role", "developer", "Cohere has no developer role; sent as user")
    out.unsent_message_fields(message, at)
    for index, part in parts:
        if getattr(part, "cache_control", None) is not None:
            out.lossy(f"{at}.parts[{index}].cache_control", "cache_control", "Cohere caches on its own; no breakpoints")
    wire: dict[str, Any] = {"role": role}
    plan: str | None = None
    blocks: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    citations: Any = rest.pop("citations", None)
    as_list = False
    for index, part in parts:
        where = f"{at}.parts[{index}]"
        data = own(part)
        as_list = as_list or bool(data.pop("listContent", False))
        match part:
            case Text() if data.get("toolPlan") and role == "assistant":
                plan = part.text
            case Text():
                if "citations" in data:
                    citations = data["citations"]
                elif part.citations:
                    out.lossy(f"{where}.citations", "citations", "citations are written by Cohere, not sent")
                blocks.append({"type": "text", "text": part.text})
            case Thinking():
                if part.echo(PROVIDER) is None and not answer:
                    out.lossy(where, "thinking", "another vendor's reasoning is not replayed to Cohere")
                    continue
                blocks.append({"type": "thinking", "thinking": part.text})
            case ToolUse():
                function = {
                    "name": part.name,
                    "arguments": data.pop("arguments", None) or arguments_text(part.input, part.raw_input),
                }
                call: dict[str, Any] = {"id": part.id, "type": data.pop("type", "function"), "function": function}
                call.update({k: v for k, v in data.items() if k != "citations"})
                calls.append(call)
            case Image():
                block = _encode_image(part, where, out)
                if block is not None:
                    blocks.append(block)
            case Document() if isinstance(part.source, TextSource):
                # UserMessageV2Content and the others take text and images; documents only a tool
                # message holds (ToolContent) or the request's own documents
                why = f"a Cohere {role} message takes no document; its text is sent as text"
                out.lossy(where, "document", why, action="converted")
                blocks.append({"type": "text", "text": part.source.text})
            case Native() if part.provider == PROVIDER:
                blocks.append(dict(part.data))
            case _:
                out.lossy(where, part.type, f"{article(part.type)} part has no place in a Cohere {role} message")
    if plan is not None:
        wire["tool_plan"] = plan
    if calls or rest.pop("_emptyCalls", False):
        wire["tool_calls"] = calls
    if rest.pop("_nullContent", False):
        wire["content"] = None
    elif blocks or rest.pop("_emptyContent", False):
        if not as_list and len(blocks) == 1 and blocks[0].get("type") == "text" and not answer:
            wire["content"] = blocks[0]["text"]
        else:
            wire["content"] = blocks
    if citations is not None:
        wire["citations"] = citations
    wire.update(rest)
    return wire


def _document(part: Document, source: TextSource, /) -> dict[str, Any]:
    """A text document block; its data the object it came as, where it came as one (``jsonData``),
    else ``{"text": ...}`` (Document.data is an object of strings), titled by the part's name."""
    data = own(part)
    data.pop("listContent", None)
    titled = {"title": part.name, "text": source.text} if part.name is not None else {"text": source.text}
    document: dict[str, Any] = {"data": data.pop("jsonData", titled)}
    document.update(data)
    return {"type": "document", "document": document}


def _encode_image(part: Image, at: str, out: WarningSink) -> dict[str, Any] | None:
    from interlingua import FileSource, HandleSource

    data = own(part)
    data.pop("listContent", None)
    match part.source:
        case UrlSource(url=url):
            return {"type": "image_url", "image_url": {"url": url, **data}}
        case Base64Source(media_type=media_type, data=payload):
            return {"type": "image_url", "image_url": {"url": data_url(media_type, payload), **data}}
        case HandleSource():
            raise unresolved_handle(NAME, at, part.source)
        case FileSource() | TextSource():
            out.lossy(at, "image", "Cohere takes images by URL or inline data only")
            return None


def _tool_message(result: ToolResult, at: str, out: WarningSink, rest: dict[str, Any]) -> dict[str, Any]:
    data = own(result)
    content: Any
    if isinstance(result.content, str) and not data.get("listContent"):
        content = result.content
    elif isinstance(result.content, str):
        content = [{"type": "text", "text": result.content}]
    elif isinstance(result.content, dict):
        content = dumps(result.content)  # "a JSON object string" (ToolMessageV2.content)
    else:
        content = [
            block
            for index, inner in enumerate(result.content)
            if (block := _result_block(inner, f"{at}.content[{index}]", out)) is not None
        ]
    if result.is_error:
        out.lossy(f"{at}.is_error", "tool_result", "Cohere's tool message has no error flag; the content is sent")
    wire = {"role": "tool", "tool_call_id": result.tool_use_id, "content": content}
    wire.update(rest)
    return wire


def _result_block(part: ContentPart, at: str, out: WarningSink) -> dict[str, Any] | None:
    match part:
        case Text():
            return {"type": "text", "text": part.text}
        case Document() if isinstance(part.source, TextSource):
            return _document(part, part.source)
        case Native() if part.provider == PROVIDER:
            return dict(part.data)
        case _:
            out.lossy(at, part.type, f"{article(part.type)} part has no place in a Cohere tool message")
            return None
