"""Streams, both directions: ``chat.completion.chunk`` SSE events <-> StreamEvents.

The wire has no part boundaries: parts open at their first delta (reasoning, text, refusal, each
tool call by its ``index``, or by its id where a host repeats an index) and all close at
``finish_reason``. Usage comes in a last chunk with empty ``choices``
(``stream_options.include_usage``); the stream ends at ``[DONE]`` or when the events run out
(``[DONE]`` ends the answer even where no chunk gave a finish_reason: its stop reason is then
None). ``obfuscation`` (random padding) and per-chunk content filter results are noise and are not
kept. A reported cost in the usage chunk (OpenRouter's ``usage.cost``) is MessageEnd's ``cost``, as
decode_response makes it the Response's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from interlingua import (
    DONE,
    AudioOutput,
    Base64Source,
    ContentPart,
    Cost,
    DecodeError,
    Echo,
    ErrorEvent,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    ProviderEcho,
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
from interlingua.kit import dumps, expect, loads, optional, tool_arguments

from .._shared import decode_openai_error
from ._echo import Ctx, build, echo_list, extras, own, present
from ._parts import CUSTOM, Block, audio_answer, call_arguments, respelled
from ._stop_reason import decode_finish_reason, encode_finish_reason, report_finish_reason
from ._usage import COUNTERS, decode_usage, encode_usage, recorded_counters

_CHUNK = frozenset({"id", "object", "model", "choices", "usage", "obfuscation"})
_DETAIL = "_detail"  # the echo flag of a host's reasoning detail (``_messages.decode_reasoning``)

# --- decoding ------------------------------------------------------------------------------------


class StreamDecoder:
    """One stream's state: which part each kind of delta grows, and what the end needs.

    Each chunk's events are appended to one list (no generator per delta: a stream has thousands
    of chunks, PERF.md); paths are formatted only for an error."""

    def __init__(self, ctx: Ctx, codec: str) -> None:
        self.ctx = ctx
        self.codec = codec
        self.provider = ctx.provider
        self.reasoning_field = ctx.dialect.reasoning_field
        self.reasoning_also = ctx.dialect.reasoning_also
        self.started = False
        self.meta: Block = {}
        self.open: list[int] = []
        self.slots: dict[str, int] = {}
        self.tools: dict[int, int] = {}
        self.call_ids: dict[int, str | None] = {}  # wire index -> the id of the call open at it
        self.finish: str | None = None
        self.finished = False
        self.more_choices = False
        self.usage: Usage | None = None
        self.cost: Cost | None = None
        self.leftovers: Block = {}
        self.logprobs: dict[str, list[Any]] = {}
        self.audio: Block = {}
        self.count = 0
        self.arguments: dict[int, list[str]] = {}

    def run(self, events: Iterable[SSEEvent]) -> Iterator[StreamEvent]:
        for i, event in enumerate(events):
            data = event.data
            if data == DONE:
                # The server's own end: an answer whose chunks never gave a finish_reason ends here,
                # its stop reason unknown (recorded: Snowflake Cortex, pydantic-ai corpus,
                # test_snowflake_thinking_streaming), as a body's null finish_reason decodes.
                # Its open parts close here, as finish_reason closes them: every part_start has its part_end.
                if self.started and not self.finished:
                    self.finished = True
                    out: list[StreamEvent] = []
                    self._spacing(out)
                    out.extend(PartEnd(index) for index in self.open)
                    self.open = []
                    yield from out
                break
            try:
                chunk = loads(data)
            except (ValueError, TypeError) as err:
                raise DecodeError(self.codec, f"events[{i}]", f"data is not JSON ({err})") from None
            if type(chunk) is not dict:
                raise DecodeError(self.codec, f"events[{i}]", "data is not a JSON object")
            yield from self.chunk(chunk, i)
        yield from self.end()

    def chunk(self, chunk: Block, i: int) -> list[StreamEvent]:
        """The events of one chunk, in order."""
        out: list[StreamEvent] = []
        if "error" in chunk and "choices" not in chunk:
            out.append(ErrorEvent(decode_openai_error(self.codec, None, dumps(chunk), {})))
            return out
        if not self.started:
            self.meta.update(present(chunk, _CHUNK))
            if not chunk.get("id") and not chunk.get("choices"):
                return out
            self.started = True
            out.append(
                MessageStart(
                    optional(chunk, "id", str, "") or None,
                    optional(chunk, "model", str, "") or None,
                    echo_list(self.provider, self.meta),
                )
            )
        choices = chunk.get("choices")
        if choices:
            choice = choices[0]
            if type(choice) is not dict:
                raise DecodeError(self.codec, f"events[{i}].choices[0]", "expected an object")
            if len(choices) > 1 or choice.get("index", 0) != 0:
                choice = self._first_choice(choices, i)
                if choice is None:
                    return out
            delta = choice.get("delta")
            if delta:
                self.delta(delta if type(delta) is dict else expect(delta, dict, _at(i, "delta")), out, i)
            if (logprobs := choice.get("logprobs")) is not None:
                for key, items in logprobs.items():
                    if items:  # a null list adds nothing (Snowflake Cortex sends nulls in every chunk)
                        self.logprobs.setdefault(key, []).extend(items)
            if (raw := choice.get("finish_reason")) is not None:
                self.finish, self.finished = raw, True
                self._spacing(out)
                out.extend(PartEnd(index) for index in self.open)
                self.open = []
        usage = chunk.get("usage")
        if usage is not None:
            self.usage, self.cost, self.leftovers = decode_usage(usage, f"events[{i}].usage")
        return out

    def _first_choice(self, choices: list[Any], i: int) -> Block | None:
        """The stream's answer is choice 0; other choices (``n`` > 1) are left out, said once."""
        if not self.more_choices:
            self.more_choices = True
            self.ctx.out.lossy_decode(f"events[{i}].choices", "choices other than the first are not decoded")
        return next((c for c in choices if isinstance(c, dict) and c.get("index", 0) == 0), None)

    def _part(self, key: str, part: ContentPart, out: list[StreamEvent]) -> int:
        index = self.count
        self.count += 1
        self.slots[key] = index
        self.open.append(index)
        out.append(PartStart(index, part))
        return index

    def _close_thinking(self, out: list[StreamEvent]) -> None:
        """The reasoning ends where the answer begins (its text or a call): its part closes there,
        so no encoder has two parts open at once (an Anthropic block stops before the next starts).
        Reasoning after that opens a part of its own."""
        index = self.slots.pop("thinking", None)
        if index is not None and index in self.open:
            self.open.remove(index)
            out.append(PartEnd(index))

    def _text(self, key: str, text: str, out: list[StreamEvent], echo: Block | None = None) -> None:
        index = self.slots.get(key)
        if index is None:
            self._close_thinking(out)
            part = build(Text, text="", provider_echoes=echo_list(self.provider, echo or {}))
            index = self._part(key, part, out)
        out.append(TextDelta(index, text))

    def _thinking(self, text: str, out: list[StreamEvent], echo: Block | None = None) -> None:
        """Grow the thinking part; ``echo``: the echo it opens with, when a detail opens it (so an
        encoder knows from its start that it is a host's detail)."""
        index = self.slots.get("thinking")
        if index is None:
            part = build(Thinking, text="", provider_echoes=echo_list(self.provider, echo or {}))
            index = self._part("thinking", part, out)
        out.append(ThinkingDelta(index, text))

    def delta(self, delta: Block, out: list[StreamEvent], i: int) -> None:
        """Every text that grows a part is checked to be a string here, at its path: the
        accumulator joins them later, far from the chunk that was wrong."""
        if len(delta) == 1 and type(text := delta.get("content")) is str:  # most chunks: a piece of text
            if text:
                self._text("text", text, out)
            return
        if delta.get("reasoning_details"):  # on any host that sends them (``_messages.decode_reasoning``)
            self._details(expect(delta["reasoning_details"], list, _at(i, "delta.reasoning_details")), out, i)
        elif self.reasoning_field and (text := delta.get(self.reasoning_field)):
            self._thinking(_text_at(text, i, f"delta.{self.reasoning_field}"), out)
        elif self.reasoning_also and (key := next((k for k in self.reasoning_also if delta.get(k)), None)):
            self._thinking(_text_at(delta[key], i, f"delta.{key}"), out)  # the host's other spelling
        content = delta.get("content")
        if type(content) is str:
            if content:
                self._text("text", content, out)
        elif isinstance(content, list):
            self._blocks(content, out, i)
        elif content is not None:
            expect(content, str, _at(i, "delta.content"))
        if refusal := delta.get("refusal"):
            self._text("refusal", _text_at(refusal, i, "delta.refusal"), out, {"_refusal": True})
        if calls := delta.get("tool_calls"):
            for j, call in enumerate(expect(calls, list, _at(i, "delta.tool_calls"))):
                self._tool_call(call, out, i, j)
        if audio := delta.get("audio"):
            self._audio(audio)

    def _blocks(self, blocks: list[Any], out: list[StreamEvent], i: int) -> None:
        """Mistral streams content as chunks: thinking blocks and text chunks."""
        for j, block in enumerate(blocks):
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "text" and (text := block.get("text")):
                self._text("text", _text_at(text, i, f"delta.content[{j}].text"), out)
            elif kind == "thinking" and self.ctx.dialect.reasoning == "mistral_blocks":
                for k, chunk in enumerate(block.get("thinking") or []):
                    if isinstance(chunk, dict) and (text := chunk.get("text")):
                        self._thinking(_text_at(text, i, f"delta.content[{j}].thinking[{k}].text"), out)

    def _details(self, details: list[Any], out: list[StreamEvent], i: int) -> None:
        """reasoning_details deltas (OpenRouter's form, which Snowflake Cortex streams too: read on
        every dialect): text grows the thinking part, which the first detail opens with its echo;
        the rest of each detail (type, format, signature) merges into that echo; encrypted ones are
        their own part."""
        for j, detail in enumerate(details):
            if not isinstance(detail, dict):
                continue
            kind = detail.get("type")
            key = {"reasoning.text": "text", "reasoning.summary": "summary"}.get(kind if type(kind) is str else "")
            if key is None:
                echo = echo_list(self.provider, {_DETAIL: detail})
                self._part(f"redacted{self.count}", build(RedactedThinking, provider_echoes=echo), out)
                continue
            rest = extras(detail, frozenset({key}))
            text = _text_at(detail.get(key) or "", i, f"delta.reasoning_details[{j}].{key}")
            self._thinking(text, out, {_DETAIL: rest})
            echo_data = build(ProviderEcho, provider=self.provider, data={_DETAIL: rest}, model=None)
            out.append(Echo(self.slots["thinking"], echo_data))

    def _tool_call(self, call: Any, out: list[StreamEvent], i: int, j: int) -> None:
        if type(call) is not dict:
            call = expect(call, dict, _at(i, f"delta.tool_calls[{j}]"))
        wire_index = call.get("index", 0)
        if type(wire_index) is not int:
            expect(wire_index, int, _at(i, f"delta.tool_calls[{j}].index"))
        function = call.get("function") or {}
        if type(function) is not dict:
            function = expect(function, dict, _at(i, f"delta.tool_calls[{j}].function"))
        index = self.tools.get(wire_index)
        wire_id = call.get("id")
        if index is not None and wire_id and self.call_ids.get(wire_index) not in (None, wire_id):
            # Another call at an index in use: Ollama and SGLang stream parallel calls all at index 0
            # (ollama/ollama#15457, sgl-project/sglang#6310); a call's id is its own, so a new id is a
            # new call (fixtures/openai-chat/dialects/ollama/stream.sse).
            index = None
        if index is None:
            self._close_thinking(out)
            wire_id = _text_at(wire_id or "", i, f"delta.tool_calls[{j}].id")
            self.call_ids[wire_index] = wire_id or None
            name = _text_at(function.get("name") or "", i, f"delta.tool_calls[{j}].function.name")
            self.ctx.names[wire_id] = name
            echo = {"_omit": ["type"]} if "type" not in call else {}
            if "extra_content" in call:  # Gemini's thought signature on the call, as decode_response keeps it
                echo["extra_content"] = call["extra_content"]
            part = build(
                ToolUse,
                id=self.ctx.ids.decode(wire_id),
                name=name,
                input={},
                provider_echoes=echo_list(self.provider, echo),
            )
            index = self.count
            self.count += 1
            self.tools[wire_index] = index
            self.open.append(index)
            out.append(PartStart(index, part))
        if arguments := function.get("arguments"):
            arguments = _text_at(arguments, i, f"delta.tool_calls[{j}].function.arguments")
            self.arguments.setdefault(index, []).append(arguments)
            out.append(ToolInputDelta(index, arguments))

    def _spacing(self, out: list[StreamEvent]) -> None:
        """Arguments spelled other than compactly ({"path": ".env"}) keep their text, as
        decode_response keeps it, so a re-encode gives the server's own string."""
        for index, pieces in self.arguments.items():
            text = "".join(pieces)
            value, raw = tool_arguments(text)
            if raw is None and respelled(value, text):
                out.append(
                    Echo(index, build(ProviderEcho, provider=self.provider, data={"_arguments": text}, model=None))
                )
        self.arguments = {}

    def _audio(self, audio: Block) -> None:
        for key, value in audio.items():
            if key in ("data", "transcript"):
                self.audio[key] = self.audio.get(key, "") + (value or "")
            elif value is not None:
                self.audio[key] = value

    def end(self) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        if self.audio:
            source = build(Base64Source, media_type="application/octet-stream", data=self.audio.get("data", ""))
            echo = echo_list(self.provider, extras(self.audio, frozenset({"data", "transcript"})))
            part = build(AudioOutput, source=source, transcript=self.audio.get("transcript"), provider_echoes=echo)
            out += (PartStart(self.count, part), PartEnd(self.count))
        if not self.finished:
            return out
        tail: Block = {}
        if self.logprobs:
            tail["_choice"] = {"logprobs": self.logprobs}
        if self.leftovers:
            tail["_usage"] = self.leftovers
        if self.usage is not None and (recorded := recorded_counters(self.usage)):
            tail[COUNTERS] = recorded
        if tail:
            out.append(Echo(None, build(ProviderEcho, provider=self.provider, data=tail, model=None)))
        out.append(MessageEnd(decode_finish_reason(self.finish), self.finish, self.usage, self.cost))
        return out


def _at(i: int, rest: str) -> str:
    return f"events[{i}].choices[0].{rest}"


def _text_at(value: Any, i: int, rest: str) -> str:
    """``value`` when it is a string; else the DecodeError at its path (formatted only then)."""
    return value if type(value) is str else expect(value, str, _at(i, rest))


# --- encoding ------------------------------------------------------------------------------------


class StreamEncoder:
    """StreamEvents -> chunks the official SDK reads back into the same completion."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.at = 0
        self.joined: dict[str, bool] = {}  # kind -> whether a join was reported
        self.head: Block = {"id": "", "object": "chat.completion.chunk", "created": 0, "model": ""}
        self.kinds: dict[int, str] = {}
        self.details: dict[int, Block] = {}  # a host's thinking part -> its reasoning detail as last known
        self.written: dict[int, Block] = {}  # ... and as last written
        self.tool_index: dict[int, int] = {}
        self.bare: dict[int, ToolUse] = {}  # calls whose arguments have not been written yet
        self.usage: Usage | None = None
        self.leftovers: Block = {}
        self.recorded: Any = None
        self.failed = False  # an error chunk was written
        self.handlers: dict[type, Callable[[Any], Iterator[Block]]] = {
            MessageStart: self._start,
            PartStart: self._part_start,
            TextDelta: self._text,
            ThinkingDelta: self._thinking,
            ToolInputDelta: self._tool_input,
            Echo: self._echo,
            PartEnd: self._part_end,
            UsageUpdate: self._usage,
            MessageEnd: self._end,
            ErrorEvent: self._error,
        }

    def run(self, events: Iterable[StreamEvent]) -> Iterator[SSEEvent]:
        """What the chunks cannot carry goes to ``ctx.out`` at the IR event that held it, as
        encode_response reports it for the same answer."""
        handlers = self.handlers
        for at, event in enumerate(events):
            self.at = at
            for chunk in handlers[type(event)](event):
                yield ServerSentEvent(data=chunk if isinstance(chunk, str) else dumps(chunk))

    def _chunk(self, delta: Block, finish: str | None = None) -> Block:
        return {**self.head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    def _start(self, event: MessageStart) -> Iterator[Block]:
        data = own(event.provider_echoes, self.ctx.provider)
        self.head.update(id=event.id or "", model=event.model or "")
        self.head.update(
            {k: v for k, v in data.items() if not k.startswith("_") and k not in ("object", "choices", "usage")}
        )
        yield self._chunk({"role": "assistant", "content": ""})

    def _part_start(self, event: PartStart) -> Iterator[Block]:
        part = event.part
        match part:
            case Text():
                refusal = own(part.provider_echoes, self.ctx.provider).get("_refusal") is True
                kind = self.kinds[event.index] = "refusal" if refusal else "content"
                self._joins(kind, "text")
                if part.citations:
                    self.ctx.out.lossy(self._at(".part.citations"), "citations", "a chunk's delta has no annotations")
                if part.text:
                    yield self._chunk({kind: part.text})
            case Thinking():
                detail = own(part.provider_echoes, self.ctx.provider).get(_DETAIL)
                if isinstance(detail, dict):  # a host's reasoning detail: written back as one, on any dialect
                    self.details[event.index] = detail
                elif self.ctx.dialect.reasoning == "none":
                    self.kinds[event.index] = "dropped"
                    self.ctx.out.lossy(self._at(".part"), "thinking", f"{self.ctx.dialect.name} streams no reasoning")
                    return
                self.kinds[event.index] = "thinking"
                self._joins("thinking", "thinking")
                if part.text:
                    yield from self._thinking(ThinkingDelta(event.index, part.text))
            case ToolUse():
                yield from self._tool_start(event.index, part)
            case AudioOutput():
                yield from self._audio(part, self._at(".part"))
            case RedactedThinking() if isinstance(own(part.provider_echoes, self.ctx.provider).get(_DETAIL), dict):
                self.kinds[event.index] = "redacted"  # a host's encrypted detail (OpenRouter): back as it came
                yield self._chunk({"reasoning_details": [own(part.provider_echoes, self.ctx.provider)[_DETAIL]]})
            case _:
                self.kinds[event.index] = "dropped"
                self.ctx.out.lossy(self._at(".part"), part.type, f"a chunk's delta has no form for a {part.type} part")

    def _at(self, field: str) -> str:
        """The path of ``field`` of the event being encoded (made only for a warning)."""
        return f"events[{self.at}]{field}"

    def _joins(self, kind: str, part_type: str) -> None:
        """The delta has one field per kind: a second part of a kind grows the first. Said once,
        at the first part that joins, as encode_response says it once for the message."""
        if self.joined.get(kind) is False:
            why = f"a stream's {kind} is one string: its parts from here on join the first"
            self.ctx.out.lossy(self._at(".part"), part_type, why, action="converted")
        self.joined[kind] = kind in self.joined

    def _part_end(self, event: PartEnd) -> Iterator[Block]:
        detail = self.details.get(event.index)
        if detail is not None and event.index not in self.written:  # a detail no delta wrote
            self.written[event.index] = detail
            yield self._chunk({"reasoning_details": [detail]})
        if event.citations:
            self.ctx.out.lossy(self._at(".citations"), "citations", "a chunk's delta has no annotations")
        if event.index in self.bare:
            yield from self._arguments(event.index)

    def _arguments(self, index: int) -> Iterator[Block]:
        """A call that ends with no arguments written gets them as the answer writes them
        (``"{}"`` for none), in a delta of their own as the API sends them after the opening
        chunk's ``""`` (the recorded ``parallel-tool-calls-stream``)."""
        part = self.bare.pop(index)
        text = call_arguments(part, own(part.provider_echoes, self.ctx.provider))
        if text:  # a call the answer writes with "" (raw_input) has it in its opening chunk
            yield self._chunk({"tool_calls": [{"index": self.tool_index[index], "function": {"arguments": text}}]})

    def _tool_start(self, index: int, part: ToolUse) -> Iterator[Block]:
        wire_index = len(self.tool_index)
        self.tool_index[index] = wire_index
        self.kinds[index] = "tool"
        if isinstance(own(part.provider_echoes, self.ctx.provider).get(CUSTOM), dict):
            # A chunk's tool call is a function call only (ChoiceDeltaToolCall.type: Literal["function"],
            # openai/types/chat/chat_completion_chunk.py): a custom tool's call has no streamed form.
            why = "a chunk's tool call is a function call: a custom tool's call goes as one, its input as arguments"
            self.ctx.out.lossy(self._at(".part"), "tool_use", why, action="converted")
        call = {
            "index": wire_index,
            "id": self.ctx.ids.encode(part.id),
            "type": "function",
            "function": {"name": part.name, "arguments": ""},
        }
        if "extra_content" in (data := own(part.provider_echoes, self.ctx.provider)):
            call["extra_content"] = data["extra_content"]  # Gemini's thought signature goes back on the call
        yield self._chunk({"tool_calls": [call]})
        self.bare[index] = part
        if part.input or part.raw_input:
            yield from self._arguments(index)

    def _audio(self, part: AudioOutput, at: str) -> Iterator[Block]:
        audio = audio_answer(part, at, self.ctx)
        if audio is not None:
            yield self._chunk({"audio": audio})

    def _text(self, event: TextDelta) -> Iterator[Block]:
        kind = self.kinds.get(event.index, "content")
        if kind in ("content", "refusal"):
            yield self._chunk({kind: event.text})

    def _thinking(self, event: ThinkingDelta) -> Iterator[Block]:
        dialect = self.ctx.dialect
        detail = self.details.get(event.index)
        if detail is not None:  # the text in the detail as the host sends it (and in its field, if it has one)
            key = "summary" if detail.get("type") == "reasoning.summary" else "text"
            delta: Block = {}
            if dialect.reasoning == "field" and dialect.reasoning_field:
                delta[dialect.reasoning_field] = event.text
            delta["reasoning_details"] = [{**detail, key: event.text}]
            self.written[event.index] = detail
            yield self._chunk(delta)
        elif dialect.reasoning == "field" and dialect.reasoning_field:
            yield self._chunk({dialect.reasoning_field: event.text})
        elif dialect.reasoning == "mistral_blocks":
            yield self._chunk({"content": [{"type": "thinking", "thinking": [{"type": "text", "text": event.text}]}]})

    def _tool_input(self, event: ToolInputDelta) -> Iterator[Block]:
        wire_index = self.tool_index.get(event.index)
        if wire_index is not None:
            if event.json:
                self.bare.pop(event.index, None)
            yield self._chunk({"tool_calls": [{"index": wire_index, "function": {"arguments": event.json}}]})

    def _echo(self, event: Echo) -> Iterator[Block]:
        """The answer's echo is kept for its end; a host's detail that changed (its signature,
        which comes last) goes out at once, in a detail with no text, as the host sends it."""
        if event.index in self.details and event.echo.provider == self.ctx.provider:
            detail = event.echo.data.get(_DETAIL)
            if isinstance(detail, dict) and detail != self.written.get(event.index):
                self.details[event.index] = self.written[event.index] = detail
                return iter((self._chunk({"reasoning_details": [detail]}),))
        if event.index is None and event.echo.provider == self.ctx.provider:
            usage = event.echo.data.get("_usage")
            self.leftovers = usage if isinstance(usage, dict) else self.leftovers
            self.recorded = event.echo.data.get(COUNTERS, self.recorded)
        return iter(())

    def _usage(self, event: UsageUpdate) -> Iterator[Block]:
        self.usage = event.usage
        return iter(())

    def _end(self, event: MessageEnd) -> Iterator[Any]:
        if self.failed:  # an error chunk is the last of a stream (the recorded ones end at it, with no [DONE])
            if event.stop_reason is not None:
                why = "the stream ends at its error chunk; the finish after it is not sent"
                self.ctx.out.lossy(self._at(".stop_reason"), "stop_reason", why)
            return
        for index in list(self.bare):  # calls the events never closed
            yield from self._arguments(index)
        if event.stop_reason is not None or event.raw_stop_reason is not None:
            finish = encode_finish_reason(event.stop_reason, event.raw_stop_reason)
            finish = report_finish_reason(event.stop_reason, finish, self.ctx.out, f"events[{self.at}].stop_reason")
            yield self._chunk({}, finish)
        # else: an answer whose stream gave no finish_reason (see StreamDecoder.run) gives none
        usage = event.usage or self.usage
        if usage is not None:
            found = WarningSink(self.ctx.out.codec)
            body = encode_usage(usage, self.leftovers, event.cost, found, self.recorded)
            if found.warnings:
                self.ctx.out.extend_at(f"events[{self.at}]", found.warnings)
            yield {**self.head, "choices": [], "usage": body}
        yield DONE

    def _error(self, event: ErrorEvent) -> Iterator[Block]:
        self.failed = True
        error = event.error
        yield {"error": {"message": error.message, "type": error.type, "code": None, "param": None}}
