"""Chat streams, both directions (cohere's ``StreamedChatResponseV2`` events; each event's
``type`` is in its data: ``message-start``, ``content-start`` / ``-delta`` / ``-end``,
``tool-plan-delta``, ``tool-call-start`` / ``-delta`` / ``-end``, ``citation-start`` / ``-end``,
``message-end``).

Content blocks and tool calls count their indexes apart on this wire; the IR's part indexes
are given in the order parts open. The tool plan opens a ``Text`` part with the ``toolPlan``
echo, as in a response. ``message-end`` carries the finish reason and usage.

Citations stream as ``citation-start`` events (one ``Citation`` each, in ``delta.message.citations``;
cohere's ``CitationStartEvent``), between a text block's deltas and its ``content-end``
(https://docs.cohere.com/docs/rag-streaming). They end where a response's ``message.citations``
does: on the first text part, as ``Text.citations`` with the wire's list in its echo (or in the
response's echo when the answer has no text), so a stream and its answer decode alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from interlingua import Echo as EchoEvent
from interlingua import (
    ErrorEvent,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    ProviderError,
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
from interlingua.kit import arguments_text, dumps, event_object, one_part_open

from ._parts import NAME, PROVIDER, decode_citations, echo, own
from ._stop_reason import STOP_REASONS, write_finish
from ._usage import decode_usage, encode_usage, report_usage

# --- decoding ----------------------------------------------------------------------------------


def decode_stream(events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
    reader = _Reader(out)
    for number, event in enumerate(events):
        at = f"events[{number}]"
        data = event_object(NAME, event.data, at)
        kind = data.get("type", event.event)
        read = _READERS.get(kind)
        if read is None:
            out.lossy_decode(at, f"a {kind} event has no IR form; skipped")
            continue
        delta = _object(data.get("delta"))
        yield from read(reader, data, _object(delta.get("message")), at)


class _Reader:
    """One stream's state: the IR index of each wire block (``("content", i)``, ``("call", i)``,
    the plan), and the citations waiting for the text part they belong to."""

    __slots__ = ("cited", "home", "home_open", "out", "parts")

    def __init__(self, out: WarningSink) -> None:
        self.out = out
        self.parts: dict[tuple[str, Any], int] = {}  # by wire kind and index as it came
        self.home: int | None = None  # the first text part: where a response's citations go
        self.home_open = False
        self.cited: list[Any] = []

    def message_start(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        yield MessageStart(id=data["id"] if isinstance(data.get("id"), str) else None)

    def content_start(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        content = _object(message.get("content"))
        opened = self.parts[("content", data.get("index"))] = len(self.parts)
        thinking = content.get("type") == "thinking"
        start = content.get("thinking" if thinking else "text")
        start = start if isinstance(start, str) else ""
        if thinking:
            yield PartStart(opened, Thinking(text=start, provider_echoes=echo({})))
            return
        if self.home is None:
            self.home, self.home_open = opened, True
        yield PartStart(opened, Text(text=start))

    def content_delta(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        content = _object(message.get("content"))
        ir = self.parts.get(("content", data.get("index")))
        if ir is None:
            self.out.lossy_decode(at, "a delta for a block that never started; skipped")
        elif isinstance(content.get("thinking"), str):
            yield ThinkingDelta(ir, content["thinking"])
        elif isinstance(content.get("text"), str):
            yield TextDelta(ir, content["text"])

    def content_end(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        ir = self.parts.get(("content", data.get("index")))
        if ir is None:
            return
        if ir == self.home:
            yield from self._end_home(ir)
        else:
            yield PartEnd(ir)

    def _end_home(self, home: int) -> Iterator[StreamEvent]:
        """The end of the first text part, with the citations that came for it."""
        self.home_open = False
        if self.cited:
            yield EchoEvent(home, echo({"citations": self.cited})[0])
            yield PartEnd(home, decode_citations(self.cited))
        else:
            yield PartEnd(home)

    def citation_start(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        citation = message.get("citations")
        if not isinstance(citation, dict):
            self.out.lossy_decode(at, "a citation-start with no citation; skipped")
        elif self.home is not None and not self.home_open:
            self.out.lossy_decode(at, "a citation after its text block ended is not kept")
        else:
            self.cited.append(citation)
        return iter(())

    def citation_end(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        return iter(())  # the citation was whole at its start

    def tool_plan_delta(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        if ("plan", 0) not in self.parts:
            self.parts[("plan", 0)] = len(self.parts)
            yield PartStart(self.parts[("plan", 0)], Text(text="", provider_echoes=echo({"toolPlan": True})))
        plan = message.get("tool_plan")
        yield TextDelta(self.parts[("plan", 0)], plan if isinstance(plan, str) else "")

    def tool_call_start(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        yield from self._end_plan()
        call = _object(message.get("tool_calls"))
        function = _object(call.get("function"))
        started = self.parts[("call", data.get("index"))] = len(self.parts)
        yield PartStart(started, ToolUse(id=str(call.get("id") or ""), name=str(function.get("name") or "")))
        if isinstance(function.get("arguments"), str) and function["arguments"]:
            yield ToolInputDelta(started, function["arguments"])

    def tool_call_delta(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        function = _object(_object(message.get("tool_calls")).get("function"))
        ir = self.parts.get(("call", data.get("index")))
        if ir is not None and isinstance(function.get("arguments"), str):
            yield ToolInputDelta(ir, function["arguments"])

    def tool_call_end(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        ir = self.parts.get(("call", data.get("index")))
        if ir is not None:
            yield PartEnd(ir)

    def message_end(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        if ("plan", 0) in self.parts:
            yield PartEnd(self.parts.pop(("plan", 0)))
        if self.cited and self.home_open and self.home is not None:  # a text block the stream never ended
            yield from self._end_home(self.home)
        elif self.cited and self.home is None:  # an answer with no text: its citations in the response's echo
            yield EchoEvent(None, echo({"_message": {"citations": self.cited}})[0])
        delta = _object(data.get("delta"))
        raw = delta.get("finish_reason")
        usage, kept = decode_usage(delta.get("usage"))
        if kept:
            yield EchoEvent(None, echo(kept)[0])
        yield UsageUpdate(usage)
        stop = STOP_REASONS.get(raw, "other") if isinstance(raw, str) else None
        yield MessageEnd(stop, raw if isinstance(raw, str) else None, usage)

    def debug(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        self.out.lossy_decode(at, "a debug event is not kept in the stream's IR")
        return iter(())

    def error(self, data: dict[str, Any], message: dict[str, Any], at: str) -> Iterator[StreamEvent]:
        yield ErrorEvent(
            ProviderError.for_status(500, str(data.get("message") or "stream error"), codec=NAME, raw=data)
        )

    def _end_plan(self) -> Iterator[StreamEvent]:
        if ("plan", 0) in self.parts:
            yield PartEnd(self.parts.pop(("plan", 0)))
            self.parts[("plan-done", 0)] = -1


_READERS: dict[str, Callable[[_Reader, dict[str, Any], dict[str, Any], str], Iterator[StreamEvent]]] = {
    "message-start": _Reader.message_start,
    "content-start": _Reader.content_start,
    "content-delta": _Reader.content_delta,
    "content-end": _Reader.content_end,
    "citation-start": _Reader.citation_start,
    "citation-end": _Reader.citation_end,
    "tool-plan-delta": _Reader.tool_plan_delta,
    "tool-call-start": _Reader.tool_call_start,
    "tool-call-delta": _Reader.tool_call_delta,
    "tool-call-end": _Reader.tool_call_end,
    "message-end": _Reader.message_end,
    "debug": _Reader.debug,
    "error": _Reader.error,
}


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


# --- encoding ----------------------------------------------------------------------------------


def _event(payload: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(data=dumps(payload), event=str(payload["type"]))


def _message(kind: str, index: int | None, message: dict[str, Any]) -> ServerSentEvent:
    """An event whose delta carries a message fragment (``delta.message``)."""
    payload: dict[str, Any] = {"type": kind} if index is None else {"type": kind, "index": index}
    payload["delta"] = {"message": message}
    return _event(payload)


def encode_stream(events: Iterable[StreamEvent], out: WarningSink) -> Iterator[ServerSentEvent]:
    """IR events -> Cohere v2 stream events, content blocks and calls numbered apart."""
    writer = _Writer(out)
    for number, event in one_part_open(events, out, PROVIDER):
        yield from writer.write(event, f"events[{number}]")


class _Writer:
    """One stream's state: each IR part's wire kind and number, this wire's citations waiting for
    their text block's end, and the usage and echo the end needs."""

    __slots__ = ("bare", "citations", "cited", "counts", "failed", "kept", "kinds", "out", "usage")

    def __init__(self, out: WarningSink) -> None:
        self.out = out
        self.kinds: dict[int, tuple[str, int]] = {}
        self.bare: set[int] = set()  # blocks no delta has been written for yet (text, thinking, calls)
        self.failed = False  # an error event was written
        self.counts = {"content": 0, "call": 0}
        self.cited: dict[int, Any] = {}  # a text part's own citations (its cohere echo), by IR index
        self.citations = 0  # citation events written
        self.usage: Usage | None = None
        self.kept: dict[str, Any] = {}

    def write(self, event: StreamEvent, at: str) -> Iterator[ServerSentEvent]:
        match event:
            case MessageStart(id=message_id):
                start: dict[str, Any] = {"type": "message-start", "delta": {"message": {"role": "assistant"}}}
                yield _event(start if message_id is None else {"id": message_id, **start})
            case PartStart(index=index, part=Text() as part) if own(part).get("toolPlan"):
                self.kinds[index] = ("plan", 0)
                if part.text:
                    yield _message("tool-plan-delta", None, {"tool_plan": part.text})
            case PartStart(index=index, part=Text() | Thinking() as part):
                yield from self._open_content(index, part, at)
            case PartStart(index=index, part=ToolUse() as part):
                yield from self._open_call(index, part)
            case PartStart(part=part):
                self.out.lossy(f"{at}.part", part.type, f"{part.type} has no Cohere stream event; not sent")
            case TextDelta(index=index, text=text) if self.kinds.get(index, ("", 0))[0] == "plan":
                yield _message("tool-plan-delta", None, {"tool_plan": text})
            case TextDelta(index=index, text=text) | ThinkingDelta(index=index, text=text) if index in self.kinds:
                yield self._content(index, text)
            case ToolInputDelta(index=index, json=piece) if index in self.kinds:
                yield self._arguments(index, piece)
            case PartEnd(index=index, citations=citations) if index in self.kinds:
                yield from self._end(index, citations, at)
            case EchoEvent(index=None, echo=found) if found.provider == PROVIDER:
                self.kept.update(found.data)
            case EchoEvent(index=int() as index, echo=got) if got.provider == PROVIDER and "citations" in got.data:
                self.cited[index] = got.data["citations"]
            case UsageUpdate(usage=latest):
                self.usage = latest
            case MessageEnd(stop_reason=reason) if self.failed:  # an error event is the last of a Cohere stream
                if reason is not None:
                    why = "Cohere's stream ends at its error event; the finish after it is not sent"
                    self.out.lossy(f"{at}.stop_reason", "stop_reason", why)
            case MessageEnd(stop_reason=reason, raw_stop_reason=raw, usage=final):
                yield from self._finish(reason, raw, final, at)
            case ErrorEvent(error=error):
                self.failed = True
                yield _event({"type": "error", "message": error.message})
            case _:
                pass

    def _open_content(self, index: int, part: Text | Thinking, at: str) -> Iterator[ServerSentEvent]:
        if isinstance(part, Text) and "citations" in own(part):
            self.cited[index] = own(part)["citations"]
        elif isinstance(part, Text) and part.citations:
            self.out.lossy(f"{at}.part.citations", "citations", "citations are written by Cohere, not sent")
        key = "text" if isinstance(part, Text) else "thinking"
        self.kinds[index] = (key, self.counts["content"])
        self.counts["content"] += 1
        # A block opens empty and its text comes in deltas (the recorded text-basic and reasoning streams)
        yield _message("content-start", self.kinds[index][1], {"content": {"type": key, key: ""}})
        if part.text:
            yield self._content(index, part.text)
        else:  # deltas may follow; a block that ends with none gets an empty one at its end
            self.bare.add(index)

    def _content(self, index: int, text: str) -> ServerSentEvent:
        self.bare.discard(index)
        key, number = self.kinds[index]
        return _message("content-delta", number, {"content": {key: text}})

    def _open_call(self, index: int, part: ToolUse) -> Iterator[ServerSentEvent]:
        self.kinds[index] = ("call", self.counts["call"])
        self.counts["call"] += 1
        call = {"id": part.id, "type": "function", "function": {"name": part.name, "arguments": ""}}
        yield _message("tool-call-start", self.kinds[index][1], {"tool_calls": call})
        if part.input or part.raw_input is not None:  # a call that arrived whole (Gemini's): one delta
            yield self._arguments(index, arguments_text(part.input, part.raw_input))
        else:  # deltas may follow; a call that ends with none gets its empty arguments at its end
            self.bare.add(index)

    def _arguments(self, index: int, text: str) -> ServerSentEvent:
        self.bare.discard(index)
        return _message("tool-call-delta", self.kinds[index][1], {"tool_calls": {"function": {"arguments": text}}})

    def _end(self, index: int, citations: Any, at: str) -> Iterator[ServerSentEvent]:
        kind, number = self.kinds[index]
        if index in self.bare:  # every recorded block has a delta: no arguments are the empty object
            yield self._arguments(index, "{}") if kind == "call" else self._content(index, "")
        if index in self.cited:
            yield from self._citations(self.cited.pop(index))
        elif citations:
            self.out.lossy(f"{at}.citations", "citations", "citations are written by Cohere, not sent")
        if kind != "plan":
            yield _event({"type": "tool-call-end" if kind == "call" else "content-end", "index": number})

    def _citations(self, cited: Any) -> Iterator[ServerSentEvent]:
        """This wire's own citations as it streams them: a start (the citation) and an end each."""
        for citation in cited if isinstance(cited, list) else []:
            yield _message("citation-start", self.citations, {"citations": citation})
            yield _event({"type": "citation-end", "index": self.citations})
            self.citations += 1

    def _finish(self, reason: Any, raw: str | None, final: Usage | None, at: str) -> Iterator[ServerSentEvent]:
        rest = self.kept.get("_message")
        if isinstance(rest, dict) and "citations" in rest:  # an answer with no text block
            yield from self._citations(rest["citations"])
        finish = (
            raw
            if raw is not None and STOP_REASONS.get(raw, "other") == reason
            else write_finish(reason or "end_turn", self.out, f"{at}.stop_reason")
        )
        delta: dict[str, Any] = {"finish_reason": finish}
        counted = final or self.usage
        if counted is not None and not self.kept.get("_noUsage"):
            delta["usage"] = encode_usage(counted, self.kept)
        if counted is not None:
            report_usage(counted, self.out, f"{at}.usage")
        yield _event({"type": "message-end", "delta": delta})
