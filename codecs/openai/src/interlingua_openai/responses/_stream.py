"""Streams: the typed Responses events <-> StreamEvents, both directions.

Decoding opens an IR part per content part (message), summary part (reasoning) or call item, and
ends the parts of an item at ``response.output_item.done``, when the finished item (its id,
status, ``encrypted_content``, annotations) is known: the finished item is decoded as
decode_response would, and what the deltas could not say is sent as echoes (and citations).
Built-in tool items arrive whole, as native parts; their progress events say nothing the finished
item does not, and are skipped. Encoding groups parts into items as encode_response does, so the
items, their ids and the final ``response.completed`` agree, as the openai SDK's reader requires.
It writes the API's whole event sequence (the recorded ``function-call-stream``,
``web-search-call-stream``): each content part ends with its ``.done`` event and
``content_part.done`` (summary parts likewise), each call with ``function_call_arguments.done``,
whose ``arguments`` (and the finished item's) are the streamed pieces joined, byte for byte; a
call that arrived whole is streamed as one piece. The API streams one item at a time, so parts
that arrive interleaved (parallel calls) are written one after the other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from interlingua import (
    ContentPart,
    DecodeError,
    Echo,
    ErrorEvent,
    MessageEnd,
    MessageStart,
    Native,
    PartEnd,
    PartStart,
    ProviderEcho,
    Response,
    ServerSentEvent,
    SSEEvent,
    StreamAccumulator,
    StreamEvent,
    Text,
    TextDelta,
    Thinking,
    ThinkingDelta,
    ToolInputDelta,
    ToolUse,
    Usage,
    WarningSink,
)
from interlingua.kit import decoding, dumps, expect, loads, optional, require

from .._shared import PROVIDER
from . import _echo
from ._errors import decode_stream_error
from ._items import ItemWriter, decode_output_item
from ._parts import decode_content_block, encode_arguments, encode_output_text
from ._response import decode_status, response_echo, response_shell
from ._usage import decode_usage

NAME = "openai-responses"
Event = dict[str, Any]

# --- decoding ----------------------------------------------------------------------------------


@dataclass
class _Item:
    """An output item while its events arrive: its IR parts by content or summary index."""

    added: Event
    parts: dict[tuple[int, int], int] = field(default_factory=dict)  # (0 content | 1 summary, index) -> IR index
    chunks: dict[tuple[int, int], list[str]] = field(default_factory=dict)


class _Decoder:
    def __init__(self) -> None:
        self.model: str | None = None
        self.started = False
        self.next = 0
        self.items: dict[int, _Item] = {}
        self.finished: list[tuple[int, int, ContentPart]] = []  # (output_index, IR index, part), in done order
        self.done_items: list[Event] = []

    def event(self, data: Event) -> list[StreamEvent]:
        kind = data.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        return handler(self, data) if handler is not None else []

    def _open(self, output_index: int, sub: tuple[int, int], part: ContentPart) -> list[StreamEvent]:
        item = self.items.get(output_index)
        if item is None:
            raise DecodeError(NAME, "output_index", f"no output item {output_index} was added")
        index = self.next
        self.next += 1
        item.parts[sub] = index
        item.chunks[sub] = []
        return [PartStart(index, part)]

    def _index(self, data: Event, sub_key: str | None) -> tuple[_Item, tuple[int, int], int]:
        output_index = data.get("output_index")
        number = data.get(sub_key) if sub_key else 0
        if type(output_index) is not int or type(number) is not int:
            output_index = require(data, "output_index", int, "")  # the readers name what is wrong
            number = require(data, sub_key, int, "") if sub_key else 0
        sub = (1 if sub_key == "summary_index" else 0, number)
        item = self.items.get(output_index)
        if item is None or sub not in item.parts:
            raise DecodeError(NAME, "output_index", "a delta for a part that was never opened")
        return item, sub, item.parts[sub]

    def start(self, data: Event) -> list[StreamEvent]:
        if self.started:
            return []
        self.started = True
        response = expect(data.get("response"), dict, "response")
        self.model = optional(response, "model", str, "response")
        return [MessageStart(id=optional(response, "id", str, "response"), model=self.model)]

    def item_added(self, data: Event) -> list[StreamEvent]:
        output_index = require(data, "output_index", int, "")
        item = require(data, "item", dict, "")
        self.items[output_index] = _Item(added=item)
        if item.get("type") == "function_call":
            own = _echo.leftover(item, frozenset({"type", "call_id", "name", "arguments"}))
            call = _echo.build(
                ToolUse,
                id=require(item, "call_id", str, "item"),
                name=require(item, "name", str, "item"),
                provider_echoes=_echo.make({"item": own} if own else {}),
            )
            return self._open(output_index, (0, 0), call)
        return []

    def content_part_added(self, data: Event) -> list[StreamEvent]:
        output_index = require(data, "output_index", int, "")
        sub = require(data, "content_index", int, "")
        block = require(data, "part", dict, "")
        item = self.items.get(output_index)
        if item is not None and item.added.get("type") == "reasoning" and block.get("type") == "reasoning_text":
            return self._reasoning_part(output_index, item, (0, sub), {"content": True})
        part = decode_content_block(block, "part")
        if sub == 0 and item is not None:
            marker = {"item": _echo.leftover(item.added, frozenset({"role", "content"}))}
            part = part.model_copy(update={"provider_echoes": _echo.make({**_echo.own(part), **marker})})
        return self._open(output_index, (0, sub), part)

    def summary_part_added(self, data: Event) -> list[StreamEvent]:
        output_index = require(data, "output_index", int, "")
        sub = require(data, "summary_index", int, "")
        item = self.items.get(output_index)
        return self._reasoning_part(output_index, item, (1, sub), {})

    def _reasoning_part(
        self, output_index: int, item: _Item | None, sub: tuple[int, int], echo: Event
    ) -> list[StreamEvent]:
        """A Thinking part of a reasoning item: a summary part, or a reasoning text of its
        ``content`` (``echo``: marked so); the item's first part carries the item, as
        decode_response's does (``_items.decode_reasoning``), the rest continue it."""
        if item is None or not item.parts:
            added = item.added if item is not None else {}
            echo = {"item": _echo.leftover(added, frozenset({"type", "summary", "content"})), **echo}
        else:
            echo = {"continues": True, **echo}
        part = _echo.build(Thinking, text="", provider_echoes=_echo.make(echo, self.model))
        return self._open(output_index, sub, part)

    def text_delta(self, data: Event) -> list[StreamEvent]:
        item, sub, index = self._index(data, "content_index")
        delta = data.get("delta")
        if type(delta) is not str:
            delta = require(data, "delta", str, "")
        item.chunks[sub].append(delta)
        return [TextDelta(index, delta)]

    def summary_delta(self, data: Event) -> list[StreamEvent]:
        return self._thinking_delta(data, "summary_index")

    def reasoning_text_delta(self, data: Event) -> list[StreamEvent]:
        return self._thinking_delta(data, "content_index")

    def _thinking_delta(self, data: Event, sub_key: str) -> list[StreamEvent]:
        item, sub, index = self._index(data, sub_key)
        delta = data.get("delta")
        if type(delta) is not str:
            delta = require(data, "delta", str, "")
        item.chunks[sub].append(delta)
        return [ThinkingDelta(index, delta)]

    def arguments_delta(self, data: Event) -> list[StreamEvent]:
        item, sub, index = self._index(data, None)
        delta = data.get("delta")
        if type(delta) is not str:
            delta = require(data, "delta", str, "")
        item.chunks[sub].append(delta)
        return [ToolInputDelta(index, delta)]

    def item_done(self, data: Event) -> list[StreamEvent]:
        """The finished item, decoded as in a response: echoes, and the text no delta carried."""
        output_index = require(data, "output_index", int, "")
        done = require(data, "item", dict, "")
        final = decode_output_item(done, "item", self.model)
        self.done_items.append(done)
        state = self.items.pop(output_index, None)
        opened = sorted(state.parts.items()) if state is not None else []
        out: list[StreamEvent] = []
        for position, part in enumerate(final):
            if position >= len(opened):
                self.finished.append((output_index, self.next, part))
                out += [PartStart(self.next, part), PartEnd(self.next)]
                self.next += 1
                continue
            sub, index = opened[position]
            self.finished.append((output_index, index, part))
            out += _finish_part(index, part, state.chunks[sub] if state is not None else [])
        for _, index in opened[len(final) :]:
            out.append(PartEnd(index))
        return out

    def end(self, data: Event) -> list[StreamEvent]:
        response = require(data, "response", dict, "")
        usage = decode_usage(response["usage"], "response.usage") if response.get("usage") is not None else None
        output = response.get("output")
        called = isinstance(output, list) and any(
            isinstance(i, dict) and i.get("type") == "function_call" for i in output
        )
        stop, raw = decode_status(response, called=called, at="response")
        echo = response_echo(response, usage or _echo.build(Usage))
        out = self._reconcile(response)
        if echo:
            out.append(Echo(None, ProviderEcho(provider=PROVIDER, data=echo)))
        out.append(MessageEnd(stop, raw, usage))
        return out

    def _reconcile(self, response: Event) -> list[StreamEvent]:
        """Echoes the final response says otherwise than the finished items did: OpenAI hands out
        a fresh ``encrypted_content`` in ``response.completed`` (reasoning-function-call-stream)."""
        output = response.get("output")
        if not isinstance(output, list) or not output or output == self.done_items:
            return []  # the same items as output_item.done said: the same echoes
        parts = [
            p for i, item in enumerate(output) for p in decode_output_item(item, f"response.output[{i}]", self.model)
        ]
        if len(parts) != len(self.finished):
            return []
        out: list[StreamEvent] = []
        # in output order: items may finish in another (OpenRouter ends a reasoning item after the
        # message that follows it: pydantic-ai's test_openai_responses_raw_cot_stream_openrouter)
        in_output = sorted(self.finished, key=lambda entry: entry[0])  # stable: an item's parts keep their order
        for (_, index, seen), part in zip(in_output, parts, strict=True):
            if part.provider_echoes != seen.provider_echoes:
                out.extend(Echo(index, echo) for echo in part.provider_echoes)
        return out

    def error(self, data: Event) -> list[StreamEvent]:
        return [ErrorEvent(decode_stream_error(data))]


# One handler per wire event type; an event type not listed here says nothing new (progress).
_HANDLERS: dict[str, Callable[[_Decoder, Event], list[StreamEvent]]] = {
    "response.created": _Decoder.start,
    "response.queued": _Decoder.start,
    "response.in_progress": _Decoder.start,
    "response.output_item.added": _Decoder.item_added,
    "response.content_part.added": _Decoder.content_part_added,
    "response.output_text.delta": _Decoder.text_delta,
    "response.refusal.delta": _Decoder.text_delta,
    "response.reasoning_summary_part.added": _Decoder.summary_part_added,
    "response.reasoning_summary_text.delta": _Decoder.summary_delta,
    "response.reasoning_text.delta": _Decoder.reasoning_text_delta,
    "response.function_call_arguments.delta": _Decoder.arguments_delta,
    "response.output_item.done": _Decoder.item_done,
    "response.completed": _Decoder.end,
    "response.incomplete": _Decoder.end,
    "response.failed": _Decoder.end,
    "error": _Decoder.error,
}


def _finish_part(index: int, part: ContentPart, chunks: list[str]) -> list[StreamEvent]:
    out: list[StreamEvent] = []
    if isinstance(part, Text | Thinking) and not chunks and part.text:
        out.append(TextDelta(index, part.text) if isinstance(part, Text) else ThinkingDelta(index, part.text))
    if isinstance(part, ToolUse) and not chunks:
        text = _echo.own(part).get("arguments")
        arguments = (
            text if isinstance(text, str) else (encode_arguments(part, {}) if part.input or part.raw_input else "")
        )
        if arguments:
            out.append(ToolInputDelta(index, arguments))
    for echo in part.provider_echoes:
        out.append(Echo(index, echo))
    citations = part.citations if isinstance(part, Text) and part.citations else None
    out.append(PartEnd(index, citations=citations) if citations else PartEnd(index))
    return out


def decode_stream(events: Iterable[SSEEvent]) -> Iterator[StreamEvent]:
    """SSE events -> StreamEvents; an ``error`` event (a failure inside a 200 stream) becomes an
    ErrorEvent, and the ``response.failed`` after it ends the message with stop_reason error."""
    decoder = _Decoder()
    for number, event in enumerate(events):
        if event.data == "[DONE]":
            continue
        try:
            data = loads(event.data)
        except (ValueError, TypeError) as error:
            raise DecodeError(NAME, f"events[{number}]", f"data is not JSON ({error})") from None
        try:
            found = decoder.event(data if type(data) is dict else expect(data, dict, ""))
        except DecodeError as error:
            raise DecodeError(NAME, f"events[{number}].{error.path}".rstrip("."), error.reason) from None
        except Exception as error:  # the core's rule for stray errors, on the error path only
            with decoding(NAME):
                raise error
        yield from found


# --- encoding ----------------------------------------------------------------------------------


_PROGRESS = {  # as recorded: real web-search-call-stream; pydantic-ai's code execution and MCP list-tools streams
    "web_search_call": ("in_progress", "searching", "completed"),
    "code_interpreter_call": ("in_progress", "code", "interpreting", "completed"),
    "mcp_list_tools": ("in_progress", "completed"),
}


@dataclass
class _Open:
    """An output item being written: its kind, id, position and the IR parts in it."""

    kind: str
    id: str
    output_index: int
    parts: list[int] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    texts: int = 0  # of a reasoning item: its reasoning texts (``content``) so far
    summaries: int = 0  # ... and its summary parts


class _Encoder:
    """IR events -> typed SSE events. Items are written whole when they close and again, all of
    them, in ``response.completed``: that last writing is encode_response's own, so its warnings
    go to ``out`` then, each at the event that opened the part (``opened``: the event number of
    each part, in order)."""

    def __init__(self, out: WarningSink) -> None:
        self.out = out
        self.at = 0
        self.opened: list[int] = []
        self.acc = StreamAccumulator()
        self.sequence = 0
        self.output_index = -1
        self.position = 0
        self.current: _Open | None = None
        self.where: dict[int, tuple[_Open, int]] = {}
        self.refusals: set[int] = set()
        self.empty: set[int] = set()
        self.reasoning: dict[int, tuple[str, int]] = {}  # a reasoning part: its wire kind and index in the item
        self.streamed: dict[int, list[str]] = {}  # each open part's deltas, by IR index
        self.arguments: dict[str, str] = {}  # each ended call's streamed arguments, by item id
        self.start: MessageStart | None = None
        self.handlers: dict[type, Callable[[Any], list[SSEEvent]]] = {
            MessageStart: self.message_start,
            PartStart: self.part_start,
            TextDelta: self.text_delta,
            ThinkingDelta: self.thinking_delta,
            ToolInputDelta: self.tool_delta,
            PartEnd: self.part_end,
            MessageEnd: self.message_end,
            ErrorEvent: self.error,
        }

    def event(self, event: StreamEvent) -> list[SSEEvent]:
        self.acc.add(event)
        handler = self.handlers.get(type(event))
        return handler(event) if handler is not None else []

    def _sse(self, kind: str, **fields: Any) -> SSEEvent:
        data = {"type": kind, **fields, "sequence_number": self.sequence}
        self.sequence += 1
        return ServerSentEvent(data=dumps(data), event=kind)

    def _shell(self, status: str | None, output: list[Event], end: MessageEnd | None = None) -> Event:
        start = self.start or MessageStart()
        response = Response(id=start.id, model=start.model, provider_echoes=start.provider_echoes)
        if end is None:
            return response_shell(response, output, status=status)
        snapshot = self.acc.snapshot()
        response = snapshot.model_copy(update={"usage": end.usage or snapshot.usage})
        found = WarningSink(NAME)
        shell = response_shell(response, output, status=status, out=found)
        if found.warnings:
            self.out.extend_at(f"events[{self.at}]", found.warnings)
        return shell

    def message_start(self, event: MessageStart) -> list[SSEEvent]:
        self.start = event
        shell = self._shell("in_progress", [])
        return [self._sse("response.created", response=shell), self._sse("response.in_progress", response=shell)]

    def _item_id(self, part: ContentPart, prefix: str) -> str:
        item = _echo.object_at(_echo.own(part), "item") or {}
        found = item.get("id")
        return found if isinstance(found, str) else f"{prefix}_{self.position}"

    def _open(self, kind: str, item_id: str, added: Event) -> list[SSEEvent]:
        out = self._close()
        self.output_index += 1
        self.current = _Open(kind, item_id, self.output_index)
        return [*out, self._sse("response.output_item.added", output_index=self.output_index, item=added)]

    def part_start(self, event: PartStart) -> list[SSEEvent]:
        self.opened.append(self.at)
        part, data = event.part, _echo.own(event.part)
        current = self.current
        out: list[SSEEvent] = []
        if isinstance(part, Text) and not (data.get("item") is None and current and current.kind == "message"):
            item_id = self._item_id(part, "msg")
            added = {"type": "message", "id": item_id, "status": "in_progress", "role": "assistant", "content": []}
            out = self._open("message", item_id, added)
        elif isinstance(part, Thinking) and not (
            _echo.flag(data, "continues") and current and current.kind == "reasoning"
        ):
            item_id = self._item_id(part, "rs")
            out = self._open("reasoning", item_id, {"type": "reasoning", "id": item_id, "summary": []})
        elif isinstance(part, ToolUse):
            item_id = self._item_id(part, "fc")
            added = {"type": "function_call", "id": item_id, "call_id": part.id, "name": part.name, "arguments": ""}
            out = self._open("function_call", item_id, {**added, "status": "in_progress"})
        elif isinstance(part, Native) and part.provider == PROVIDER and not _echo.flag(data, "in_content"):
            out = self._open("native", str(part.data.get("id", "")), dict(part.data))
            out += self._progress(part.data)
        elif not isinstance(part, Text | Thinking):
            self.position += 1
            return self._close()  # no output item of its own: encode_response warns about it
        assert self.current is not None
        item = self.current
        sub = len(item.parts)
        item.parts.append(event.index)
        item.positions.append(self.position)
        self.position += 1
        self.where[event.index] = (item, sub)
        self.streamed[event.index] = []
        out += self._sub_start(item, sub, part)
        if isinstance(part, Text) and part.text:  # text that came whole: one piece, as a delta
            out += self.text_delta(TextDelta(event.index, part.text))
        elif isinstance(part, Thinking) and part.text:
            out += self.thinking_delta(ThinkingDelta(event.index, part.text))
        return out

    def _progress(self, item: Event) -> list[SSEEvent]:
        """A built-in tool item's progress events, which the API sends between its added and done
        events (the decoder keeps none: the finished item says it all)."""
        kind, at = str(item.get("type")), {"item_id": str(item.get("id", "")), "output_index": self.output_index}
        out = []
        for stage in _PROGRESS.get(kind, ()):
            if stage != "code":
                out.append(self._sse(f"response.{kind}.{stage}", **at))
            elif isinstance(code := item.get("code"), str):
                out.append(self._sse(f"response.{kind}_code.delta", **at, delta=code))
                out.append(self._sse(f"response.{kind}_code.done", **at, code=code))
        return out

    def _sub_start(self, item: _Open, sub: int, part: ContentPart) -> list[SSEEvent]:
        at = {"item_id": item.id, "output_index": item.output_index}
        if item.kind == "message" and isinstance(part, Text):
            block = encode_output_text(part.model_copy(update={"text": "", "citations": []}), "", WarningSink(NAME))
            if block.get("type") == "refusal":
                self.refusals.add(item.parts[sub])
            return [self._sse("response.content_part.added", **at, content_index=sub, part=block)]
        if item.kind == "reasoning" and _echo.flag(_echo.own(part), "empty"):
            self.empty.add(item.parts[sub])  # an item without a summary: no summary part, as the API
            return []
        if item.kind == "reasoning" and _echo.flag(_echo.own(part), "content"):  # raw reasoning text
            self.reasoning[item.parts[sub]] = ("content", item.texts)
            item.texts += 1
            part_block = {"type": "reasoning_text", "text": ""}
            return [self._sse("response.content_part.added", **at, content_index=item.texts - 1, part=part_block)]
        if item.kind == "reasoning":
            self.reasoning[item.parts[sub]] = ("summary", item.summaries)
            item.summaries += 1
            part_block = {"type": "summary_text", "text": ""}
            index = item.summaries - 1
            return [self._sse("response.reasoning_summary_part.added", **at, summary_index=index, part=part_block)]
        return []

    def text_delta(self, event: TextDelta) -> list[SSEEvent]:
        found = self.where.get(event.index)
        if found is None or found[0].kind != "message":
            return []
        item, sub = found
        self.streamed[event.index].append(event.text)
        at = {"item_id": item.id, "output_index": item.output_index, "content_index": sub}
        if event.index in self.refusals:
            return [self._sse("response.refusal.delta", **at, delta=event.text)]
        return [self._sse("response.output_text.delta", **at, delta=event.text, logprobs=[])]

    def thinking_delta(self, event: ThinkingDelta) -> list[SSEEvent]:
        found = self.where.get(event.index)
        if found is None or found[0].kind != "reasoning":
            return []
        item = found[0]
        self.streamed[event.index].append(event.text)
        at: dict[str, Any] = {"item_id": item.id, "output_index": item.output_index}
        kind, number = self.reasoning.get(event.index, ("summary", 0))
        if kind == "content":
            return [self._sse("response.reasoning_text.delta", **at, content_index=number, delta=event.text)]
        return [self._sse("response.reasoning_summary_text.delta", **at, summary_index=number, delta=event.text)]

    def tool_delta(self, event: ToolInputDelta) -> list[SSEEvent]:
        found = self.where.get(event.index)
        if found is None or found[0].kind != "function_call":
            return []
        item = found[0]
        self.streamed[event.index].append(event.json)
        return [
            self._sse(
                "response.function_call_arguments.delta",
                item_id=item.id,
                output_index=item.output_index,
                delta=event.json,
            )
        ]

    def part_end(self, event: PartEnd) -> list[SSEEvent]:
        """The part's closing events, as the API ends each content part, summary part and call."""
        found, pieces = self.where.get(event.index), self.streamed.pop(event.index, None)
        if found is None or pieces is None or event.index in self.empty:
            return []
        item, sub = found
        part = self.acc.snapshot().message.parts[item.positions[sub]]
        at = {"item_id": item.id, "output_index": item.output_index}
        if item.kind == "message" and isinstance(part, Text):
            block = encode_output_text(part, "", WarningSink(NAME))
            text = "".join(pieces)
            at["content_index"] = sub
            if event.index in self.refusals:
                done = self._sse("response.refusal.done", **at, refusal=text)
            else:
                done = self._sse("response.output_text.done", **at, text=text, logprobs=[])
            return [done, self._sse("response.content_part.done", **at, part=block)]
        if item.kind == "reasoning":
            text = "".join(pieces)
            kind, number = self.reasoning.get(event.index, ("summary", 0))
            if kind == "content":
                at["content_index"] = number
                return [
                    self._sse("response.reasoning_text.done", **at, text=text),
                    self._sse("response.content_part.done", **at, part={"type": "reasoning_text", "text": text}),
                ]
            at["summary_index"] = number
            return [
                self._sse("response.reasoning_summary_text.done", **at, text=text),
                self._sse("response.reasoning_summary_part.done", **at, part={"type": "summary_text", "text": text}),
            ]
        if item.kind == "function_call" and isinstance(part, ToolUse):
            out = []
            if not "".join(pieces):  # the call arrived whole (a Gemini upstream): its arguments as one piece
                pieces = [encode_arguments(part, {})]
                out.append(self._sse("response.function_call_arguments.delta", **at, delta=pieces[0]))
            self.arguments[item.id] = arguments = "".join(pieces)
            return [*out, self._sse("response.function_call_arguments.done", **at, arguments=arguments)]
        return []

    def _streamed_arguments(self, items: list[Event]) -> list[Event]:
        """``items`` with each call's ``arguments`` as they were streamed (encode_response writes
        them compact; a client compares the finished item with the pieces it joined)."""
        for item in items:
            if item.get("type") == "function_call" and item.get("id") in self.arguments:
                item["arguments"] = self.arguments[item["id"]]
        return items

    def _items(self, parts: list[tuple[int, ContentPart]], *, final: bool = False) -> list[Event]:
        """The items of ``parts``; ``final``: the writing of response.completed, which reports."""
        out = self.out if final else WarningSink(NAME)
        writer = ItemWriter(out, self.start.model if self.start else None, synthesize=True)
        for position, part in parts:
            at = f"events[{self.opened[position]}].part" if final and position < len(self.opened) else ""
            writer.assistant_part(part, at, index=position)
        return writer.items

    def _close(self) -> list[SSEEvent]:
        item, self.current = self.current, None
        if item is None:
            return []
        snapshot = self.acc.snapshot().message.parts
        parts = [(p, snapshot[p]) for p in item.positions if p < len(snapshot)]
        done = self._streamed_arguments(self._items(parts))
        if not done:
            return []
        return [self._sse("response.output_item.done", output_index=item.output_index, item=done[0])]

    def message_end(self, event: MessageEnd) -> list[SSEEvent]:
        out = [sse for index in list(self.streamed) for sse in self.part_end(PartEnd(index))]  # parts left open
        out += self._close()
        parts = self.acc.snapshot().message.parts
        output = self._streamed_arguments(self._items(list(enumerate(parts)), final=True))
        shell = self._shell(None, output, event)
        kind = {"incomplete": "response.incomplete", "failed": "response.failed"}.get(shell.get("status", ""))
        return [*out, self._sse(kind or "response.completed", response=shell)]

    def error(self, event: ErrorEvent) -> list[SSEEvent]:
        """The ``error`` event, whatever shape the error came in, written for both its readers.

        The API nests the details under ``error`` with the error's own ``type`` (the recorded
        ``insufficient-quota-in-stream``; openai/openai-dotnet#881), and the SDK's stream reader
        looks there to raise ``APIError`` (``openai/_streaming.py``); the SDK's event type
        ``ResponseErrorEvent`` and the API reference put ``code``, ``message`` and ``param`` on
        the event itself (https://platform.openai.com/docs/api-reference/responses-streaming/error).
        Both are written; the decoder reads either."""
        error = event.error
        raw: dict[str, Any] = error.raw if isinstance(error.raw, dict) else {}
        nested = raw.get("error")
        detail: dict[str, Any] = nested if isinstance(nested, dict) else raw
        code = detail.get("code") if isinstance(detail.get("code"), str) else error.type
        param = detail.get("param") if isinstance(detail.get("param"), str) else None
        kind = error.type or code or "server_error"
        inner = {"type": kind, "code": code, "message": error.message, "param": param}
        return [self._sse("error", code=code, message=error.message, param=param, error=inner)]


def encode_stream(events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
    """StreamEvents -> the typed SSE events, ending with the full response as encode_response
    writes it (and warns about it, to ``out``)."""
    encoder = _Encoder(out)
    for at, event in _one_part_at_a_time(events):
        encoder.at = at
        yield from encoder.event(event)


def _one_part_at_a_time(events: Iterable[StreamEvent]) -> Iterator[tuple[int, StreamEvent]]:
    """``(number, event)``, the events of a part that opens while another is open held back
    until that one ends: the Responses API writes one output item at a time (parallel calls
    from a Chat Completions upstream interleave their argument pieces). The message's end, or
    an error, lets out everything held first."""
    live: int | None = None
    held: dict[int, list[tuple[int, StreamEvent]]] = {}  # waiting parts, in the order they opened
    for number, event in enumerate(events):
        index = getattr(event, "index", None) if not isinstance(event, Echo | MessageStart) else None
        if isinstance(event, Echo) and event.index is not None and event.index in held:
            index = event.index
        if index is None or (live is None and not held) or index == live:
            if isinstance(event, MessageEnd | ErrorEvent):
                for waiting in held.values():
                    yield from waiting
                held.clear()
            yield number, event
            if index is not None and live is None and isinstance(event, PartStart):
                live = index
            if index is not None and index == live and isinstance(event, PartEnd):
                live = None
                while held and live is None:  # the next waiting part: all it has, and live if unended
                    first = next(iter(held))
                    waiting = held.pop(first)
                    yield from waiting
                    if not isinstance(waiting[-1][1], PartEnd):
                        live = first
            continue
        held.setdefault(index, []).append((number, event))
