"""Chat streams, both directions (cohere's ``StreamedChatResponseV2`` events; each event's
``type`` is in its data: ``message-start``, ``content-start`` / ``-delta`` / ``-end``,
``tool-plan-delta``, ``tool-call-start`` / ``-delta`` / ``-end``, ``citation-start`` / ``-end``,
``message-end``).

Content blocks and tool calls count their indexes apart on this wire; the IR's part indexes
are given in the order parts open. The tool plan opens a ``Text`` part with the ``toolPlan``
echo, as in a response. ``message-end`` carries the finish reason and usage.
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
    UsageUpdate,
    WarningSink,
)
from interlingua.kit import dumps, event_object

from ._messages import NAME, echo, own
from ._response import STOP_REASONS, decode_usage, encode_usage, report_usage, write_finish


def decode_stream(events: Iterable[SSEEvent], out: WarningSink) -> Iterator[StreamEvent]:
    parts: dict[tuple[str, int], int] = {}
    for number, event in enumerate(events):
        at = f"events[{number}]"
        data = _payload(event, at)
        kind = data.get("type", event.event)
        delta: dict[str, Any] = _object(data.get("delta"))
        message: dict[str, Any] = _object(delta.get("message"))
        index: Any = data.get("index")
        match kind:
            case "message-start":
                yield MessageStart(id=data["id"] if isinstance(data.get("id"), str) else None)
            case "content-start":
                content = _object(message.get("content"))
                opened = parts[("content", index)] = len(parts)
                start = content.get("thinking" if content.get("type") == "thinking" else "text")
                start = start if isinstance(start, str) else ""
                if content.get("type") == "thinking":
                    yield PartStart(opened, Thinking(text=start, provider_echoes=echo({})))
                else:
                    yield PartStart(opened, Text(text=start))
            case "content-delta":
                content = _object(message.get("content"))
                ir = parts.get(("content", index))
                if ir is None:
                    out.lossy_decode(at, "a delta for a block that never started; skipped")
                elif isinstance(content.get("thinking"), str):
                    yield ThinkingDelta(ir, content["thinking"])
                elif isinstance(content.get("text"), str):
                    yield TextDelta(ir, content["text"])
            case "content-end" | "tool-call-end":
                ir = parts.get(("content" if kind == "content-end" else "call", index))
                if ir is not None:
                    yield PartEnd(ir)
            case "tool-plan-delta":
                if ("plan", 0) not in parts:
                    parts[("plan", 0)] = len(parts)
                    yield PartStart(parts[("plan", 0)], Text(text="", provider_echoes=echo({"toolPlan": True})))
                plan = message.get("tool_plan")
                yield TextDelta(parts[("plan", 0)], plan if isinstance(plan, str) else "")
            case "tool-call-start":
                if ("plan", 0) in parts:
                    yield PartEnd(parts.pop(("plan", 0)))
                    parts[("plan-done", 0)] = -1
                call = _object(message.get("tool_calls"))
                function = _object(call.get("function"))
                started = parts[("call", index)] = len(parts)
                yield PartStart(started, ToolUse(id=str(call.get("id") or ""), name=str(function.get("name") or "")))
                if isinstance(function.get("arguments"), str) and function["arguments"]:
                    yield ToolInputDelta(started, function["arguments"])
            case "tool-call-delta":
                call = _object(message.get("tool_calls"))
                function = _object(call.get("function"))
                ir = parts.get(("call", index))
                if ir is not None and isinstance(function.get("arguments"), str):
                    yield ToolInputDelta(ir, function["arguments"])
            case "message-end":
                if ("plan", 0) in parts:
                    yield PartEnd(parts.pop(("plan", 0)))
                raw = delta.get("finish_reason")
                usage, kept = decode_usage(delta.get("usage"))
                if kept:
                    yield EchoEvent(None, echo(kept)[0])
                yield UsageUpdate(usage)
                stop = STOP_REASONS.get(raw, "other") if isinstance(raw, str) else None
                yield MessageEnd(stop, raw if isinstance(raw, str) else None, usage)
            case "citation-start" | "citation-end" | "debug":
                out.lossy_decode(at, f"a {kind} event is not kept in the stream's IR")
            case "error":
                error = ProviderError.for_status(500, str(data.get("message") or "stream error"), codec=NAME, raw=data)
                yield ErrorEvent(error)
            case _:
                out.lossy_decode(at, f"a {kind} event has no IR form; skipped")


def _payload(event: SSEEvent, at: str) -> dict[str, Any]:
    return event_object(NAME, event.data, at)


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _event(payload: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(data=dumps(payload), event=str(payload["type"]))


def encode_stream(events: Iterable[StreamEvent], out: WarningSink) -> Iterator[ServerSentEvent]:
    """IR events -> Cohere v2 stream events, content blocks and calls numbered apart."""
    kinds: dict[int, tuple[str, int]] = {}
    counts = {"content": 0, "call": 0}
    usage = None
    kept: dict[str, Any] = {}
    for number, event in enumerate(events):
        at = f"events[{number}]"
        match event:
            case MessageStart(id=message_id):
                start: dict[str, Any] = {"type": "message-start", "delta": {"message": {"role": "assistant"}}}
                if message_id is not None:
                    start = {"id": message_id, **start}
                yield _event(start)
            case PartStart(index=index, part=Text() as part) if own(part).get("toolPlan"):
                kinds[index] = ("plan", 0)
                if part.text:
                    yield _event({"type": "tool-plan-delta", "delta": {"message": {"tool_plan": part.text}}})
            case PartStart(index=index, part=Text() | Thinking() as part):
                if isinstance(part, Text) and part.citations:
                    out.lossy(f"{at}.part.citations", "citations", "citations are written by Cohere, not sent")
                kinds[index] = ("content", counts["content"])
                counts["content"] += 1
                key = "text" if isinstance(part, Text) else "thinking"
                content = {"type": key, key: part.text}
                yield _event(
                    {"type": "content-start", "index": kinds[index][1], "delta": {"message": {"content": content}}}
                )
            case PartStart(index=index, part=ToolUse() as part):
                kinds[index] = ("call", counts["call"])
                counts["call"] += 1
                call = {"id": part.id, "type": "function", "function": {"name": part.name, "arguments": ""}}
                yield _event(
                    {"type": "tool-call-start", "index": kinds[index][1], "delta": {"message": {"tool_calls": call}}}
                )
                if part.input:  # a call that arrived whole (Gemini's): its arguments as one delta
                    arguments = {"function": {"arguments": dumps(part.input)}}
                    yield _event(
                        {
                            "type": "tool-call-delta",
                            "index": kinds[index][1],
                            "delta": {"message": {"tool_calls": arguments}},
                        }
                    )
            case PartStart(part=part):
                out.lossy(f"{at}.part", part.type, f"{part.type} has no Cohere stream event; not sent")
            case TextDelta(index=index, text=text) if kinds.get(index, ("", 0))[0] == "plan":
                yield _event({"type": "tool-plan-delta", "delta": {"message": {"tool_plan": text}}})
            case TextDelta(index=index, text=text) | ThinkingDelta(index=index, text=text) if index in kinds:
                key = "text" if isinstance(event, TextDelta) else "thinking"
                content = {key: text}
                yield _event(
                    {"type": "content-delta", "index": kinds[index][1], "delta": {"message": {"content": content}}}
                )
            case ToolInputDelta(index=index, json=piece) if index in kinds:
                call = {"function": {"arguments": piece}}
                yield _event(
                    {"type": "tool-call-delta", "index": kinds[index][1], "delta": {"message": {"tool_calls": call}}}
                )
            case PartEnd(index=index, citations=citations) if index in kinds:
                if citations:
                    out.lossy(f"{at}.citations", "citations", "citations are written by Cohere, not sent")
                if kinds[index][0] != "plan":
                    name = "content-end" if kinds[index][0] == "content" else "tool-call-end"
                    yield _event({"type": name, "index": kinds[index][1]})
            case EchoEvent(index=None, echo=found) if found.provider == "cohere":
                kept.update(found.data)
            case UsageUpdate(usage=latest):
                usage = latest
            case MessageEnd(stop_reason=reason, raw_stop_reason=raw, usage=final):
                finish = (
                    raw
                    if raw is not None and STOP_REASONS.get(raw, "other") == reason
                    else write_finish(reason or "end_turn", out, f"{at}.stop_reason")
                )
                delta: dict[str, Any] = {"finish_reason": finish}
                counted = final or usage
                if counted is not None and not kept.get("_noUsage"):
                    delta["usage"] = encode_usage(counted, kept)
                if counted is not None:
                    report_usage(counted, out, f"{at}.usage")
                yield _event({"type": "message-end", "delta": delta})
            case ErrorEvent(error=error):
                yield _event({"type": "error", "message": error.message})
            case _:
                pass
