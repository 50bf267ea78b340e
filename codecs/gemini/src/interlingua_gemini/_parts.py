"""Parts, both directions: one encoder per IR part type, one decoder per Gemini part kind.

A Gemini part is an object with one data field (``text``, ``functionCall``, ``inlineData``, ...)
and optional fields beside it (``thought``, ``thoughtSignature``, ``videoMetadata``, ...). The
fields beside the data ride in the part's ``gemini`` echo and are written back verbatim; a part
kind with no IR home (``executableCode``, ``codeExecutionResult``, ...) becomes ``Native``.

Echo data also holds two flags of this codec's own: ``syntheticId`` (the wire call had no id, the
codec made one up and does not send it back) and ``argsAbsent`` / ``responseAbsent`` (the wire
left the field out). Thinking parts decoded here always carry a ``gemini`` echo, even an empty
one: it is how the encoder tells Gemini's own thoughts from another vendor's.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, assert_never

from interlingua import (
    Audio,
    AudioOutput,
    Base64Source,
    ContentPart,
    DecodeError,
    Document,
    EncodeError,
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
from interlingua.kit import article, expect, join, maker, optional, parse_data_url, require, unresolved_handle

from ._keys import check_camel
from ._media_types import MEDIA_TYPES

if TYPE_CHECKING:
    from interlingua.kit import ModelSpec

PROVIDER = "gemini"
NAME = "gemini"
PLACEHOLDER_SIGNATURE = "skip_thought_signature_validator"
"""The signature Google documents for function calls that did not come from Gemini (a transcript
from another vendor, or edited by hand): Gemini 3 then skips its signature check."""

FILES_PREFIX = "https://generativelanguage.googleapis.com/"
"""fileUri values under this prefix are files of the Gemini Files API (FileSource); others URLs."""

DATA_KEYS = ("text", "functionCall", "functionResponse", "inlineData", "fileData")
PART_EXTRAS = frozenset(
    {
        "thought",
        "thoughtSignature",
        "videoMetadata",
        "mediaResolution",
        "partMetadata",
        "mediaProcessing",
        "audioTranscription",
        "speechMetadata",
        "documentMetadata",
        "spreadsheetMetadata",
        "audioMetadata",
    }
)
"""Part fields beside the data field (google-genai ``Part``), carried in the echo."""
RESPONSE_PART_EXTRAS = frozenset(
    {"videoMetadata", "mediaResolution", "mediaProcessing", "documentMetadata", "spreadsheetMetadata", "audioMetadata"}
)
"""What a ``FunctionResponsePart`` holds beside inlineData / fileData."""
UNMAPPED = frozenset(
    {
        "videoMetadata",
        "mediaResolution",
        "audioTranscription",
        "speechMetadata",
        "documentMetadata",
        "spreadsheetMetadata",
        "audioMetadata",
    }
)
"""Extras with a meaning no IR field holds: a video's or audio's clip and frame rate, the
tokens a medium is given, a transcription, a speaker and style, a page or cell range
(google-genai ``VideoMetadata``, ``PartMediaResolution``, ``Transcription``, ``SpeechMetadata``,
``DocumentMetadata``, ``SpreadsheetMetadata``, ``AudioMetadata``): marked ``unmapped`` in the
echo, so every other wire reports them dropped. A part's ``mediaResolution`` is no
``Image.detail``: its levels are token budgets (LOW, MEDIUM, HIGH, ULTRA_HIGH, or ``numTokens``),
set per part on Gemini 3 models only (https://ai.google.dev/gemini-api/docs/media-resolution)."""


def bare_model(model: str | None) -> str | None:
    """``models/gemini-x`` and ``.../publishers/google/models/gemini-x`` -> ``gemini-x``."""
    return model.rsplit("/", 1)[-1] if model else model


# Every shape a part decodes to, each a constructor made once (``maker``): a third cheaper than
# ``construct``, with the same fields set.
_echo = maker(ProviderEcho, "provider", "data", "model")
_unmapped_echo = maker(ProviderEcho, "provider", "data", "model", "unmapped")
_native = maker(Native, "provider", "data")
_signed_native = maker(Native, "provider", "data", "provider_echoes")
_text = maker(Text, "text")
_echoed_text = maker(Text, "text", "provider_echoes")
_echoed_thinking = maker(Thinking, "text", "provider_echoes")
_call = maker(ToolUse, "id", "name", "input", "provider_echoes")
_result = maker(ToolResult, "tool_use_id", "name", "content", "is_error", "provider_echoes")
_base64 = maker(Base64Source, "media_type", "data")
_file = maker(FileSource, "file_id", "provider", "media_type")
_url = maker(UrlSource, "url", "media_type")
_image_output = maker(ImageOutput, "source", "provider_echoes")
_audio_output = maker(AudioOutput, "source", "provider_echoes")
_image = maker(Image, "source", "provider_echoes")
_audio = maker(Audio, "source", "provider_echoes")
_video = maker(Video, "source", "provider_echoes")
_document = maker(Document, "source", "provider_echoes")


# --- decoding ----------------------------------------------------------------------------------


class Decoding:
    """One body's decoding state: the model echoes are bound to, and the ids made up for calls
    that had none. A functionResponse without id answers the oldest open call of its name, the
    call's own id or a made-up one: Gemini pairs responses with calls by name and order, and
    takes a response without id for a call that had one (the answer's id is then left out again
    on encode, so the body comes back as it was).

    ``camel_only``: the request decoder's fast pass, which reads camelCase keys only; whatever is
    kept unread (echo data, native parts) is checked for snake_case keys (``check_camel``)."""

    __slots__ = ("calls", "camel_only", "model", "pending", "prefix")

    def __init__(self, model: str | None, prefix: str = "call_", *, camel_only: bool = False) -> None:
        self.model = model
        self.prefix = prefix
        self.calls = 0
        self.pending: dict[str, list[str]] = {}
        self.camel_only = camel_only

    def synthetic_id(self, name: str) -> str:
        made = f"{self.prefix}{self.calls}"
        self.calls += 1
        self.pending.setdefault(name, []).append(made)
        return made

    def open_call(self, name: str, call_id: str) -> None:
        """A call that came with its id: a response without one may still answer it by name."""
        self.pending.setdefault(name, []).append(call_id)

    def answer_id(self, name: str) -> str:
        queue = self.pending.get(name)
        if queue:
            return queue.pop(0)
        made = f"{self.prefix}{self.calls}"
        self.calls += 1
        return made

    def answered(self, name: str, call_id: str) -> None:
        """A response that named its call's id closes that call."""
        queue = self.pending.get(name)
        if queue and call_id in queue:
            queue.remove(call_id)

    def echo(self, data: dict[str, Any]) -> list[ProviderEcho]:
        if self.camel_only:
            check_camel(data)
        if data.keys() & UNMAPPED:
            unmapped = sorted(data.keys() & UNMAPPED)
            return [_unmapped_echo(provider=PROVIDER, data=data, model=self.model, unmapped=unmapped)]
        return [_echo(provider=PROVIDER, data=data, model=self.model)]

    def native(self, block: dict[str, Any]) -> Native:
        """A part kind with no IR home, kept whole; its ``thoughtSignature`` rides in an echo
        with the model, as on the IR's parts, since it is bound to that model."""
        if self.camel_only:
            check_camel(block)
        signature = block.get("thoughtSignature")
        if signature is None or len(block) == 1:
            return _native(provider=PROVIDER, data=block)
        data = {key: value for key, value in block.items() if key != "thoughtSignature"}
        return _signed_native(provider=PROVIDER, data=data, provider_echoes=self.echo({"thoughtSignature": signature}))


def _beside(block: dict[str, Any], main: str, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    return {key: value for key, value in block.items() if key != main and key not in skip}


def _sub_extras(value: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    if value.keys() <= known:
        return {}
    return {key: item for key, item in value.items() if key not in known}


def within(at: str, err: DecodeError) -> DecodeError:
    """``err``, raised with a path relative to the value at ``at``, with its whole path.

    Part decoders read with paths relative to the part (constant strings), and the loops name
    where a part sits only when it is bad: formatting ``contents[12].parts[3]`` for every part
    that is fine costs more than reading it."""
    return DecodeError(err.codec, join(at, err.path) if err.path else at, err.reason)


def decode_parts(blocks: Any, at: str, ctx: Decoding, *, model_role: bool) -> list[ContentPart]:
    """The wire array ``blocks`` at ``at`` (absent or null: no parts) -> IR parts."""
    if blocks is None:
        return []
    if type(blocks) is not list:
        blocks = expect(blocks, list, at)
    parts: list[ContentPart] = []
    for index, block in enumerate(blocks):
        try:
            parts.append(_decode_part(block, ctx, model_role))
        except DecodeError as err:
            raise within(f"{at}[{index}]", err) from None
    return parts


def decode_part(block: Any, at: str, ctx: Decoding, *, model_role: bool) -> ContentPart:
    """One wire part at ``at`` -> one IR part; a kind with no IR home is kept whole as Native."""
    try:
        return _decode_part(block, ctx, model_role)
    except DecodeError as err:
        raise within(at, err) from None


# The decoders below read a part with paths relative to it. A value of the exact JSON type is
# taken as is; anything else goes through the core reader, which accepts what it may (a Mapping,
# an int for a float) and otherwise raises the DecodeError naming the field.


def _decode_part(block: Any, ctx: Decoding, model_role: bool) -> ContentPart:
    if type(block) is not dict:
        block = expect(block, dict, "")
    for key in DATA_KEYS:
        if key in block:
            return _DECODERS[key](block, ctx, model_role)
    return ctx.native(block)


def _decode_text(block: dict[str, Any], ctx: Decoding, model_role: bool) -> ContentPart:
    text = block["text"]
    if type(text) is not str:
        text = expect(text, str, "text")
    if len(block) == 1:
        return _text(text=text)
    if block.get("thought") is True:
        return _echoed_thinking(text=text, provider_echoes=ctx.echo(_beside(block, "text", ("thought",))))
    return _echoed_text(text=text, provider_echoes=ctx.echo(_beside(block, "text")))


_CALL_KEYS = frozenset({"name", "args", "id"})
_ANSWER_KEYS = frozenset({"name", "id", "response", "parts"})
_BLOB_KEYS = frozenset({"mimeType", "data"})
_FILE_KEYS = frozenset({"fileUri", "mimeType"})


def _decode_call(block: dict[str, Any], ctx: Decoding, model_role: bool) -> ContentPart:
    call = block["functionCall"]
    if type(call) is not dict:
        call = expect(call, dict, "functionCall")
    name = require(call, "name", str, "functionCall")
    args = optional(call, "args", dict, "functionCall")
    call_id = optional(call, "id", str, "functionCall")
    data = _beside(block, "functionCall") if len(block) > 1 else {}
    if sub := _sub_extras(call, _CALL_KEYS):
        data["functionCall"] = sub
    if call_id is None:
        call_id = ctx.synthetic_id(name)
        data["syntheticId"] = True
    else:
        ctx.open_call(name, call_id)
    if args is None:
        data["argsAbsent"] = True
    return _call(id=call_id, name=name, input=args or {}, provider_echoes=ctx.echo(data) if data else [])


def _decode_response(block: dict[str, Any], ctx: Decoding, model_role: bool) -> ContentPart:
    answer = block["functionResponse"]
    if type(answer) is not dict:
        answer = expect(answer, dict, "functionResponse")
    name = require(answer, "name", str, "functionResponse")
    call_id = optional(answer, "id", str, "functionResponse")
    response = optional(answer, "response", dict, "functionResponse")
    media = _decode_answer_media(answer.get("parts"), ctx)
    data = _beside(block, "functionResponse") if len(block) > 1 else {}
    if sub := _sub_extras(answer, _ANSWER_KEYS):
        data["functionResponse"] = sub
    if call_id is None:
        call_id = ctx.answer_id(name)
        data["syntheticId"] = True
    else:
        ctx.answered(name, call_id)
    if response is None:
        data["responseAbsent"] = True
    content, is_error, kept = _result_content(response or {}, media)
    if kept:
        data["response"] = response
    return _result(
        tool_use_id=call_id,
        name=name,
        content=content,
        is_error=is_error,
        provider_echoes=ctx.echo(data) if data else [],
    )


def _decode_answer_media(items: Any, ctx: Decoding) -> list[ContentPart]:
    """``functionResponse.parts``: the media of a multimodal function response."""
    if items is None:
        return []
    media: list[ContentPart] = []
    for index, item in enumerate(expect(items, list, "functionResponse.parts")):
        try:
            media.append(_decode_media(item, ctx))
        except DecodeError as err:
            raise within(f"functionResponse.parts[{index}]", err) from None
    return media


def _result_content(response: dict[str, Any], media: list[ContentPart]) -> tuple[Any, bool, bool]:
    """(content, is_error, whether ``response`` must ride in the echo).

    Google's documented shape: ``{"output": ...}`` for a result, ``{"error": ...}`` for a failure.
    A lone string output/error becomes str content; a lone error object, dict content with
    is_error; any other object, dict content as is. Media (multimodal function responses,
    ``functionResponse.parts``) make the content a list, text first.
    """
    text: str | None = None
    is_error = False
    body: Any = response
    if len(response) == 1:
        ((key, value),) = response.items()
        if key in ("output", "error") and isinstance(value, str):
            text, is_error = value, key == "error"
        elif key == "error" and isinstance(value, dict):
            body, is_error = value, True
    if not media:
        return (text if text is not None else body), is_error, False
    parts: list[ContentPart] = [_text(text=text)] if text is not None else []
    return parts + media, is_error, text is None and bool(response)


def _decode_media(block: Any, ctx: Decoding) -> ContentPart:
    """An item of a function response's parts: inlineData / fileData -> the IR part its MIME
    type names; anything else is kept as Native."""
    if type(block) is not dict:
        block = expect(block, dict, "")
    if "inlineData" in block:
        return _decode_inline(block, ctx, False)
    if "fileData" in block:
        return _decode_file(block, ctx, False)
    return ctx.native(block)


def _decode_inline(block: dict[str, Any], ctx: Decoding, model_role: bool) -> ContentPart:
    blob = block["inlineData"]
    if type(blob) is not dict:
        blob = expect(blob, dict, "inlineData")
    mime, data = blob.get("mimeType"), blob.get("data")
    if type(mime) is not str:
        mime = require(blob, "mimeType", str, "inlineData")
    if type(data) is not str:
        data = require(blob, "data", str, "inlineData")
    source = _base64(media_type=mime, data=data)
    extras = _beside(block, "inlineData") if len(block) > 1 else {}
    if sub := _sub_extras(blob, _BLOB_KEYS):
        extras["inlineData"] = sub
    return _media_part(mime, source, ctx.echo(extras) if extras else [], model_role)


def _decode_file(block: dict[str, Any], ctx: Decoding, model_role: bool) -> ContentPart:
    ref = block["fileData"]
    if type(ref) is not dict:
        ref = expect(ref, dict, "fileData")
    uri = ref.get("fileUri")
    if type(uri) is not str:
        uri = require(ref, "fileUri", str, "fileData")
    mime = optional(ref, "mimeType", str, "fileData")
    source: FileSource | UrlSource
    if uri.startswith(FILES_PREFIX):
        source = _file(file_id=uri, provider=PROVIDER, media_type=mime)
    else:
        source = _url(url=uri, media_type=mime)
    extras = _beside(block, "fileData") if len(block) > 1 else {}
    if sub := _sub_extras(ref, _FILE_KEYS):
        extras["fileData"] = sub
    return _media_part(mime or "", source, ctx.echo(extras) if extras else [], model_role)


def _media_part(mime: str, source: Any, echoes: list[ProviderEcho], model_role: bool) -> ContentPart:
    kind = mime.partition("/")[0]
    if model_role and kind == "image":
        return _image_output(source=source, provider_echoes=echoes)
    if model_role and kind == "audio":
        return _audio_output(source=source, provider_echoes=echoes)
    if kind == "image":
        return _image(source=source, provider_echoes=echoes)
    if kind == "audio":
        return _audio(source=source, provider_echoes=echoes)
    if kind == "video":
        return _video(source=source, provider_echoes=echoes)
    return _document(source=source, provider_echoes=echoes)


_DECODERS: dict[str, Callable[[dict[str, Any], Decoding, bool], ContentPart]] = {
    "text": _decode_text,
    "functionCall": _decode_call,
    "functionResponse": _decode_response,
    "inlineData": _decode_inline,
    "fileData": _decode_file,
}


# --- encoding ----------------------------------------------------------------------------------


class Encoding:
    """One body's encoding state: the warning sink, the target model (echoes from another model
    lose their signatures), the host the body goes through with the target's catalog entry
    (``spec``: a signature made through a host it refuses is dropped too), and the made-up call
    ids not to send back."""

    __slots__ = ("host", "model", "out", "spec", "synthetic")

    def __init__(self, out: WarningSink, model: str | None, host: str | None = None) -> None:
        self.out = out
        self.model = bare_model(model)
        self.host = host
        self.spec: ModelSpec | None = None
        self.synthetic: set[str] = set()

    def same_model(self, model: str | None) -> bool:
        return self.model is None or model is None or bare_model(model) == self.model

    def refused_signature(self, echo: ProviderEcho) -> str | None:
        """Why ``echo``'s thought signature is not sent; None: send it."""
        if not self.same_model(echo.model):
            return f"thought signature of {echo.model} is not valid for {self.model}"
        spec = self.spec
        if spec is not None and spec.binding is not None and spec.binding.refuses_host(echo.host, self.host):
            return f"thought signature made through {echo.host} is refused through {self.host} ({spec.cite('hosts')})"
        return None


def encode_parts(parts: list[ContentPart], owner: str | int, ctx: Encoding) -> list[dict[str, Any]]:
    """A message's parts -> wire parts; those Gemini cannot carry are left out, with a warning.

    ``owner`` is the message's path, or its index in the request's messages. Most parts encode
    without a warning, so they are first encoded without their paths (formatting
    ``messages[12].parts[3]`` costs more than encoding most parts); if any part warned, the
    message is encoded again with every path spelled out (encoders have no other effect)."""
    warnings = ctx.out.warnings
    seen = len(warnings)
    common, other = _COMMON, _ANY_PART
    blocks: list[dict[str, Any]] = []
    try:
        for part in parts:  # a loop, not a comprehension: one frame less per message
            block = common.get(type(part), other)(part, "", ctx)
            if block:
                blocks.append(block)
    except EncodeError:  # raised without its path: the encode below raises it again, with it
        pass
    else:
        if len(warnings) == seen:
            return blocks
    del warnings[seen:]
    at = f"messages[{owner}]" if isinstance(owner, int) else owner
    return [block for index, part in enumerate(parts) if (block := encode_part(part, f"{at}.parts[{index}]", ctx))]


def encode_part(part: ContentPart, at: str, ctx: Encoding) -> dict[str, Any] | None:
    """One IR part at ``at`` -> one wire part, or None (with a warning) where Gemini cannot
    carry it. The arms are in order of how often parts come."""
    match part:
        case Text():
            return _encode_text(part, at, ctx)
        case ToolUse():
            return _encode_call(part, at, ctx)
        case ToolResult():
            return _encode_result(part, at, ctx)
        case Thinking():
            return _encode_thinking(part, at, ctx)
        case Image() | Audio() | Video() | Document():
            return _encode_media(part, at, ctx)
        case RedactedThinking():
            ctx.out.lossy(at, "redacted_thinking", "Gemini has no encrypted reasoning blocks")
            return None
        case ImageOutput():
            return _with_echo(_source_block(part.source, at, ctx, part.type), part, at, ctx)
        case AudioOutput():
            return _encode_audio_output(part, at, ctx)
        case Native():
            return _encode_native(part, at, ctx)
        case _:
            assert_never(part)


def _with_echo(
    block: dict[str, Any] | None, part: Any, at: str, ctx: Encoding, extras: frozenset[str] = PART_EXTRAS
) -> dict[str, Any] | None:
    """``block`` with this codec's echo written back: fields beside the data, and sub-fields of
    the data field. A thought signature from another Gemini model, or made through a host the
    target's host refuses, is dropped with a warning (signatures are bound to both)."""
    if not part.provider_echoes or block is None:
        return block
    echo = part.echo(PROVIDER)
    if echo is None:
        return block
    main = next(iter(block))
    for key, value in echo.data.items():
        if key == main and isinstance(value, dict) and isinstance(block[main], dict):
            block[main] = {**block[main], **value}
        elif key in extras:
            if key == "thoughtSignature" and (why := ctx.refused_signature(echo)) is not None:
                ctx.out.lossy(at, part.type, why, action="converted")
                continue
            block[key] = value
    return block


def _cache_note(part: Any, at: str, ctx: Encoding) -> None:
    if getattr(part, "cache_control", None) is not None:
        ctx.out.lossy(at, "cache_control", "Gemini caches through cachedContent, not per-block marks")


def _encode_text(part: Text, at: str, ctx: Encoding) -> dict[str, Any] | None:
    if part.cache_control is not None:
        _cache_note(part, at, ctx)
    if part.citations:
        ctx.out.lossy(at, "citations", "Gemini requests carry no citations", action="dropped")
    block = {"text": part.text}
    return _with_echo(block, part, at, ctx) if part.provider_echoes else block


def _encode_thinking(part: Thinking, at: str, ctx: Encoding) -> dict[str, Any] | None:
    if part.echo(PROVIDER) is None:
        ctx.out.lossy(at, "thinking", "reasoning from another vendor cannot be replayed to Gemini")
        return None
    _cache_note(part, at, ctx)
    return _with_echo({"text": part.text, "thought": True}, part, at, ctx)


def _encode_media(part: Image | Audio | Video | Document, at: str, ctx: Encoding) -> dict[str, Any] | None:
    _cache_note(part, at, ctx)
    if isinstance(part, Document) and part.name is not None:
        ctx.out.lossy(at, "document", "Gemini parts carry no document name", action="converted")
    if isinstance(part, Image | Document):  # mediaResolution's levels are not OpenAI's detail: reported
        ctx.out.unsent_media_fields(part, at)
    inline = _inline_type(part.source)
    refused = None if inline is None else MEDIA_TYPES[part.type].refusal("Gemini", part.type, inline)
    if refused is not None:
        ctx.out.lossy(at, part.type, refused)
        return None
    return _with_echo(_source_block(part.source, at, ctx, part.type), part, at, ctx)


def _inline_type(source: Any) -> str | None:
    """The MIME type of inline data (base64, or a data URL); None for a reference to a file."""
    if isinstance(source, Base64Source):
        return source.media_type
    if isinstance(source, UrlSource):
        inline = parse_data_url(source.url)
        return None if inline is None else inline[0]
    return None


def _encode_audio_output(part: AudioOutput, at: str, ctx: Encoding) -> dict[str, Any] | None:
    if part.transcript is not None:
        ctx.out.lossy(at, "audio_output", "Gemini inlineData carries no transcript", action="converted")
    return _with_echo(_source_block(part.source, at, ctx, part.type), part, at, ctx)


def _source_block(source: Any, at: str, ctx: Encoding, part_type: str) -> dict[str, Any] | None:
    """Inline bytes -> inlineData; a URL or a Gemini file -> fileData; another vendor's file
    cannot be reached from Gemini."""
    match source:
        case Base64Source():
            return {"inlineData": {"mimeType": source.media_type, "data": source.data}}
        case UrlSource():
            inline = parse_data_url(source.url)
            if inline is not None:
                return {"inlineData": {"mimeType": inline[0], "data": inline[1]}}
            return {"fileData": _file_data(source.url, source.media_type)}
        case FileSource():
            if source.provider not in (None, PROVIDER):
                ctx.out.lossy(at, part_type, f"a file in {source.provider}'s store is not reachable from Gemini")
                return None
            return {"fileData": _file_data(source.file_id, source.media_type)}
        case TextSource():
            try:
                data = base64.b64encode(source.text.encode()).decode()
            except UnicodeEncodeError as err:
                raise EncodeError(ctx.out.codec, f"{at}.source.text", "a lone surrogate has no UTF-8 form") from err
            return {"inlineData": {"mimeType": source.media_type, "data": data}}
        case HandleSource():
            raise unresolved_handle(ctx.out.codec, f"{at}.source", source)
    raise AssertionError(f"unknown media source {source!r}")


def _file_data(uri: str, mime: str | None) -> dict[str, Any]:
    return {"fileUri": uri} if mime is None else {"fileUri": uri, "mimeType": mime}


def _flags(part: Any) -> dict[str, Any]:
    echo = part.echo(PROVIDER) if part.provider_echoes else None
    return echo.data if echo is not None else {}


def _encode_call(part: ToolUse, at: str, ctx: Encoding) -> dict[str, Any] | None:
    flags = _flags(part)
    call: dict[str, Any] = {"name": part.name}
    if part.input or flags.get("argsAbsent") is not True:
        call["args"] = dict(part.input)
    if part.raw_input is not None:
        ctx.out.lossy(at, "tool_use", "arguments that are not a JSON object cannot be sent", action="converted")
    if flags.get("syntheticId") is True:
        ctx.synthetic.add(part.id)
    else:
        call["id"] = part.id
    block = {"functionCall": call}
    return _with_echo(block, part, at, ctx) if part.provider_echoes else block


def _encode_result(part: ToolResult, at: str, ctx: Encoding) -> dict[str, Any] | None:
    if part.cache_control is not None:
        _cache_note(part, at, ctx)
    flags = _flags(part)
    answer: dict[str, Any] = {"name": part.name}
    if part.tool_use_id not in ctx.synthetic and flags.get("syntheticId") is not True:
        answer["id"] = part.tool_use_id
    response, media = _result_body(part, at, ctx, flags)
    if response or flags.get("responseAbsent") is not True:
        answer["response"] = response
    if media:
        answer["parts"] = media
    block = {"functionResponse": answer}
    return _with_echo(block, part, at, ctx) if part.provider_echoes else block


def _result_body(
    part: ToolResult, at: str, ctx: Encoding, flags: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(response, parts): str -> {"output": s} (or {"error": s}); an object as is (an error
    object under "error"); a list -> its text joined as output, its media as parts."""
    key = "error" if part.is_error else "output"
    if isinstance(part.content, str):
        return {key: part.content}, []
    if isinstance(part.content, dict):
        return ({"error": part.content} if part.is_error else dict(part.content)), []
    texts: list[str] = []
    media: list[dict[str, Any]] = []
    for index, item in enumerate(part.content):
        where = join(join(at, "content"), index)
        if isinstance(item, Text):
            _encode_text(item, where, ctx)
            texts.append(item.text)
        elif isinstance(item, Image | Audio | Video | Document):
            block = _encode_media(item, where, ctx)
            if block is not None:
                block = {key: value for key, value in block.items() if key in RESPONSE_PART_EXTRAS or key in DATA_KEYS}
                media.append(block)
        else:
            ctx.out.lossy(where, item.type, "a function response holds only text and media")
    if isinstance(flags.get("response"), dict):
        return dict(flags["response"]), media
    return ({key: "\n".join(texts)} if texts or part.is_error else {}), media


def _encode_native(part: Native, at: str, ctx: Encoding) -> dict[str, Any] | None:
    if part.provider != PROVIDER:
        ctx.out.lossy(at, "native", f"{article(part.provider)} block has no Gemini form")
        return None
    return _with_echo(dict(part.data), part, at, ctx)


_PartEncoder = Callable[[Any, str, Encoding], dict[str, Any] | None]
_COMMON: dict[type[Any], _PartEncoder] = {Text: _encode_text, ToolUse: _encode_call, ToolResult: _encode_result}
"""The kinds a transcript is mostly made of, by exact type: ``encode_parts`` finds their encoder
without the match in ``encode_part`` (its class patterns cost more than encoding a short text
part). Every other type, and any subclass, goes through ``encode_part``."""
_ANY_PART: _PartEncoder = encode_part
