"""Content parts: the blocks a message is made of, and what they carry (media, citations, echoes)."""

from __future__ import annotations

from os import PathLike
from typing import Annotated, Any, Literal, Self, TypeAlias

from pydantic import Field

from ._model import Hosted, IRModel, JsonObject, _Tagged, empty_dict, empty_list


class CacheControl(IRModel):
    """A cache breakpoint after the block that carries it; ``ttl`` None means the vendor default."""

    ttl: Literal["5m", "30m", "1h", "12h"] | None = None
    """How long the vendor keeps the cached prefix (at least); None: the vendor's default. Vendors
    take different sets (5m and 1h; 30m and 12h): a codec sends the nearest its wire takes, with a
    warning (``interlingua.kit.cache_ttl``)."""


class ProviderEcho(IRModel):
    """Vendor data a block must carry back to that vendor on the next turn.

    ``provider`` is the codec's provider key (``"acme"``); ``model`` records which model produced
    the data, because signed reasoning is bound to where it came from. Only the codec of that
    provider reads or writes an entry.

    ``unmapped`` names the keys of ``data`` (dotted where nested) that carry a meaning no IR
    field holds (a video clip's offsets, a page range, a speaker): that provider's codec writes
    them back, and every other codec reports each one dropped (``WarningSink.unmapped_echoes``),
    so the loss is never silent.
    """

    provider: str
    """The provider key of the codec that wrote it and alone reads it (``"acme"``)."""
    data: JsonObject
    """The vendor's data, verbatim (a signature, an item id, encrypted reasoning, ...)."""
    model: str | None = None
    """The model that produced the data, where it binds the data to it; None: any."""
    unmapped: list[str] = Field(default_factory=empty_list)
    """Keys of ``data`` whose meaning the IR cannot hold: every other wire reports them dropped."""
    prefix: str | None = None
    """The digest (:func:`interlingua.prefix_digest`) of the system prompt and tools the block was
    made under, where the vendor binds signed reasoning to them; None: not recorded."""
    host: str | None = None
    """The host (a codec's door, ``"acme-cloud"``, or the vendor's own API, ``"acme"``: the codec's
    ``host_for``) that served the model which made it, since a signature made through one host is
    not always taken through another; None: not recorded (a host not known)."""


class _Echoing(Hosted):
    """Anything that can carry provider echoes (and, like every host-facing model, metadata)."""

    provider_echoes: list[ProviderEcho] = Field(default_factory=empty_list)
    """Vendor data this block carries back to its vendor, one entry per provider."""

    def echo(self, provider: str) -> ProviderEcho | None:
        """This provider's echo, if the block carries one."""
        for entry in self.provider_echoes:
            if entry.provider == provider:
                return entry
        return None

    def with_echo(self, provider: str, data: JsonObject, *, model: str | None = None) -> Self:
        """A copy whose echo for ``provider`` is replaced by ``data``; other providers' stay put."""
        kept = [e for e in self.provider_echoes if e.provider != provider]
        kept.append(ProviderEcho(provider=provider, data=data, model=model))
        return self.model_copy(update={"provider_echoes": kept})

    def without_echo(self, provider: str) -> Self:
        """A copy with ``provider``'s echo removed."""
        kept = [e for e in self.provider_echoes if e.provider != provider]
        return self.model_copy(update={"provider_echoes": kept})


# --- media -------------------------------------------------------------------------------------


class MediaSource(_Tagged):
    """Where a block's bytes live. Build one with the ``from_*`` constructors.

    The concrete kinds (base64, url, file, text) are subclasses; fields typed ``Source`` accept
    any of them, discriminated on ``type``.
    """

    @staticmethod
    def from_base64(media_type: str, data: str) -> Base64Source:
        """Inline bytes, kept as base64 text so a round trip never re-encodes them."""
        return Base64Source(media_type=media_type, data=data)

    @staticmethod
    def from_url(url: str, media_type: str | None = None) -> UrlSource:
        return UrlSource(url=url, media_type=media_type)

    @staticmethod
    def from_file_id(file_id: str, *, provider: str | None = None, media_type: str | None = None) -> FileSource:
        """A file uploaded to a vendor's file store; ``provider`` says whose store."""
        return FileSource(file_id=file_id, provider=provider, media_type=media_type)

    @staticmethod
    def from_text(text: str, media_type: str = "text/plain") -> TextSource:
        return TextSource(text=text, media_type=media_type)

    @staticmethod
    def handle(id: str, media_type: str) -> HandleSource:
        """Media kept in the host's artifact store, named by ``id``: the transcript holds only
        the name, and an encoder asks the caller's resolver for the bytes (see ``resolve=``)."""
        return HandleSource(id=id, media_type=media_type)

    @staticmethod
    def from_bytes(data: bytes, media_type: str) -> Base64Source:
        """Raw bytes, kept as base64 (the form every vendor wire takes inline)."""
        from ._media import to_base64

        return Base64Source(media_type=media_type, data=to_base64(data))

    @staticmethod
    def from_path(path: str | PathLike[str]) -> Base64Source:
        """A file's bytes, its media type read from its magic bytes, else from its suffix; a
        file of neither a known signature nor a known suffix raises ``ValueError``."""
        from ._media import read_media

        media_type, data = read_media(path)
        return Base64Source(media_type=media_type, data=data)


class Base64Source(MediaSource):
    type: Literal["base64"] = "base64"
    """The source's tag in IR JSON."""
    media_type: str
    """The bytes' MIME type (``image/png``)."""
    data: str
    """The bytes, base64-encoded."""


class UrlSource(MediaSource):
    type: Literal["url"] = "url"
    """The source's tag in IR JSON."""
    url: str
    """Where the vendor fetches the bytes (``https:``, ``gs:``, a data URL, ...)."""
    media_type: str | None = None
    """The MIME type where known; None: the vendor finds out."""


class FileSource(MediaSource):
    type: Literal["file"] = "file"
    """The source's tag in IR JSON."""
    file_id: str
    """The id of a file uploaded to a vendor's files API."""
    provider: str | None = None
    """The provider the file was uploaded to; None: unknown."""
    media_type: str | None = None
    """The MIME type where known."""


class TextSource(MediaSource):
    type: Literal["text"] = "text"
    """The source's tag in IR JSON."""
    text: str
    """The document's text, inline."""
    media_type: str = "text/plain"
    """Its MIME type, ``text/plain`` unless said."""


class HandleSource(MediaSource):
    """A name in the host's artifact store. Never sent as is: ``encode_request(resolve=...)``
    swaps it for what the resolver returns, and a codec meeting one unresolved raises
    ``EncodeError`` at its path (no silent drop, no half-built body)."""

    type: Literal["handle"] = "handle"
    """The source's tag in IR JSON."""
    id: str
    """The name in the host's artifact store."""
    media_type: str
    """The MIME type of what it names."""


Source: TypeAlias = Annotated[
    Base64Source | UrlSource | FileSource | TextSource | HandleSource, Field(discriminator="type")
]


# --- citations ---------------------------------------------------------------------------------


class CitationSource(IRModel):
    """What a citation points at: a web page, a document of the request, or a search result.

    ``index`` is the document's (or search result's) position in the request; ``start``/``end``
    locate the cited span inside it, counted in ``unit``.
    """

    type: Literal["url", "document", "search_result"]
    """What is cited: a web page, a document of the request, or a search result."""
    url: str | None = None
    """The cited page's URL (``url``)."""
    title: str | None = None
    """The cited page's or document's title."""
    index: int | None = None
    """The cited document's or search result's position in the request."""
    start: int | None = None
    """Where the cited span starts inside the source, in ``unit``."""
    end: int | None = None
    """Where the cited span ends inside the source, in ``unit``."""
    unit: Literal["char", "page", "block"] | None = None
    """What ``start`` and ``end`` count: characters, pages or content blocks."""


class Citation(_Echoing):
    """A span of the text part that cites ``source``; ``start``/``end`` index into the part's text."""

    cited_text: str | None = None
    """The cited words, where the vendor quotes them."""
    source: CitationSource
    """What the span cites."""
    start: int | None = None
    """Where the citing span starts in the part's text (characters)."""
    end: int | None = None
    """Where the citing span ends in the part's text (characters)."""


# --- parts -------------------------------------------------------------------------------------


class _Part(_Tagged, _Echoing):
    """Every content part: discriminated on ``type``, echoes allowed."""


class _InputPart(_Part):
    """Parts a prompt can hold, and so can carry a cache breakpoint."""

    cache_control: CacheControl | None = None
    """A cache breakpoint after this part; None: none."""

    def with_cache_control(self, ttl: Literal["5m", "1h"] | None = None) -> Self:
        """A copy with a cache breakpoint after this block."""
        return self.model_copy(update={"cache_control": CacheControl(ttl=ttl)})


class Text(_InputPart):
    type: Literal["text"] = "text"
    """The part's tag in IR JSON."""
    text: str
    """The text."""
    citations: list[Citation] = Field(default_factory=empty_list)
    """The spans of ``text`` that cite a source."""

    def __init__(self, text: str | None = None, /, **data: Any) -> None:
        if text is not None:
            data["text"] = text
        super().__init__(**data)


class Image(_InputPart):
    """An input image. ``detail`` is the resolution the sender asked the model to look at it in
    (``low`` is cheaper, ``high`` and ``original`` keep more; ``auto``, like None, leaves it to the
    vendor): a setting with a meaning that three wires spell alike, so it is a field, and a wire
    without one reports it dropped rather than losing it unseen."""

    type: Literal["image"] = "image"
    """The part's tag in IR JSON."""
    source: Source
    """Where the image's bytes are."""
    detail: Literal["auto", "low", "high", "original"] | None = None
    """The resolution asked for (``low``, ``high``, ``original``; ``auto`` or None: the vendor's)."""

    def __init__(self, source: MediaSource | None = None, /, **data: Any) -> None:
        if source is not None:
            data["source"] = source
        super().__init__(**data)


class Audio(_InputPart):
    type: Literal["audio"] = "audio"
    """The part's tag in IR JSON."""
    source: Source
    """Where the audio's bytes are."""

    def __init__(self, source: MediaSource | None = None, /, **data: Any) -> None:
        if source is not None:
            data["source"] = source
        super().__init__(**data)


class Video(_InputPart):
    type: Literal["video"] = "video"
    """The part's tag in IR JSON."""
    source: Source
    """Where the video's bytes are."""

    def __init__(self, source: MediaSource | None = None, /, **data: Any) -> None:
        if source is not None:
            data["source"] = source
        super().__init__(**data)


class Document(_InputPart):
    """A PDF, a plain-text file, ...; ``name`` is the title a vendor may show or cite.

    ``context`` is text about the document that the model reads but does not cite (where it came
    from, what it is for), and ``citations`` asks the model to cite the document in its answer
    (True) or says it must not (False); None leaves both to the vendor. Two wires take both; the
    others report them dropped. ``detail`` is the rendering asked for a PDF's page images
    (``low`` is cheaper, ``high`` keeps small print and dense charts; ``auto``, like None, leaves
    it to the vendor); one wire takes it, the others report it dropped."""

    type: Literal["document"] = "document"
    """The part's tag in IR JSON."""
    source: Source
    """Where the document's bytes (or text) are."""
    name: str | None = None
    """The title a vendor may show or cite."""
    context: str | None = None
    """Text about the document the model reads but does not cite."""
    citations: bool | None = None
    """Cite the document (True) or must not (False); None: the vendor's default."""
    detail: Literal["auto", "low", "high"] | None = None
    """PDF page rendering asked for (``low``, ``high``; ``auto`` or None: the vendor's choice)."""

    def __init__(self, source: MediaSource | None = None, /, **data: Any) -> None:
        if source is not None:
            data["source"] = source
        super().__init__(**data)


class Thinking(_InputPart):
    """Reasoning text; a vendor's signature for it rides in ``provider_echoes``."""

    type: Literal["thinking"] = "thinking"
    """The part's tag in IR JSON."""
    text: str
    """The reasoning text (a summary, where the vendor gives only that)."""

    def __init__(self, text: str | None = None, /, **data: Any) -> None:
        if text is not None:
            data["text"] = text
        super().__init__(**data)


class RedactedThinking(_Part):
    """Reasoning the vendor encrypted; the opaque data rides in ``provider_echoes``."""

    type: Literal["redacted_thinking"] = "redacted_thinking"
    """The part's tag in IR JSON."""


class ToolUse(_Part):
    """The assistant's call of a tool. ``input`` is the parsed arguments object.

    Arguments that are not a JSON object (a model's malformed output) are kept verbatim in
    ``raw_input``, with ``input`` empty: never guessed at, never dropped.
    """

    type: Literal["tool_use"] = "tool_use"
    """The part's tag in IR JSON."""
    id: str
    """The call's id, which the ``ToolResult`` answering it names."""
    name: str
    """The tool called."""
    input: JsonObject = Field(default_factory=empty_dict)
    """The call's arguments, parsed."""
    raw_input: str | None = None
    """Arguments that are not a JSON object, verbatim (``input`` is then empty); None: they parsed."""

    def __init__(
        self, id: str | None = None, name: str | None = None, input: JsonObject | None = None, /, **data: Any
    ) -> None:
        for key, value in (("id", id), ("name", name), ("input", input)):
            if value is not None:
                data[key] = value
        super().__init__(**data)


class ToolResult(_InputPart):
    """A tool's answer to the call ``tool_use_id``; ``name`` repeats the tool's name (some vendors key by it)."""

    type: Literal["tool_result"] = "tool_result"
    """The part's tag in IR JSON."""
    tool_use_id: str
    """The id of the ``ToolUse`` this answers."""
    name: str
    """The tool's name (some vendors key results by it)."""
    content: str | list[ContentPart] | JsonObject = ""
    """What the tool returned: text, parts (text, images, documents) or a JSON object."""
    is_error: bool = False
    """The tool failed and ``content`` says how."""

    def __init__(
        self,
        tool_use_id: str | None = None,
        name: str | None = None,
        content: str | list[ContentPart] | JsonObject | None = None,
        /,
        **data: Any,
    ) -> None:
        for key, value in (("tool_use_id", tool_use_id), ("name", name), ("content", content)):
            if value is not None:
                data[key] = value
        super().__init__(**data)

    @classmethod
    def from_mcp(cls, result: Any, tool_use_id: str, name: str) -> ToolResult:
        """An MCP ``tools/call`` result (``mcp.types.CallToolResult`` or its JSON) as the answer to
        the call ``tool_use_id`` of tool ``name``: text, image, audio, embedded resources, resource
        links, ``structuredContent`` and ``isError`` (see ``interlingua._mcp``)."""
        from ._mcp import result_from_mcp

        return result_from_mcp(result, tool_use_id, name)

    def to_mcp(self) -> Any:
        """This result as an ``mcp.types.CallToolResult``, for a host serving MCP (needs the ``mcp``
        extra); a part with no MCP content block raises ``ValueError``."""
        from ._mcp import result_to_mcp

        return result_to_mcp(self)


class ImageOutput(_Part):
    """An image the model produced."""

    type: Literal["image_output"] = "image_output"
    """The part's tag in IR JSON."""
    source: Source
    """The image's bytes (or where they are)."""


class AudioOutput(_Part):
    """Audio the model produced, with its transcript where the vendor gives one."""

    type: Literal["audio_output"] = "audio_output"
    """The part's tag in IR JSON."""
    source: Source
    """The audio's bytes (or where they are)."""
    transcript: str | None = None
    """What the audio says, where the vendor gives it."""


class Native(_Part):
    """A vendor block with no IR home, carried verbatim.

    Only the codec of ``provider`` re-emits it; every other codec drops it with a LossyEncode.
    """

    type: Literal["native"] = "native"
    """The part's tag in IR JSON."""
    provider: str
    """The provider whose block it is; only its codec sends it."""
    data: JsonObject
    """The vendor's block, verbatim."""

    def __init__(self, provider: str | None = None, data: JsonObject | None = None, /, **kw: Any) -> None:
        if provider is not None:
            kw["provider"] = provider
        if data is not None:
            kw["data"] = data
        super().__init__(**kw)


ContentPart: TypeAlias = Annotated[
    Text
    | Image
    | Audio
    | Video
    | Document
    | Thinking
    | RedactedThinking
    | ToolUse
    | ToolResult
    | ImageOutput
    | AudioOutput
    | Native,
    Field(discriminator="type"),
]

PART_TYPES: tuple[str, ...] = (
    "text",
    "image",
    "audio",
    "video",
    "document",
    "thinking",
    "redacted_thinking",
    "tool_use",
    "tool_result",
    "image_output",
    "audio_output",
    "native",
)
"""Every ContentPart ``type``, in the order the docs list them."""
