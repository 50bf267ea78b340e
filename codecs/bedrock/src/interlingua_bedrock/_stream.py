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
- Every event's ``p`` field is padding AWS adds against length side channels; it carries
  nothing and is not kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from interlingua import Echo as EchoEvent
from interlingua import (
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
from interlingua.kit import dumps, event_object, expect, optional, require

from ._parts import NAME, PROVIDER, echo, own
from ._response import STOP_REASONS, decode_usage, encode_usage, write_stop

EXCEPTION = "exception"


def decode_stream(events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
    opened: dict[int, str] = {}
    stop: str | None = None
    ended = False
    for number, event in enumerate(events):
        at = f"events[{number}]"
        if event.event == EXCEPTION:
            problem = _payload(event, at)
            yield ErrorEvent(_error(problem))
            return
        data = _payload(event, at)
        data.pop("p", None)
        match event.event:
            case "messageStart":
                yield MessageStart()
            case "contentBlockStart":
                yield from _start(data, at, opened, out)
            case "contentBlockDelta":
                yield from _delta(data, at, opened, out)
            case "contentBlockStop":
                index = require(data, "contentBlockIndex", int, at)
                if opened.pop(index, None) is not None:  # a block skipped at its start ends unseen too
                    yield PartEnd(index)
            case "messageStop":
                stop = require(data, "stopReason", str, at)
                if extra := {k: v for k, v in data.items() if k != "stopReason"}:
                    yield EchoEvent(None, ProviderEcho(provider=PROVIDER, data=extra))
            case "metadata":
                usage, kept = decode_usage(optional(data, "usage", dict, at))
                rest = {k: v for k, v in data.items() if k != "usage"}
                if kept:
                    rest["_usage"] = kept
                if rest:
                    yield EchoEvent(None, ProviderEcho(provider=PROVIDER, data=rest))
                yield UsageUpdate(usage)
                if stop is not None:
                    yield MessageEnd(STOP_REASONS.get(stop, "other"), stop, usage)
                    ended = True
            case other:
                out.lossy_decode(at, f"a {other} event has no IR form; skipped")
    if stop is not None and not ended:
        yield MessageEnd(STOP_REASONS.get(stop, "other"), stop, None)


def _payload(event: SSEEvent, at: str) -> dict[str, Any]:
    return event_object(NAME, event.data, at)


def _error(problem: dict[str, Any]) -> ProviderError:
    kind = str(problem.get("type") or "exception")
    status = {"throttlingException": 429, "validationException": 400, "serviceUnavailableException": 503}.get(kind, 500)
    return ProviderError.for_status(status, str(problem.get("message") or kind), type=kind, codec="bedrock-converse")


def _start(data: dict[str, Any], at: str, opened: dict[int, str], out: WarningSink) -> Iterator[StreamEvent]:
    index = require(data, "contentBlockIndex", int, at)
    start = expect(data.get("start"), dict, f"{at}.start")
    call = start.get("toolUse")
    if isinstance(call, dict) and set(start) == {"toolUse"}:
        extras = {k: v for k, v in call.items() if k not in ("toolUseId", "name")}
        part = ToolUse(
            id=require(call, "toolUseId", str, f"{at}.start.toolUse"),
            name=require(call, "name", str, f"{at}.start.toolUse"),
            provider_echoes=echo(extras) if extras else [],
        )
        opened[index] = "tool"
        yield PartStart(index, part)
        return
    out.lossy_decode(f"{at}.start", f"a {', '.join(start)} block start has no IR form in a stream; skipped")


def _delta(data: dict[str, Any], at: str, opened: dict[int, str], out: WarningSink) -> Iterator[StreamEvent]:
    index = require(data, "contentBlockIndex", int, at)
    delta = expect(data.get("delta"), dict, f"{at}.delta")
    if isinstance(delta.get("text"), str):
        if index not in opened:
            opened[index] = "text"
            yield PartStart(index, Text(text=""))
        yield TextDelta(index, delta["text"])
    elif isinstance(reasoning := delta.get("reasoningContent"), dict):
        if isinstance(reasoning.get("redactedContent"), str):
            opened[index] = "redacted"
            yield PartStart(
                index, RedactedThinking(provider_echoes=echo({"redactedContent": reasoning["redactedContent"]}))
            )
            return
        if index not in opened:
            opened[index] = "thinking"
            yield PartStart(index, Thinking(text="", provider_echoes=echo({})))
        if isinstance(reasoning.get("text"), str):
            yield ThinkingDelta(index, reasoning["text"])
        if isinstance(reasoning.get("signature"), str):
            yield EchoEvent(index, ProviderEcho(provider=PROVIDER, data={"signature": reasoning["signature"]}))
    elif isinstance(call := delta.get("toolUse"), dict):
        yield ToolInputDelta(index, require(call, "input", str, f"{at}.delta.toolUse"))
    else:
        out.lossy_decode(f"{at}.delta", f"a {', '.join(delta)} delta has no IR form in a stream; skipped")


# --- encoding ----------------------------------------------------------------------------------


def _event(kind: str, payload: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(data=dumps(payload), event=kind)


def encode_stream(events: Iterable[StreamEvent], out: WarningSink) -> Iterator[ServerSentEvent]:
    """IR events -> ConverseStream events. Wire block indexes count the blocks written, so a
    part this wire cannot carry leaves no gap."""
    wire: dict[int, int] = {}
    kinds: dict[int, str] = {}
    unopened: set[int] = set()  # text and thinking blocks no delta has opened yet (no start event)
    failed = False
    usage: Usage | None = None
    echoes: dict[str, Any] = {}
    for number, event in enumerate(events):
        at = f"events[{number}]"
        match event:
            case MessageStart():
                yield _event("messageStart", {"role": "assistant"})
            case PartStart(index=index, part=part):
                written = _open(part, f"{at}.part", out)
                if written is None:
                    continue
                if isinstance(part, Text) and part.citations:
                    out.lossy(f"{at}.part.citations", "citations", "ConverseStream carries no citations on text")
                wire[index] = len(wire)
                kinds[index] = written
                if isinstance(part, ToolUse):
                    call = {"toolUseId": part.id, "name": part.name, **(own(part) or {})}
                    yield _event("contentBlockStart", {"start": {"toolUse": call}, "contentBlockIndex": wire[index]})
                    if part.input:  # a call that arrived whole (Gemini's): its input as one delta
                        delta = {"toolUse": {"input": dumps(part.input)}}
                        yield _event("contentBlockDelta", {"delta": delta, "contentBlockIndex": wire[index]})
                elif isinstance(part, RedactedThinking):
                    redacted = (own(part) or {})["redactedContent"]
                    delta = {"reasoningContent": {"redactedContent": redacted}}
                    yield _event("contentBlockDelta", {"delta": delta, "contentBlockIndex": wire[index]})
                elif isinstance(part, Text | Thinking) and part.text:  # a part that opens with text
                    delta = _opening(part)
                    yield _event("contentBlockDelta", {"delta": delta, "contentBlockIndex": wire[index]})
                elif isinstance(part, Text | Thinking):
                    unopened.add(index)
            case TextDelta(index=index, text=text) if index in wire:
                unopened.discard(index)
                yield _event("contentBlockDelta", {"delta": {"text": text}, "contentBlockIndex": wire[index]})
            case ThinkingDelta(index=index, text=text) if index in wire:
                unopened.discard(index)
                delta = {"reasoningContent": {"text": text}}
                yield _event("contentBlockDelta", {"delta": delta, "contentBlockIndex": wire[index]})
            case ToolInputDelta(index=index, json=json) if index in wire:
                yield _event(
                    "contentBlockDelta", {"delta": {"toolUse": {"input": json}}, "contentBlockIndex": wire[index]}
                )
            case EchoEvent(index=None, echo=found) if found.provider == PROVIDER:
                echoes.update(found.data)
            case EchoEvent(index=index, echo=found) if index in wire and found.provider == PROVIDER:
                signature = found.data.get("signature")
                if kinds.get(index) == "thinking" and isinstance(signature, str):
                    unopened.discard(index)
                    delta = {"reasoningContent": {"signature": signature}}
                    yield _event("contentBlockDelta", {"delta": delta, "contentBlockIndex": wire[index]})
            case PartEnd(index=index, citations=citations) if index in wire:
                if citations:
                    out.lossy(f"{at}.citations", "citations", "ConverseStream carries no citations on text")
                if index in unopened:  # an empty block: a text block opens with its first delta
                    empty = {"text": ""} if kinds[index] == "text" else {"reasoningContent": {"text": ""}}
                    yield _event("contentBlockDelta", {"delta": empty, "contentBlockIndex": wire[index]})
                yield _event("contentBlockStop", {"contentBlockIndex": wire[index]})
            case UsageUpdate(usage=latest):
                usage = latest
            case MessageEnd() if failed:  # the exception frame ends a ConverseStream
                why = "a ConverseStream ends at its exception; the stop reason after it is not sent"
                out.lossy(f"{at}.stop_reason", "stop_reason", why)
            case MessageEnd(stop_reason=reason, raw_stop_reason=raw, usage=final):
                stop = (
                    raw
                    if raw is not None and STOP_REASONS.get(raw, "other") == reason
                    else write_stop(reason or "end_turn", out, f"{at}.stop_reason")
                )
                extra = {k: v for k, v in echoes.items() if k in ("additionalModelResponseFields",)}
                yield _event("messageStop", {"stopReason": stop, **extra})
                metadata: dict[str, Any] = {}
                counted = final or usage
                own_usage = "_usage" in echoes or "metrics" in echoes
                if counted is not None:
                    counts = encode_usage(counted, echoes.get("_usage", {}), own=own_usage, out=out, at=f"{at}.usage")
                    if counts is not None:
                        metadata["usage"] = counts
                metadata["metrics"] = echoes.get("metrics", {"latencyMs": 0})
                metadata.update({k: v for k, v in echoes.items() if k not in ("metrics", "_usage", *extra)})
                yield _event("metadata", metadata)
            case ErrorEvent(error=error):
                failed = True
                problem = {"type": error.type or "internalServerException", "message": error.message}
                yield ServerSentEvent(data=dumps(problem), event=EXCEPTION)
            case _:
                pass  # deltas and echoes of a part this wire does not carry (reported at its start)


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
