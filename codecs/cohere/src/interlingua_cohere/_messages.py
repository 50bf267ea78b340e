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

from collections.abc import Callable, Sequence
from typing import Any

from interlingua import (
    AudioOutput,
    Base64Source,
    Citation,
    CitationSource,
    ContentPart,
    DecodeError,
    Document,
    Image,
    ImageOutput,
    Message,
    Native,
    ProviderEcho,
    RedactedThinking,
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

from ._media_types import MEDIA_TYPES

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
_echoed_native = maker(Native, "provider", "data", "provider_echoes")
_base64 = maker(Base64Source, "media_type", "data")
_url = maker(UrlSource, "url")
_text_source = maker(TextSource, "text", "media_type")
_image = maker(Image, "source", "provider_echoes")
_document_part = maker(Document, "source", "provider_echoes")


def echo(data: dict[str, Any]) -> list[ProviderEcho]:
    return [_echo(provider=PROVIDER, data=data)]


def own(part: Any) -> dict[str, Any]:
    """A copy of this codec's echo data on ``part`` (empty without one)."""
    if not part.provider_echoes:
        return {}
    found = part.echo(PROVIDER)
    return dict(found.data) if found is not None else {}


class Decoding:
    """One body's state: each call's tool name by id (a tool message names only the id)."""

    __slots__ = ("names",)

    def __init__(self) -> None:
        self.names: dict[str, str] = {}


def within(at: str, err: DecodeError) -> DecodeError:
    """``err``, raised with a path relative to the value at ``at``, with its whole path.

    A message is read with paths relative to it (constant strings), and the loops name where a
    message sits only when it is bad: formatting ``messages[12].content[3]`` for every block
    that is fine costs more than reading it."""
    return DecodeError(err.codec, join(at, err.path) if err.path else at, err.reason)


_KNOWN = frozenset({"role", "content", "tool_calls", "tool_plan", "citations", "tool_call_id"})


def decode_message(message: dict[str, Any], ctx: Decoding) -> tuple[Message, dict[str, Any]]:
    """One message -> (IR message, fields of it the IR has no place for); read with paths
    relative to the message (``content[2].text``), which its caller places (``within``)."""
    role = require(message, "role", str, "")
    if role not in _ROLES and role != "tool":  # the v2 API's four roles: never a guess (``User``, ``bot``)
        raise DecodeError("", "role", f"unknown role {role!r}")
    rest = _rest(message, _KNOWN)
    if role == "tool":
        return _tool_result(message, ctx), rest
    parts: list[ContentPart] = []
    if role == "assistant" and (plan := optional(message, "tool_plan", str, "")) is not None:
        parts.append(_echoed_text(text=plan, provider_echoes=echo({"toolPlan": True})))
    content = message.get("content")
    if isinstance(content, str):
        parts.append(_text(text=content))
    elif content is not None:
        blocks = _blocks(content, "content", listed=True)
        if not blocks:
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
                update={
                    "provider_echoes": _with(parts[index], {"citations": citations}),
                    "citations": decode_citations(citations),
                }
            )
    calls = message.get("tool_calls")
    if calls:
        for index, call in enumerate(expect(calls, list, "tool_calls")):
            try:
                parts.append(_call(expect(call, dict, ""), ctx))
            except DecodeError as err:
                raise within(f"tool_calls[{index}]", err) from None
    elif role == "assistant" and calls == []:
        rest["_emptyCalls"] = True
    return _message(role=role, parts=parts), rest


_ROLES = frozenset({"user", "assistant", "system"})


def decode_citations(citations: Any) -> list[Citation]:
    """Cohere's citations as the IR's, so other wires read them (the wire's own list stays in the
    text's echo, which Cohere re-sends as it came). Each cites its span of the answer's text and
    its first source: a document of the request or a tool's output, both documents to Cohere
    (https://docs.cohere.com/reference/chat, ``Citation``, ``Source``); an entry of another shape
    is left to the echo."""
    found: list[Citation] = []
    for item in citations if isinstance(citations, list) else []:
        sources = item.get("sources") if isinstance(item, dict) else None
        first = sources[0] if isinstance(sources, list) and sources and isinstance(sources[0], dict) else None
        if first is None or first.get("type") not in ("document", "tool"):
            continue
        document = first.get("document")
        title = document.get("title") if isinstance(document, dict) else None
        start, end, text = item.get("start"), item.get("end"), item.get("text")
        found.append(
            Citation(
                cited_text=text if isinstance(text, str) else None,
                source=CitationSource(type="document", title=title if isinstance(title, str) else None),
                start=start if type(start) is int else None,
                end=end if type(end) is int else None,
            )
        )
    return found


def _rest(value: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The fields of ``value`` beside ``known`` (most have none: nothing is built)."""
    if value.keys() <= known:
        return {}
    return {key: item for key, item in value.items() if key not in known}


def _tool_result(message: dict[str, Any], ctx: Decoding) -> Message:
    call_id = require(message, "tool_call_id", str, "")
    content = message.get("content")
    body: str | list[ContentPart]
    extra: dict[str, Any] = {}
    if isinstance(content, str):
        body = content
    else:
        body = _blocks(content, "content")
        extra["listContent"] = True
    result = _result(
        tool_use_id=call_id,
        name=ctx.names.get(call_id, ""),
        content=body,
        provider_echoes=echo(extra) if extra else [],
    )
    return _message(role="tool", parts=[result])


def _with(part: ContentPart, data: dict[str, Any]) -> list[ProviderEcho]:
    return echo({**own(part), **data})


def _blocks(items: Any, at: str, *, listed: bool = False) -> list[ContentPart]:
    """The block list at ``at`` -> IR parts; ``listed``: a message's content, whose first part
    records that it came as a list (``listContent``)."""
    if type(items) is not list:
        items = expect(items, list, at)
    parts: list[ContentPart] = []
    for index, item in enumerate(items):
        if type(item) is not dict:
            item = expect(item, dict, f"{at}[{index}]")
        mark = _LISTED if listed and index == 0 else None
        kind = item.get("type")
        decoder = _DECODERS.get(kind) if len(item) == 2 and isinstance(kind, str) else None
        try:
            part = decoder(item, mark) if decoder is not None else None
        except DecodeError as err:
            raise within(f"{at}[{index}]", err) from None
        parts.append(part if part is not None else _native_block(item, mark))
    return parts


_LISTED: dict[str, Any] = {"listContent": True}  # never changed: echo data is built from it


def _marked(data: dict[str, Any], mark: dict[str, Any] | None) -> list[ProviderEcho]:
    return echo({**data, **mark} if mark else data) if data or mark else []


def _decode_text(item: dict[str, Any], mark: dict[str, Any] | None) -> ContentPart | None:
    if "text" not in item:
        return None
    text = require(item, "text", str, "")
    return _text(text=text) if mark is None else _echoed_text(text=text, provider_echoes=echo(dict(mark)))


def _decode_thinking(item: dict[str, Any], mark: dict[str, Any] | None) -> ContentPart | None:
    if "thinking" not in item:
        return None
    return _thinking(text=require(item, "thinking", str, ""), provider_echoes=echo(dict(mark) if mark else {}))


def _decode_image(item: dict[str, Any], mark: dict[str, Any] | None) -> ContentPart | None:
    image = item.get("image_url")
    if not isinstance(image, dict):
        return None
    url = require(image, "url", str, "image_url")
    detail = image.get("detail")
    if detail is not None and detail not in _DETAILS:  # ``HIGH``: refused, never guessed at
        raise DecodeError("", "image_url.detail", f"unknown detail {optional(image, 'detail', str, 'image_url')!r}")
    extras = {k: v for k, v in image.items() if k not in ("url", "detail")}
    parsed = parse_data_url(url)  # a data: URL is inline bytes, kept as base64 text
    source = _url(url=url) if parsed is None else _base64(media_type=parsed[0], data=parsed[1])
    part = _image(source=source, provider_echoes=_marked(extras, mark))
    return part if detail is None else part.model_copy(update={"detail": detail})


_DETAILS = ("auto", "low", "high")
"""``ImageUrl.detail`` (cohere.types): Image.detail."""


def _decode_document(item: dict[str, Any], mark: dict[str, Any] | None) -> ContentPart | None:
    document = item.get("document")
    if not isinstance(document, dict):
        return None
    data = document.get("data")
    extras = {k: v for k, v in document.items() if k != "data"}
    source = _text_source(text=data if isinstance(data, str) else dumps(data), media_type="text/plain")
    if not isinstance(data, str):  # an object: kept as it came; its JSON text is for other wires
        extras["jsonData"] = data
    return _document_part(source=source, provider_echoes=_marked(extras, mark))


def _native_block(item: dict[str, Any], mark: dict[str, Any] | None) -> ContentPart:
    if mark is None:
        return _native(provider=PROVIDER, data=item)
    return _echoed_native(provider=PROVIDER, data=item, provider_echoes=echo(dict(mark)))


_DECODERS: dict[str, Callable[[dict[str, Any], dict[str, Any] | None], ContentPart | None]] = {
    "text": _decode_text,
    "thinking": _decode_thinking,
    "image_url": _decode_image,
    "document": _decode_document,
}
"""A two-key block's ``type`` -> its decoder; a block of any other shape, or one its decoder
declines (None), is kept whole as Native."""


_CALL_KEYS = frozenset({"id", "type", "function"})


def _call(call: dict[str, Any], ctx: Decoding) -> ContentPart:
    call_id = require(call, "id", str, "")
    function = expect(call.get("function"), dict, "function")
    name = require(function, "name", str, "function")
    text = optional(function, "arguments", str, "function", "")
    value, raw = tool_arguments(text)
    extras: dict[str, Any] = _rest(call, _CALL_KEYS)
    if call.get("type") != "function":
        extras["type"] = call.get("type")
    if raw is None and arguments_text(value, None) != text:
        extras["arguments"] = text
    ctx.names[call_id] = name
    return _tool_use(id=call_id, name=name, input=value, raw_input=raw, provider_echoes=echo(extras) if extras else [])


# --- encoding ----------------------------------------------------------------------------------


def encode_turn(
    message: Message, at: str | int, out: WarningSink, rest: dict[str, Any], wire: list[dict[str, Any]]
) -> None:
    """One IR message -> Cohere messages, appended to ``wire``: a ``tool`` message per tool result
    (this wire answers one call per message), then the message's other parts, if any, as one
    message of its role. ``at``: the message's path, or its index in the request's messages."""
    parts = message.parts
    for part in parts:
        if type(part) is ToolResult:
            break
    else:  # the common case: no tool result, one wire message
        _append(wire, encode_message(message, at, out, rest), message, at, out)
        return
    rest = rest if len(parts) == 1 else {}
    others: list[tuple[int, ContentPart]] = []
    for index, part in enumerate(parts):
        if type(part) is ToolResult:
            wire.append(_tool_message(part, at, index, out, rest))
        else:
            others.append((index, part))
    if not others:  # a tool message has no name or id either (encode_message reports them otherwise)
        if message.name is not None or message.id is not None:
            out.unsent_message_fields(message, path(at))
    else:
        role = "user" if message.role == "tool" else message.role
        _append(wire, encode_message(message, at, out, {}, indexed=others, role=role), message, at, out)


def _append(
    wire: list[dict[str, Any]], block: dict[str, Any], message: Message, at: str | int, out: WarningSink
) -> None:
    """``block`` appended, unless it is a user or system message left with no content: the SDK's
    ``UserChatMessageV2`` and ``SystemChatMessageV2`` require ``content``. Its parts were each
    dropped with a warning; a message that had none is reported here."""
    if "content" in block or block["role"] not in ("user", "system"):
        wire.append(block)
        return
    if not message.parts:
        out.unsupported(path(at), "empty_turn", "Cohere refuses a user or system message with no content")


def path(at: str | int) -> str:
    """The path of the message at ``at`` (its index in the request's messages, or its path),
    spelled out only for a warning: formatting ``messages[12]`` for every message costs more
    than writing most of them."""
    return f"messages[{at}]" if isinstance(at, int) else at


_UNMARKED: frozenset[type[Any]] = frozenset({ToolUse, RedactedThinking, Native, ImageOutput, AudioOutput})
"""The part classes without a ``cache_control`` field, known by class: pydantic answers a read
of a field a model lacks with an exception and a Python ``__getattr__``."""


def encode_message(
    message: Message,
    at: str | int,
    out: WarningSink,
    rest: dict[str, Any],
    *,
    answer: bool = False,
    indexed: Sequence[tuple[int, ContentPart]] | None = None,
    role: str | None = None,
) -> dict[str, Any]:
    """One message without tool results; ``indexed``: only these of its parts, by position;
    ``role``: the IR role to write it as (default its own). ``at`` as for :func:`encode_turn`.
    Parts are found by exact class, the commonest first, and read without a copy of their echo
    unless they have one."""
    parts = list(enumerate(message.parts)) if indexed is None else indexed
    own_role = message.role if role is None else role
    wire_role = (rest.pop("_role", None) if rest else None) or (
        "user" if own_role == "developer" or own_role == "tool" else own_role
    )
    if own_role == "developer":
        out.unsupported(f"{path(at)}.role", "developer", "Cohere has no developer role; sent as user")
    if message.name is not None or message.id is not None:
        out.unsent_message_fields(message, path(at))
    for index, part in parts:
        if type(part) not in _UNMARKED and getattr(part, "cache_control", None) is not None:
            why = "Cohere caches on its own; no breakpoints"
            out.lossy(f"{path(at)}.parts[{index}].cache_control", "cache_control", why)
    wire: dict[str, Any] = {"role": wire_role}
    plan: str | None = None
    blocks: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    citations: Any = rest.pop("citations", None) if rest else None
    as_list = False
    for index, part in parts:
        data = own(part) if part.provider_echoes else {}
        if data and not as_list:
            as_list = bool(data.pop("listContent", False))
        if type(part) is Text:
            if data:
                if data.get("toolPlan") and wire_role == "assistant":
                    plan = part.text
                    continue
                if "citations" in data:
                    citations = data["citations"]
                    blocks.append({"type": "text", "text": part.text})
                    continue
            if part.citations:
                why = "citations are written by Cohere, not sent"
                out.lossy(f"{path(at)}.parts[{index}].citations", "citations", why)
            blocks.append({"type": "text", "text": part.text})
        elif type(part) is ToolUse:
            calls.append(_call_of(part, data))
        elif type(part) is Thinking:
            if not answer and part.echo(PROVIDER) is None:
                why = "another vendor's reasoning is not replayed to Cohere"
                out.lossy(f"{path(at)}.parts[{index}]", "thinking", why)
                continue
            blocks.append({"type": "thinking", "thinking": part.text})
        else:
            block = _other_block(part, data, wire_role, at, index, out)
            if block is not None:
                blocks.append(block)
    if plan is not None:
        wire["tool_plan"] = plan
    if calls or (rest and rest.pop("_emptyCalls", False)):
        wire["tool_calls"] = calls
    if rest and rest.pop("_nullContent", False):
        wire["content"] = None
    elif blocks or (rest and rest.pop("_emptyContent", False)):
        if not as_list and len(blocks) == 1 and blocks[0].get("type") == "text" and not answer:
            wire["content"] = blocks[0]["text"]
        else:
            wire["content"] = blocks
    if citations is not None:
        wire["citations"] = citations
    if rest:
        wire.update(rest)
    return wire


def _call_of(part: ToolUse, data: dict[str, Any]) -> dict[str, Any]:
    """A tool call; its arguments text as it came (echo), else the compact JSON of its input."""
    arguments = data.pop("arguments", None) or arguments_text(part.input, part.raw_input)
    function = {"name": part.name, "arguments": arguments}
    call: dict[str, Any] = {"id": part.id, "type": data.pop("type", "function"), "function": function}
    if data:
        call.update({k: v for k, v in data.items() if k != "citations"})
    return call


def _other_block(
    part: ContentPart, data: dict[str, Any], role: str, at: str | int, index: int, out: WarningSink
) -> dict[str, Any] | None:
    """A part of the less common classes -> its block, or None (with a warning)."""
    match part:
        case Image():
            return _encode_image(part, data, at, index, out)
        case Document() if isinstance(part.source, TextSource):
            # UserMessageV2Content and the others take text and images; documents only a tool
            # message holds (ToolContent) or the request's own documents
            why = f"a Cohere {role} message takes no document; its text is sent as text"
            out.lossy(f"{path(at)}.parts[{index}]", "document", why, action="converted")
            out.unsent_media_fields(part, f"{path(at)}.parts[{index}]")
            return {"type": "text", "text": part.source.text}
        case Native() if part.provider == PROVIDER:
            return dict(part.data)
        case _:
            why = f"{article(part.type)} part has no place in a Cohere {role} message"
            out.lossy(f"{path(at)}.parts[{index}]", part.type, why)
            return None


def _document(part: Document, source: TextSource, /) -> dict[str, Any]:
    """A text document block; its data the object it came as, where it came as one (``jsonData``),
    else ``{"text": ...}`` (Document.data is an object of strings), titled by the part's name."""
    data = own(part)
    data.pop("listContent", None)
    titled = {"title": part.name, "text": source.text} if part.name is not None else {"text": source.text}
    document: dict[str, Any] = {"data": data.pop("jsonData", titled)}
    document.update(data)
    return {"type": "document", "document": document}


def _encode_image(
    part: Image, data: dict[str, Any], at: str | int, index: int, out: WarningSink
) -> dict[str, Any] | None:
    """The ``index``-th part of the message at ``at``; ``data``: a copy of its echo data."""
    from interlingua import FileSource, HandleSource

    data.pop("listContent", None)
    if part.detail == "original":  # Cohere's detail has no original: the image goes at its default
        out.unsent_media_fields(part, f"{path(at)}.parts[{index}]")
    elif part.detail is not None:
        data = {"detail": part.detail, **data}
    match part.source:
        case UrlSource(url=url):
            return {"type": "image_url", "image_url": {"url": url, **data}}
        case Base64Source(media_type=media_type, data=payload):
            refused = MEDIA_TYPES["image"].refusal("Cohere", "image", media_type)
            if refused is not None:
                out.lossy(f"{path(at)}.parts[{index}]", "image", refused)
                return None
            return {"type": "image_url", "image_url": {"url": data_url(media_type, payload), **data}}
        case HandleSource():
            raise unresolved_handle(NAME, f"{path(at)}.parts[{index}]", part.source)
        case FileSource() | TextSource():
            out.lossy(f"{path(at)}.parts[{index}]", "image", "Cohere takes images by URL or inline data only")
            return None


def _tool_message(result: ToolResult, at: str | int, i: int, out: WarningSink, rest: dict[str, Any]) -> dict[str, Any]:
    """The tool message answering ``result``, the ``i``-th part of the message at ``at``."""
    body = result.content
    content: Any
    if isinstance(body, str):
        listed = result.provider_echoes and own(result).get("listContent")
        content = [{"type": "text", "text": body}] if listed else body
    elif isinstance(body, dict):
        content = dumps(body)  # "a JSON object string" (ToolMessageV2.content)
    else:
        content = []
        for index, inner in enumerate(body):
            if (block := _result_block(inner, at, i, index, out)) is not None:
                content.append(block)
    if result.is_error:
        why = "Cohere's tool message has no error flag; the content is sent"
        out.lossy(f"{path(at)}.parts[{i}].is_error", "tool_result", why)
    _unmarked_result(result, f"{path(at)}.parts[{i}]", out)
    wire = {"role": "tool", "tool_call_id": result.tool_use_id, "content": content}
    if rest:
        wire.update(rest)
    return wire


def _unmarked_result(result: ToolResult, at: str, out: WarningSink) -> None:
    """A cache mark on the result at ``at`` or on a part inside it has no place on this wire (a
    tool message and its content blocks carry no breakpoint; Cohere caches on its own): each is
    reported where it sat, as the marks of a message's own parts are."""
    why = "Cohere caches on its own; no breakpoints"
    if result.cache_control is not None:
        out.lossy(f"{at}.cache_control", "cache_control", why)
    if isinstance(result.content, list):
        for k, inner in enumerate(result.content):
            if type(inner) not in _UNMARKED and getattr(inner, "cache_control", None) is not None:
                out.lossy(f"{at}.content[{k}].cache_control", "cache_control", why)


def _result_block(part: ContentPart, at: str | int, i: int, index: int, out: WarningSink) -> dict[str, Any] | None:
    """The ``index``-th block of the result that is the ``i``-th part of the message at ``at``."""
    match part:
        case Text():
            return {"type": "text", "text": part.text}
        case Document() if isinstance(part.source, TextSource):
            out.unsent_media_fields(part, f"{path(at)}.parts[{i}].content[{index}]")
            return _document(part, part.source)
        case Native() if part.provider == PROVIDER:
            return dict(part.data)
        case _:
            why = f"{article(part.type)} part has no place in a Cohere tool message"
            out.lossy(f"{path(at)}.parts[{i}].content[{index}]", part.type, why)
            return None
