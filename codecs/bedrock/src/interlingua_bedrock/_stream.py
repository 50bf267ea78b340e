"""ConverseStream, both directions (botocore's ``ConverseStreamOutput`` events).

The wire's events arrive as binary event-stream frames; ``interlingua.kit.event_frames`` reads
them into events named by their ``:event-type`` (``messageStart``, ``contentBlockStart``,
``contentBlockDelta``, ``contentBlockStop``, ``messageStop``, ``metadata``) with the JSON payload
as data, and an exception frame as the ``exception`` event. This module reads and writes those.

- Text and reasoning blocks have no start event: the first delta at an index opens the part.
  Reasoning opens as ``Thinking`` carrying an empty ``bedrock`` echo (this wire's own), and its
  ``signature`` delta arrives as an echo for that part.
- ``messageStop`` carries the stop reason and ``metadata`` (after it) the usage and metrics:
  ``message_end`` is sent once both are known (or when the stream ends after ``messageStop``).
- A block whose start has no IR form (Nova's code-interpreter result) is skipped with a
  LossyDecode, its deltas too, and its ``contentBlockStop`` ends no part: the stream goes on.
- A cited answer streams its citations as ``citation`` deltas of its text block (botocore's
  ``ContentBlockDelta.citation``, a ``CitationsDelta`` with a ``Citation``'s members); they end as
  a response's ``citationsContent`` block does: ``Text.citations``, the block (its text and the
  citations as they came) in the text's echo, so a stream and its answer decode alike.
- Every event's ``p`` field is padding AWS adds against length side channels; it carries
  nothing and is not kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from interlingua import (
    ContentPart,
    ErrorEvent,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    ProviderEcho,
    ProviderError,
    RedactedThinking,
    ServerSentEvent,
    SSEEvent,
    StreamEvent,
    Text,
    TextDelta,
    Thinking,
    ThinkingDelta,
    ToolInputDelta,
    ToolUse,
    Usage,
    UsageUpdate,
    WarningSink,
)
from interlingua import Echo as EchoEvent
from interlingua.kit import arguments_text, dumps, event_object, expect, one_part_open, optional, require

from ._parts import NAME, PROVIDER, decode_citation, echo, own
from ._stop_reason import STOP_REASONS, write_stop
from ._usage import decode_usage, encode_usage

EXCEPTION = "exception"


def decode_stream(events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
    reader = _Reader(out)
    for number, event in enumerate(events):
        at = f"events[{number}]"
        data = _payload(event, at)
        if event.event == EXCEPTION:
            yield ErrorEvent(_error(data))
            return
        data.pop("p", None)
        read = _READERS.get(event.event)
        if read is None:
            out.lossy_decode(at, f"a {event.event} event has no IR form; skipped")
            continue
        yield from read(reader, data, at)
    yield from reader.close()


class _Reader:
    """One stream's state: the kind of each open block by index, the text and citations of a
    cited text block, and the stop reason waiting for its ``metadata``."""

    __slots__ = ("cited", "ended", "opened", "out", "stop", "texts")

    def __init__(self, out: WarningSink) -> None:
        self.out = out
        self.opened: dict[int, str] = {}
        self.texts: dict[int, list[str]] = {}  # the text of each text block, for a cited one's echo
        self.cited: dict[int, list[dict[str, Any]]] = {}
        self.stop: str | None = None
        self.ended = False

    def message_start(self, data: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        yield MessageStart()

    def block_start(self, data: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        index = require(data, "contentBlockIndex", int, at)
        start = expect(data.get("start"), dict, f"{at}.start")
        call = start.get("toolUse")
        if not (isinstance(call, dict) and set(start) == {"toolUse"}):
            why = f"a {', '.join(start)} block start has no IR form in a stream; skipped"
            self.out.lossy_decode(f"{at}.start", why)
            return
        extras = {k: v for k, v in call.items() if k not in ("toolUseId", "name")}
        part = ToolUse(
            id=require(call, "toolUseId", str, f"{at}.start.toolUse"),
            name=require(call, "name", str, f"{at}.start.toolUse"),
            provider_echoes=echo(extras) if extras else [],
        )
        self.opened[index] = "tool"
        yield PartStart(index, part)

    def block_delta(self, data: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        index = require(data, "contentBlockIndex", int, at)
        delta = expect(data.get("delta"), dict, f"{at}.delta")
        if isinstance(delta.get("text"), str):
            yield from self._open_text(index)
            self.texts.setdefault(index, []).append(delta["text"])
            yield TextDelta(index, delta["text"])
        elif isinstance(reasoning := delta.get("reasoningContent"), dict):
            yield from self._reasoning(index, reasoning)
        elif isinstance(call := delta.get("toolUse"), dict):
            yield ToolInputDelta(index, require(call, "input", str, f"{at}.delta.toolUse"))
        elif isinstance(citation := delta.get("citation"), dict):
            yield from self._open_text(index)
            self.cited.setdefault(index, []).append(citation)
        else:
            self.out.lossy_decode(f"{at}.delta", f"a {', '.join(delta)} delta has no IR form in a stream; skipped")

    def _open_text(self, index: int) -> Iterator[StreamEvent]:
        if index not in self.opened:
            self.opened[index] = "text"
            self.texts[index] = []
            yield PartStart(index, Text(text=""))

    def _reasoning(self, index: int, reasoning: dict[str, Any]) -> Iterator[StreamEvent]:
        if isinstance(reasoning.get("redactedContent"), str):
            self.opened[index] = "redacted"
            redacted = echo({"redactedContent": reasoning["redactedContent"]})
            yield PartStart(index, RedactedThinking(provider_echoes=redacted))
            return
        if index not in self.opened:
            self.opened[index] = "thinking"
            yield PartStart(index, Thinking(text="", provider_echoes=echo({})))
        if isinstance(reasoning.get("text"), str):
            yield ThinkingDelta(index, reasoning["text"])
        if isinstance(reasoning.get("signature"), str):
            yield EchoEvent(index, ProviderEcho(provider=PROVIDER, data={"signature": reasoning["signature"]}))

    def block_stop(self, data: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        index = require(data, "contentBlockIndex", int, at)
        if self.opened.pop(index, None) is None:  # a block skipped at its start ends unseen too
            return
        yield from self._end(index)

    def _end(self, index: int) -> Iterator[StreamEvent]:
        """The end of the part at ``index``; a cited text's citations end with it, its block (the
        text and the citations as they came) in its echo as a response's ``citationsContent``."""
        text, cited = self.texts.pop(index, []), self.cited.pop(index, None)
        if cited is None:
            yield PartEnd(index)
            return
        block = {"content": [{"text": "".join(text)}], "citations": cited}
        yield EchoEvent(index, echo({"citationsContent": block})[0])
        yield PartEnd(index, [decode_citation(citation) for citation in cited])

    def _end_cited(self) -> Iterator[StreamEvent]:
        """The cited text blocks the stream never stopped, ended before the message ends."""
        for index in list(self.cited):
            if self.opened.pop(index, None) is not None:
                yield from self._end(index)

    def message_stop(self, data: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        self.stop = require(data, "stopReason", str, at)
        if extra := {k: v for k, v in data.items() if k != "stopReason"}:
            yield EchoEvent(None, ProviderEcho(provider=PROVIDER, data=extra))

    def metadata(self, data: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        usage, kept = decode_usage(optional(data, "usage", dict, at))
        rest = {k: v for k, v in data.items() if k != "usage"}
        if kept:
            rest["_usage"] = kept
        if rest:
            yield EchoEvent(None, ProviderEcho(provider=PROVIDER, data=rest))
        yield UsageUpdate(usage)
        if self.stop is not None:
            yield from self._end_cited()
            yield MessageEnd(STOP_REASONS.get(self.stop, "other"), self.stop, usage)
            self.ended = True

    def close(self) -> Iterator[StreamEvent]:
        """The end when the stream stops after ``messageStop`` with no ``metadata``."""
        if self.stop is not None and not self.ended:
            yield from self._end_cited()
            yield MessageEnd(STOP_REASONS.get(self.stop, "other"), self.stop, None)


_READERS: dict[str, Callable[[_Reader, dict[str, Any], str], Iterator[StreamEvent]]] = {
    "messageStart": _Reader.message_start,
    "contentBlockStart": _Reader.block_start,
    "contentBlockDelta": _Reader.block_delta,
    "contentBlockStop": _Reader.block_stop,
    "messageStop": _Reader.message_stop,
    "metadata": _Reader.metadata,
}


def _payload(event: SSEEvent, at: str) -> dict[str, Any]:
    return event_object(NAME, event.data, at)


def _error(problem: dict[str, Any]) -> ProviderError:
    kind = str(problem.get("type") or "exception")
    status = {"throttlingException": 429, "validationException": 400, "serviceUnavailableException": 503}.get(kind, 500)
    return ProviderError.for_status(status, str(problem.get("message") or kind), type=kind, codec="bedrock-converse")


# --- encoding ----------------------------------------------------------------------------------


def _event(kind: str, payload: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(data=dumps(payload), event=kind)


def encode_stream(events: Iterable[StreamEvent], out: WarningSink) -> Iterator[ServerSentEvent]:
    """IR events -> ConverseStream events. Wire block indexes count the blocks written, so a
    part this wire cannot carry leaves no gap."""
    writer = _Writer(out)
    for number, event in one_part_open(events, out, PROVIDER):
        yield from writer.write(event, f"events[{number}]")


class _Writer:
    """One stream's state: each IR part's wire block and kind, the blocks no delta has opened
    yet, this wire's own citations waiting for their block's end, the usage and echoes the end
    needs, and whether an exception was written."""

    __slots__ = ("cited", "echoes", "failed", "kinds", "out", "unopened", "usage", "wire")

    def __init__(self, out: WarningSink) -> None:
        self.out = out
        self.wire: dict[int, int] = {}
        self.kinds: dict[int, str] = {}
        self.unopened: set[int] = set()  # blocks no delta has opened yet: text and thinking (no start event), calls
        self.cited: dict[int, list[Any]] = {}  # a text's citationsContent citations, by IR index
        self.failed = False
        self.usage: Usage | None = None
        self.echoes: dict[str, Any] = {}

    def write(self, event: StreamEvent, at: str) -> Iterator[ServerSentEvent]:
        match event:
            case MessageStart():
                yield _event("messageStart", {"role": "assistant"})
            case PartStart(index=index, part=part):
                yield from self._start(index, part, at)
            case TextDelta(index=index, text=text) if index in self.wire:
                yield self._delta(index, {"text": text})
            case ThinkingDelta(index=index, text=text) if index in self.wire:
                yield self._delta(index, {"reasoningContent": {"text": text}})
            case ToolInputDelta(index=index, json=json) if index in self.wire:
                yield self._delta(index, {"toolUse": {"input": json}})
            case EchoEvent(index=None, echo=found) if found.provider == PROVIDER:
                self.echoes.update(found.data)
            case EchoEvent(index=int() as index, echo=found) if index in self.wire and found.provider == PROVIDER:
                yield from self._part_echo(index, found.data)
            case PartEnd(index=index, citations=citations) if index in self.wire:
                yield from self._end(index, citations, at)
            case UsageUpdate(usage=latest):
                self.usage = latest
            case MessageEnd() if self.failed:  # the exception frame ends a ConverseStream
                why = "a ConverseStream ends at its exception; the stop reason after it is not sent"
                self.out.lossy(f"{at}.stop_reason", "stop_reason", why)
            case MessageEnd(stop_reason=reason, raw_stop_reason=raw, usage=final):
                yield from self._finish(reason, raw, final, at)
            case ErrorEvent(error=error):
                self.failed = True
                problem = {"type": error.type or "internalServerException", "message": error.message}
                yield ServerSentEvent(data=dumps(problem), event=EXCEPTION)
            case _:
                pass  # deltas and echoes of a part this wire does not carry (reported at its start)

    def _delta(self, index: int, delta: dict[str, Any]) -> ServerSentEvent:
        self.unopened.discard(index)
        return _event("contentBlockDelta", {"delta": delta, "contentBlockIndex": self.wire[index]})

    def _start(self, index: int, part: ContentPart, at: str) -> Iterator[ServerSentEvent]:
        written = _open(part, f"{at}.part", self.out)
        if written is None:
            return
        self.wire[index] = len(self.wire)
        self.kinds[index] = written
        if isinstance(part, Text):
            self._cite(index, part, at)
        if isinstance(part, ToolUse):
            call = {"toolUseId": part.id, "name": part.name, **(own(part) or {})}
            yield _event("contentBlockStart", {"start": {"toolUse": call}, "contentBlockIndex": self.wire[index]})
            if part.input or part.raw_input is not None:  # a call that arrived whole (Gemini's): one delta
                yield self._delta(index, {"toolUse": {"input": arguments_text(part.input, part.raw_input)}})
            else:  # deltas may follow; a call that ends with none gets its empty input at its end
                self.unopened.add(index)
        elif isinstance(part, RedactedThinking):
            yield self._delta(index, {"reasoningContent": {"redactedContent": (own(part) or {})["redactedContent"]}})
        elif isinstance(part, Text | Thinking) and part.text:  # a part that opens with text
            yield self._delta(index, _opening(part))
        elif isinstance(part, Text | Thinking):
            self.unopened.add(index)

    def _cite(self, index: int, part: Text, at: str) -> None:
        """This wire's own citations (a ``citationsContent`` echo) are streamed at the block's end;
        another wire's have no form here."""
        block = (own(part) or {}).get("citationsContent")
        if isinstance(block, dict) and isinstance(block.get("citations"), list):
            self.cited[index] = block["citations"]
        elif part.citations:
            self.out.lossy(f"{at}.part.citations", "citations", "ConverseStream carries no citations on text")

    def _part_echo(self, index: int, data: dict[str, Any]) -> Iterator[ServerSentEvent]:
        signature = data.get("signature")
        if self.kinds.get(index) == "thinking" and isinstance(signature, str):
            yield self._delta(index, {"reasoningContent": {"signature": signature}})
        block = data.get("citationsContent")
        if self.kinds.get(index) == "text" and isinstance(block, dict) and isinstance(block.get("citations"), list):
            self.cited[index] = block["citations"]

    def _end(self, index: int, citations: Any, at: str) -> Iterator[ServerSentEvent]:
        cited = self.cited.pop(index, None)
        if cited is None and citations:
            self.out.lossy(f"{at}.citations", "citations", "ConverseStream carries no citations on text")
        if index in self.unopened:  # an empty block: a text block opens with its first delta
            yield self._delta(index, _EMPTY[self.kinds[index]])
        for citation in cited or []:
            yield self._delta(index, {"citation": citation})
        yield _event("contentBlockStop", {"contentBlockIndex": self.wire[index]})

    def _finish(self, reason: Any, raw: str | None, final: Usage | None, at: str) -> Iterator[ServerSentEvent]:
        stop = (
            raw
            if raw is not None and STOP_REASONS.get(raw, "other") == reason
            else write_stop(reason or "end_turn", self.out, f"{at}.stop_reason")
        )
        echoes = self.echoes
        extra = {k: v for k, v in echoes.items() if k in ("additionalModelResponseFields",)}
        yield _event("messageStop", {"stopReason": stop, **extra})
        metadata: dict[str, Any] = {}
        counted = final or self.usage
        own_usage = "_usage" in echoes or "metrics" in echoes
        if counted is not None:
            counts = encode_usage(counted, echoes.get("_usage", {}), own=own_usage, out=self.out, at=f"{at}.usage")
            if counts is not None:
                metadata["usage"] = counts
        metadata["metrics"] = echoes.get("metrics", {"latencyMs": 0})
        metadata.update({k: v for k, v in echoes.items() if k not in ("metrics", "_usage", *extra)})
        yield _event("metadata", metadata)


_EMPTY: dict[str, dict[str, Any]] = {
    "text": {"text": ""},
    "thinking": {"reasoningContent": {"text": ""}},
    # ToolUseBlockDelta.input is a required string (API_runtime_ToolUseBlockDelta); the recorded
    # streams give every call a delta: one with no arguments gets the empty object as text
    "tool": {"toolUse": {"input": "{}"}},
}
"""The delta of a block that ends with none, by kind: every recorded block has one."""


def _opening(part: Text | Thinking) -> dict[str, Any]:
    return {"text": part.text} if isinstance(part, Text) else {"reasoningContent": {"text": part.text}}


def _open(part: Any, at: str, out: WarningSink) -> str | None:
    """The kind of block ``part`` opens, or None when this wire cannot carry it (reported)."""
    match part:
        case Text():
            return "text"
        case Thinking():
            return "thinking"
        case ToolUse():
            return "tool"
        case RedactedThinking() if "redactedContent" in (own(part) or {}):
            return "redacted"
        case _:
            out.lossy(at, part.type, f"{part.type} has no ConverseStream block; not sent")
            return None
