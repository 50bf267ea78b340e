"""Content parts, both directions: one small decoder per wire block type, one encoder per IR type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

from interlingua import (
    Audio,
    AudioOutput,
    Base64Source,
    CacheControl,
    ContentPart,
    DecodeError,
    Document,
    FileSource,
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
)
from interlingua.kit import (
    arguments_text,
    article,
    data_url,
    expect,
    join,
    loads,
    maker,
    optional,
    parse_data_url,
    require,
    tool_arguments,
)

from .._media_types import refused_image
from .._shared import BREAKPOINT, BREAKPOINT_TTLS, breakpoint_ttl
from ._echo import Ctx, build, echo_list, extras, merge_into, own, part_of

Block = dict[str, Any]

_AUDIO_FORMATS = {"wav": "audio/wav", "mp3": "audio/mpeg"}
_AUDIO_TYPES = {"audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3"}
_TEXT = frozenset({"type", "text"})
_IMAGE = frozenset({"type", "image_url"})
_URL = frozenset({"url"})
_DETAILS = ("auto", "low", "high", "original")
"""``ImageURL.detail`` (openai.types.chat): Image.detail."""
_CALL = frozenset({"id", "type", "function"})
_FUNCTION = frozenset({"name", "arguments"})
_CUSTOM_CALL = frozenset({"id", "type", "custom"})
_CUSTOM = frozenset({"name", "input"})
CUSTOM = "_custom"
"""The echo flag of a custom tool's call (its object: the ``custom`` keys beside name and input)."""

# The shapes built most, each a constructor made once (``maker``): a third cheaper than ``build``.
_text = maker(Text, "text", "provider_echoes")
_image = maker(Image, "source", "provider_echoes")
_call = maker(ToolUse, "id", "name", "input", "raw_input", "provider_echoes")
_echo_of = maker(ProviderEcho, "provider", "data", "model")  # a call's echo that keeps only its arguments text

# --- decoding: wire block -> IR parts ------------------------------------------------------------


def _decode_text(block: Block, at: str, ctx: Ctx, parts: list[ContentPart]) -> None:
    text = block.get("text")
    if type(text) is not str:
        text = require(block, "text", str, at)
    echoes = [] if len(block) == 2 else echo_list(ctx.provider, extras(block, _TEXT))  # two: type and text
    parts.append(_text(text=text, provider_echoes=echoes))


def _decode_refusal(block: Block, at: str, ctx: Ctx, parts: list[ContentPart]) -> None:
    text = require(block, "refusal", str, at)
    data = {"_refusal": "part", **extras(block, frozenset({"type", "refusal"}))}
    parts.append(build(Text, text=text, provider_echoes=echo_list(ctx.provider, data)))


def url_source(url: str) -> Base64Source | UrlSource:
    inline = parse_data_url(url)
    if inline is None:
        return build(UrlSource, url=url, media_type=None)
    return build(Base64Source, media_type=inline[0], data=inline[1])


def _decode_image(block: Block, at: str, ctx: Ctx, parts: list[ContentPart]) -> None:
    image: Any = block.get("image_url")
    url: Any
    data = {} if len(block) == 2 else extras(block, _IMAGE)  # two: type and image_url
    if isinstance(image, str):  # Mistral also takes the URL itself
        url, data["_bare"] = image, True
    else:
        url = image.get("url") if type(image) is dict else None
        if type(url) is not str:
            url = require(expect(image, dict, join(at, "image_url")), "url", str, join(at, "image_url"))
        detail = image.get("detail")
        if detail is not None and detail not in _DETAILS:  # ``HIGH``, ``hi``: refused, never guessed at
            where = join(at, "image_url.detail")
            raise DecodeError("", where, f"unknown detail {optional(image, 'detail', str, join(at, 'image_url'))!r}")
        if len(image) != 1 and (more := extras(image, _URL if detail is None else _URL | {"detail"})) != {}:
            data["_image_url"] = more
    part = _image(source=url_source(url), provider_echoes=echo_list(ctx.provider, data))
    parts.append(part if detail is None else part.model_copy(update={"detail": detail}))


def _decode_audio(block: Block, at: str, ctx: Ctx, parts: list[ContentPart]) -> None:
    audio = require(block, "input_audio", dict, at)
    where = join(at, "input_audio")
    fmt = require(audio, "format", str, where)
    if fmt not in _AUDIO_FORMATS:  # ``InputAudio.format`` is wav or mp3: ``MP3`` is refused, never guessed at
        raise DecodeError("", join(where, "format"), f"unknown audio format {fmt!r}")
    source = build(Base64Source, media_type=_AUDIO_FORMATS[fmt], data=require(audio, "data", str, where))
    echoes = echo_list(ctx.provider, extras(block, frozenset({"type", "input_audio"})))
    parts.append(build(Audio, source=source, provider_echoes=echoes))


def _decode_file(block: Block, at: str, ctx: Ctx, parts: list[ContentPart]) -> None:
    file = require(block, "file", dict, at)
    where = join(at, "file")
    file_id = optional(file, "file_id", str, where)
    file_data = optional(file, "file_data", str, where)
    inline = parse_data_url(file_data) if file_data is not None else None
    if (file_id is None) == (inline is None) or (file_data is not None and inline is None):
        # both, neither, or file_data that is no data URL (raw base64, a URL): keep verbatim
        parts.append(build(Native, provider=ctx.provider, data=block))
        return
    source = (
        build(FileSource, file_id=file_id, provider=ctx.provider, media_type=None)
        if file_id is not None
        else build(Base64Source, media_type=inline[0], data=inline[1])  # type: ignore[index]  # not None here
    )
    data = extras(block, frozenset({"type", "file"}))
    parts.append(
        build(
            Document,
            source=source,
            name=optional(file, "filename", str, where),
            provider_echoes=echo_list(ctx.provider, data),
        )
    )


def _decode_document_url(block: Block, at: str, ctx: Ctx, parts: list[ContentPart]) -> None:
    url = require(block, "document_url", str, at)
    data = extras(block, frozenset({"type", "document_url", "document_name"}))
    parts.append(
        build(
            Document,
            source=url_source(url),
            name=optional(block, "document_name", str, at),
            provider_echoes=echo_list(ctx.provider, data),
        )
    )


def _decode_thinking(block: Block, at: str, ctx: Ctx, parts: list[ContentPart]) -> None:
    """Mistral's ``{"type": "thinking", "thinking": [text chunks]}``: one Thinking per chunk, the
    first carrying the block's other keys, the rest marked ``_more`` so they rejoin it."""
    chunks = require(block, "thinking", list, at)
    if not chunks or any(not isinstance(c, dict) or c.keys() != {"type", "text"} for c in chunks):
        parts.append(build(Native, provider=ctx.provider, data=block))
        return
    rest = extras(block, frozenset({"type", "thinking"}))
    head = {"_block": rest} if rest else {}
    for i, chunk in enumerate(chunks):
        text = require(chunk, "text", str, join(join(at, "thinking"), i))
        parts.append(
            build(Thinking, text=text, provider_echoes=echo_list(ctx.provider, head if i == 0 else {"_more": True}))
        )


def _decode_native(block: Block, at: str, ctx: Ctx, parts: list[ContentPart]) -> None:
    parts.append(build(Native, provider=ctx.provider, data=block))


BLOCK_DECODERS: dict[str, Callable[[Block, str, Ctx, list[ContentPart]], None]] = {
    "text": _decode_text,
    "refusal": _decode_refusal,
    "image_url": _decode_image,
    "input_audio": _decode_audio,
    "file": _decode_file,
    "document_url": _decode_document_url,
    "thinking": _decode_thinking,
}


def decode_blocks(items: list[Any], at: str, ctx: Ctx) -> list[ContentPart]:
    """A content array -> IR parts; unknown block types are kept as Native (every block has a
    string ``type``: the encoder dispatches on it)."""
    parts: list[ContentPart] = []
    for i, block in enumerate(items):
        where = f"{at}[{i}]"
        kind = block.get("type") if type(block) is dict else None
        if type(kind) is not str:
            kind = require(expect(block, dict, where), "type", str, where)
        decoder = BLOCK_DECODERS.get(kind)
        if decoder is None or (kind == "thinking" and ctx.dialect.reasoning != "mistral_blocks"):
            decoder = _decode_native
        decoder(block, where, ctx, parts)
        if BREAKPOINT in block and hasattr(parts[-1], "cache_control"):  # a cache mark: the spelling is in the echo
            parts[-1] = parts[-1].model_copy(update={"cache_control": breakpoint_mark(block[BREAKPOINT])})
    return parts


def breakpoint_mark(mark: Any) -> CacheControl:
    """A breakpoint's ``cache_control``: its own lifetime (30m, 12h), else the request's
    (``prompt_cache_options.ttl``, the vendor's default: None)."""
    return CacheControl(ttl=breakpoint_ttl(mark.get("ttl") if type(mark) is dict else None))


def decode_tool_call(call: Any, at: str, ctx: Ctx, index: int | None = None) -> ToolUse:
    """``{"id", "type": "function", "function": {"name", "arguments"}}``; arguments that are not a
    JSON object are kept in ``raw_input``. ``index``: the call's place in the array at ``at``,
    spelled into the path only for an error."""
    if type(call) is dict and call.get("type") == "custom":
        return _decode_custom_call(call, at if index is None else f"{at}[{index}]", ctx)
    function = call.get("function") if type(call) is dict else None
    wire_id = name = text = None
    if type(function) is dict:
        wire_id, name, text = call.get("id"), function.get("name"), function.get("arguments")
    if type(call) is dict and call.get("type") not in (None, "function", "custom"):  # ``FUNCTION``: refused
        at = at if index is None else f"{at}[{index}]"
        raise DecodeError("", join(at, "type"), f"unknown tool call type {require(call, 'type', str, at)!r}")
    if type(function) is not dict or type(wire_id) is not str or type(name) is not str or type(text) is not str:
        at = at if index is None else f"{at}[{index}]"
        function = require(expect(call, dict, at), "function", dict, at)  # the readers name what is wrong
        where = join(at, "function")
        wire_id = require(call, "id", str, at)
        name = require(function, "name", str, where)
        text = optional(function, "arguments", str, where)
    bare = text is None  # no arguments at all: a call with no input (OpenRouter answers so)
    if text is None:
        text = ""
    value, raw = tool_arguments(text)
    kept = raw is None and text != "" and respelled(value, text)  # the server's own spacing: {"path": ".env"}
    ctx.names[wire_id] = name
    if call.keys() == _CALL and len(function) == 2:  # nothing else to keep (most calls)
        echoes = [_echo_of(ctx.provider, {"_arguments": text}, None)] if kept else []
        return _call(ctx.ids.decode(wire_id), name, value, raw, echoes)
    data = extras(call, _CALL)
    if kept:
        data["_arguments"] = text
    if bare:
        data[NO_ARGUMENTS] = True
    if "type" not in call:
        data["_omit"] = ["type"]
    if len(function) != 2 and (more := extras(function, _FUNCTION)) != {}:
        data["_function"] = more
    return _call(ctx.ids.decode(wire_id), name, value, raw, echo_list(ctx.provider, data))


def _decode_custom_call(call: Block, at: str, ctx: Ctx) -> ToolUse:
    """A custom tool's call (openai/types/chat/chat_completion_message_custom_tool_call.py: ``id``,
    ``custom: {name, input}``, ``type: "custom"``): a ToolUse whose free-form input is its
    ``raw_input`` (never parsed: it is text, whatever it looks like), so the result that answers it
    is a result of a call on every wire, and other wires report the text input they cannot send."""
    custom = require(call, "custom", dict, at)
    wire_id = require(call, "id", str, at)
    name = require(custom, "name", str, join(at, "custom"))
    text = require(custom, "input", str, join(at, "custom"))
    ctx.names[wire_id] = name
    data = {**extras(call, _CUSTOM_CALL), CUSTOM: extras(custom, _CUSTOM)}
    return _call(ctx.ids.decode(wire_id), name, {}, text, echo_list(ctx.provider, data))


def respelled(value: dict[str, Any], text: str) -> bool:
    """Whether the arguments ``text`` is not what the encoder writes for ``value`` (the core's
    ``arguments_text``: one serialisation, no walk of ``value``), so decode keeps it."""
    return arguments_text(value, None) != text


# --- encoding: IR part -> wire block --------------------------------------------------------------


def _warn_cache(part: ContentPart, at: str, ctx: Ctx) -> None:
    mark = getattr(part, "cache_control", None)
    if mark is None:
        return
    if not part.provider_echoes or BREAKPOINT not in own(part.provider_echoes, ctx.provider):
        why = "the model takes no explicit cache breakpoints (the catalog: gpt-5.6 and later); caching is automatic"
        ctx.out.lossy(at, "cache_control", why)
    elif mark.ttl is not None and mark.ttl not in BREAKPOINT_TTLS:  # the echo's spelling goes back
        ctx.out.lossy(f"{at}.cache_control.ttl", "cache_control", f"a breakpoint takes no {mark.ttl} lifetime")


def _own(part: ContentPart, ctx: Ctx) -> dict[str, Any]:
    """The part's own echo data, without the breakpoint when the part no longer has the mark."""
    data = own(part.provider_echoes, ctx.provider)
    if BREAKPOINT in data and getattr(part, "cache_control", None) is None:
        return {key: value for key, value in data.items() if key != BREAKPOINT}
    return data


def part_path(at: str, j: int, field: str = "parts") -> str:
    """The path of item ``j`` of the list ``field`` at ``at``: spelled out only for a warning."""
    return f"{at}.{field}[{j}]"


def encode_text(part: Text, at: str, j: int, ctx: Ctx, field: str = "parts") -> Block:
    """A text block; the part's path (``part_path(at, j, field)``) is spelled out only to warn."""
    if part.cache_control is not None:
        _warn_cache(part, part_path(at, j, field), ctx)
    if part.citations:
        ctx.out.lossy(part_path(at, j, field), "citations", "a chat request cannot carry citations; the text is kept")
    block = {"type": "text", "text": part.text}
    return merge_into(block, _own(part, ctx)) if part.provider_echoes else block


def _media_url(source: Any) -> str | None:
    """A data URL, or the web URL as it is: ``image_url`` / ``document_url`` have no media type
    field (the server reads the type from what it fetches), so a UrlSource's is not needed."""
    match source:
        case Base64Source():
            return data_url(source.media_type, source.data)
        case UrlSource():
            return source.url
        case _:
            return None


def _encode_image(part: Image, at: str, j: int, ctx: Ctx, field: str) -> Block | None:
    """Part ``j`` of the list ``field`` at ``at`` (the path spelled out only to warn)."""
    if part.cache_control is not None:
        _warn_cache(part, part_path(at, j, field), ctx)
    url = _media_url(part.source)
    refused = refused_image(part.source.media_type) if isinstance(part.source, Base64Source) else None
    if refused is not None:
        ctx.out.lossy(part_path(at, j, field), "image", refused)
        return None
    if url is None:
        why = f"image_url takes a URL or base64, not a {part.source.type} source"
        ctx.out.lossy(part_path(at, j, field), "image", why)
        return None
    echoes = part.provider_echoes
    image: Block = {"url": url} if part.detail is None else {"url": url, "detail": part.detail}
    if not echoes:
        return {"type": "image_url", "image_url": image}
    data = _own(part, ctx)
    if data.get("_bare") is True:
        ctx.out.unsent_media_fields(part, part_path(at, j, field))
        return merge_into({"type": "image_url", "image_url": url}, data)
    return merge_into({"type": "image_url", "image_url": {**image, **part_of(data, "_image_url")}}, data)


def _encode_audio(part: Audio, at: str, ctx: Ctx) -> Block | None:
    _warn_cache(part, at, ctx)
    source = part.source
    fmt = _AUDIO_TYPES.get(source.media_type or "") if isinstance(source, Base64Source) else None
    if not isinstance(source, Base64Source) or fmt is None:
        ctx.out.lossy(at, "audio", "input_audio takes base64 wav or mp3 only")
        return None
    block = {"type": "input_audio", "input_audio": {"data": source.data, "format": fmt}}
    return merge_into(block, _own(part, ctx))


def _encode_document(part: Document, at: str, ctx: Ctx) -> Block | None:
    _warn_cache(part, at, ctx)
    ctx.out.unsent_media_fields(part, at)
    source = part.source
    data = _own(part, ctx)
    if isinstance(source, TextSource):
        ctx.out.lossy(at, "document", "a plain-text document is sent as a text part", action="converted")
        return {"type": "text", "text": source.text}
    if ctx.dialect.document_url and isinstance(source, Base64Source | UrlSource):
        block: Block = {"type": "document_url", "document_url": _media_url(source)}
        if part.name is not None:
            block["document_name"] = part.name
        return merge_into(block, data)
    if isinstance(source, Base64Source):
        file: Block = {"file_data": data_url(source.media_type, source.data)}
    elif isinstance(source, FileSource) and source.provider in (None, ctx.provider):
        file = {"file_id": source.file_id}
    else:
        ctx.out.lossy(at, "document", f"a file part takes base64 data or a file id, not a {source.type} source")
        return None
    if part.name is not None:
        file["filename"] = part.name
    return merge_into({"type": "file", "file": file}, data)


_SDK_BLOCKS = frozenset({"text", "image_url", "input_audio", "file", "refusal"})


def _encode_native(part: Native, at: str, ctx: Ctx) -> Block | None:
    """Our own kept block goes back verbatim. OpenAI rejects block types it does not know, so
    there only the types of its SDK pass; a compatible server's own blocks pass as they came."""
    if part.provider != ctx.provider:
        ctx.out.lossy(at, "native", f"{article(part.provider)} block means nothing to {ctx.provider}")
        return None
    if ctx.dialect.name == "openai" and part.data.get("type") not in _SDK_BLOCKS:
        ctx.out.lossy(at, "native", f"OpenAI knows no content block of type {part.data.get('type')!r}")
        return None
    return dict(part.data)


def encode_user_part(part: ContentPart, at: str, j: int, ctx: Ctx, field: str = "parts") -> Block | None:
    """Part ``j`` of the list ``field`` at ``at``, in a user (or system) message; None when it is
    dropped, with a warning."""
    match part:  # images first: the writers send text parts to ``encode_text`` without asking here
        case Image():
            return _encode_image(part, at, j, ctx, field)
        case Text():
            return encode_text(part, at, j, ctx, field)
        case Audio():
            return _encode_audio(part, part_path(at, j, field), ctx)
        case Video():
            ctx.out.lossy(part_path(at, j, field), "video", "Chat Completions takes no video input")
            return None
        case Document():
            return _encode_document(part, part_path(at, j, field), ctx)
        case Native():
            return _encode_native(part, part_path(at, j, field), ctx)
        case Thinking() | RedactedThinking() | ToolUse() | ImageOutput() | AudioOutput() | ToolResult():
            why = f"{article(part.type)} part cannot stand in {article(ctx.dialect.name)} user turn"
            ctx.out.lossy(part_path(at, j, field), part.type, why)
            return None
        case _:
            assert_never(part)


_KEPT_ARGUMENTS = frozenset({"_arguments"})
NO_ARGUMENTS = "_no_arguments"
"""The echo flag of a call whose ``function`` had no ``arguments`` (recorded: pydantic-ai corpus,
test_openrouter_tool_optional_parameters), read as a call with no input."""
_NONE: dict[str, Any] = {}  # no echo of ours (read, never written to)


def encode_tool_call(part: ToolUse, ctx: Ctx) -> Block:
    echoes = part.provider_echoes
    data = _NONE
    if echoes:
        echo = echoes[0]
        data = echo.data
        if len(echoes) != 1 or echo.provider != ctx.provider or data.keys() != _KEPT_ARGUMENTS:
            data = own(echoes, ctx.provider)  # more kept than the arguments' own text (servers space them)
            if isinstance(data.get(CUSTOM), dict):
                return _encode_custom_call(part, data, ctx)
            function = {"name": part.name, "arguments": call_arguments(part, data)}
            if data.get(NO_ARGUMENTS) is True and function["arguments"] == "{}":
                del function["arguments"]  # as the server left it out, while the input is still none
            function.update(part_of(data, "_function"))
            return merge_into({"id": ctx.ids.encode(part.id), "type": "function", "function": function}, data)
    function = {"name": part.name, "arguments": call_arguments(part, data)}
    return {"id": ctx.ids.encode(part.id), "type": "function", "function": function}


def _encode_custom_call(part: ToolUse, data: dict[str, Any], ctx: Ctx) -> Block:
    """A custom tool's call as it came: its input is the part's text (``raw_input``, or the
    input object as JSON text when a caller set one)."""
    text = part.raw_input if part.raw_input is not None else arguments_text(part.input, None)
    custom = {"name": part.name, "input": text, **data[CUSTOM]}
    return merge_into({"id": ctx.ids.encode(part.id), "type": "custom", "custom": custom}, data)


def call_arguments(part: ToolUse, data: dict[str, Any]) -> str:
    """The arguments text: the server's own spelling when the input is still what it said."""
    raw = part.raw_input
    if raw is not None:
        return raw
    kept = data.get("_arguments")
    value = part.input
    if isinstance(kept, str):
        try:
            if loads(kept) == value:
                return kept
        except ValueError:
            pass
    return arguments_text(value, None)


def thinking_block(part: Thinking, ctx: Ctx) -> Block:
    """Mistral's thinking block for one Thinking part (later ``_more`` parts are appended to it)."""
    data = own(part.provider_echoes, ctx.provider)
    return {"type": "thinking", "thinking": [{"type": "text", "text": part.text}], **part_of(data, "_block")}


def audio_reference(part: AudioOutput, at: str, ctx: Ctx) -> Block | None:
    """A previous audio answer is referred to by its id; its bytes cannot be sent back."""
    data = own(part.provider_echoes, ctx.provider)
    if isinstance(data.get("id"), str):
        return {"id": data["id"]}
    source = part.source
    if isinstance(source, FileSource) and source.provider in (None, ctx.provider):
        return {"id": source.file_id}
    ctx.out.lossy(at, "audio_output", "earlier audio goes back only by the id the server gave it")
    return None


def audio_answer(part: AudioOutput, at: str, ctx: Ctx) -> Block | None:
    """An answer's audio: its id and expiry (from the echo), the bytes and the transcript. Audio
    from elsewhere has no id the server gave it: it goes with an empty id and expiry, warned."""
    if not isinstance(part.source, Base64Source):
        ctx.out.lossy(at, "audio_output", "an answer's audio travels as base64 bytes")
        return None
    audio = merge_into({}, own(part.provider_echoes, ctx.provider))
    if not isinstance(audio.get("id"), str):
        ctx.out.lossy(
            at, "audio_output", "audio not from this server has no audio id; sent with an empty one", action="converted"
        )
        audio.update(id="", expires_at=0)
    audio["data"] = part.source.data
    audio["transcript"] = part.transcript or ""
    return audio


def respell_breakpoint(part: Any, mark: dict[str, Any] | None, provider: str) -> Any:
    """``part`` with ``mark`` as the breakpoint spelled in its own echo (None: none), the rest of
    the echo kept (``_shared.mark_breakpoints`` writes a mark from another wire so)."""
    data = own(part.provider_echoes, provider)
    data.pop(BREAKPOINT, None)
    if mark is not None:
        data[BREAKPOINT] = mark
    mine = part.echo(provider)
    others = [echo for echo in part.provider_echoes if echo.provider != provider]
    return part.model_copy(update={"provider_echoes": [*others, *echo_list(provider, data, mine and mine.model)]})


def spelled_breakpoint(part: Any, provider: str) -> dict[str, Any] | None:
    """The breakpoint spelled in ``part``'s own echo, if any."""
    if not part.provider_echoes:
        return None
    mark = own(part.provider_echoes, provider).get(BREAKPOINT)
    return mark if type(mark) is dict else None
