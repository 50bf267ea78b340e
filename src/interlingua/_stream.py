"""Stream events every codec decodes to and encodes from, and their accumulation into a Response.

Events are slotted dataclasses, not pydantic models: a stream makes thousands of them and each
must cost well under a microsecond to build.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

from pydantic_core import from_json

from ._errors import ProviderError, StreamError
from ._message import Message
from ._model import construct
from ._parts import Citation, ContentPart, ProviderEcho, Text, Thinking, ToolUse
from ._response import Response, StopReason, Usage
from ._wire import tool_arguments


@dataclass(frozen=True, slots=True)
class MessageStart:
    """The answer begins; ``provider_echoes`` are response-level vendor fields known so far."""

    id: str | None = None
    model: str | None = None
    provider_echoes: list[ProviderEcho] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PartStart:
    """A part opens at ``index``; text and thinking parts usually start empty and grow by deltas."""

    index: int
    part: ContentPart


@dataclass(frozen=True, slots=True)
class TextDelta:
    index: int
    text: str


@dataclass(frozen=True, slots=True)
class ThinkingDelta:
    index: int
    text: str


@dataclass(frozen=True, slots=True)
class ToolInputDelta:
    """A piece of a tool call's arguments JSON; pieces split anywhere, parsed once at part end."""

    index: int
    json: str


@dataclass(frozen=True, slots=True)
class Echo:
    """Vendor data for the part at ``index`` (None: for the response), merged key by key into
    that provider's existing echo, so a signature may arrive after its text."""

    index: int | None
    echo: ProviderEcho


@dataclass(frozen=True, slots=True)
class PartEnd:
    """The part at ``index`` is complete. ``citations``, when given, are the text part's citations
    as the wire delivered them apart from its text (they replace the ones it opened with)."""

    index: int
    citations: list[Citation] | None = None


@dataclass(frozen=True, slots=True)
class UsageUpdate:
    """The usage as known so far (cumulative: it replaces the previous update, never adds)."""

    usage: Usage


@dataclass(frozen=True, slots=True)
class MessageEnd:
    """The answer is complete; ``usage``, when given, is final."""

    stop_reason: StopReason | None
    raw_stop_reason: str | None = None
    usage: Usage | None = None


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    """The vendor reported an error inside the stream."""

    error: ProviderError


StreamEvent: TypeAlias = (
    MessageStart
    | PartStart
    | TextDelta
    | ThinkingDelta
    | ToolInputDelta
    | Echo
    | PartEnd
    | UsageUpdate
    | MessageEnd
    | ErrorEvent
)


def merge_echo(echoes: list[ProviderEcho], new: ProviderEcho) -> list[ProviderEcho]:
    """``echoes`` with ``new`` merged into the entry of the same provider (keys of ``new`` win)."""
    out: list[ProviderEcho] = []
    merged = False
    for entry in echoes:
        if entry.provider == new.provider and not merged:
            entry = ProviderEcho(provider=new.provider, data={**entry.data, **new.data}, model=new.model or entry.model)
            merged = True
        out.append(entry)
    if not merged:
        out.append(new)
    return out


class _Slot:
    """One part being assembled: its opening value, the pieces that grow it, its echoes."""

    __slots__ = ("chunks", "citations", "echoes", "final", "part")

    def __init__(self, part: ContentPart) -> None:
        self.part = part
        self.chunks: list[str] = []
        self.echoes = list(part.provider_echoes)
        self.citations: list[Citation] | None = None
        self.final: ContentPart | None = None

    def build(self, *, partial: bool) -> ContentPart:
        if self.final is not None:
            return self.final
        part = self.part
        update: dict[str, object] = {}
        if self.echoes != part.provider_echoes:
            update["provider_echoes"] = self.echoes
        if self.citations is not None and isinstance(part, Text):
            update["citations"] = self.citations
        if self.chunks:
            joined = "".join(self.chunks)
            if isinstance(part, Text | Thinking):
                update["text"] = part.text + joined
            elif isinstance(part, ToolUse):
                update.update(_tool_input(joined, partial=partial))
        return part.model_copy(update=update) if update else part


def _tool_input(text: str, *, partial: bool) -> dict[str, object]:
    """Parse arguments JSON once; text that is not a JSON object is kept in ``raw_input``.

    A snapshot parses leniently (jiter's partial mode, through pydantic-core) and keeps nothing raw.
    """
    if not partial:
        value, raw = tool_arguments(text)
        return {"input": value} if raw is None else {"input": value, "raw_input": raw}
    try:
        value = from_json(text, allow_partial="trailing-strings")
    except ValueError:
        return {"input": {}}
    return {"input": value if isinstance(value, dict) else {}}


class StreamAccumulator:
    """Folds StreamEvents into a Response, in time linear in the stream's size.

    Text pieces are collected and joined once; tool arguments are parsed once, at part end.
    ``snapshot()`` shows the answer so far, with partial tool input parsed leniently.
    """

    def __init__(self) -> None:
        self._id: str | None = None
        self._model: str | None = None
        self._echoes: list[ProviderEcho] = []
        self._slots: dict[int, _Slot] = {}
        self._usage: Usage | None = None
        self._stop: StopReason | None = None
        self._raw_stop: str | None = None
        self.done = False
        self.error: ProviderError | None = None
        self._handlers: dict[type, Callable[..., None]] = {
            MessageStart: self._start,
            PartStart: self._part_start,
            TextDelta: self._delta,
            ThinkingDelta: self._delta,
            ToolInputDelta: self._tool_delta,
            Echo: self._echo,
            PartEnd: self._part_end,
            UsageUpdate: self._usage_update,
            MessageEnd: self._end,
            ErrorEvent: self._error,
        }

    def add(self, event: StreamEvent) -> None:
        self._handlers[type(event)](event)

    def _start(self, event: MessageStart) -> None:
        self._id, self._model = event.id, event.model
        for echo in event.provider_echoes:
            self._echoes = merge_echo(self._echoes, echo)

    def _part_start(self, event: PartStart) -> None:
        if event.index in self._slots:
            raise self._fail(f"part_start for index {event.index}, which is already open")
        self._slots[event.index] = _Slot(event.part)

    def _slot(self, index: int, what: str) -> _Slot:
        slot = self._slots.get(index)
        if slot is None:
            raise self._fail(f"{what} for index {index} before its part_start")
        return slot

    def _delta(self, event: TextDelta | ThinkingDelta) -> None:
        self._slot(event.index, "text delta").chunks.append(event.text)

    def _tool_delta(self, event: ToolInputDelta) -> None:
        self._slot(event.index, "tool input delta").chunks.append(event.json)

    def _echo(self, event: Echo) -> None:
        if event.index is None:
            self._echoes = merge_echo(self._echoes, event.echo)
            return
        slot = self._slot(event.index, "echo")
        slot.echoes = merge_echo(slot.echoes, event.echo)
        slot.final = None

    def _part_end(self, event: PartEnd) -> None:
        slot = self._slot(event.index, "part_end")
        if event.citations is not None:
            slot.citations = list(event.citations)
        slot.final = slot.build(partial=False)

    def _usage_update(self, event: UsageUpdate) -> None:
        self._usage = event.usage

    def _end(self, event: MessageEnd) -> None:
        self._stop, self._raw_stop = event.stop_reason, event.raw_stop_reason
        if event.usage is not None:
            self._usage = event.usage
        self.done = True

    def _error(self, event: ErrorEvent) -> None:
        self.error = event.error

    def _fail(self, reason: str) -> StreamError:
        return StreamError(reason, partial=self.snapshot())

    def _build(self, *, partial: bool) -> Response:
        parts = [slot.build(partial=partial) for slot in self._slots.values()]
        return construct(
            Response,
            id=self._id,
            model=self._model,
            message=Message(role="assistant", parts=parts),
            stop_reason=self._stop,
            raw_stop_reason=self._raw_stop,
            usage=self._usage if self._usage is not None else Usage(),
            provider_echoes=self._echoes,
            warnings=[],
        )

    def snapshot(self) -> Response:
        """The answer so far; open tool calls show the arguments parsed up to where they stop."""
        return self._build(partial=True)

    def response(self) -> Response:
        """The finished answer; StreamError (with ``partial``) if the stream broke off or failed."""
        if self.error is not None:
            raise StreamError(f"the stream carried an error: {self.error}", partial=self.snapshot(), error=self.error)
        if not self.done:
            raise StreamError("the stream ended before the message was complete", partial=self.snapshot())
        return self._build(partial=False)


def accumulate(events: Iterable[StreamEvent]) -> Response:
    """The Response a stream of events adds up to (see :class:`StreamAccumulator`)."""
    acc = StreamAccumulator()
    for event in events:
        acc.add(event)
    return acc.response()


async def aaccumulate(events: AsyncIterable[StreamEvent]) -> Response:
    """:func:`accumulate` for an async stream."""
    acc = StreamAccumulator()
    async for event in events:
        acc.add(event)
    return acc.response()
