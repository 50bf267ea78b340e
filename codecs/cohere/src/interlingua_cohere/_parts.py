"""Content parts, both directions: one decoder per Cohere block type (``text``, ``thinking``,
``image_url``, ``document``; any other shape is kept whole as ``Native``), the tool call, the
citations, and one encoder per IR part type.

- A message's ``content`` list is remembered by a ``listContent`` echo on its first part.
- ``thinking`` blocks are ``Thinking`` with an empty ``cohere`` echo (this wire's own).
- A tool call is a ``ToolUse``; its arguments text is kept in the echo when it is not the
  compact JSON of its object.
- Citations are Cohere's own output, read into ``Text.citations``; another wire's are reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

from interlingua import (
    Audio,
    AudioOutput,
    Base64Source,
    Citation,
    CitationSource,
    ContentPart,
    DecodeError,
    Document,
    Image,
    ImageOutput,
    Native,
    ProviderEcho,
    RedactedThinking,
    Text,
    TextSource,
    Thinking,
    ToolResult,
    ToolUse,
    UrlSource,
    Video,
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
_tool_use = maker(ToolUse, "id", "name", "input", "raw_input", "provider_echoes")
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


def rest_of(value: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The fields of ``value`` beside ``known`` (most have none: nothing is built)."""
    if value.keys() <= known:
        return {}
    return {key: item for key, item in value.items() if key not in known}


def decode_blocks(items: Any, at: str, *, listed: bool = False) -> list[ContentPart]:
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


def decode_call(call: dict[str, Any], ctx: Decoding) -> ContentPart:
    call_id = require(call, "id", str, "")
    function = expect(call.get("function"), dict, "function")
    name = require(function, "name", str, "function")
    text = optional(function, "arguments", str, "function", "")
    value, raw = tool_arguments(text)
    extras: dict[str, Any] = rest_of(call, _CALL_KEYS)
    if call.get("type") != "function":
        extras["type"] = call.get("type")
    if raw is None and arguments_text(value, None) != text:
        extras["arguments"] = text
    ctx.names[call_id] = name
    return _tool_use(id=call_id, name=name, input=value, raw_input=raw, provider_echoes=echo(extras) if extras else [])


def path(at: str | int) -> str:
    """The path of the message at ``at`` (its index in the request's messages, or its path),
    spelled out only for a warning: formatting ``messages[12]`` for every message costs more
    than writing most of them."""
    return f"messages[{at}]" if isinstance(at, int) else at


UNMARKED: frozenset[type[Any]] = frozenset({ToolUse, RedactedThinking, Native, ImageOutput, AudioOutput})
"""The part classes without a ``cache_control`` field, known by class: pydantic answers a read
of a field a model lacks with an exception and a Python ``__getattr__``."""


def encode_call(part: ToolUse, data: dict[str, Any]) -> dict[str, Any]:
    """A tool call; its arguments text as it came (echo), else the compact JSON of its input."""
    arguments = data.pop("arguments", None) or arguments_text(part.input, part.raw_input)
    function = {"name": part.name, "arguments": arguments}
    call: dict[str, Any] = {"id": part.id, "type": data.pop("type", "function"), "function": function}
    if data:
        call.update({k: v for k, v in data.items() if k != "citations"})
    return call


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


def report_result_marks(result: ToolResult, at: str, out: WarningSink) -> None:
    """A cache mark on the result at ``at`` or on a part inside it has no place on this wire (a
    tool message and its content blocks carry no breakpoint; Cohere caches on its own): each is
    reported where it sat, as the marks of a message's own parts are."""
    why = "Cohere caches on its own; no breakpoints"
    if result.cache_control is not None:
        out.lossy(f"{at}.cache_control", "cache_control", why)
    if isinstance(result.content, list):
        for k, inner in enumerate(result.content):
            if type(inner) not in UNMARKED and getattr(inner, "cache_control", None) is not None:
                out.lossy(f"{at}.content[{k}].cache_control", "cache_control", why)


def encode_result_block(
    part: ContentPart, at: str | int, i: int, index: int, out: WarningSink
) -> dict[str, Any] | None:
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


# --- encoding ----------------------------------------------------------------------------------


class Turn:
    """What a message's parts become on the wire: content blocks, tool calls, the tool plan, and
    the message's citations (this wire's own, from a text part's echo). ``answer``: the message
    is an answer (Cohere's own output), not a turn sent to it."""

    __slots__ = ("answer", "blocks", "calls", "citations", "plan")

    def __init__(self, citations: Any, *, answer: bool) -> None:
        self.answer = answer
        self.blocks: list[dict[str, Any]] = []
        self.calls: list[dict[str, Any]] = []
        self.plan: str | None = None
        self.citations = citations


def encode_part(
    part: ContentPart, data: dict[str, Any], turn: Turn, role: str, at: str | int, index: int, out: WarningSink
) -> None:
    """The ``index``-th part of the message at ``at`` into its place in ``turn``; ``data``: a
    copy of its echo data; ``role``: the wire role of its message."""
    match part:
        case Text():
            _encode_text(part, data, turn, role, at, index, out)
        case ToolUse():
            turn.calls.append(encode_call(part, data))
        case Thinking():
            _add(turn, _encode_thinking(part, turn.answer, at, index, out))
        case Image():
            _add(turn, _encode_image(part, data, at, index, out))
        case Document():
            _add(turn, _encode_document(part, role, at, index, out))
        case Native():
            _add(turn, dict(part.data) if part.provider == PROVIDER else _no_place(part, role, at, index, out))
        case Audio() | Video() | RedactedThinking() | ToolResult() | ImageOutput() | AudioOutput():
            _no_place(part, role, at, index, out)
        case _:
            assert_never(part)


def _add(turn: Turn, block: dict[str, Any] | None) -> None:
    if block is not None:
        turn.blocks.append(block)


def _no_place(part: ContentPart, role: str, at: str | int, index: int, out: WarningSink) -> dict[str, Any] | None:
    """None, reported: ``part`` has no place in a message of ``role``."""
    why = f"{article(part.type)} part has no place in a Cohere {role} message"
    out.lossy(f"{path(at)}.parts[{index}]", part.type, why)
    return None


def _encode_text(
    part: Text, data: dict[str, Any], turn: Turn, role: str, at: str | int, index: int, out: WarningSink
) -> None:
    """A text block; an assistant's plan (``toolPlan`` echo) is its ``tool_plan``, and this
    wire's own citations (echo) go back to the message as they came."""
    if data.get("toolPlan") and role == "assistant":
        turn.plan = part.text
        return
    if "citations" in data:
        turn.citations = data["citations"]
    elif part.citations:
        out.lossy(f"{path(at)}.parts[{index}].citations", "citations", "citations are written by Cohere, not sent")
    turn.blocks.append({"type": "text", "text": part.text})


def _encode_thinking(
    part: Thinking, answer: bool, at: str | int, index: int, out: WarningSink
) -> dict[str, Any] | None:
    """A thinking block: this wire's own reasoning, or any in an answer (Cohere writes it)."""
    if not answer and part.echo(PROVIDER) is None:
        out.lossy(f"{path(at)}.parts[{index}]", "thinking", "another vendor's reasoning is not replayed to Cohere")
        return None
    return {"type": "thinking", "thinking": part.text}


def _encode_document(part: Document, role: str, at: str | int, index: int, out: WarningSink) -> dict[str, Any] | None:
    """UserMessageV2Content and the others take text and images; documents only a tool message
    holds (ToolContent) or the request's own documents: a text document is sent as its text."""
    if not isinstance(part.source, TextSource):
        return _no_place(part, role, at, index, out)
    why = f"a Cohere {role} message takes no document; its text is sent as text"
    out.lossy(f"{path(at)}.parts[{index}]", "document", why, action="converted")
    out.unsent_media_fields(part, f"{path(at)}.parts[{index}]")
    return {"type": "text", "text": part.source.text}
