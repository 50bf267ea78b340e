"""Typed warnings that travel beside results, and the sink codecs collect them in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeAlias

from pydantic import Field

from ._errors import EncodeError
from ._model import _Tagged, construct
from ._parts import Document, Image, ToolResult

if TYPE_CHECKING:
    from ._message import Message


class ModelWarning(_Tagged):
    """Something a codec could not carry exactly: where (``path``), which codec, and why."""

    tag_field: ClassVar[str] = "kind"

    codec: str
    """The codec that could not carry it."""
    path: str
    """Where: a JSON path into the request or response."""
    message: str
    """What was lost and why, in words."""
    side: Literal["request", "response"] | None = None
    """Which message of an exchange the warning is about, where one list holds both: a Client's
    Response lists the request's encode (``"request"``) and then the answer's decode
    (``"response"``). None on a warning from a lone encode or decode, whose side is its call's."""

    def __str__(self) -> str:
        return f"{self.codec}: {self.path or '<body>'}: {self.message}"


class LossyEncode(ModelWarning):
    """A part the target wire cannot express was ``dropped`` or ``converted`` to something close."""

    kind: Literal["lossy_encode"] = "lossy_encode"
    """The warning's tag in JSON."""
    part_type: str
    """The kind of part (or field) lost."""
    action: Literal["dropped", "converted"]
    """``dropped``, or ``converted`` to something close."""


class UnsupportedSetting(ModelWarning):
    """A request setting the target wire has no field for; it was not sent."""

    kind: Literal["unsupported_setting"] = "unsupported_setting"
    """The warning's tag in JSON."""
    setting: str
    """The request setting not sent (``top_k``)."""


class ForeignOption(ModelWarning):
    """A request field another vendor's codec kept (``provider_options[provider][key]``) that
    this wire does not send. Its own class, so a caller who set options for several vendors on
    purpose can filter these out and keep every other warning."""

    kind: Literal["foreign_option"] = "foreign_option"
    """The warning's tag in JSON."""
    provider: str
    """The provider whose option it is."""
    key: str
    """The option's key in ``provider_options[provider]``."""


class LossyDecode(ModelWarning):
    """Wire data the IR keeps only in part (e.g. extra candidates a vendor returned)."""

    kind: Literal["lossy_decode"] = "lossy_decode"
    """The warning's tag in JSON."""


class UnknownModel(ModelWarning):
    """The target model is not in its provider's model catalog: the request was encoded as asked,
    with no model rule applied. A note, not a loss: it rides in ``Encoded.notes`` (never in
    ``warnings``), once per encode, and ``strict=True`` does not raise for it."""

    kind: Literal["unknown_model"] = "unknown_model"
    """The warning's tag in JSON."""
    model: str
    """The model name not in the catalog."""
    family: str | None = None
    """The catalog entry whose rules were applied as its family's defaults (a model id matching one
    of that entry's ``family`` prefixes); None: no rule applied."""


_UNKNOWN: Literal["unknown_model"] = "unknown_model"

AnyWarning: TypeAlias = Annotated[
    LossyEncode | UnsupportedSetting | ForeignOption | LossyDecode, Field(discriminator="kind")
]


_SOUNDS_LIKE_YOU = ("us", "ur", "uni", "uti")  # user, url, unicode, utility: "a", not "an"


def article(noun: str) -> str:
    """``noun`` with its indefinite article, for warning text: "an acme block", "a user
    message", "an image part"."""
    lower = noun.lower()
    vowel = lower[:1] in ("a", "e", "i", "o") or (lower[:1] == "u" and not lower.startswith(_SOUNDS_LIKE_YOU))
    return f"{'an' if vowel else 'a'} {noun}"


@dataclass(frozen=True, slots=True)
class Encoded:
    """What every encode returns: the wire body, and every warning about what it could not carry."""

    body: dict[str, Any]
    warnings: list[AnyWarning] = field(default_factory=list)
    notes: list[UnknownModel] = field(default_factory=list)
    """What the caller may want to know although nothing was lost (an unknown target model)."""


_TRANSPORT = ("stream", "stream_options")


class WarningSink:
    """Collects a codec's warnings during one encode or decode.

    Helpers append here instead of raising, so ``strict=True`` can fail once at the end with every
    warning, not just the first.
    """

    __slots__ = ("codec", "notes", "warnings")

    def __init__(self, codec: str) -> None:
        self.codec = codec
        self.warnings: list[AnyWarning] = []
        self.notes: list[UnknownModel] = []

    def lossy(
        self, path: str, part_type: str, why: str, *, action: Literal["dropped", "converted"] = "dropped"
    ) -> None:
        """Report a part (or part field) the target cannot carry; returns None so an encoder can
        ``return out.lossy(...)`` in place of a block."""
        self.warnings.append(LossyEncode(codec=self.codec, path=path, message=why, part_type=part_type, action=action))

    def unsupported(self, path: str, setting: str, why: str) -> None:
        self.warnings.append(UnsupportedSetting(codec=self.codec, path=path, message=why, setting=setting))

    def unsent_message_fields(self, message: Message, at: str, *, carries_name: bool = False) -> None:
        """Report a Message's ``name`` and ``id`` (at ``{at}.name`` / ``{at}.id``) where the wire
        has no place for them, as most have none; ``carries_name``: this one sends the name."""
        if message.name is not None and not carries_name:
            self.unsupported(f"{at}.name", "message_name", "this wire's messages carry no participant name")
        if message.id is not None:
            self.unsupported(f"{at}.id", "message_id", "this wire's messages carry no id")

    def unsent_media_fields(self, part: Image | Document, at: str, *, sends_detail: bool = False) -> None:
        """Report what of an image or a document this wire has no place for: an Image's
        ``detail`` (``auto`` asks for the default, so it is no loss) and a Document's ``context``,
        ``citations`` and ``detail``, each at ``{at}.<field>``. A codec calls it where it writes
        the part, only for the fields it does not send (``sends_detail``: a document's detail)."""
        if isinstance(part, Image):
            if part.detail not in (None, "auto"):
                why = f"this wire takes no image detail: {part.detail!r} is not sent"
                self.lossy(f"{at}.detail", "image", why)
            return
        if part.context is not None:
            self.lossy(f"{at}.context", "document", "this wire takes no document context: it is not sent")
        if part.citations is not None:
            self.lossy(f"{at}.citations", "document", "this wire cannot turn document citations on or off")
        if part.detail not in (None, "auto") and not sends_detail:
            why = f"this wire takes no document detail: {part.detail!r} is not sent"
            self.lossy(f"{at}.detail", "document", why)

    def unmapped_echoes(
        self, messages: Iterable[Message], *, own: str, writes: frozenset[str] | None = None, at: str | None = None
    ) -> None:
        """Report each key another provider's echo marks ``unmapped`` (``ProviderEcho``): a
        meaning no IR field holds, which only that provider's codec writes, so this one drops
        it. Looked for on each message, its parts and the parts inside a tool result; reported
        at ``<message or part>.provider_echoes[k].data.<key>``. ``at``: the path of a lone
        message (a response's ``message``); else ``messages[i]``. ``writes``: the keys of
        ``own``'s echoes this codec writes back, where two codecs share a provider; None: all."""
        # Every encode pays this walk and almost no echo marks a key: paths are spelled out only
        # for a marked one, and only a result's content is looked into (a getattr of a field a
        # part lacks costs pydantic's __getattr__ and an AttributeError).
        i = -1
        for message in messages:
            i += 1
            if message.provider_echoes and _marks(message.provider_echoes):
                self._unmapped(message, f"messages[{i}]" if at is None else at, "message", own, writes)
            j = -1
            for part in message.parts:
                j += 1
                if part.provider_echoes and _marks(part.provider_echoes):
                    where = f"messages[{i}]" if at is None else at
                    self._unmapped(part, f"{where}.parts[{j}]", part.type, own, writes)
                if type(part) is ToolResult and type(part.content) is list:
                    for k, inner in enumerate(part.content):
                        if inner.provider_echoes and _marks(inner.provider_echoes):
                            where = f"messages[{i}]" if at is None else at
                            self._unmapped(inner, f"{where}.parts[{j}].content[{k}]", inner.type, own, writes)

    def unmapped_marked(
        self, marked: Iterable[tuple[str, Any, str]], *, own: str, writes: frozenset[str] | None = None
    ) -> None:
        """``unmapped_echoes`` of what a walk already found: (path, message or part, part type)
        of each whose echoes mark a key (``PartChecks.marked``, in the encode's walk)."""
        for at, value, part_type in marked:
            self._unmapped(value, at, part_type, own, writes)

    def _unmapped(self, value: Any, at: str, part_type: str, own: str, writes: frozenset[str] | None) -> None:
        for k, echo in enumerate(value.provider_echoes):
            if not echo.unmapped:
                continue
            written = (writes if writes is not None else echo.unmapped) if echo.provider == own else ()
            for key in echo.unmapped:
                if key in written:
                    continue
                why = f"{echo.provider}'s {key} has no place in the IR or on this wire: not sent"
                self.lossy(f"{at}.provider_echoes[{k}].data.{key}", part_type, why)

    def foreign_options(self, options: Mapping[str, Mapping[str, Any]], *, own: str) -> None:
        """Report each key of every other provider's options (``provider_options.<provider>.<key>``):
        an encoder sends only ``options[own]``, so every other entry is lost unless a warning says so.
        Not reported: keys starting with ``_`` (a codec's private record of how its own wire
        spelled something the IR holds, never sent by any codec), a null (the body spelled an
        absent field: nothing is lost), and ``stream`` with its framing ``stream_options``, which
        are no setting of the request: the caller's transport decides them
        (``http_request(stream=...)``)."""
        for provider, fields in options.items():
            if provider == own:
                continue
            for key, value in fields.items():
                if key.startswith("_") or key in _TRANSPORT or value is None:
                    continue
                inner = f" ({', '.join(value)})" if isinstance(value, Mapping) and value else ""
                why = f"the {provider} option {key}{inner} has no place on this wire; not sent"
                self.warnings.append(
                    ForeignOption(
                        codec=self.codec,
                        path=f"provider_options.{provider}.{key}",
                        message=why,
                        provider=provider,
                        key=key,
                    )
                )

    def note_unknown_model(self, model: str, family: str | None = None) -> None:
        """Note (once) that ``model`` is not in the catalog (``family``: the entry whose rules
        were applied as its family's defaults); see UnknownModel."""
        if not any(note.model == model for note in self.notes):
            why = f"{model!r} is not in the model catalog: sent as asked, no model rule applied"
            if family is not None:
                why = f"{model!r} is not in the model catalog: {family}'s rules applied as its family's defaults"
            # construct: every field is built here, no validator per encode
            named = {} if family is None else {"family": family}  # no family: the note's JSON as before
            note = construct(
                UnknownModel, codec=self.codec, path="model", message=why, model=model, kind=_UNKNOWN, **named
            )
            self.notes.append(note)

    def lossy_decode(self, path: str, why: str) -> None:
        self.warnings.append(LossyDecode(codec=self.codec, path=path, message=why))

    def extend_at(self, prefix: str, warnings: Iterable[AnyWarning]) -> None:
        """Warnings a helper reported with paths of its own, placed under ``prefix`` (a stream's
        event, ``events[12]``), so a helper written for whole bodies serves streams too."""
        for warning in warnings:
            path = f"{prefix}.{warning.path}" if warning.path else prefix
            self.warnings.append(warning.model_copy(update={"path": path}))

    def finish(self, body: Mapping[str, Any], *, strict: bool) -> Encoded:
        """The Encoded result, or LossyEncodeError carrying every warning when ``strict``."""
        if strict and self.warnings:
            raise LossyEncodeError(self.codec, list(self.warnings))
        return Encoded(dict(body), self.warnings, self.notes)


class LossyEncodeError(EncodeError):
    """``strict=True`` and the encode lost something: ``warnings`` lists every loss."""

    def __init__(self, codec: str, warnings: Sequence[AnyWarning]) -> None:
        self.warnings = list(warnings)
        lines = "; ".join(f"{w.path or '<body>'}: {w.message}" for w in self.warnings)
        first = self.warnings[0].path if self.warnings else ""
        super().__init__(codec, first, f"{len(self.warnings)} lossy change(s): {lines}")


def noting_unmapped(
    encoded: Encoded, message: Message, *, own: str, codec: str, strict: bool, writes: frozenset[str] | None = None
) -> Encoded:
    """An answer's ``encoded`` body with the unmapped echo keys of other providers on its
    ``message`` reported (``WarningSink.unmapped_echoes``, at ``message...``): a codec's
    ``encode_response`` ends with it, as ``encode_with_rules`` does it for a request."""
    out = WarningSink(codec)
    out.unmapped_echoes([message], own=own, writes=writes, at="message")
    if not out.warnings:
        return encoded
    out.warnings[:0] = encoded.warnings
    out.notes = encoded.notes
    return out.finish(encoded.body, strict=strict)


def _marks(echoes: Sequence[Any]) -> bool:
    """Whether any of ``echoes`` marks a key ``unmapped``."""
    return any(echo.unmapped for echo in echoes)
