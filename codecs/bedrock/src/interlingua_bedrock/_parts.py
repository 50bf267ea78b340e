"""Content blocks, both directions: a Converse ``ContentBlock`` is an object with one key naming
its kind (``text``, ``image``, ``toolUse``, ``reasoningContent``, ``cachePoint``, ...).

- ``cachePoint`` is a block of its own that marks the cache breakpoint after the block before
  it: it becomes that part's ``cache_control`` (and is written after each part that has one).
  A cache point with nothing before it that could carry one is kept as ``Native``.
- Media carry a ``format`` (``png``, ``pdf``, ``mp4``, ...) where the IR has a MIME type; the
  table below maps both ways, and a format the table spells differently (``mpg`` beside
  ``mpeg``) rides in the part's ``bedrock`` echo, so the body comes back as it was. Bytes are
  base64 text in the JSON wire (botocore's blob), kept as is; an ``s3Location`` is a URL
  (``s3://``) with ``bucketOwner`` in the echo.
- Reasoning (``reasoningContent``) is ``Thinking`` with its ``signature`` in the echo, or
  ``RedactedThinking`` with ``redactedContent``; Bedrock's own thinking always carries a
  ``bedrock`` echo (an empty one when unsigned), which is how the encoder tells it from another
  vendor's.
- A Nova system tool's call (``toolUse`` of ``type: server_tool_use``) and the result Bedrock
  puts beside it in the assistant's message are the server's, not the caller's: ``Native``.
- ``citationsContent``: a Text with its citations (the block in its echo).
- Anything else (``guardContent``, ``searchResult``, a kind this codec does
  not know, a block with more than one key) is ``Native`` and written back verbatim.

Field names are botocore's ``bedrock-runtime`` service model (``ContentBlock`` and the shapes
under it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, assert_never

from interlingua import (
    Audio,
    AudioOutput,
    Base64Source,
    CacheControl,
    Citation,
    CitationSource,
    ContentPart,
    DecodeError,
    Document,
    FileSource,
    HandleSource,
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
    article,
    cache_ttl,
    construct,
    expect,
    join,
    maker,
    optional,
    require,
    unresolved_handle,
)

PROVIDER = "bedrock"
NAME = "bedrock-converse"

IMAGE_FORMATS = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
DOCUMENT_FORMATS = {
    "pdf": "application/pdf",
    "csv": "text/csv",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "html": "text/html",
    "txt": "text/plain",
    "md": "text/markdown",
}
VIDEO_FORMATS = {
    "mp4": "video/mp4",
    "mov": "video/quicktime",
    "mkv": "video/x-matroska",
    "webm": "video/webm",
    "flv": "video/x-flv",
    "mpeg": "video/mpeg",
    "mpg": "video/mpeg",
    "wmv": "video/x-ms-wmv",
    "three_gp": "video/3gpp",
}
AUDIO_FORMATS = {
    "mp3": "audio/mpeg",
    "wav": "audio/wav",
    "flac": "audio/flac",
    "ogg": "audio/ogg",
    "opus": "audio/opus",
    "aac": "audio/aac",
    "webm": "audio/webm",
    "mp4": "audio/mp4",
    "m4a": "audio/x-m4a",
    "pcm": "audio/pcm",
    "mpeg": "audio/mpeg",
    "mpga": "audio/mpeg",
    "mkv": "audio/x-matroska",
    "mka": "audio/x-matroska",
    "x-aac": "audio/x-aac",
}
"""botocore's format enums (``ImageFormat``, ``DocumentFormat``, ``VideoFormat``, ``AudioFormat``)
and the MIME type each names; the first format listed for a MIME type is the one written."""


def _reverse(table: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for fmt, mime in table.items():
        out.setdefault(mime, fmt)
    return out


_FORMAT_OF = {
    "image": _reverse(IMAGE_FORMATS),
    "document": _reverse(DOCUMENT_FORMATS),
    "video": _reverse(VIDEO_FORMATS),
    "audio": _reverse(AUDIO_FORMATS),
}
_MIME_OF = {"image": IMAGE_FORMATS, "document": DOCUMENT_FORMATS, "video": VIDEO_FORMATS, "audio": AUDIO_FORMATS}


# Each IR shape this module builds, a constructor made once (``maker``): the values are read and
# checked here, so pydantic's validation would only repeat it.
_echo = maker(ProviderEcho, "provider", "data")
_model_echo = maker(ProviderEcho, "provider", "data", "model")
_native = maker(Native, "provider", "data")
_text = maker(Text, "text")
_call = maker(ToolUse, "id", "name", "input", "provider_echoes")
_thinking = maker(Thinking, "text", "provider_echoes")
_redacted = maker(RedactedThinking, "provider_echoes")
_result = maker(ToolResult, "tool_use_id", "name", "content", "is_error", "provider_echoes")
_base64 = maker(Base64Source, "media_type", "data")
_url = maker(UrlSource, "url", "media_type")
_text_source = maker(TextSource, "text", "media_type")
_image = maker(Image, "source", "provider_echoes")
_video = maker(Video, "source", "provider_echoes")
_audio = maker(Audio, "source", "provider_echoes")
_document = maker(Document, "source", "name", "context", "citations", "provider_echoes")


def echo(data: dict[str, Any]) -> list[ProviderEcho]:
    return [_echo(provider=PROVIDER, data=data)]


def native(block: dict[str, Any]) -> Native:
    return _native(provider=PROVIDER, data=block)


# --- decoding ----------------------------------------------------------------------------------


class Decoding:
    """One body's state: the name of each call by id (a ``toolResult`` names only its call's id,
    the IR's ToolResult the tool too), and the model the body was sent to (the URL's), which
    signed reasoning is bound to (its echo's ``model``, as the Messages door records it)."""

    __slots__ = ("model", "names")

    def __init__(self, model: str | None = None) -> None:
        self.names: dict[str, str] = {}
        self.model = model


def within(at: str, err: DecodeError) -> DecodeError:
    """``err``, raised with a path relative to the value at ``at``, with its whole path.

    Blocks are read with paths relative to the block (constant strings), and the loops name where
    a block sits only when it is bad: formatting ``messages[12].content[3]`` for every block that
    is fine costs more than reading it."""
    return DecodeError(err.codec, join(at, err.path) if err.path else at, err.reason)


def decode_blocks(blocks: Any, at: str, ctx: Decoding, *, role: str) -> list[ContentPart]:
    """A message's ``content`` array at ``at`` -> IR parts, cache points folded into the part before."""
    if type(blocks) is not list:
        blocks = expect(blocks, list, at)
    parts: list[ContentPart] = []
    for index, block in enumerate(blocks):
        if type(block) is not dict:
            block = expect(block, dict, f"{at}[{index}]")
        try:
            if len(block) == 1 and "cachePoint" in block and parts and _takes_cache(parts[-1]):
                try:
                    parts[-1] = parts[-1].model_copy(update={"cache_control": cache_control(block["cachePoint"], "")})
                    continue
                except Keep:
                    pass
            parts.append(decode_block(block, ctx, role))
        except DecodeError as err:
            raise within(f"{at}[{index}]", err) from None
    return parts


def _takes_cache(part: ContentPart) -> bool:
    return getattr(part, "cache_control", "absent") is None


def cache_control(point: Any, at: str) -> CacheControl:
    point = expect(point, dict, join(at, "cachePoint"))
    if set(point) - {"type", "ttl"} or point.get("type") != "default" or point.get("ttl") not in (None, "5m", "1h"):
        raise Keep
    return CacheControl(ttl=point.get("ttl"))


class Keep(Exception):
    """A block this codec keeps whole (as Native) rather than read."""


def decode_block(block: dict[str, Any], ctx: Decoding, role: str) -> ContentPart:
    """One block -> one IR part, read with paths relative to the block (``toolUse.name``)."""
    if len(block) != 1:
        return native(block)
    ((kind, value),) = block.items()
    if kind == "text" and type(value) is str:  # most blocks: nothing else to read
        return _text(text=value)
    decoder = _DECODERS.get(kind)
    if decoder is None:
        return native(block)
    try:
        return decoder(kind, value, ctx, role)
    except Keep:
        return native(block)


def _decode_text(kind: str, value: Any, ctx: Decoding, role: str) -> ContentPart:
    return _text(text=expect(value, str, kind))


def _media(kind: str, value: Any, ctx: Decoding, role: str) -> ContentPart:
    if type(value) is not dict:
        value = expect(value, dict, kind)
    fmt = optional(value, "format", str, kind)
    source = value.get("source")
    if type(source) is not dict:
        source = expect(source, dict, join(kind, "source"))
    extras: dict[str, Any] = _rest(value, _MEDIA_KEYS)
    mime = _MIME_OF[kind].get(fmt) if fmt is not None else None
    if fmt is not None and (mime is None or _FORMAT_OF[kind][mime] != fmt):
        extras["format"] = fmt
    if fmt is None:
        extras["formatAbsent"] = True
    if mime is None:
        mime = f"{kind}/{fmt}" if fmt else "application/octet-stream"
    if len(source) != 1:
        raise Keep
    ((how, where),) = source.items()
    src: Base64Source | UrlSource | TextSource
    if how == "bytes":
        src = _base64(media_type=mime, data=expect(where, str, join(kind, "source.bytes")))
    elif how == "s3Location":
        location = expect(where, dict, join(kind, "source.s3Location"))
        src = _url(url=require(location, "uri", str, join(kind, "source.s3Location")), media_type=mime)
        if set(location) != {"uri"}:
            extras["s3Location"] = {k: v for k, v in location.items() if k != "uri"}
    elif how == "text" and kind == "document":
        src = _text_source(text=expect(where, str, join(kind, "source.text")), media_type=mime)
    else:
        raise Keep
    echoes = echo(extras) if extras else []
    match kind:
        case "image":
            return _image(source=src, provider_echoes=echoes)
        case "video":
            return _video(source=src, provider_echoes=echoes)
        case "audio":
            return _audio(source=src, provider_echoes=echoes)
        case _:
            return _decode_document(value, src, extras)


def _decode_document(
    value: dict[str, Any], src: Base64Source | UrlSource | TextSource, extras: dict[str, Any]
) -> Document:
    """``context`` and ``citations.enabled`` have a meaning other wires carry: the Document's
    ``context`` and ``citations`` (a citations object with more in it stays in the echo whole)."""
    context = extras.pop("context", None) if type(extras.get("context")) is str else None
    cite = extras.get("citations")
    enabled = cite.get("enabled") if type(cite) is dict and cite.keys() == {"enabled"} else None
    if type(enabled) is bool:
        del extras["citations"]
    document: Document = _document(
        source=src,
        name=require(value, "name", str, "document"),
        context=context,
        citations=enabled if type(enabled) is bool else None,
        provider_echoes=echo(extras) if extras else [],
    )
    return document


_MEDIA_KEYS = frozenset({"format", "source", "name"})
_CALL_KEYS = frozenset({"toolUseId", "name", "input"})
_RESULT_KEYS = frozenset({"toolUseId", "content", "status"})


def _rest(value: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The fields of ``value`` beside ``known`` (most blocks have none: nothing is built)."""
    if value.keys() <= known:
        return {}
    return {key: item for key, item in value.items() if key not in known}


def _tool_use(kind: str, value: Any, ctx: Decoding, role: str) -> ContentPart:
    if type(value) is not dict:
        value = expect(value, dict, kind)
    arguments = value.get("input")
    if value.get("type") == "server_tool_use" or not isinstance(arguments, dict):
        raise Keep
    call_id = require(value, "toolUseId", str, kind)
    name = require(value, "name", str, kind)
    ctx.names[call_id] = name
    extras = _rest(value, _CALL_KEYS)
    return _call(id=call_id, name=name, input=arguments, provider_echoes=echo(extras) if extras else [])


def _tool_result(kind: str, value: Any, ctx: Decoding, role: str) -> ContentPart:
    if role == "assistant":  # a system tool's result, the server's own
        raise Keep
    if type(value) is not dict:
        value = expect(value, dict, kind)
    call_id = require(value, "toolUseId", str, kind)
    items = value.get("content")
    if type(items) is not list:
        items = expect(items, list, "toolResult.content")
    status = optional(value, "status", str, kind)
    extras = _rest(value, _RESULT_KEYS)
    if status == "success":
        extras["status"] = status
    elif status not in (None, "error"):  # ToolResultStatus is success or error: ``SUCCESS`` is refused
        raise DecodeError("", join(kind, "status"), f"unknown status {status!r}")
    content: str | list[ContentPart] | dict[str, Any]
    item = items[0] if len(items) == 1 else None
    if isinstance(item, dict) and len(item) == 1 and isinstance(text := item.get("text"), str):
        content = text
    elif isinstance(item, dict) and len(item) == 1 and isinstance(data := item.get("json"), dict):
        content = data
    else:
        content = []
        for index, inner in enumerate(items):
            if not isinstance(inner, dict):
                inner = expect(inner, dict, f"toolResult.content[{index}]")
            if "json" in inner:
                content.append(native(inner))
                continue
            try:
                content.append(decode_block(inner, ctx, "user"))
            except DecodeError as err:
                raise within(f"toolResult.content[{index}]", err) from None
    return _result(
        tool_use_id=call_id,
        name=ctx.names.get(call_id, ""),
        content=content,
        is_error=status == "error",
        provider_echoes=echo(extras) if extras else [],
    )


def _reasoning(kind: str, value: Any, ctx: Decoding, role: str) -> ContentPart:
    value = expect(value, dict, kind)
    if len(value) != 1:
        raise Keep
    ((key, inner),) = value.items()
    if key == "redactedContent":
        data = {"redactedContent": expect(inner, str, join(kind, key))}
        return _redacted(provider_echoes=_bound_echo(data, ctx.model))
    if key != "reasoningText":
        raise Keep
    inner = expect(inner, dict, join(kind, key))
    text = require(inner, "text", str, join(kind, key))
    data = {k: v for k, v in inner.items() if k != "text"}
    return _thinking(text=text, provider_echoes=_bound_echo(data, ctx.model if data else None))


def _bound_echo(data: dict[str, Any], model: str | None) -> list[ProviderEcho]:
    """A reasoning block's echo, bound to ``model`` where the block is signed (a signature, or
    redacted content) and the model is known: the Claude signature inside is bound to it."""
    return echo(data) if model is None else [_model_echo(provider=PROVIDER, data=data, model=model)]


_LOCATIONS: dict[str, tuple[Literal["document", "search_result"], Literal["char", "page", "block"], str]] = {
    "documentChar": ("document", "char", "documentIndex"),
    "documentPage": ("document", "page", "documentIndex"),
    "documentChunk": ("document", "block", "documentIndex"),
    "searchResultLocation": ("search_result", "block", "searchResultIndex"),
}
"""A ``CitationLocation`` member (botocore) -> the IR source's type, unit and index key."""


def _citations_content(kind: str, value: Any, ctx: Decoding, role: str) -> ContentPart:
    """A cited answer: one Text of its generated text, its citations the IR's (so other wires
    read them), the block itself in the echo (re-sent to Converse as it came). A block of
    another shape stays Native."""
    if type(value) is not dict or set(value) - {"content", "citations"}:
        raise Keep
    content, citations = value.get("content", []), value.get("citations", [])
    if not isinstance(content, list) or not all(type(c) is dict and set(c) == {"text"} for c in content):
        raise Keep
    if not isinstance(citations, list) or not all(type(c) is dict for c in citations):
        raise Keep
    text = "".join(expect(c["text"], str, join(kind, "content[].text")) for c in content)
    cited = [decode_citation(c) for c in citations]
    return construct(Text, text=text, citations=cited, provider_echoes=echo({"citationsContent": value}))


def decode_citation(item: dict[str, Any]) -> Citation:
    """One ``Citation`` (a response's, or a stream's ``CitationsDelta``, which has its members) as the IR's."""
    location = item.get("location")
    ((how, where),) = location.items() if type(location) is dict and len(location) == 1 else (("", {}),)
    where = where if type(where) is dict else {}
    title = item.get("title") if type(item.get("title")) is str else None
    quoted = item.get("sourceContent")
    texts = [c.get("text") for c in quoted if type(c) is dict] if isinstance(quoted, list) else []
    cited_text = "".join(t for t in texts if type(t) is str) or None

    def number(key: str) -> int | None:
        return where.get(key) if type(where.get(key)) is int else None

    if how == "web":
        url = where.get("url") if type(where.get("url")) is str else None
        return Citation(cited_text=cited_text, source=CitationSource(type="url", url=url, title=title))
    kind, unit, index = _LOCATIONS.get(how, ("document", None, "documentIndex"))
    source = CitationSource(
        type=kind, title=title, index=number(index), start=number("start"), end=number("end"), unit=unit
    )
    return Citation(cited_text=cited_text, source=source)


_DECODERS: dict[str, Callable[[str, Any, Decoding, str], ContentPart]] = {
    "citationsContent": _citations_content,
    "text": _decode_text,
    "image": _media,
    "document": _media,
    "video": _media,
    "audio": _media,
    "toolUse": _tool_use,
    "toolResult": _tool_result,
    "reasoningContent": _reasoning,
}
"""A block's one key -> its decoder (read with paths relative to the block); any other key is
kept whole as Native, as is a block a decoder declines (``Keep``)."""


# --- encoding ----------------------------------------------------------------------------------


def encode_parts(parts: list[ContentPart], at: str, out: WarningSink, *, answer: bool = False) -> list[dict[str, Any]]:
    """IR parts (the list at ``at``) -> Converse content blocks. ``answer``: the blocks of a
    response, where another vendor's reasoning is shown as text (an answer's reasoning is read,
    never checked); in a request it could not be replayed."""
    blocks: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        add_part(blocks, part, at, index, out, answer=answer)
    return blocks


def add_part(
    blocks: list[dict[str, Any]], part: ContentPart, at: str, j: int, out: WarningSink, *, answer: bool = False
) -> None:
    """One part's block (the ``j``-th part of the list at ``at``) onto ``blocks``, and the
    ``cachePoint`` after it when the part has a breakpoint."""
    block = encode_part(part, at, j, out, answer=answer)
    if block is None:
        return
    blocks.append(block)
    cache: CacheControl | None = None if type(part) in _UNMARKED else getattr(part, "cache_control", None)
    if type(part) is ToolResult and isinstance(part.content, list):
        cache = _result_cache(part.content, cache, _path(at, j), out)
    if cache is not None:
        blocks.append({"cachePoint": cache_point(cache, out, _path(at, j))})


def _result_cache(
    content: list[ContentPart], cache: CacheControl | None, at: str, out: WarningSink
) -> CacheControl | None:
    """The breakpoint after the tool result at ``at``: its own mark, else one that sat on a part
    inside it. Converse has no cache point inside a tool result (botocore's
    ToolResultContentBlock: json, text, image, document, video, searchResult), so an inner mark
    moves to the cachePoint that follows the result, reported where it sat."""
    for k, inner in enumerate(content):
        mark = None if type(inner) in _UNMARKED else getattr(inner, "cache_control", None)
        if mark is None:
            continue
        why = "Converse has no cache point inside a tool result; the breakpoint follows the result"
        out.lossy(f"{at}.content[{k}].cache_control", "cache_control", why, action="converted")
        cache = cache or mark
    return cache


_UNMARKED: frozenset[type[Any]] = frozenset({ToolUse, RedactedThinking, Native, ImageOutput, AudioOutput})
"""The part classes without a ``cache_control`` field, known by class: pydantic answers a read
of a field a model lacks with an exception and a Python ``__getattr__``."""


def cache_point(cache: CacheControl, out: WarningSink, at: str) -> dict[str, Any]:
    """A ``cachePoint``; Converse takes the lifetimes 5m and 1h (the same check as the decoder's),
    another (30m, 12h: OpenAI's breakpoints) is sent as the nearest, with a warning."""
    if not cache.ttl:
        return {"type": "default"}
    return {"type": "default", "ttl": cache_ttl(cache.ttl, ("5m", "1h"), out, f"{at}.cache_control", "Converse")}


def own(part: Any) -> dict[str, Any] | None:
    if not part.provider_echoes:
        return None
    found = part.echo(PROVIDER)
    return dict(found.data) if found is not None else None


def _path(at: str, j: int | None) -> str:
    """A part's path: ``at`` itself, or its ``j``-th item (spelled out only for a warning)."""
    return at if j is None else f"{at}[{j}]"


def encode_part(
    part: ContentPart, at: str, j: int | None, out: WarningSink, *, answer: bool = False
) -> dict[str, Any] | None:
    """One part (at ``at``, or the ``j``-th of the list at ``at``) -> one block, or None with a
    warning. The arms are in order of how often parts come."""
    match part:
        case Text():
            kept = (own(part) or {}).get("citationsContent") if part.provider_echoes else None
            if kept is not None:  # a cited answer from Converse, re-sent as it came
                return {"citationsContent": kept}
            if part.citations:
                why = "Converse takes no citations on a text block; the text is sent"
                out.lossy(f"{_path(at, j)}.citations", "citations", why)
            return {"text": part.text}
        case ToolUse():
            if part.raw_input is not None:
                out.lossy(_path(at, j), "tool_use", "a call whose arguments are not a JSON object cannot be sent")
                return None
            call_id = part.id
            if not call_id:  # ToolUseId: 1-64 characters; a call that came without one gets one
                where = _path(at, j)
                call_id = "tooluse_" + "".join(ch for ch in where if ch.isdigit())
                out.lossy(f"{where}.id", "tool_use", f"the call had no id; sent as {call_id}", action="converted")
            call = {"toolUseId": call_id, "name": part.name, "input": part.input}
            if part.provider_echoes:
                call.update(own(part) or {})
            return {"toolUse": call}
        case ToolResult():
            return _encode_result(part, at, j, out)
        case Image() | Video() | Audio() | Document():
            return _encode_media(part, _path(at, j), out)
        case Thinking():
            data = own(part)
            if data is None and answer:
                return {"reasoningContent": {"reasoningText": {"text": part.text}}}
            if data is None:
                out.lossy(_path(at, j), "thinking", "reasoning Bedrock did not produce cannot be replayed to it")
                return None
            return {"reasoningContent": {"reasoningText": {"text": part.text, **data}}}
        case RedactedThinking():
            data = own(part)
            if data is None or "redactedContent" not in data:
                out.lossy(_path(at, j), "redacted_thinking", "another vendor's redacted reasoning cannot be sent")
                return None
            return {"reasoningContent": {"redactedContent": data["redactedContent"]}}
        case Native():
            if part.provider != PROVIDER:
                out.lossy(_path(at, j), "native", f"{article(part.provider)} block has no place on Converse")
                return None
            return dict(part.data)
        case ImageOutput() | AudioOutput():
            out.lossy(_path(at, j), part.type, "Converse messages carry no model-made media")
            return None
        case _:
            assert_never(part)


_STANDARD = str.maketrans("-_", "+/")


def _encode_media(part: Image | Video | Audio | Document, at: str, out: WarningSink) -> dict[str, Any] | None:
    kind = part.type
    data = own(part) or {}
    source = part.source
    match source:
        case Base64Source():
            # The JSON wire's blob is standard base64; Gemini's URL-safe spelling is the same bytes.
            wire_source: dict[str, Any] = {"bytes": source.data.translate(_STANDARD)}
        case UrlSource() if source.url.startswith("s3://"):
            wire_source = {"s3Location": {"uri": source.url, **data.pop("s3Location", {})}}
        case TextSource() if kind == "document":
            wire_source = {"text": source.text}
        case HandleSource():
            raise unresolved_handle(NAME, at, source)
        case UrlSource() | FileSource() | TextSource():
            out.lossy(at, kind, f"Converse takes {kind} bytes or an s3:// location, not this source")
            return None
        case _:
            assert_never(source)
    mime = source.media_type or ""
    fmt = data.pop("format") if "format" in data else _FORMAT_OF[kind].get(mime)
    if fmt is None and not data.get("formatAbsent"):
        out.lossy(at, kind, f"Converse takes no {kind} of type {mime or 'unknown'}")
        return None
    absent = data.pop("formatAbsent", False)
    block: dict[str, Any] = {} if absent else {"format": fmt}
    if isinstance(part, Document):
        block["name"] = part.name if part.name is not None else "document"
    block["source"] = wire_source
    if isinstance(part, Document):
        if part.context is not None:
            block["context"] = part.context
        if part.citations is not None:
            block["citations"] = {"enabled": part.citations}
    elif isinstance(part, Image):
        out.unsent_media_fields(part, at)
    block.update(data)
    return {kind: block}


def _encode_result(part: ToolResult, at: str, j: int | None, out: WarningSink) -> dict[str, Any]:
    content = part.content
    items: list[dict[str, Any]]
    if isinstance(content, str):
        items = [{"text": content}]
    elif isinstance(content, dict):
        items = [{"json": content}]
    else:
        items = []
        where = f"{_path(at, j)}.content"
        for index, inner in enumerate(content):
            written = encode_part(inner, where, index, out)
            if written is not None:
                items.append(written)
    data = own(part) or {}
    result: dict[str, Any] = {"toolUseId": part.tool_use_id, "content": items}
    if part.is_error:
        result["status"] = "error"
        data.pop("status", None)
    result.update(data)
    return {"toolResult": result}
