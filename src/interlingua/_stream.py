"""Stream events every codec decodes to and encodes from, and their accumulation into a Response.

Events are immutable slotted records, not pydantic models: a stream makes thousands of them and
each must cost well under a microsecond to build. They are written out by hand rather than as
dataclasses, which compile their methods from generated source when the module loads (about
0.6 ms a class, 6 ms for these ten: PERF.md's import budget is 40 ms in all).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable, Iterable
from functools import cache
from typing import TypeAlias

from pydantic_core import from_json

from ._cost import Cost
from ._errors import DecodeError, ProviderError
from ._message import Message
from ._model import Record, construct, maker, replace
from ._parts import Citation, ContentPart, ProviderEcho, Text, Thinking, ToolUse
from ._response import Response, StopReason, Usage
from ._stream_errors import StreamDecodeError, StreamError
from ._wire import tool_arguments

_set = object.__setattr__


class MessageStart(Record):
    """The answer begins; ``provider_echoes`` are response-level vendor fields known so far."""

    __slots__ = __match_args__ = ("id", "model", "provider_echoes")
    id: str | None
    model: str | None
    provider_echoes: list[ProviderEcho]

    def __init__(
        self, id: str | None = None, model: str | None = None, provider_echoes: list[ProviderEcho] | None = None
    ) -> None:
        _set(self, "id", id)
        _set(self, "model", model)
        _set(self, "provider_echoes", [] if provider_echoes is None else provider_echoes)


class PartStart(Record):
    """A part opens at ``index``; text and thinking parts usually start empty and grow by deltas."""

    __slots__ = __match_args__ = ("index", "part")
    index: int
    part: ContentPart

    def __init__(self, index: int, part: ContentPart) -> None:
        _set(self, "index", index)
        _set(self, "part", part)


class TextDelta(Record):
    __slots__ = __match_args__ = ("index", "text")
    index: int
    text: str

    def __init__(self, index: int, text: str) -> None:
        _set(self, "index", index)
        _set(self, "text", text)


class ThinkingDelta(Record):
    __slots__ = __match_args__ = ("index", "text")
    index: int
    text: str

    def __init__(self, index: int, text: str) -> None:
        _set(self, "index", index)
        _set(self, "text", text)


class ToolInputDelta(Record):
    """A piece of a tool call's arguments JSON; pieces split anywhere, parsed once at part end."""

    __slots__ = __match_args__ = ("index", "json")
    index: int
    json: str

    def __init__(self, index: int, json: str) -> None:
        _set(self, "index", index)
        _set(self, "json", json)


class Echo(Record):
    """Vendor data for the part at ``index`` (None: for the response), merged key by key into
    that provider's existing echo, so a signature may arrive after its text."""

    __slots__ = __match_args__ = ("index", "echo")
    index: int | None
    echo: ProviderEcho

    def __init__(self, index: int | None, echo: ProviderEcho) -> None:
        _set(self, "index", index)
        _set(self, "echo", echo)


class PartEnd(Record):
    """The part at ``index`` is complete. ``citations``, when given, are the text part's citations
    as the wire delivered them apart from its text (they replace the ones it opened with)."""

    __slots__ = __match_args__ = ("index", "citations")
    index: int
    citations: list[Citation] | None

    def __init__(self, index: int, citations: list[Citation] | None = None) -> None:
        _set(self, "index", index)
        _set(self, "citations", citations)


class UsageUpdate(Record):
    """The usage as known so far (cumulative: it replaces the previous update, never adds)."""

    __slots__ = __match_args__ = ("usage",)
    usage: Usage

    def __init__(self, usage: Usage) -> None:
        _set(self, "usage", usage)


class MessageEnd(Record):
    """The answer is complete; ``usage``, when given, is final; ``cost``, when given, is what
    the vendor reported the answer cost (the Response's ``cost``)."""

    __slots__ = __match_args__ = ("stop_reason", "raw_stop_reason", "usage", "cost")
    stop_reason: StopReason | None
    raw_stop_reason: str | None
    usage: Usage | None
    cost: Cost | None

    def __init__(
        self,
        stop_reason: StopReason | None,
        raw_stop_reason: str | None = None,
        usage: Usage | None = None,
        cost: Cost | None = None,
    ) -> None:
        _set(self, "stop_reason", stop_reason)
        _set(self, "raw_stop_reason", raw_stop_reason)
        _set(self, "usage", usage)
        _set(self, "cost", cost)


class ErrorEvent(Record):
    """The vendor reported an error inside the stream."""

    __slots__ = __match_args__ = ("error",)
    error: ProviderError

    def __init__(self, error: ProviderError) -> None:
        _set(self, "error", error)


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
    """``echoes`` with ``new`` merged into the entry of the same provider (keys of ``new`` win;
    the ``unmapped`` keys of both are kept)."""
    out: list[ProviderEcho] = []
    merged = False
    for entry in echoes:
        if entry.provider == new.provider and not merged:
            data = {**entry.data, **new.data}
            kept = entry.unmapped
            entry = construct(ProviderEcho, provider=new.provider, data=data, model=new.model or entry.model)
            if new.unmapped or kept:
                entry = replace(entry, unmapped=[*kept, *(key for key in new.unmapped if key not in kept)])
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
        if self.echoes and self.echoes != part.provider_echoes:  # echoes only grow: empty is the part's own
            update["provider_echoes"] = self.echoes
        if self.citations is not None and isinstance(part, Text):
            update["citations"] = self.citations
        if self.chunks:
            joined = "".join(self.chunks)
            if isinstance(part, (Text, Thinking)):  # a tuple: isinstance of a union type costs more
                update["text"] = part.text + joined
            elif isinstance(part, ToolUse):
                update.update(_tool_input(joined, partial=partial))
        return replace(part, **update) if update else part


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


@cache
def _makers() -> tuple[Callable[..., Message], Callable[..., Response]]:
    """The accumulator's constructors of the answer (its Message, its Response), made on the first
    answer: ``import interlingua`` compiles none."""
    fields = ("id", "model", "message", "stop_reason", "raw_stop_reason", "usage", "provider_echoes", "warnings")
    return maker(Message, "role", "parts"), maker(Response, *fields, "cost")


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
        self._cost: Cost | None = None
        self._stop: StopReason | None = None
        self._raw_stop: str | None = None
        self.done = False
        self.error: ProviderError | None = None

    def add(self, event: StreamEvent) -> None:
        _HANDLERS[type(event)](self, event)

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
        self._cost = event.cost
        self.done = True

    def _error(self, event: ErrorEvent) -> None:
        self.error = event.error

    def _fail(self, reason: str) -> StreamError:
        return StreamError(reason, partial=self.snapshot())

    def _build(self, *, partial: bool) -> Response:
        parts = [slot.build(partial=partial) for slot in self._slots.values()]
        message, response = _makers()
        usage = self._usage if self._usage is not None else construct(Usage)
        answer = message("assistant", parts)
        return response(self._id, self._model, answer, self._stop, self._raw_stop, usage, self._echoes, [], self._cost)

    def snapshot(self) -> Response:
        """The answer so far; open tool calls show the arguments parsed up to where they stop."""
        return self._build(partial=True)

    def decode_failed(self, error: DecodeError) -> StreamDecodeError:
        """What a stream whose codec raised ``error`` mid-way raises: the same error, with the
        answer so far as ``partial`` (raise it ``from error``)."""
        return StreamDecodeError.of(error, self.snapshot())

    def response(self) -> Response:
        """The finished answer; StreamError (with ``partial``) if the stream broke off or failed.

        This is the one check of a stream's end: whoever drives a stream calls it when the
        events run out, so a stream with no ``message_end`` fails where it is iterated."""
        if self.error is not None:
            raise StreamError(f"the stream carried an error: {self.error}", partial=self.snapshot(), error=self.error)
        if not self.done:
            raise StreamError("the stream ended before the message was complete", partial=self.snapshot())
        return self._build(partial=False)


_HANDLERS: dict[type, Callable[..., None]] = {
    MessageStart: StreamAccumulator._start,
    PartStart: StreamAccumulator._part_start,
    TextDelta: StreamAccumulator._delta,
    ThinkingDelta: StreamAccumulator._delta,
    ToolInputDelta: StreamAccumulator._tool_delta,
    Echo: StreamAccumulator._echo,
    PartEnd: StreamAccumulator._part_end,
    UsageUpdate: StreamAccumulator._usage_update,
    MessageEnd: StreamAccumulator._end,
    ErrorEvent: StreamAccumulator._error,
}
"""One table for every accumulator: a stream's set-up binds no methods (PERF.md: short streams)."""


def accumulate(events: Iterable[StreamEvent]) -> Response:
    """The Response a stream of events adds up to (see :class:`StreamAccumulator`). A stream
    that ends before its ``message_end``, carried an error, or whose decoder raised a
    DecodeError raises StreamError (a StreamDecodeError for the last) with ``partial``."""
    acc = StreamAccumulator()
    try:
        for event in events:
            acc.add(event)
    except StreamDecodeError:
        raise
    except DecodeError as error:
        raise acc.decode_failed(error) from error
    return acc.response()


async def aaccumulate(events: AsyncIterable[StreamEvent]) -> Response:
    """:func:`accumulate` for an async stream."""
    acc = StreamAccumulator()
    try:
        async for event in events:
            acc.add(event)
    except StreamDecodeError:
        raise
    except DecodeError as error:
        raise acc.decode_failed(error) from error
    return acc.response()
