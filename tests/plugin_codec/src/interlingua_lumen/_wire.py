"""lumen-chat's bodies: the IR's own JSON, less what belongs to another vendor (reported)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from interlingua import (
    ErrorEvent,
    Message,
    MessageEnd,
    MessageStart,
    Native,
    NativeTool,
    PartEnd,
    PartStart,
    ProviderError,
    Request,
    Response,
    ServerSentEvent,
    SSEEvent,
    StreamAccumulator,
    StreamEvent,
    WarningSink,
)
from interlingua.kit import as_object, dumps, error_body, event_object, retry_after

NAME = "lumen-chat"
PROVIDER = "lumen"

Model = TypeVar("Model", Request, Response)


def read(kind: type[Model], body: Mapping[str, Any]) -> Model:
    """A body as the IR model it spells (``decoding`` turns a stray error into a DecodeError)."""
    return kind.model_validate(as_object(body, ""))


def _unhosted(value: Any) -> Any:
    """``value`` with the host's ``metadata`` cleared at every level: it never goes on a wire."""
    if isinstance(value, list):
        return [_unhosted(item) for item in value]
    if not isinstance(value, BaseModel):
        return value
    changes = {name: _unhosted(getattr(value, name)) for name in type(value).model_fields if name != "metadata"}
    changes = {name: new for name, new in changes.items() if new is not getattr(value, name)}
    if getattr(value, "metadata", None):
        changes["metadata"] = {}
    return value.model_copy(update=changes) if changes else value


def _own_parts(message: Message, at: str, out: WarningSink) -> Message:
    kept = []
    for j, part in enumerate(message.parts):
        if isinstance(part, Native) and part.provider != PROVIDER:
            out.lossy(f"{at}.parts[{j}]", "native", f"a {part.provider} native part has no place on lumen-chat")
        else:
            kept.append(part)
    return message if len(kept) == len(message.parts) else message.model_copy(update={"parts": kept})


def request_body(request: Request, out: WarningSink) -> dict[str, Any]:
    """The request's JSON: another vendor's options, native parts and native tools reported and left out."""
    out.foreign_options(request.provider_options, own=PROVIDER)
    messages = [_own_parts(message, f"messages[{i}]", out) for i, message in enumerate(request.messages)]
    tools = []
    for i, tool in enumerate(request.tools or []):
        if isinstance(tool, NativeTool) and tool.provider != PROVIDER:
            out.lossy(f"tools[{i}]", "native_tools", f"a {tool.provider} vendor tool has no place on lumen-chat")
        else:
            tools.append(tool)
    own = {PROVIDER: request.provider_options[PROVIDER]} if PROVIDER in request.provider_options else {}
    changes: dict[str, Any] = {"messages": messages, "provider_options": own}
    if request.tools is not None:
        changes["tools"] = tools
    return _unhosted(request.model_copy(update=changes)).to_json_dict()  # type: ignore[no-any-return]


def response_body(response: Response, out: WarningSink) -> dict[str, Any]:
    """The answer's JSON (its warnings are the library's, not the wire's)."""
    message = _own_parts(response.message, "message", out)
    return _unhosted(response.model_copy(update={"message": message, "warnings": []})).to_json_dict()  # type: ignore[no-any-return]


# --- streams: ``start``, one ``part`` event per whole part, ``end``; ``error`` ---------------------


def read_stream(events: Iterable[SSEEvent]) -> Iterator[StreamEvent]:
    for i, event in enumerate(events):
        data = event_object(NAME, event.data, f"events[{i}]")
        if event.event == "start":
            yield MessageStart(data.get("id"), data.get("model"))
        elif event.event == "part":
            index = int(data["index"])
            yield PartStart(index, Message.model_validate({"role": "assistant", "parts": [data["part"]]}).parts[0])
            yield PartEnd(index)
        elif event.event == "end":
            answer = Response.model_validate(data)
            yield MessageEnd(answer.stop_reason, answer.raw_stop_reason, answer.usage, answer.cost)
        elif event.event == "error":
            yield ErrorEvent(decode_error(int(data.get("status") or 500), dumps(data).encode(), {}))


def write_stream(events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
    """The events gathered into the answer, then written as whole parts (lumen sends no deltas); a
    part left out is reported at the event that opened it."""
    accumulator = StreamAccumulator()
    opened: dict[int, int] = {}  # part index -> the number of the event that opened it
    error: dict[str, Any] | None = None
    for number, event in enumerate(events):
        if isinstance(event, ErrorEvent):
            found = {"status": event.error.status, "message": str(event.error)}
            error = {k: v for k, v in found.items() if v is not None}
        if isinstance(event, PartStart):
            opened.setdefault(event.index, number)
        accumulator.add(event)
    answer = accumulator.snapshot() if accumulator.error is not None else accumulator.response()
    starts = [opened[index] for index in sorted(opened)]
    parts = []
    for j, part in enumerate(answer.message.parts):
        if isinstance(part, Native) and part.provider != PROVIDER:
            at = f"events[{starts[j]}]" if j < len(starts) else "events[0]"
            out.lossy(at, "native", f"a {part.provider} native part has no place on lumen-chat")
        else:
            parts.append(part)
    message = answer.message.model_copy(update={"parts": parts})
    body = response_body(answer.model_copy(update={"message": message}), out)
    yield ServerSentEvent(dumps({k: body[k] for k in ("id", "model") if k in body}), event="start")
    for index, part_body in enumerate(body.get("message", {}).get("parts", [])):
        yield ServerSentEvent(dumps({"index": index, "part": part_body}), event="part")
    if error is not None:
        yield ServerSentEvent(dumps(error), event="error")
    end = {k: body[k] for k in ("stop_reason", "raw_stop_reason", "usage", "cost") if k in body}
    yield ServerSentEvent(dumps(end), event="end")


def decode_error(status: int, body: bytes | str, headers: Mapping[str, str]) -> ProviderError:
    raw: Any = error_body(body)
    message = raw.get("message") if isinstance(raw, Mapping) else (raw if isinstance(raw, str) else None)
    return ProviderError.for_status(
        status, str(message) if message else f"HTTP {status}", codec=NAME, retry_after=retry_after(headers), raw=raw
    )
