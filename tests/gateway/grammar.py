"""Each wire's stream events reduced to their kind (which event, of which block), and the
grammar a wire's recorded real streams show: which kinds open a stream, follow each other, end it."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interlingua import DecodedStream, SSEEvent, StreamEvent, get_codec
from interlingua.testing import pydantic_ai_fixtures_dir, read_stream_file, real_fixtures

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat")
FOLDERS = {"cohere-chat": "cohere"}


def _data(event: SSEEvent) -> Any:
    try:
        return json.loads(event.data)
    except ValueError:
        return event.data


def _anthropic(name: str | None, data: Any) -> str:
    kind = str(data.get("type"))
    if kind == "content_block_start":
        return f"{kind}:{data['content_block']['type']}"
    if kind == "content_block_delta":
        return f"{kind}:{data['delta']['type']}"
    return kind


def _responses(name: str | None, data: Any) -> str:
    kind = str(data.get("type"))
    if kind in ("response.output_item.added", "response.output_item.done"):
        return f"{kind}:{data['item']['type']}"
    return kind


def _chat(name: str | None, data: Any) -> str:
    if data == "[DONE]":
        return "[DONE]"
    if "error" in data:
        return "error"
    kinds = []
    for choice in data.get("choices") or []:
        delta = choice.get("delta") or {}
        kinds += ["role"] if delta.get("role") else []
        kinds += ["content"] if delta.get("content") else []
        kinds += ["reasoning"] if delta.get("reasoning_content") or delta.get("reasoning") else []
        for call in delta.get("tool_calls") or []:
            kinds.append("call" if call.get("id") or (call.get("function") or {}).get("name") else "arguments")
        kinds += ["finish"] if choice.get("finish_reason") else []
    kinds += ["usage"] if data.get("usage") else []
    return "+".join(dict.fromkeys(kinds)) or "empty"


def _gemini(name: str | None, data: Any) -> str:
    if "error" in data:
        return "error"
    kinds = []
    for candidate in data.get("candidates") or []:
        for part in (candidate.get("content") or {}).get("parts") or []:
            kinds.append("thought" if part.get("thought") else next((k for k in part if k != "thoughtSignature"), "?"))
        kinds += ["finish"] if candidate.get("finishReason") else []
    return "+".join(dict.fromkeys(kinds)) or "metadata"


def _converse(name: str | None, data: Any) -> str:
    if name == "contentBlockDelta":
        return f"{name}:{next(k for k in data['delta'])}"
    if name == "contentBlockStart":
        return f"{name}:{next(k for k in data['start'])}"
    return str(name)


def _cohere(name: str | None, data: Any) -> str:
    return str(data.get("type"))


KIND: dict[str, Callable[[str | None, Any], str]] = {
    "anthropic-messages": _anthropic,
    "openai-chat": _chat,
    "openai-responses": _responses,
    "gemini": _gemini,
    "bedrock-converse": _converse,
    "cohere-chat": _cohere,
}


def kinds(wire: str, events: Iterable[SSEEvent]) -> list[str]:
    """The kinds of ``events``, a run of one kind (deltas) written once."""
    found = [KIND[wire](e.event, data) if isinstance(data := _data(e), dict) else str(data) for e in events]
    return [kind for kind, _ in itertools.groupby(found) if kind != "ping"]


ERRORS = {
    "anthropic-messages": "error",
    "openai-chat": "error",
    "openai-responses": "error",
    "gemini": "error",
    "bedrock-converse": "exception",
    "cohere-chat": "error",
}
"""Each wire's error event: a stream may break anywhere, so it may open, follow anything and end
a stream (what follows it is held to the recorded pairs)."""


def _boundary(a: str, b: str) -> bool:
    """Responses output items follow each other in any order (the recorded streams show item
    after item of several types; a second call after a call is a parallel call)."""
    return a.startswith("response.output_item.done:") and b.startswith("response.output_item.added:")


@dataclass
class Grammar:
    wire: str
    first: set[str] = field(default_factory=set)
    pairs: set[tuple[str, str]] = field(default_factory=set)
    last: set[str] = field(default_factory=set)
    known: set[str] = field(default_factory=set)

    def learn(self, sequence: list[str]) -> None:
        if sequence:
            self.first.add(sequence[0])
            self.last.add(sequence[-1])
            self.pairs.update(itertools.pairwise(sequence))
            self.known.update(sequence)

    def breaks(self, sequence: list[str]) -> list[str]:
        """What of ``sequence`` no recorded stream did, in words."""
        error = ERRORS[self.wire]
        first, last = self.first | {error}, self.last | {error}
        found = [] if not sequence or sequence[0] in first else [f"starts with {sequence[0]}"]
        for a, b in itertools.pairwise(sequence):
            if (a, b) in self.pairs or b == error or (_boundary(a, b) and {a, b} <= self.known):
                continue
            found.append(f"{a} -> {b}")
        found += [] if not sequence or sequence[-1] in last else [f"ends with {sequence[-1]}"]
        return found


def recorded_streams(wire: str) -> list[tuple[Path, list[SSEEvent]]]:
    """Every recorded real stream of ``wire``, as the wire's own events (Converse's frames
    from their JSON lines)."""
    found: list[tuple[Path, list[SSEEvent]]] = []
    folder = FOLDERS.get(wire, wire)
    for path in real_fixtures(folder, "stream"):
        if path.name.endswith((".sse.txt", ".chunks.txt")):
            found.append((path, read_stream_file(path)))
        elif path.name.endswith(".eventstream.jsonl"):
            found.append((path, _frames(path)))
    for path in sorted(pydantic_ai_fixtures_dir().glob(f"{wire}/*/response.sse")):
        found.append((path, read_stream_file(path)))
    return found


def _frames(path: Path) -> list[SSEEvent]:
    from interlingua import ServerSentEvent

    events = []
    for line in path.read_text().splitlines():
        frame = json.loads(line)
        payload = {k: v for k, v in frame["payload"].items() if k != "p"}
        events.append(ServerSentEvent(data=json.dumps(payload), event=frame["headers"][":event-type"]))
    return events


def grammar(wire: str) -> Grammar:
    learned = Grammar(wire)
    for _, events in recorded_streams(wire):
        learned.learn(kinds(wire, events))
    return learned


def decoded(wire: str, events: list[SSEEvent]) -> list[StreamEvent]:
    stream: DecodedStream = get_codec(wire).decode_stream(events)
    return list(stream)
