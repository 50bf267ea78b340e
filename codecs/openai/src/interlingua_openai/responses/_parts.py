"""Content parts <-> the blocks inside Responses items (input_text, input_image, input_file,
output_text with annotations, refusal), both directions; a tool call -> its function_call item."""

from __future__ import annotations

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
    DecodeError,
    Document,
    FileSource,
    HandleSource,
    Image,
    ImageOutput,
    Native,
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

from .._media_types import refused_image
from .._shared import BREAKPOINT, BREAKPOINT_TTLS, PROVIDER, breakpoint_ttl
from . import _echo

Block = dict[str, Any]

# --- decoding: wire block -> part --------------------------------------------------------------
#
# Each decoder takes the block, the path of the list it sits in and its index there (None: ``at``
# is the block's own path), and spells the path out only for a reader that may fail.

_TEXT_KEYS = frozenset({"type", "text"})
_IMAGE_KEYS = frozenset({"type", "image_url"})
_IMAGE_FILE_KEYS = frozenset({"type", "file_id"})
_OUTPUT_TEXT_KEYS = frozenset({"type", "text", "annotations"})
_DETAIL = frozenset({"detail"})
_ABSENT = object()

# The shapes decoded most, each a constructor made once (``maker``): a third cheaper than
# ``build``, with the same fields set.
_text = maker(Text, "text", "provider_echoes")
_image = maker(Image, "source", "provider_echoes")
_base64 = maker(Base64Source, "media_type", "data")
_url = maker(UrlSource, "url")


def path(at: str, i: int | None) -> str:
    """A value's path: ``at`` itself, or its ``i``-th item."""
    return at if i is None else f"{at}[{i}]"


def decode_input_text(block: Block, at: str, i: int | None = None) -> ContentPart:
    text = block.get("text")
    if type(text) is not str:
        text = require(block, "text", str, path(at, i))
    if block.keys() <= _TEXT_KEYS:  # most blocks: nothing else to keep
        return _text(text=text, provider_echoes=[])
    extra = _echo.leftover(block, _TEXT_KEYS)
    return _text(text=text, provider_echoes=_echo.make(_echo.with_extra({}, extra)))


def decode_input_image(block: Block, at: str, i: int | None = None) -> ContentPart:
    """An ``input_image``; its ``detail`` is kept in the echo unless it is ``"auto"``.

    The SDK's ``ResponseInputImageParam`` requires ``detail`` and documents ``"auto"`` as the
    default, so the encoder writes ``"auto"`` for an image without an echo: reading that value back
    as "no echo" makes IR -> wire -> IR exact, and a recorded ``"detail": "auto"`` still
    re-encodes as it came. Only an absent detail (``omit``) or another value needs the echo.
    """
    url, file_id = block.get("image_url"), block.get("file_id")
    if (url is not None and type(url) is not str) or (file_id is not None and type(file_id) is not str):
        where = path(at, i)  # one of them is no string: the readers name which
        url, file_id = optional(block, "image_url", str, where), optional(block, "file_id", str, where)
    source: Base64Source | UrlSource | FileSource
    if url is not None:
        inline = parse_data_url(url)
        source = _base64(media_type=inline[0], data=inline[1]) if inline else _url(url=url)
        used = _IMAGE_KEYS
    elif file_id is not None:
        source, used = _echo.build(FileSource, file_id=file_id, provider=PROVIDER), _IMAGE_FILE_KEYS
    else:
        return _decode_native_block(block, at, i)
    detail = block.get("detail", _ABSENT)
    if detail is not _ABSENT and detail not in _DETAILS:  # ``HIGH``: refused, never guessed at
        where = path(at, i)
        raise DecodeError("", join(where, "detail"), f"unknown detail {optional(block, 'detail', str, where)!r}")
    if detail in _DETAILS:  # "auto", the default the encoder writes (_encode_image), is Image.detail None
        if block.keys() <= used | _DETAIL:
            return _detailed(_image(source=source, provider_echoes=[]), detail)
        used |= _DETAIL
    if detail is _ABSENT and block.keys() <= used:  # no detail, nothing else: the common echo
        return _image(source=source, provider_echoes=_echo.make({"omit": ["detail"]}))
    data = _echo.with_extra({}, _echo.leftover(block, used))
    if detail is _ABSENT:
        data["omit"] = ["detail"]
    return _detailed(_image(source=source, provider_echoes=_echo.make(data)), detail)


_DETAILS = ("auto", "low", "high", "original")
"""``ResponseInputImageParam.detail`` (openai.types.responses)."""


def _detailed(image: Image, detail: Any) -> Image:
    """Image.detail: the sender's resolution choice, which Chat and Cohere spell alike."""
    return image if detail in (_ABSENT, "auto") else image.model_copy(update={"detail": detail})


def decode_input_file(block: Block, at: str, i: int | None = None) -> ContentPart:
    where = path(at, i)
    file_data = optional(block, "file_data", str, where)
    file_id = optional(block, "file_id", str, where)
    file_url = optional(block, "file_url", str, where)
    name = optional(block, "filename", str, where)
    source: Base64Source | UrlSource | FileSource
    used = {"type", "filename"}
    inline = parse_data_url(file_data) if file_data is not None else None
    if inline is not None:
        source, used = b64(inline[0], inline[1]), used | {"file_data"}
    elif file_id is not None:
        source, used = _echo.build(FileSource, file_id=file_id, provider=PROVIDER), used | {"file_id"}
    elif file_url is not None:
        source, used = _echo.build(UrlSource, url=file_url), used | {"file_url"}
    else:
        return _decode_native_block(block, at, i)
    detail = block.get("detail")
    if detail is not None:
        if detail not in _FILE_DETAILS:  # ``HIGH``: refused, never guessed at
            raise DecodeError("", join(where, "detail"), f"unknown detail {optional(block, 'detail', str, where)!r}")
        used.add("detail")
    extra = _echo.leftover(block, frozenset(used))
    echoes = _echo.make(_echo.with_extra({}, extra))
    return _echo.build(Document, source=source, name=name, detail=detail, provider_echoes=echoes)


_FILE_DETAILS = ("auto", "low", "high")
"""``ResponseInputFileParam.detail`` (openai.types.responses): the rendering of a PDF's page
images, which Chat's file part lacks (https://developers.openai.com/api/docs/guides/file-inputs)."""


def decode_output_text(block: Block, at: str, i: int | None = None) -> Text:
    where = path(at, i)
    text = require(block, "text", str, where)
    citations = [decode_annotation(a, at_a, text) for at_a, a in _each(block, "annotations", where)]
    data = _echo.with_extra({}, _echo.leftover(block, _OUTPUT_TEXT_KEYS))
    if "annotations" not in block:
        data["omit"] = ["annotations"]
    return _echo.build(Text, text=text, citations=citations, provider_echoes=_echo.make(data))


def decode_refusal(block: Block, at: str, i: int | None = None) -> Text:
    text = require(block, "refusal", str, path(at, i))
    data = _echo.with_extra({"refusal": True}, _echo.leftover(block, frozenset({"type", "refusal"})))
    return _echo.build(Text, text=text, provider_echoes=_echo.make(data))


def _decode_native_block(block: Block, at: str, i: int | None = None) -> ContentPart:
    """A content block with no IR home, kept verbatim; ``in_content`` puts it back in the list.
    Its ``type`` must be a string: encoders dispatch on it."""
    if type(block.get("type")) is not str:
        require(block, "type", str, path(at, i))
    return _echo.build(Native, provider=PROVIDER, data=dict(block), provider_echoes=_echo.make({"in_content": True}))


def b64(media_type: str, data: str) -> Base64Source:
    return _base64(media_type=media_type, data=data)


CONTENT_DECODERS: dict[str, Callable[[Block, str, int | None], ContentPart]] = {
    "input_text": decode_input_text,
    "input_image": decode_input_image,
    "input_file": decode_input_file,
    "output_text": decode_output_text,
    "refusal": decode_refusal,
}


def decode_content_block(block: Any, at: str, i: int | None = None) -> ContentPart:
    """One content block, at ``at`` or the ``i``-th item of the list at ``at``."""
    if type(block) is not dict:
        block = expect(block, dict, path(at, i))
    kind = block.get("type")
    decode = CONTENT_DECODERS.get(kind) if type(kind) is str else None
    part = decode(block, at, i) if decode else _decode_native_block(block, at, i)
    if BREAKPOINT in block and hasattr(part, "cache_control"):  # a cache mark: the spelling is in the echo
        mark = block[BREAKPOINT]
        ttl = breakpoint_ttl(mark.get("ttl") if type(mark) is dict else None)
        return part.model_copy(update={"cache_control": CacheControl(ttl=ttl)})
    return part


# A block's explicit cache breakpoint (``PromptCacheBreakpoint`` of openai.types.responses: ``mode``
# explicit, ``ttl`` 30m or 12h; "marks the exact end of a reusable prompt prefix", gpt-5.6 and later:
# https://developers.openai.com/api/docs/guides/prompt-caching): the part's ``cache_control``, its
# own lifetime or else the request's (None); the spelling kept in the echo and written back while
# the part keeps the mark.


def decode_content(blocks: list[Any], at: str) -> list[ContentPart]:
    """A content list at ``at``; each block's path is spelled out only for an error."""
    return [decode_content_block(block, at, i) for i, block in enumerate(blocks)]


def _each(block: Block, key: str, at: str) -> list[tuple[str, Block]]:
    items = block.get(key)
    if items is None:
        return []
    where = join(at, key)
    return [(f"{where}[{i}]", expect(item, dict, f"{where}[{i}]")) for i, item in enumerate(expect(items, list, where))]


# --- citations -----------------------------------------------------------------------------------


def _span(text: str, start: int | None, end: int | None) -> str | None:
    if start is None or end is None or not 0 <= start <= end <= len(text):
        return None
    return text[start:end]


def decode_annotation(block: Block, at: str, text: str) -> Citation:
    """url_citation, file_citation, container_file_citation, file_path -> Citation; the kind and
    the file and container ids ride in the citation's echo."""
    kind = require(block, "type", str, at)
    if kind == "url_citation":
        start, end = require(block, "start_index", int, at), require(block, "end_index", int, at)
        url, title = require(block, "url", str, at), optional(block, "title", str, at)
        source = _echo.build(CitationSource, type="url", url=url, title=title)
        used = {"type", "start_index", "end_index", "url", "title"}
        return _citation(block, used, source, start, end, text, {})
    if kind == "container_file_citation":
        start, end = require(block, "start_index", int, at), require(block, "end_index", int, at)
        source = _echo.build(CitationSource, type="document", title=optional(block, "filename", str, at))
        used = {"type", "start_index", "end_index", "filename"}
        return _citation(block, used, source, start, end, text, {"type": kind})
    if kind in ("file_citation", "file_path"):
        index = optional(block, "index", int, at)
        source = _echo.build(CitationSource, type="document", title=optional(block, "filename", str, at))
        return _citation(block, {"type", "index", "filename"}, source, index, None, text, {"type": kind})
    data = {"type": kind, "extra": dict(block)}
    return _echo.build(Citation, source=_echo.build(CitationSource, type="document"), provider_echoes=_echo.make(data))


def _citation(
    block: Block,
    used: set[str],
    source: CitationSource,
    start: int | None,
    end: int | None,
    text: str,
    data: dict[str, Any],
) -> Citation:
    _echo.with_extra(data, _echo.leftover(block, frozenset(used)))
    return _echo.build(
        Citation,
        cited_text=_span(text, start, end),
        source=source,
        start=start,
        end=end,
        provider_echoes=_echo.make(data),
    )


_ANNOTATION_KINDS = frozenset({"url_citation", "file_citation", "container_file_citation", "file_path"})


def encode_citation(citation: Citation, at: str, out: WarningSink) -> Block | None:
    data = _echo.own(citation)
    kind = data.get("type") if data.get("type") in _ANNOTATION_KINDS else "url_citation"
    if isinstance(data.get("type"), str) and kind != data.get("type"):
        return _echo.apply({}, data)  # an annotation kind this codec does not know, kept verbatim
    source = citation.source
    block: Block
    if kind == "url_citation":
        if source.url is None or citation.start is None or citation.end is None:
            out.lossy(at, "citations", "a url_citation needs a url and a start and end index")
            return None
        block = {
            "type": kind,
            "start_index": citation.start,
            "end_index": citation.end,
            "title": source.title or "",
            "url": source.url,
        }
    elif kind == "container_file_citation":
        block = {"type": kind, "start_index": citation.start, "end_index": citation.end, "filename": source.title}
    else:
        block = {"type": kind, "index": citation.start}
        if source.title is not None:
            block["filename"] = source.title
    return _echo.apply(block, data)


# --- encoding: part -> wire block ----------------------------------------------------------------


def encode_input_part(part: ContentPart, at: str, j: int | None, out: WarningSink) -> Block | None:
    """A part inside a user, system or developer message (or a function_call_output list), at
    ``at`` or the ``j``-th of the list there (spelled out only for a warning)."""
    match part:
        case Text():
            return _encode_input_text(part, at, j, out)
        case Image():
            return _encode_image(part, path(at, j), out)
        case Document():
            return _encode_document(part, path(at, j), out)
        case Audio():
            out.lossy(path(at, j), "audio", "the Responses API takes no audio input in messages")
            return None
        case Video():
            out.lossy(path(at, j), "video", "the Responses API takes no video input")
            return None
        case Native():
            return encode_native_block(part, path(at, j), out)
        case (
            Thinking() | RedactedThinking() | ToolUse() | ToolResult() | ImageOutput() | AudioOutput()
        ):  # pragma: no cover - the item encoder routes these before calling here
            out.lossy(path(at, j), part.type, "not expected inside message content")
            return None
        case _:
            assert_never(part)


def _cache_warning(part: Any, at: str, out: WarningSink) -> None:
    mark = part.cache_control
    if mark is None:
        return
    if BREAKPOINT not in (_echo.object_at(_echo.own(part), "extra") or {}):
        why = "the model takes no explicit cache breakpoints (the catalog: gpt-5.6 and later); caching is automatic"
        out.lossy(at, "cache_control", why)
    elif mark.ttl is not None and mark.ttl not in BREAKPOINT_TTLS:  # the echo's spelling goes back
        out.lossy(f"{at}.cache_control.ttl", "cache_control", f"a breakpoint takes no {mark.ttl} lifetime")


def _own(part: Any) -> dict[str, Any]:
    """The part's own echo data, without the breakpoint when the part no longer has the mark."""
    data = _echo.own(part)
    extra = _echo.object_at(data, "extra")
    if extra is not None and BREAKPOINT in extra and part.cache_control is None:
        return {**data, "extra": {key: value for key, value in extra.items() if key != BREAKPOINT}}
    return data


def _encode_input_text(part: Text, at: str, j: int | None, out: WarningSink) -> Block:
    block = {"type": "input_text", "text": part.text}
    if not part.provider_echoes and part.cache_control is None and not part.citations:
        return block  # most text: nothing to merge or to warn about
    _cache_warning(part, path(at, j), out)
    if part.citations:
        out.lossy(join(path(at, j), "citations"), "citations", "input text carries no annotations")
    return _echo.apply(block, _own(part))


def _encode_image(part: Image, at: str, out: WarningSink) -> Block | None:
    """``input_image``; a web URL goes as it is (``image_url`` has no media type field: OpenAI
    reads the type from what it fetches, as for ``input_file``'s ``file_url``)."""
    _cache_warning(part, at, out)
    source = part.source
    block: Block = {"type": "input_image", "detail": part.detail or "auto"}  # auto: the default, no echo
    match source:
        case Base64Source():
            if (refused := refused_image(source.media_type)) is not None:
                out.lossy(at, "image", refused)
                return None
            block["image_url"] = data_url(source.media_type, source.data)
        case UrlSource():
            block["image_url"] = source.url
        case FileSource():
            if source.provider not in (None, PROVIDER):
                out.lossy(at, "image", f"a file of {source.provider}'s file store cannot be sent to OpenAI")
                return None
            block["file_id"] = source.file_id
        case TextSource():
            out.lossy(at, "image", "an image cannot have a text source")
            return None
        case HandleSource():
            raise unresolved_handle(out.codec, f"{at}.source", source)
        case _:
            assert_never(source)
    return _echo.apply(block, _own(part))


def _encode_document(part: Document, at: str, out: WarningSink) -> Block | None:
    _cache_warning(part, at, out)
    out.unsent_media_fields(part, at, sends_detail=True)
    source = part.source
    block: Block = {"type": "input_file"}
    match source:
        case Base64Source():
            block["file_data"] = data_url(source.media_type, source.data)
        case UrlSource():
            block["file_url"] = source.url
        case FileSource():
            if source.provider not in (None, PROVIDER):
                out.lossy(at, "document", f"a file of {source.provider}'s file store cannot be sent to OpenAI")
                return None
            block["file_id"] = source.file_id
        case TextSource():
            out.lossy(at, "document", "a plain-text document is sent as input_text", action="converted")
            return {"type": "input_text", "text": source.text}
        case HandleSource():
            raise unresolved_handle(out.codec, f"{at}.source", source)
        case _:
            assert_never(source)
    if part.name is not None:
        block["filename"] = part.name
    elif isinstance(source, Base64Source):
        block["filename"] = "document"  # the API requires a filename with file_data
    if part.detail is not None:
        block["detail"] = part.detail
    return _echo.apply(block, _own(part))


def encode_native_block(part: Native, at: str, out: WarningSink) -> Block | None:
    if part.provider != PROVIDER:
        out.lossy(at, "native", f"{article(part.provider)} block has no OpenAI form")
        return None
    if is_chat_block(part):
        return _encode_chat_block(part.data, at, out)
    return dict(part.data)


# Chat content blocks (openai/types/chat/chat_completion_content_part_param.py) the Chat decoder
# keeps verbatim when the IR has no part for them (a ``file`` whose file_data is a URL, not a
# data URL). The two wires share the provider key, so such a block can reach this encoder.
_CHAT_BLOCKS = frozenset({"file", "image_url", "input_audio"})


def is_chat_block(part: Native) -> bool:
    """A native part holding a Chat content block: it belongs inside a message's content."""
    return part.provider == PROVIDER and part.data.get("type") in _CHAT_BLOCKS


def _encode_chat_block(block: Mapping[str, Any], at: str, out: WarningSink) -> Block | None:
    """A Chat ``file`` block as ``input_file`` (openai/types/responses/response_input_file_param.py):
    file_id stays file_id, a data URL is file_data, an http(s) URL is file_url. Anything else
    (a ``gs://`` path, an unknown key, another block type) has no faithful Responses form."""
    file = block.get("file")
    if block.get("type") == "file" and isinstance(file, Mapping) and file.keys() <= _CHAT_FILE_KEYS:
        item: Block = {"type": "input_file"}
        if isinstance(file_id := file.get("file_id"), str):
            item["file_id"] = file_id
        data = file.get("file_data")
        if isinstance(data, str) and data.startswith("data:"):
            item["file_data"] = data
        elif isinstance(data, str) and data.startswith(("https://", "http://")):
            item["file_url"] = data
        elif data is not None:
            item = {}
        if len(item) > 1:
            if isinstance(name := file.get("filename"), str):
                item["filename"] = name
            return item
    why = "the Responses API takes a file by id, data URL or http(s) URL only"
    out.lossy(at, "native", f"a Chat {block.get('type')} block with no Responses form: {why}")
    return None


_CHAT_FILE_KEYS = frozenset({"file_id", "file_data", "filename"})


def encode_output_text(part: Text, at: str, out: WarningSink) -> Block:
    """An assistant text part as output_text (or refusal, when it was one)."""
    data = _echo.own(part)
    _cache_warning(part, at, out)
    if _echo.flag(data, "refusal"):
        return _echo.apply({"type": "refusal", "refusal": part.text}, data)
    annotations = []
    for i, citation in enumerate(part.citations):
        block = encode_citation(citation, f"{at}.citations[{i}]", out)
        if block is not None:
            annotations.append(block)
    return _echo.apply({"type": "output_text", "text": part.text, "annotations": annotations}, data)


# --- encoding: a tool call -> its function_call item ----------------------------------------------

# The arguments text encode writes for an input when none was recorded: compact JSON, the same
# function both ways, so a decoded text that equals it needs no echo (and 1.5e-7 stays 1.5e-7).
canonical_arguments = dumps


def encode_function_call(part: ToolUse) -> Block:
    """A ``function_call`` item; the keys of the item it was decoded from (``id``, ``status``)
    come back over it. Never a warning: every ToolUse has this form."""
    if not part.provider_echoes and part.raw_input is None:  # the common case, spelled out
        return {
            "type": "function_call",
            "call_id": part.id,
            "name": part.name,
            "arguments": canonical_arguments(part.input),
        }
    data = _echo.own(part) if part.provider_echoes else {}
    item: Block = {"type": "function_call", "call_id": part.id, "name": part.name}
    item["arguments"] = encode_arguments(part, data)
    own = _echo.object_at(data, "item") if data else None
    if own:
        item.update(own)
    return item


def encode_arguments(part: ToolUse, data: dict[str, Any]) -> str:
    """The kept raw text, the recorded arguments text while it still says ``input``, else the
    canonical compact JSON (what decode compared the wire's text with)."""
    if part.raw_input is not None:
        return part.raw_input
    recorded = data.get("arguments")
    if isinstance(recorded, str) and tool_arguments(recorded) == (part.input, None):
        return recorded
    return canonical_arguments(part.input)


def spelled_breakpoint(part: Any) -> dict[str, Any] | None:
    """The breakpoint spelled in ``part``'s own echo, if any."""
    if not part.provider_echoes:
        return None
    mark = (_echo.object_at(_echo.own(part), "extra") or {}).get(BREAKPOINT)
    return mark if type(mark) is dict else None


def respell_breakpoint(part: Any, mark: dict[str, Any] | None) -> Any:
    """``part`` with ``mark`` as the breakpoint in its own echo (None: none), the rest kept
    (``_shared.mark_breakpoints`` writes a mark from another wire so)."""
    data = dict(_echo.own(part))
    extra = {key: value for key, value in (_echo.object_at(data, "extra") or {}).items() if key != BREAKPOINT}
    if mark is not None:
        extra[BREAKPOINT] = mark
    data.pop("extra", None)
    if extra:
        data["extra"] = extra
    others = [echo for echo in part.provider_echoes if echo.provider != PROVIDER]
    return part.model_copy(update={"provider_echoes": [*others, *_echo.make(data, _echo.own_model(part))]})
