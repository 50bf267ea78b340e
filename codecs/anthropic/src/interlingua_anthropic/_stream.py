"""Streams, both directions: Anthropic SSE events <-> StreamEvents, one method per event type.

Decoding streams text, thinking and tool-call arguments as they come. Two kinds of block are
held until their ``content_block_stop`` and then opened and closed at once, because their
growth has no StreamEvent: a text block that carries citations (``citations_delta``) and any
block that becomes ``Native`` (server tool calls and results, whose ``input_json_delta`` must
end up in the block). ``ping`` is skipped; an ``error`` event becomes an ErrorEvent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from interlingua import (
    DecodeError,
    Echo,
    ErrorEvent,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    ProviderEcho,
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
from interlingua.kit import (
    construct,
    decoding,
    dumps,
    expect,
    loads,
    one_part_open,
    optional,
    require,
    tool_arguments,
)

from ._errors import error_from_json
from ._parts import PROVIDER, Block, Context, Encoder, decode_block
from ._response import response_echo
from ._stop_reason import decode_stop_reason, encode_stop_reason
from ._usage import RECORDED, decode_usage, encode_usage, merge_usage, recorded_counters

CODEC = "anthropic-messages"
_LIVE = frozenset({"thinking", "redacted_thinking", "tool_use"})


class _Held:
    """A block kept until its stop: the opening block and the pieces that grow it."""

    __slots__ = ("block", "citations", "json", "text")

    def __init__(self, block: Block) -> None:
        self.block = block
        self.text: list[str] = []
        self.json: list[str] = []
        self.citations: list[Any] = []

    def finish(self) -> Block:
        block = dict(self.block)
        if self.text:
            block["text"] = block.get("text", "") + "".join(self.text)
        if self.citations:
            block["citations"] = [*(block.get("citations") or []), *self.citations]
        joined = "".join(self.json)
        if joined.strip():
            block["input"] = loads(joined)
        return block


class _Decoder:
    def __init__(self) -> None:
        self.ctx = Context(None)
        self.held: dict[int, _Held] = {}
        self.stray_citations: dict[int, list[Any]] = {}
        self.usage: dict[str, Any] = {}
        self.usage_rest: dict[str, Any] = {}
        self.recorded: list[str] = []
        self.raw_stop: str | None = None
        self.handlers: dict[str, Callable[[dict[str, Any]], Iterable[StreamEvent]]] = {
            "message_start": self.message_start,
            "content_block_start": self.block_start,
            "content_block_delta": self.block_delta,
            "content_block_stop": self.block_stop,
            "message_delta": self.message_delta,
            "message_stop": self.message_stop,
            "error": self.error,
        }

    def event(self, sse: SSEEvent) -> Iterable[StreamEvent]:
        try:
            payload = loads(sse.data)
        except (ValueError, TypeError) as err:
            raise DecodeError("", "", f"data is not JSON ({err})") from None
        data = expect(payload, dict, "data")
        kind = data.get("type", sse.event)
        handler = self.handlers.get(kind)  # ping and unknown events carry nothing for the IR
        return handler(data) if handler is not None else ()

    def _echo(self, data: dict[str, Any], model: str | None = None) -> ProviderEcho:
        return construct(ProviderEcho, provider=PROVIDER, data=data, model=model)

    def message_start(self, data: dict[str, Any]) -> Iterable[StreamEvent]:
        message = require(data, "message", dict, "")
        self.ctx = Context(optional(message, "model", str, "message"))
        self.usage = optional(message, "usage", dict, "message", {})
        extra = response_echo(message)
        usage, self.usage_rest = decode_usage(self.usage, "message.usage")
        if self.usage_rest:
            extra["usage"] = self.usage_rest
        self.recorded = recorded_counters(usage)
        if self.recorded:
            extra[RECORDED] = self.recorded
        yield MessageStart(
            id=optional(message, "id", str, "message"),
            model=self.ctx.model,
            provider_echoes=[self._echo(extra)] if extra else [],
        )
        if self.usage:
            yield UsageUpdate(usage)

    def block_start(self, data: dict[str, Any]) -> Iterable[StreamEvent]:
        index = require(data, "index", int, "")
        block = require(data, "content_block", dict, "")
        kind = block.get("type")
        if kind in _LIVE or (kind == "text" and block.get("citations") is None):
            yield PartStart(index, decode_block(block, "content_block", self.ctx))
        else:
            self.held[index] = _Held(block)

    def block_delta(self, data: dict[str, Any]) -> Iterable[StreamEvent]:
        index = require(data, "index", int, "")
        delta = require(data, "delta", dict, "")
        kind = delta.get("type")
        held = self.held.get(index)
        if held is not None:
            self._grow(held, kind, delta)
        elif kind == "text_delta":
            yield TextDelta(index, require(delta, "text", str, "delta"))
        elif kind == "thinking_delta":
            yield ThinkingDelta(index, require(delta, "thinking", str, "delta"))
        elif kind == "input_json_delta":
            yield ToolInputDelta(index, require(delta, "partial_json", str, "delta"))
        elif kind == "signature_delta":
            signature = require(delta, "signature", str, "delta")
            yield Echo(index, self._echo({"signature": signature}, self.ctx.model))
        elif kind == "citations_delta":
            # Out of the documented order (a cited text block opens with "citations": []): the
            # citations are kept in the part's echo rather than lost.
            cited = self.stray_citations.setdefault(index, [])
            cited.append(delta.get("citation"))
            yield Echo(index, self._echo({"citations": list(cited)}))

    @staticmethod
    def _grow(held: _Held, kind: Any, delta: dict[str, Any]) -> None:
        if kind == "text_delta":
            held.text.append(require(delta, "text", str, "delta"))
        elif kind == "input_json_delta":
            held.json.append(require(delta, "partial_json", str, "delta"))
        elif kind == "citations_delta":
            held.citations.append(require(delta, "citation", dict, "delta"))

    def block_stop(self, data: dict[str, Any]) -> Iterable[StreamEvent]:
        index = require(data, "index", int, "")
        held = self.held.pop(index, None)
        if held is not None:
            yield PartStart(index, decode_block(held.finish(), "content_block", self.ctx))
        yield PartEnd(index)

    def message_delta(self, data: dict[str, Any]) -> Iterable[StreamEvent]:
        delta = optional(data, "delta", dict, "", {})
        self.raw_stop = optional(delta, "stop_reason", str, "delta")
        self.usage = merge_usage(self.usage, optional(data, "usage", dict, "", {}), "")
        extra = {k: v for k, v in delta.items() if k != "stop_reason" and v is not None}
        if extra:
            yield Echo(None, self._echo(extra))

    def message_stop(self, data: dict[str, Any]) -> Iterable[StreamEvent]:
        usage, rest = decode_usage(self.usage, "usage")
        if rest != self.usage_rest:
            yield Echo(None, self._echo({"usage": rest}))
        if (recorded := recorded_counters(usage)) != self.recorded:
            yield Echo(None, self._echo({RECORDED: recorded}))
        yield MessageEnd(decode_stop_reason(self.raw_stop), self.raw_stop, usage)

    def error(self, data: dict[str, Any]) -> Iterable[StreamEvent]:
        yield ErrorEvent(error_from_json(None, data, {}))


def decode_stream(events: Iterable[SSEEvent]) -> Iterator[StreamEvent]:
    """SSE events -> StreamEvents; a malformed event is a DecodeError at ``events[n]...``."""
    decoder = _Decoder()
    for number, sse in enumerate(events):
        try:
            produced = list(decoder.event(sse))
        except DecodeError as err:
            raise DecodeError(CODEC, f"events[{number}].{err.path}".rstrip("."), err.reason) from None
        except Exception as err:  # the core's rule for stray errors, paid on the error path only
            try:
                with decoding(CODEC):
                    raise err
            except DecodeError as typed:
                raise DecodeError(CODEC, f"events[{number}]", typed.reason) from None
        yield from produced


# --- encoding ----------------------------------------------------------------------------------


def _sse(payload: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(data=dumps(payload), event=payload["type"])


class _Encoder:
    """IR events -> wire events. ``message_start`` waits for the first part (so usage known by
    then goes in it); wire indexes count the parts actually sent. What the wire cannot carry goes
    to ``out`` with the number of the IR event (``at``) that held it, as encode_response reports
    it for the same answer."""

    def __init__(self, out: WarningSink) -> None:
        self.out = out
        self.at = 0
        self.parts = Encoder(out, response=True)
        self.opened: dict[int, int] = {}
        self.sent_usage: dict[str, Any] = {}
        self.start: MessageStart | None = None
        self.started = False
        self.failed = False  # an error event was written
        self.usage = Usage()
        self.echo: dict[str, Any] = {}
        self.index: dict[int, int] = {}
        self.kind: dict[int, str] = {}
        self.signature: dict[int, str] = {}
        self.arguments: dict[int, list[str]] = {}
        self.handlers: dict[type, Callable[[Any], Iterable[ServerSentEvent]]] = {
            MessageStart: self.message_start,
            PartStart: self.part_start,
            TextDelta: self.text_delta,
            ThinkingDelta: self.thinking_delta,
            ToolInputDelta: self.tool_delta,
            Echo: self.echo_event,
            PartEnd: self.part_end,
            UsageUpdate: self.usage_update,
            MessageEnd: self.message_end,
            ErrorEvent: self.error,
        }

    def message_start(self, event: MessageStart) -> Iterable[ServerSentEvent]:
        self.start = event
        for echo in event.provider_echoes:
            if echo.provider == PROVIDER:
                self.echo.update(echo.data)
        return ()

    def _flush(self) -> Iterable[ServerSentEvent]:
        if self.started:
            return
        self.started = True
        start = self.start or MessageStart()
        extra = {k: v for k, v in self.echo.items() if k not in ("usage", "stop_sequence", RECORDED)}
        message = {
            "id": start.id or "",
            "type": "message",
            "role": "assistant",
            "model": start.model or "",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": encode_usage(self.usage, self.echo.get("usage"), self.echo.get(RECORDED)),
            **extra,
        }
        self.sent_usage = message["usage"]
        yield _sse({"type": "message_start", "message": message})

    def part_start(self, event: PartStart) -> Iterator[ServerSentEvent]:
        yield from self._flush()
        part = event.part
        wire = len(self.index)
        opening: Block | None
        deltas: list[Block] = []
        if isinstance(part, Thinking):
            opening = {"type": "thinking", "thinking": "", "signature": ""}
            echo = part.echo(PROVIDER)
            if echo is not None and isinstance(echo.data.get("signature"), str) and echo.data["signature"]:
                self.signature[event.index] = echo.data["signature"]
            if part.text:
                deltas.append({"type": "thinking_delta", "thinking": part.text})
        else:
            opening = self.parts.part(part, f"events[{self.at}].part")
            if opening is None:
                return
            if isinstance(part, Text):
                if "citations" in opening:  # citations before the text, as web-search-server-tool-stream has them
                    deltas += [{"type": "citations_delta", "citation": c} for c in opening["citations"]]
                    opening["citations"] = []
                if part.text:
                    deltas.append({"type": "text_delta", "text": opening["text"]})
                opening["text"] = ""
            elif isinstance(part, ToolUse):
                self.arguments[event.index] = []
                if opening["input"]:
                    deltas.append({"type": "input_json_delta", "partial_json": dumps(opening["input"])})
                    self.arguments[event.index].append(deltas[-1]["partial_json"])
                opening["input"] = {}
            elif opening.get("type") in _STREAMED_INPUT and isinstance(opening.get("input"), dict):
                # a server or MCP tool's call opens with an empty input and streams it, as a call does
                # (the recorded code-execution-server-tool-stream, pydantic-ai's mcp_servers_stream)
                whole = dumps(opening["input"]) if opening["input"] else ""
                deltas.append({"type": "input_json_delta", "partial_json": whole})
                opening["input"] = {}
        self.index[event.index] = wire
        self.kind[event.index] = opening["type"]
        self.opened[event.index] = self.at
        yield _sse({"type": "content_block_start", "index": wire, "content_block": opening})
        for delta in deltas:
            yield _sse({"type": "content_block_delta", "index": wire, "delta": delta})

    def _delta(self, index: int, delta: Block) -> Iterable[ServerSentEvent]:
        wire = self.index.get(index)
        if wire is None:
            return ()
        return (_sse({"type": "content_block_delta", "index": wire, "delta": delta}),)

    def text_delta(self, event: TextDelta) -> Iterable[ServerSentEvent]:
        return self._delta(event.index, {"type": "text_delta", "text": event.text})

    def thinking_delta(self, event: ThinkingDelta) -> Iterable[ServerSentEvent]:
        return self._delta(event.index, {"type": "thinking_delta", "thinking": event.text})

    def tool_delta(self, event: ToolInputDelta) -> Iterable[ServerSentEvent]:
        if event.index in self.index:
            self.arguments.setdefault(event.index, []).append(event.json)
        return self._delta(event.index, {"type": "input_json_delta", "partial_json": event.json})

    def echo_event(self, event: Echo) -> Iterable[ServerSentEvent]:
        if event.echo.provider != PROVIDER:
            return ()
        if event.index is None:
            self.echo.update(event.echo.data)
        elif isinstance(event.echo.data.get("signature"), str):
            self.signature[event.index] = event.echo.data["signature"]
        return ()

    def part_end(self, event: PartEnd) -> Iterator[ServerSentEvent]:
        wire = self.index.get(event.index)
        if wire is None:
            return
        signature = self.signature.pop(event.index, None)
        if self.kind.get(event.index) == "thinking":
            if signature:
                delta = {"type": "signature_delta", "signature": signature}
                yield _sse({"type": "content_block_delta", "index": wire, "delta": delta})
            else:
                self.out.lossy(
                    f"events[{self.opened[event.index]}].part",
                    "thinking",
                    "thinking Claude did not sign is streamed unsigned: it cannot be sent back to Claude",
                    action="converted",
                )
        pieces = self.arguments.pop(event.index, None)
        if pieces == []:
            # A call that came whole with no input: Claude streams a call without arguments with one
            # empty input_json_delta (the recorded real tool-use-stream.sse.txt), never none.
            delta = {"type": "input_json_delta", "partial_json": ""}
            yield _sse({"type": "content_block_delta", "index": wire, "delta": delta})
        elif pieces is not None and tool_arguments("".join(pieces))[1] is not None:
            # Another vendor's model wrote arguments that are not a JSON object; the SDK parses
            # the joined partial_json at content_block_stop and cannot (encode_response sends {}).
            why = "arguments that are not a JSON object are streamed as they came; Anthropic's SDK cannot parse them"
            self.out.lossy(f"events[{self.opened[event.index]}].part", "tool_use", why, action="converted")
        if event.citations:
            # The text opened with its citations already sent; these came apart from it.
            self.out.lossy(f"events[{self.at}].citations", "citations", "citations given at a part's end are not sent")
        yield _sse({"type": "content_block_stop", "index": wire})

    def usage_update(self, event: UsageUpdate) -> Iterable[ServerSentEvent]:
        self.usage = event.usage
        return ()

    def message_end(self, event: MessageEnd) -> Iterator[ServerSentEvent]:
        if self.failed:  # an error event is the last of an Anthropic stream
            if event.stop_reason is not None:
                why = "Anthropic's stream ends at its error event; the stop reason after it is not sent"
                self.out.unsupported(f"events[{self.at}].stop_reason", "stop_reason", why)
            return
        yield from self._flush()
        if event.usage is not None:
            self.usage = event.usage
        stop = encode_stop_reason(event.stop_reason, event.raw_stop_reason)
        if stop is None and event.stop_reason is not None:
            why = f"no Anthropic stop reason means {event.stop_reason}"
            self.out.unsupported(f"events[{self.at}].stop_reason", "stop_reason", why)
            stop = "end_turn"
        delta: Block = {"stop_reason": stop, "stop_sequence": self.echo.get("stop_sequence")}
        for key in ("container", "stop_details"):
            if key in self.echo:
                delta[key] = self.echo[key]
        yield _sse({"type": "message_delta", "delta": delta, "usage": self._delta_usage()})
        yield _sse({"type": "message_stop"})

    def _delta_usage(self) -> dict[str, Any]:
        """The final usage in the keys message_delta's usage has (the SDK's MessageDeltaUsage);
        a counter beyond them is lost unless message_start already carried the same value."""
        found = WarningSink(CODEC)
        usage = encode_usage(self.usage, recorded=self.echo.get(RECORDED), out=found)
        if found.warnings:
            self.out.extend_at(f"events[{self.at}]", found.warnings)
        for key in usage.keys() - _DELTA_USAGE:
            value = usage[key]
            if self.sent_usage.get(key) == value:
                continue
            inner = [f"{key}.{name}" for name in value] if isinstance(value, dict) else [key]
            for name in inner:
                why = f"message_delta's usage has no counter {name!r}"
                self.out.lossy(f"events[{self.at}].usage.extra.{name}", "usage", why)
        return {k: v for k, v in usage.items() if k in _DELTA_USAGE}

    def error(self, event: ErrorEvent) -> Iterable[ServerSentEvent]:
        self.failed = True
        error = event.error
        return (_sse({"type": "error", "error": {"type": error.type or "api_error", "message": error.message}}),)


_STREAMED_INPUT = frozenset({"server_tool_use", "mcp_tool_use"})
"""Blocks besides tool_use whose input the SDK's stream accumulator grows from input_json_delta
(TRACKS_TOOL_INPUT in anthropic/lib/streaming/_messages.py and _beta_messages.py)."""

_DELTA_USAGE = frozenset(
    {"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"}
    | {"output_tokens_details", "server_tool_use"}
)


def encode_stream(events: Iterable[StreamEvent], out: WarningSink) -> Iterator[ServerSentEvent]:
    """IR stream events -> Anthropic SSE events that the official SDK accumulates into the same
    Message. Parts the wire cannot stream (an image, audio) are left out, reported to ``out``."""
    encoder = _Encoder(out)
    handlers = encoder.handlers
    for at, event in one_part_open(events, out, PROVIDER):
        encoder.at = at
        yield from handlers[type(event)](event)
