"""Content blocks, both directions: one encoder per IR part type, one decoder per wire block type.

Fields of a known block that the IR has no home for (a thinking ``signature``, redacted ``data``,
a document's ``context`` and ``citations`` settings, a tool_use ``caller``, an explicit
``is_error: false``) ride in the part's ``anthropic`` echo and are merged back on encode, so a
block decodes and re-encodes exactly. Blocks the IR has no type for become ``Native``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, assert_never

from interlingua import (
    Audio,
    AudioOutput,
    Base64Source,
    CacheControl,
    Citation,
    CitationSource,
    ContentPart,
    Document,
    FileSource,
    HandleSource,
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
    Video,
    WarningSink,
)
from interlingua.kit import (
    Binding,
    ToolIds,
    article,
    cache_ttl,
    construct,
    dumps,
    expect,
    join,
    maker,
    optional,
    require,
    unresolved_handle,
)

PROVIDER = "anthropic"
Block = dict[str, Any]

IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
_TOOL_ID = re.compile(r"[a-zA-Z0-9_-]+")


class Context:
    """What part decoders need beyond the block: the model that produced it (recorded on signed
    echoes), the names of the tool calls seen so far (a tool_result names its tool), and the
    codec's id mapping, so ids it rewrote when encoding come back as the caller had them."""

    __slots__ = ("ids", "model", "tool_names")

    def __init__(self, model: str | None, ids: ToolIds | None = None) -> None:
        self.model = model
        self.tool_names: dict[str, str] = {}
        self.ids = ids

    def tool_id(self, wire_id: str) -> str:
        return wire_id if self.ids is None else self.ids.decode(wire_id)


def _drop(out: WarningSink, at: str, part_type: str, why: str, *, action: Any = "dropped") -> Block | None:
    """Report a part the wire cannot carry; an encoder returns this in place of a block."""
    out.lossy(at, part_type, why, action=action)
    return None


# --- decoding ----------------------------------------------------------------------------------


# The shapes decoded most, each a constructor made once (``maker``): a third cheaper than
# ``construct``, with the same fields set.
make_echo = maker(ProviderEcho, "provider", "data", "model")
make_message = maker(Message, "role", "parts", "id", "name", "provider_echoes")
_make_native = maker(Native, "provider", "data")
_make_mark = maker(CacheControl, "ttl")
make_text = maker(Text, "text", "citations", "cache_control", "provider_echoes")
_make_image = maker(Image, "source", "cache_control", "provider_echoes")
_make_thinking = maker(Thinking, "text", "cache_control", "provider_echoes")
_make_redacted = maker(RedactedThinking, "provider_echoes")
_make_tool_use = maker(ToolUse, "id", "name", "input", "raw_input", "provider_echoes")
_make_tool_result = maker(ToolResult, "tool_use_id", "name", "content", "is_error", "cache_control", "provider_echoes")
_make_base64 = maker(Base64Source, "media_type", "data")
_make_url = maker(UrlSource, "url", "media_type")
_TTLS = frozenset({"5m", "1h"})


def decode_blocks(items: list[Any], at: str, ctx: Context) -> list[ContentPart]:
    """A content list; each block's path is spelled out only for an error."""
    decoders = _DECODERS
    parts: list[ContentPart] = []
    for i, block in enumerate(items):
        kind = block.get("type") if type(block) is dict else None
        decoder = decoders.get(kind) if type(kind) is str else None
        if decoder is None:  # an unknown type (kept), or a block to refuse at its path
            parts.append(decode_block(block, f"{at}[{i}]", ctx))
            continue
        part = decoder(block, at, i, ctx)
        parts.append(_native(block) if part is None else part)
    return parts


def decode_block(block: Any, at: str, ctx: Context) -> ContentPart:
    """One wire block -> one part; an unknown ``type`` is kept verbatim as ``Native`` (a block
    with no string ``type`` is refused: the encoder's turn checks dispatch on it)."""
    block = expect(block, dict, at)
    kind = require(block, "type", str, at)
    decoder = _DECODERS.get(kind)
    if decoder is None:
        return _native(block)
    part = decoder(block, at, None, ctx)
    return _native(block) if part is None else part


def _path(at: str, i: int | None) -> str:
    """A block's path: ``at`` itself, or its ``i``-th item (decoders get both, to build it only
    when a field needs reading through the path-aware readers)."""
    return at if i is None else f"{at}[{i}]"


def _native(block: Mapping[str, Any]) -> Native:
    return _make_native(provider=PROVIDER, data=dict(block))


def _extras(block: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in block.items() if k not in known and v is not None}


def _echoes_of(block: Mapping[str, Any], known: frozenset[str], model: str | None = None) -> list[ProviderEcho]:
    """The echo of the block's fields beyond ``known`` (none, for nearly every block)."""
    if block.keys() <= known:
        return []
    return _echoes(_extras(block, known), model)


def _echoes(extra: dict[str, Any], model: str | None = None) -> list[ProviderEcho]:
    if not extra:
        return []
    return [make_echo(provider=PROVIDER, data=extra, model=model)]


def decode_cache_control(block: Mapping[str, Any], at: str) -> CacheControl | None:
    mark = block.get("cache_control")
    if mark is None:
        return None
    if type(mark) is not dict:
        mark = expect(mark, dict, join(at, "cache_control"))
    if mark.get("type") != "ephemeral":  # CacheControlEphemeralParam's one type: never guessed at
        raise _bad(join(at, "cache_control.type"), f"unknown cache control type {mark.get('type')!r}")
    ttl = mark.get("ttl")
    if ttl is not None and (type(ttl) is not str or ttl not in _TTLS):
        raise _bad(join(at, "cache_control.ttl"), f"unknown ttl {ttl!r}")
    return _make_mark(ttl=ttl)


def _bad(at: str, reason: str) -> Exception:
    from interlingua import DecodeError

    return DecodeError("", at, reason)


def _text_field(block: Block, key: str, at: str, i: int | None) -> Any:
    """``block[key]`` as a string (the common case read once; anything else through ``require``)."""
    value = block.get(key)
    return value if type(value) is str else require(block, key, str, _path(at, i))


_TEXT_KEYS = frozenset({"type", "text", "citations", "cache_control"})


def _decode_text(block: Block, at: str, i: int | None, ctx: Context) -> ContentPart | None:
    extra = {} if block.keys() <= _TEXT_KEYS else _extras(block, _TEXT_KEYS)
    raw_citations = block.get("citations")
    citations: list[Citation] = []
    if raw_citations == []:
        extra["citations"] = []  # a stream's text block opens with an empty list: keep it exact
    elif raw_citations is not None:
        where = join(_path(at, i), "citations")
        citations = [decode_citation(c, f"{where}[{n}]") for n, c in enumerate(expect(raw_citations, list, where))]
    text = block.get("text")
    if type(text) is not str:
        text = require(block, "text", str, _path(at, i))
    return make_text(
        text=text,
        citations=citations,
        cache_control=None if "cache_control" not in block else decode_cache_control(block, _path(at, i)),
        provider_echoes=_echoes(extra),
    )


_SOURCE_KEYS: dict[str, frozenset[str]] = {
    "base64": frozenset({"type", "media_type", "data"}),
    "url": frozenset({"type", "url"}),
    "file": frozenset({"type", "file_id"}),
    "text": frozenset({"type", "media_type", "data"}),
}


def _decode_source(block: Block, at: str) -> Base64Source | UrlSource | FileSource | TextSource | None:
    """None for a source the IR cannot hold exactly (content sources, unknown kinds or keys)."""
    source = require(block, "source", dict, at)
    kind = source.get("type")
    if type(kind) is not str or kind not in _SOURCE_KEYS or not source.keys() <= _SOURCE_KEYS[kind]:
        return None
    where = join(at, "source")
    if kind == "base64":
        return _make_base64(
            media_type=require(source, "media_type", str, where), data=require(source, "data", str, where)
        )
    if kind == "url":
        return _make_url(url=require(source, "url", str, where), media_type=None)
    if kind == "file":
        return construct(FileSource, file_id=require(source, "file_id", str, where), provider=PROVIDER)
    return construct(
        TextSource,
        text=require(source, "data", str, where),
        media_type=optional(source, "media_type", str, where, "text/plain"),
    )


_IMAGE_KEYS = frozenset({"type", "source", "cache_control"})


def _decode_image(block: Block, at: str, i: int | None, ctx: Context) -> ContentPart | None:
    where = _path(at, i)
    source = _decode_source(block, where)
    if source is None or isinstance(source, TextSource):
        return None
    return _make_image(
        source=source,
        cache_control=None if "cache_control" not in block else decode_cache_control(block, where),
        provider_echoes=_echoes_of(block, _IMAGE_KEYS),
    )


_DOCUMENT_KEYS = frozenset({"type", "source", "cache_control", "title", "context"})


def _decode_document(block: Block, at: str, i: int | None, ctx: Context) -> ContentPart | None:
    """``title``, ``context`` and ``citations.enabled`` have a meaning other wires carry: they go
    to the Document's ``name``, ``context`` and ``citations`` (a citations object with more in it
    rides in the echo whole)."""
    where = _path(at, i)
    source = _decode_source(block, where)
    if source is None:
        return None
    cite = block.get("citations")
    enabled = cite.get("enabled") if type(cite) is dict and cite.keys() == {"enabled"} else None
    keys = _DOCUMENT_KEYS | {"citations"} if type(enabled) is bool else _DOCUMENT_KEYS
    return construct(
        Document,
        source=source,
        name=optional(block, "title", str, where),
        context=optional(block, "context", str, where),
        citations=enabled if type(enabled) is bool else None,
        cache_control=decode_cache_control(block, where),
        provider_echoes=_echoes_of(block, keys),
    )


_THINKING_KEYS = frozenset({"type", "thinking", "cache_control"})


def _decode_thinking(block: Block, at: str, i: int | None, ctx: Context) -> ContentPart | None:
    return _make_thinking(
        text=_text_field(block, "thinking", at, i),
        cache_control=None if "cache_control" not in block else decode_cache_control(block, _path(at, i)),
        provider_echoes=_echoes_of(block, _THINKING_KEYS, ctx.model),
    )


_REDACTED_KEYS = frozenset({"type"})


def _decode_redacted(block: Block, at: str, i: int | None, ctx: Context) -> ContentPart | None:
    _text_field(block, "data", at, i)
    return _make_redacted(provider_echoes=_echoes_of(block, _REDACTED_KEYS, ctx.model))


_TOOL_USE_KEYS = frozenset({"type", "id", "name", "input"})


def _decode_tool_use(block: Block, at: str, i: int | None, ctx: Context) -> ContentPart | None:
    wire_id, name = block.get("id"), block.get("name")
    if type(wire_id) is not str or type(name) is not str:  # read through the readers, for the path
        wire_id, name = _text_field(block, "id", at, i), _text_field(block, "name", at, i)
    call_id = ctx.tool_id(wire_id)
    ctx.tool_names[call_id] = name
    tool_input = block.get("input")
    if type(tool_input) is not dict:
        tool_input = optional(block, "input", dict, _path(at, i), {})
    return _make_tool_use(
        id=call_id, name=name, input=tool_input, raw_input=None, provider_echoes=_echoes_of(block, _TOOL_USE_KEYS)
    )


_TOOL_RESULT_KEYS = frozenset({"type", "tool_use_id", "content", "cache_control"})
_RESULT_KEYS = _TOOL_RESULT_KEYS | {"is_error"}


def _decode_tool_result(block: Block, at: str, i: int | None, ctx: Context) -> ContentPart | None:
    """An explicit ``is_error: false`` (what the SDKs send) rides in the echo, so it re-encodes
    exactly; ``true`` is the IR's flag."""
    wire_id = block.get("tool_use_id")
    call_id = ctx.tool_id(wire_id if type(wire_id) is str else _text_field(block, "tool_use_id", at, i))
    extra = {} if block.keys() <= _TOOL_RESULT_KEYS else _extras(block, _TOOL_RESULT_KEYS)
    is_error = block.get("is_error", False)
    if type(is_error) is not bool:
        is_error = optional(block, "is_error", bool, _path(at, i), False)
    if is_error:
        del extra["is_error"]
    raw = block.get("content", "")
    content: str | list[ContentPart]
    if type(raw) is str:
        content = raw
    else:
        where = join(_path(at, i), "content")
        content = decode_blocks(expect(raw, list, where), where, ctx)  # lists of text and images
    return _make_tool_result(
        tool_use_id=call_id,
        name=ctx.tool_names.get(call_id, ""),
        content=content,
        is_error=is_error,
        cache_control=None if "cache_control" not in block else decode_cache_control(block, _path(at, i)),
        provider_echoes=_echoes(extra),
    )


_DECODERS: dict[str, Callable[[Block, str, int | None, Context], ContentPart | None]] = {
    "text": _decode_text,
    "image": _decode_image,
    "document": _decode_document,
    "thinking": _decode_thinking,
    "redacted_thinking": _decode_redacted,
    "tool_use": _decode_tool_use,
    "tool_result": _decode_tool_result,
}


# --- citations ---------------------------------------------------------------------------------

# wire type -> (IR source type, unit, index key, start key, end key)
_LOCATIONS: dict[str, tuple[str, str | None, str | None, str | None, str | None]] = {
    "char_location": ("document", "char", "document_index", "start_char_index", "end_char_index"),
    "page_location": ("document", "page", "document_index", "start_page_number", "end_page_number"),
    "content_block_location": ("document", "block", "document_index", "start_block_index", "end_block_index"),
    "search_result_location": ("search_result", "block", "search_result_index", "start_block_index", "end_block_index"),
    "web_search_result_location": ("url", None, None, None, None),
}
_TITLE_KEY = {"document": "document_title", "search_result": "title", "url": "title"}


def decode_citation(raw: Any, at: str) -> Citation:
    """A wire citation -> Citation; its vendor-only fields (``encrypted_index``, ``file_id``) ride
    in the echo. An unknown citation type is kept whole in the echo."""
    item = expect(raw, dict, at)
    kind = item.get("type")
    cited = optional(item, "cited_text", str, at)
    if kind not in _LOCATIONS:
        return construct(
            Citation,
            cited_text=cited,
            source=construct(CitationSource, type="document"),
            provider_echoes=_echoes({"citation": dict(item)}),
        )
    source_type, unit, index_key, start_key, end_key = _LOCATIONS[kind]
    title_key = _TITLE_KEY[source_type]
    url_key = "url" if source_type == "url" else "source" if source_type == "search_result" else None
    used = {"type", "cited_text", title_key, url_key, index_key, start_key, end_key}
    source = construct(
        CitationSource,
        type=source_type,
        url=optional(item, url_key, str, at) if url_key else None,
        title=optional(item, title_key, str, at),
        index=optional(item, index_key, int, at) if index_key else None,
        start=optional(item, start_key, int, at) if start_key else None,
        end=optional(item, end_key, int, at) if end_key else None,
        unit=unit,
    )
    extra = {k: v for k, v in item.items() if k not in used and v is not None}
    return construct(Citation, cited_text=cited, source=source, start=None, end=None, provider_echoes=_echoes(extra))


def encode_citation(citation: Citation, at: str, out: WarningSink) -> Block | None:
    """None (with a warning) when the citation lacks what the wire requires: a web citation needs
    Anthropic's ``encrypted_index``, a document one its index and span."""
    echo = citation.echo(PROVIDER)
    extra = dict(echo.data) if echo else {}
    if "citation" in extra:
        return dict(extra["citation"])
    source = citation.source
    if citation.start is not None or citation.end is not None:
        out.lossy(at, "citations", "the wire cannot place a citation within the text", action="converted")
    if citation.cited_text is None:
        return _drop(out, at, "citations", "a citation without cited_text cannot be sent")
    block: Block = {"type": "", "cited_text": citation.cited_text}
    if source.type == "url":
        if "encrypted_index" not in extra or source.url is None:
            return _drop(out, at, "citations", "a web citation needs Anthropic's encrypted_index")
        block.update(type="web_search_result_location", url=source.url, title=source.title)
    else:
        kind = _location_type(source)
        if kind is None:
            return _drop(out, at, "citations", "a document citation needs its index and span")
        _, _, index_key, start_key, end_key = _LOCATIONS[kind]
        block["type"] = kind
        block[_TITLE_KEY[source.type]] = source.title
        block.update({index_key: source.index, start_key: source.start, end_key: source.end})  # type: ignore[dict-item]
        if source.type == "search_result":
            block["source"] = source.url
    block.update(extra)
    return block


def _location_type(source: CitationSource) -> str | None:
    if source.index is None or source.start is None or source.end is None:
        return None
    if source.type == "search_result":
        return "search_result_location" if source.url is not None else None
    return {"char": "char_location", "page": "page_location", "block": "content_block_location"}.get(
        source.unit or "char"
    )


# --- encoding ----------------------------------------------------------------------------------


class Encoder:
    """Encodes parts of one request or response, collecting warnings and cache marks.

    ``cache_marks`` lists every emitted ``cache_control`` with the IR path it came from, so the
    request encoder can hold the wire's limits (at most 4 breakpoints, 1h before 5m).
    """

    __slots__ = ("binding", "binding_of", "cache_marks", "ids", "out", "response")

    def __init__(
        self, out: WarningSink, *, response: bool = False, binding_of: Callable[[], Binding] | None = None
    ) -> None:
        self.out = out
        self.response = response
        self.cache_marks: list[tuple[Block, str]] = []
        self.ids: dict[str, str] = {}
        self.binding_of = binding_of
        self.binding: Binding | None = None

    def part(self, part: ContentPart, at: str, j: int | None = None) -> Block | None:
        """``part`` as a block; its path is ``at``, or the ``j``-th item of the list ``at`` (spelled
        out only for a warning, a cache mark or a rewritten id)."""
        match part:  # the commonest types first: each arm is one isinstance check
            case Text():
                return self._text(part, at, j)
            case ToolUse():
                return self._tool_use(part, at, j)
            case ToolResult():
                return self._tool_result(part, at, j)
            case Thinking():
                return self._thinking(part, at, j)
            case Image():
                return self._media(part, _path(at, j), "image")
            case Document():
                return self._media(part, _path(at, j), "document")
            case RedactedThinking():
                return self._redacted(part, _path(at, j))
            case Native():
                return self._native(part, _path(at, j))
            case Audio():
                return _drop(self.out, _path(at, j), "audio", "the Messages API takes no audio input")
            case Video():
                return _drop(self.out, _path(at, j), "video", "the Messages API takes no video input")
            case ImageOutput():
                return _drop(self.out, _path(at, j), "image_output", "Claude does not produce images")
            case AudioOutput():
                return _drop(self.out, _path(at, j), "audio_output", "Claude does not produce audio")
            case _:
                assert_never(part)

    def _finish(self, block: Block, part: Text | Image | Document | ToolResult, at: str, j: int | None = None) -> Block:
        """Merge the part's echo back in, then its cache mark."""
        if part.provider_echoes:
            echo = part.echo(PROVIDER)
            if echo is not None:
                for key, value in echo.data.items():
                    block.setdefault(key, value)
        if part.cache_control is not None:
            if self.response:
                self.out.lossy(
                    join(_path(at, j), "cache_control"), "cache_control", "a response block has no cache mark"
                )
            else:
                block["cache_control"] = encode_cache_control(
                    part.cache_control, self.out, join(_path(at, j), "cache_control")
                )
                self.cache_marks.append((block, _path(at, j)))
        return block

    def _text(self, part: Text, at: str, j: int | None) -> Block:
        block: Block = {"type": "text", "text": part.text}
        if part.citations:
            where = join(_path(at, j), "citations")
            cited = [encode_citation(c, f"{where}[{i}]", self.out) for i, c in enumerate(part.citations)]
            kept = [c for c in cited if c is not None]
            if kept:
                block["citations"] = kept
        if not part.provider_echoes and part.cache_control is None:
            return block  # a plain text block: nothing to merge
        return self._finish(block, part, at, j)

    def _media(self, part: Image | Document, at: str, kind: str) -> Block | None:
        if self.response:
            return _drop(self.out, at, kind, f"a response holds no {kind} blocks")
        source = self._source(part, at, kind)
        if source is None:
            return None
        block: Block = {"type": kind, "source": source}
        if isinstance(part, Document):
            if part.name is not None:
                block["title"] = part.name
            if part.context is not None:
                block["context"] = part.context
            if part.citations is not None:
                block["citations"] = {"enabled": part.citations}
        else:
            self.out.unsent_media_fields(part, at)
        return self._finish(block, part, at)

    def _source(self, part: Image | Document, at: str, kind: str) -> Block | None:
        source = part.source
        out = self.out
        match source:
            case Base64Source():
                allowed = IMAGE_TYPES if kind == "image" else frozenset({"application/pdf"})
                if source.media_type not in allowed:
                    return _drop(out, at, kind, f"{source.media_type} is not a {kind} type the API takes inline")
                return {"type": "base64", "media_type": source.media_type, "data": source.data}
            case UrlSource():
                # A URL source has no media type field (URLImageSourceParam, URLPDFSourceParam): the
                # API reads an image's type from what it fetches, and a URL document is a PDF.
                if kind == "document" and source.media_type not in (None, "application/pdf"):
                    why = f"a URL document is read as a PDF; its media type {source.media_type} is not sent"
                    out.lossy(at, kind, why, action="converted")
                return {"type": "url", "url": source.url}
            case FileSource():
                if source.provider not in (None, PROVIDER):
                    return _drop(out, at, kind, f"a file id of {source.provider}'s store means nothing to Anthropic")
                return {"type": "file", "file_id": source.file_id}
            case TextSource():
                if kind == "image":
                    return _drop(out, at, kind, "an image cannot have a text source")
                if source.media_type != "text/plain":
                    out.lossy(at, kind, f"{source.media_type} text is sent as text/plain", action="converted")
                return {"type": "text", "media_type": "text/plain", "data": source.text}
            case HandleSource():
                raise unresolved_handle(out.codec, f"{at}.source", source)
            case _:
                assert_never(source)

    def _thinking(self, part: Thinking, at: str, j: int | None) -> Block | None:
        """Only a thinking block Anthropic signed can be sent back: the API checks the signature.

        Signatures are replayed to any Claude model, except where the catalog's ``[binding]``
        says the target would not take the block (preserved thinking: a model that does not read
        the producer's blocks, or a prefix changed since the block was made): withheld then, with
        a LossyEncode naming the rule. An unsigned (foreign) thinking part is dropped.
        """
        echo = part.echo(PROVIDER)
        if echo is None or not isinstance(echo.data.get("signature"), str):
            return _drop(self.out, _path(at, j), "thinking", "unsigned thinking (not from Claude) cannot be replayed")
        if (why := self._withheld(echo)) is not None:
            return _drop(self.out, _path(at, j), "thinking", why)
        block: Block = {"type": "thinking", "thinking": part.text}
        for key, value in echo.data.items():
            block.setdefault(key, value)
        if part.cache_control is not None:
            where = join(_path(at, j), "cache_control")
            self.out.lossy(where, "cache_control", "a thinking block takes no cache mark")
        return block

    def _redacted(self, part: RedactedThinking, at: str) -> Block | None:
        echo = part.echo(PROVIDER)
        if echo is None or not isinstance(echo.data.get("data"), str):
            return _drop(self.out, at, "redacted_thinking", "redacted thinking without Anthropic's data")
        if (why := self._withheld(echo)) is not None:
            return _drop(self.out, at, "redacted_thinking", why)
        return {"type": "redacted_thinking", **echo.data}

    def _withheld(self, echo: ProviderEcho) -> str | None:
        """Why a signed block is not sent to the target model (the catalog's ``[binding]``: a block
        it cannot read, or made under another prefix, is dropped or refused by the API); None: send."""
        if self.binding_of is None:
            return None
        if self.binding is None:
            self.binding = self.binding_of()  # the catalog is read only for a request replaying signed blocks
        return self.binding.withheld(echo)

    def _tool_use(self, part: ToolUse, at: str, j: int | None) -> Block:
        tool_input = part.input
        if part.raw_input is not None:
            self.out.lossy(
                _path(at, j), "tool_use", "arguments that are not a JSON object are sent as {}", action="converted"
            )
        block: Block = {"type": "tool_use", "id": self.tool_id(part.id, at, j), "name": part.name, "input": tool_input}
        if part.provider_echoes:
            echo = part.echo(PROVIDER)
            if echo is not None:
                for key, value in echo.data.items():
                    block.setdefault(key, value)
        return block

    def tool_id(self, call_id: str, at: str, j: int | None = None) -> str:
        """Ids must match ``[a-zA-Z0-9_-]+``; a foreign id that does not is rewritten, the same
        way for its call and its result."""
        known = self.ids.get(call_id)
        if known is not None:
            return known
        if _TOOL_ID.fullmatch(call_id):  # nearly every id: one regex call, not a loop per character
            self.ids[call_id] = call_id
            return call_id
        fixed = "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "_" for c in call_id) or "call"
        if fixed != call_id:
            self.out.lossy(_path(at, j), "tool_use", f"tool id {call_id!r} sent as {fixed!r}", action="converted")
        self.ids[call_id] = fixed
        return fixed

    def _tool_result(self, part: ToolResult, at: str, j: int | None) -> Block | None:
        if self.response:
            return _drop(self.out, _path(at, j), "tool_result", "a response holds no tool_result blocks")
        block: Block = {"type": "tool_result", "tool_use_id": self.tool_id(part.tool_use_id, at, j)}
        content = part.content
        if isinstance(content, str):
            if content:
                block["content"] = content
        elif isinstance(content, list):
            where = join(_path(at, j), "content")
            block["content"] = [b for i, p in enumerate(content) if (b := self._result_item(p, where, i))]
        else:
            self.out.lossy(
                join(_path(at, j), "content"), "tool_result", "a JSON result is sent as its text", action="converted"
            )
            block["content"] = dumps(content)
        if part.is_error:
            block["is_error"] = True
        if not part.provider_echoes and part.cache_control is None:
            return block  # nothing to merge
        return self._finish(block, part, at, j)

    def _result_item(self, part: ContentPart, at: str, i: int) -> Block | None:
        if isinstance(part, Text | Image | Document) or (isinstance(part, Native) and part.provider == PROVIDER):
            return self.part(part, at, i)
        return _drop(self.out, _path(at, i), part.type, "a tool result holds only text, images and documents")

    def _native(self, part: Native, at: str) -> Block | None:
        if part.provider != PROVIDER:
            return _drop(self.out, at, "native", f"{article(part.provider)} block means nothing to Anthropic")
        block = dict(part.data)
        if isinstance(block.get("cache_control"), Mapping) and not self.response:
            self.cache_marks.append((block, at))
        return block


def encode_cache_control(mark: CacheControl, out: WarningSink | None = None, at: str = "cache_control") -> Block:
    """``{"type": "ephemeral"}`` with the mark's lifetime: the API takes 5m and 1h
    (https://platform.claude.com/docs/en/build-with-claude/prompt-caching#1-hour-cache-duration);
    another (30m, 12h: OpenAI's breakpoints) is sent as the nearest, with a warning (``out``)."""
    ttl: str | None = mark.ttl
    if ttl is None:
        return {"type": "ephemeral"}
    if ttl not in _TTLS and out is not None:
        ttl = cache_ttl(ttl, ("5m", "1h"), out, at, "the Messages API")
    return {"type": "ephemeral", "ttl": ttl}
