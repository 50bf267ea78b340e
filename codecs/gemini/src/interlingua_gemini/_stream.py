"""Streams, both directions: streamGenerateContent chunks <-> StreamEvents.

Every chunk is a whole GenerateContentResponse. Decoding joins consecutive text chunks (and
consecutive thought chunks) into one part, whose thoughtSignature may come on any chunk (the
first, or a later empty-text one); a second signature starts a new part; a functionCall arrives whole, except Vertex's
streamed arguments (``willContinue`` + ``partialArgs`` by JSON path), which are gathered and
given as one tool_input_delta when the call closes. Usage is cumulative in every chunk. Citations
from groundingMetadata are not streamed (no stream event carries them); the metadata itself is.

``json_array_events`` frames the non-SSE form (``:streamGenerateContent`` without ``alt=sse``: one
JSON array, sent element by element) into the same events ``decode_stream`` reads.
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Iterable, Iterator
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
from interlingua.kit import construct, dumps, expect, loads, optional, tool_arguments

from . import _stop_reason, _usage
from ._errors import decode_status, served_error
from ._parts import NAME, PROVIDER, Decoding, Encoding, decode_part, encode_part, within
from ._response import _DEFAULT_CONTENT, blocked_reason, call_prefix

_OWN = frozenset({"candidates", "responseId", "modelVersion", "usageMetadata"})
_PATH = re.compile(r"\.([^.\[]+)|\[(\d+)\]|\['([^']*)'\]")


# --- decoding ----------------------------------------------------------------------------------


def decode_stream(events: Iterable[SSEEvent], warnings: WarningSink) -> Iterator[StreamEvent]:
    decoder = _Decoder()
    for number, event in enumerate(events):
        data = event.data
        if not data or data.isspace():
            continue
        decoder.seen += len(data)
        try:
            body = loads(data)
        except (ValueError, TypeError) as err:
            raise DecodeError(NAME, f"chunk[{number}]", f"data is not JSON ({err})") from None
        try:
            decoder.chunk(body if type(body) is dict else expect(body, dict, ""))
            if decoder.more and not warnings.warnings:
                why = "candidates other than the first are not decoded"
                warnings.lossy_decode(f"events[{number}].candidates[1]", why)
        except DecodeError as err:
            raise within(f"chunk[{number}]", err) from None
        yield from decoder.take()
    decoder.finish()
    yield from decoder.take()


class _Decoder:
    """One stream's state: the open part, the call being streamed, what the last chunk said.

    Each method appends its events to ``out``; ``decode_stream`` hands them on after each chunk
    (a chunk gives two or three events, and a generator per method and chunk would cost more
    than the decoding). Paths in errors are relative to the chunk."""

    def __init__(self) -> None:
        self.out: list[StreamEvent] = []
        self.started = False
        self.ctx = Decoding(None)
        self.index = -1
        self.open: str | None = None  # "text" | "thinking" | "call" while a part is open
        self.signed = False
        self.called = False
        self.args: dict[str, Any] = {}
        self.open_strings: set[str] = set()
        self.seen = 0  # the stream's bytes so far: no partialArgs index can lie past them
        self.raw_stop: str | None = None
        self.blocked: str | None = None
        self.usage: Usage | None = None
        self.usage_meta: Any = None
        self.usage_rest: dict[str, Any] | None = None
        self.candidate: dict[str, Any] = {}
        self.more = False  # this chunk had candidates beyond the first (candidateCount > 1)

    def take(self) -> list[StreamEvent]:
        events, self.out = self.out, []
        return events

    def chunk(self, body: dict[str, Any]) -> None:
        if "error" in body:
            self.out.append(ErrorEvent(decode_status(None, body, {})))
            return
        if not self.started:
            self._start(body)
        if not body.keys() <= _OWN:
            self.blocked = blocked_reason(body) or self.blocked
            self._echo(None, {key: value for key, value in body.items() if key not in _OWN})
        if "usageMetadata" in body:
            self._usage(body["usageMetadata"])
        candidates = body.get("candidates")
        if isinstance(candidates, list) and candidates:
            self.more = len(candidates) > 1
            try:
                self._candidate(candidates[0])
            except DecodeError as err:
                raise within("candidates[0]", err) from None

    def _start(self, body: dict[str, Any]) -> None:
        self.started = True
        model = optional(body, "modelVersion", str, "")
        response_id = optional(body, "responseId", str, "")
        self.ctx = Decoding(model, call_prefix(response_id))
        self.out.append(MessageStart(id=response_id, model=model))

    def _echo(self, index: int | None, data: dict[str, Any]) -> None:
        self.out.append(Echo(index, construct(ProviderEcho, provider=PROVIDER, data=data, model=self.ctx.model)))

    def _usage(self, meta: Any) -> None:
        """Usage is cumulative; a chunk repeating the last chunk's usageMetadata reuses its Usage."""
        if self.usage is not None and meta == self.usage_meta:
            self.out.append(UsageUpdate(self.usage))
            return
        self.usage, rest = _usage.decode(expect(meta, dict, "usageMetadata"), "usageMetadata")
        self.usage_meta = meta
        self.out.append(UsageUpdate(self.usage))
        if rest != self.usage_rest:
            self.usage_rest = rest
            self._echo(None, {"usageMetadata": rest})

    def _candidate(self, candidate: Any) -> None:
        if type(candidate) is not dict:
            candidate = expect(candidate, dict, "")
        content = candidate.get("content")
        if content is not None and type(content) is not dict:
            content = expect(content, dict, "content")
        for number, block in enumerate((content or {}).get("parts") or ()):
            try:
                self._part(block if type(block) is dict else expect(block, dict, ""))
            except DecodeError as err:
                raise within(f"content.parts[{number}]", err) from None
        self.raw_stop = optional(candidate, "finishReason", str, "") or self.raw_stop
        if self._usual(candidate, content):
            return
        merged = {**self.candidate, **{k: v for k, v in candidate.items() if k not in ("content", "finishReason")}}
        shell = None if content is None else {key: value for key, value in content.items() if key != "parts"}
        if shell != _DEFAULT_CONTENT and (shell or "content" not in merged):
            merged["content"] = shell
        if merged != self.candidate:
            self.candidate = merged
            self._echo(None, {"candidate": merged})

    def _usual(self, candidate: dict[str, Any], content: dict[str, Any] | None) -> bool:
        """Whether the candidate says nothing new for its echo: a ``{"role": "model"}`` content
        shell and its other fields as the echo already holds them (most chunks)."""
        if content is None or len(content) - ("parts" in content) != 1 or content.get("role") != "model":
            return False
        known = self.candidate
        for key, value in candidate.items():
            if key != "content" and key != "finishReason" and (key not in known or known[key] != value):
                return False
        return True

    def _part(self, block: dict[str, Any]) -> None:
        if "text" in block and type(block["text"]) is str:
            self._text(block)
        elif "functionCall" in block and isinstance(block["functionCall"], dict):
            self._call(block)
        else:
            self._close()
            self._whole(decode_part(block, "", self.ctx, model_role=True))

    def _text(self, block: dict[str, Any]) -> None:
        thought = block.get("thought") is True
        kind = "thinking" if thought else "text"
        text: str = block["text"]
        if len(block) == (2 if thought else 1):
            extras = {}
        else:
            extras = {k: v for k, v in block.items() if k != "text" and not (thought and k == "thought")}
        if self.open != kind or (self.signed and "thoughtSignature" in extras):
            if not text and not extras and not thought:
                return
            self._close()
            self.index += 1
            self.open, self.signed = kind, False
            part: Text | Thinking = construct(Text, text="")
            if thought:
                part = construct(Thinking, text="", provider_echoes=self.ctx.echo({}))
            self.out.append(PartStart(self.index, part))
        if text:
            self.out.append(ThinkingDelta(self.index, text) if thought else TextDelta(self.index, text))
        if extras:
            self.signed = "thoughtSignature" in extras
            self._echo(self.index, extras)

    def _call(self, block: dict[str, Any]) -> None:
        call: dict[str, Any] = block["functionCall"]
        extras = {k: v for k, v in block.items() if k != "functionCall"}
        if self.open == "call" and "name" not in call:
            self._gather(call.get("partialArgs"))
            if extras:
                self._echo(self.index, extras)
            if not call.get("willContinue"):
                self._close()
            return
        self._close()
        if not call.get("willContinue"):
            self.called = True
            self._whole(decode_part(block, "", self.ctx, model_role=True))
            return
        # Vertex streamed arguments (vertex-stream-function-call-partial-args): the call opens
        # with its name, its arguments come as partialArgs, an empty functionCall closes it.
        self.called = True
        name = optional(call, "name", str, "functionCall") or ""
        opened = decode_part({**extras, "functionCall": {"name": name, "args": {}}}, "", self.ctx, model_role=True)
        if call.get("id") is not None:
            opened = opened.model_copy(update={"id": call["id"]})
        self.index += 1
        self.open, self.args, self.open_strings = "call", {}, set()
        self.out.append(PartStart(self.index, opened))
        self._gather(call.get("partialArgs"))

    def _gather(self, pieces: Any) -> None:
        for number, piece in enumerate(pieces if isinstance(pieces, list) else []):
            if not isinstance(piece, dict) or not isinstance(piece.get("jsonPath"), str):
                continue
            path = piece["jsonPath"]
            if any(isinstance(step, int) and step > self.seen for step in _steps(path)):
                # each array element needs bytes of its own: a larger index would only allocate
                at = f"functionCall.partialArgs[{number}].jsonPath"
                raise DecodeError(NAME, at, f"index past what {self.seen} streamed bytes can fill: {path[:80]}")
            if "stringValue" in piece:
                value: Any = piece["stringValue"]
                if path in self.open_strings:
                    value = str(_lookup(self.args, path) or "") + value
            elif "numberValue" in piece:
                value = piece["numberValue"]
            elif "boolValue" in piece:
                value = piece["boolValue"]
            else:
                value = None
            _assign(self.args, path, value)
            if piece.get("willContinue"):
                self.open_strings.add(path)
            else:
                self.open_strings.discard(path)

    def _whole(self, part: Any) -> None:
        self.index += 1
        self.out.append(PartStart(self.index, part))
        self.out.append(PartEnd(self.index))

    def _close(self) -> None:
        if self.open is None:
            return
        if self.open == "call" and self.args:
            self.out.append(ToolInputDelta(self.index, dumps(self.args)))
        self.open = None
        self.out.append(PartEnd(self.index))

    def finish(self) -> None:
        self._close()
        if self.raw_stop is not None:
            stop = _stop_reason.decode(self.raw_stop, called=self.called)
            self.out.append(MessageEnd(stop, self.raw_stop, self.usage))
        elif self.blocked is not None:
            self.out.append(MessageEnd(_stop_reason.BLOCKED, self.blocked, self.usage))


def _steps(path: str) -> list[str | int]:
    return [int(m[2]) if m[2] else (m[1] or m[3]) for m in _PATH.finditer(path.removeprefix("$"))]


def _lookup(args: Any, path: str) -> Any:
    for step in _steps(path):
        try:
            args = args[step]
        except (KeyError, IndexError, TypeError):
            return None
    return args


def _assign(args: dict[str, Any], path: str, value: Any) -> None:
    steps = _steps(path)
    holder: Any = args
    for step, after in itertools.pairwise(steps):
        empty: Any = [] if isinstance(after, int) else {}
        if isinstance(holder, dict):
            holder = holder.setdefault(step, empty)
        elif isinstance(holder, list) and isinstance(step, int):
            holder.extend([None] * (step + 1 - len(holder)))
            holder[step] = holder[step] if holder[step] is not None else empty
            holder = holder[step]
    if not steps:
        return
    last = steps[-1]
    if isinstance(holder, dict):
        holder[last] = value
    elif isinstance(holder, list) and isinstance(last, int):
        holder.extend([None] * (last + 1 - len(holder)))
        holder[last] = value


def _error_chunk(error: ProviderError) -> dict[str, Any]:
    """The google.rpc.Status a stream ends with: the upstream's own status when it was Google's,
    else the one for its HTTP status (``INTERNAL`` for a 500), never another vendor's error type."""
    raw = error.raw.get("error") if isinstance(error.raw, dict) else None
    status = raw.get("status") if isinstance(raw, dict) else None
    if isinstance(status, str) and status.isupper():
        return {"error": {"code": error.status or 500, "message": error.message, "status": status}}
    return served_error(error.status or 500, error.message, None)


def json_array_events(chunks: Iterable[bytes]) -> Iterator[SSEEvent]:
    """The non-SSE stream (one JSON array sent element by element) as one event per element,
    each yielded as soon as its closing brace arrives."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    depth, in_string, escaped = 0, False, False
    current: list[str] = []
    for chunk in chunks:
        text = decoder.decode(chunk)
        start = 0
        for i, char in enumerate(text):
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
                continue
            if char == '"':
                in_string = True
            elif char in "{[":
                depth += 1
                if depth == 2 and char == "{":
                    start = i
                    current = []
            elif char in "}]":
                depth -= 1
                if depth == 1 and char == "}":
                    current.append(text[start : i + 1])
                    yield ServerSentEvent(data="".join(current))
                    current = []
        if depth >= 2:
            current.append(text[start:])
            start = 0


# --- encoding ----------------------------------------------------------------------------------


def encode_stream(events: Iterable[StreamEvent], out: WarningSink) -> Iterator[SSEEvent]:
    encoder = _Encoder(out)
    for at, event in enumerate(events):
        encoder.at = at
        for chunk in encoder.event(event):
            yield ServerSentEvent(data=dumps(chunk))


class _Encoder:
    """StreamEvents -> chunks google-genai parses: text and thoughts as they come, every other
    part whole when it ends, finishReason and the response's own fields on the last chunk.

    What the chunks cannot carry goes to ``out`` as encode_response reports it, at the event that
    opened the part (``opened``); the part encoder writes into ``found`` first, since a text part
    is encoded again for each of its echoes and should be reported once."""

    def __init__(self, out: WarningSink) -> None:
        self.out = out
        self.at = 0
        self.found = WarningSink(NAME)
        self.opened: dict[int, int] = {}
        self.last: tuple[str, bool] | None = None  # the last part sent, if text or thought: (type, signed)
        self.id: str | None = None
        self.model: str | None = None
        self.parts: dict[int, Any] = {}
        self.args: dict[int, list[str]] = {}
        self.usage: Usage | None = None
        self.echo: dict[str, Any] = {}
        self.ctx = Encoding(self.found, None)
        self.failed = False  # an error chunk was written

    def _report(self, index: int) -> None:
        """The part encoder's warnings, under the event that opened part ``index``."""
        if self.found.warnings:
            self.out.extend_at(f"events[{self.opened.get(index, self.at)}]", self.found.warnings)
            self.found.warnings.clear()

    def event(self, event: StreamEvent) -> list[dict[str, Any]]:
        match event:
            case MessageStart():
                self.id, self.model = event.id, event.model
                self.ctx = Encoding(self.found, event.model)
                for echo in event.provider_echoes:
                    self._keep(echo)
                return []
            case PartStart():
                return self._part_start(event)
            case TextDelta():
                return [self._chunk([{"text": event.text}])]
            case ThinkingDelta():
                return [self._chunk([{"text": event.text, "thought": True}])]
            case ToolInputDelta():
                self.args.setdefault(event.index, []).append(event.json)
                return []
            case Echo():
                return self._echo(event)
            case PartEnd():
                return self._part_end(event)
            case UsageUpdate():
                self.usage = event.usage
                return []
            case MessageEnd() if self.failed:  # an error chunk is the last of a Gemini stream
                if event.stop_reason is not None:
                    why = "Gemini's stream ends at its error; the finish after it is not sent"
                    self.out.lossy(f"events[{self.at}].stop_reason", "stop_reason", why)
                return []
            case MessageEnd():
                return [self._end(event)]
            case ErrorEvent():
                self.failed = True
                return [_error_chunk(event.error)]
        return []

    def _keep(self, echo: ProviderEcho) -> None:
        if echo.provider == PROVIDER:
            self.echo.update(echo.data)

    def _chunk(
        self, parts: list[dict[str, Any]] | None, found: WarningSink | None = None, **candidate: Any
    ) -> dict[str, Any]:
        """``found`` hears of usage counters left out (given for the last chunk only: every
        chunk carries the usage so far, and what it cannot hold is said once)."""
        content: dict[str, Any] = {"role": "model"}
        if parts:
            content["parts"] = parts
        chunk: dict[str, Any] = {"candidates": [{"content": content, **candidate}]}
        if self.usage is not None:
            chunk["usageMetadata"] = _usage.encode(self.usage, self.echo.get("usageMetadata"), found)
        if self.model is not None:
            chunk["modelVersion"] = self.model
        if self.id is not None:
            chunk["responseId"] = self.id
        return chunk

    def _part_start(self, event: PartStart) -> list[dict[str, Any]]:
        part = event.part
        self.opened[event.index] = self.at
        if isinstance(part, Text | Thinking):
            self.parts[event.index] = part.model_copy(update={"text": ""})
            block = encode_part(part, "part", self.ctx)
            self._report(event.index)
            self._joins(part)
            return [self._chunk([block])] if block is not None and (part.text or part.provider_echoes) else []
        self.parts[event.index] = part
        return []

    def _joins(self, part: Text | Thinking) -> None:
        """Consecutive text (or thought) chunks are one part to a reader (see decode_stream): a
        part right after one of its kind joins it, unless both are signed."""
        signed = _signed(part)
        last, self.last = self.last, (part.type, signed)
        if last is not None and last[0] == part.type and not (last[1] and signed):
            why = f"a {part.type} part right after another joins it in Gemini's stream"
            self.out.lossy(f"events[{self.at}].part", part.type, why, action="converted")

    def _echo(self, event: Echo) -> list[dict[str, Any]]:
        if event.index is None:
            self._keep(event.echo)
            return []
        if self.last is not None and event.echo.provider == PROVIDER and "thoughtSignature" in event.echo.data:
            self.last = (self.last[0], True)
        part = self.parts.get(event.index)
        if isinstance(part, Text | Thinking):
            block = encode_part(part.model_copy(update={"provider_echoes": [event.echo]}), "part", self.ctx)
            self.found.warnings.clear()  # said when the part opened
            return [self._chunk([block])] if block is not None and len(block) > 1 + isinstance(part, Thinking) else []
        if part is not None:
            echoes = [e for e in part.provider_echoes if e.provider != event.echo.provider]
            merged = {
                **(part.echo(event.echo.provider).data if part.echo(event.echo.provider) else {}),
                **event.echo.data,
            }
            echoes.append(ProviderEcho(provider=event.echo.provider, data=merged, model=event.echo.model))
            self.parts[event.index] = part.model_copy(update={"provider_echoes": echoes})
        return []

    def _part_end(self, event: PartEnd) -> list[dict[str, Any]]:
        index = event.index
        if event.citations:
            why = "Gemini's stream carries no citations"
            self.out.lossy(f"events[{self.at}].citations", "citations", why)
        part = self.parts.pop(index, None)
        if part is None or isinstance(part, Text | Thinking):
            return []
        pieces = self.args.pop(index, None)
        if isinstance(part, ToolUse) and pieces:
            # Empty or malformed arguments (another vendor's model wrote them) must not crash
            # the stream: Gemini's functionCall.args is an object, so they go as {} (the part
            # encoder reports raw_input, as for an answer decoded whole).
            value, raw = tool_arguments("".join(pieces))
            part = part.model_copy(update={"input": value, "raw_input": raw})
        block = encode_part(part, "part", self.ctx)
        self._report(index)
        if block is None:
            return []
        self.last = None
        return [self._chunk([block])]

    def _end(self, event: MessageEnd) -> dict[str, Any]:
        if event.usage is not None:
            self.usage = event.usage
        rest = dict(self.echo.get("candidate") or {})
        rest.pop("content", None)
        at = f"events[{self.at}]"
        finish = _stop_reason.encode(event.stop_reason, event.raw_stop_reason, self.out, at)
        found = WarningSink(NAME)
        if event.stop_reason == "content_filter" and blocked_reason(self.echo) is not None:
            chunk = self._chunk(None, found)
            del chunk["candidates"]
        elif finish:
            # Gemini gives finishReason with a part, never alone: after a call, with an empty text
            # part (the recorded function-call-thought-signature-stream-turn1/-turn2), which a
            # reader joins to nothing
            chunk = self._chunk([{"text": ""}], found, finishReason=finish, **rest)
        else:
            chunk = self._chunk(None, found, **rest)
        if self.usage is not None and self.usage.cache_write_tokens:
            self.out.unsupported(f"{at}.usage.cache_write_tokens", "usage", "Gemini reports no cache writes")
        self.out.extend_at(at, found.warnings)
        for key, value in self.echo.items():
            if key not in ("candidate", "usageMetadata"):
                chunk.setdefault(key, value)
        return chunk


def _signed(part: Text | Thinking) -> bool:
    echo = part.echo(PROVIDER)
    return echo is not None and "thoughtSignature" in echo.data
