"""Short streams (not a test; just prints): the fixed cost of a stream, per wire.

PERF.md: streams of 2-23 events cost 8-35 us an event (long ones 4-5), so most of a short
stream's time is set-up: framing, the codec's decoder, the accumulator, the first event. Target:
6 us an event, i.e. that fixed cost cut to a few events' worth.

Every wire gets the same answer made by its own ``encode_stream`` (a text part and a tool call,
the text in as many deltas as make about 2, 5 and 20 wire events; a wire's smallest stream may be
longer than 2) and the short real recordings under ``../shared/fixtures/real`` (at most 25
events). A case runs raw SSE bytes -> ``parse_sse`` -> ``decode_stream`` -> ``accumulate``
(bedrock-converse: raw event-stream frames -> ``decode_event_stream``, its transport's path); its
floor is ``json.loads`` of each of its events' data, timed in the same rounds (each figure a
median of per-round ratios, so the machine's load cancels out). Cohere's recordings are data
lines (``.chunks.txt``), framed here as the SSE its API sends.

Run: ``python bench/bench_short_streams.py``
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterable
from typing import Any

from _timing import interleaved_us, ratio

import interlingua as il
from interlingua.kit import event_frames, render_frames
from interlingua.testing import read_stream_file, real_fixtures_dir

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat")
FRAMED = "bedrock-converse"
"""The wire whose streams are binary event-stream frames, not SSE."""
RECORDED = {"bedrock-converse": ("bedrock-converse", "*.eventstream.bin"), "cohere-chat": ("cohere", "*.chunks.txt")}
"""Where a wire's recordings are, when not ``<wire>/stream/*.sse.txt``."""
TARGETS = (2, 5, 20)
LONGEST_REAL = 25


def answer(deltas: int) -> list[il.StreamEvent]:
    """An answer with ``deltas`` text deltas (none: a tool call alone)."""
    call = il.ToolUse(id="call_1", name="lookup", input={})
    events: list[il.StreamEvent] = [il.MessageStart(id="msg_1", model="m-1")]
    if deltas:
        events += [il.PartStart(0, il.Text("")), *(il.TextDelta(0, f"word{i} ") for i in range(deltas)), il.PartEnd(0)]
    events += [
        il.PartStart(1, call),
        il.ToolInputDelta(1, '{"q": "weather"}'),
        il.PartEnd(1),
        il.MessageEnd("tool_use", usage=il.Usage(input_tokens=12, output_tokens=7)),
    ]
    return events


def wire_bytes(wire: str, events: Iterable[il.SSEEvent]) -> bytes:
    """A wire's events as the bytes it carries them in."""
    if wire == FRAMED:
        return b"".join(render_frames((event.event, event.data.encode()) for event in events))
    return b"".join(il.render_sse(events))


def data_lines(wire: str, raw: bytes) -> list[str]:
    """The JSON each event carries: the floor's input."""
    if wire == FRAMED:
        return [event.data for event in event_frames([raw], codec=wire)]
    lines = (line[5:].strip() for line in raw.decode().splitlines() if line.startswith("data:"))
    return [line for line in lines if line != "[DONE]"]


def synthetic(wire: str, target: int) -> bytes:
    """The answer whose wire stream has the number of JSON events nearest ``target``."""
    codec = il.get_codec(wire)
    made = [wire_bytes(wire, codec.encode_stream(answer(deltas))) for deltas in range(target + 1)]
    return min(made, key=lambda raw: (abs(len(data_lines(wire, raw)) - target), len(raw)))


def recorded(wire: str) -> list[tuple[str, bytes]]:
    corpus, pattern = RECORDED.get(wire, (wire, "*.sse.txt"))
    folder = real_fixtures_dir() / corpus / "stream"
    found = []
    for path in sorted(folder.glob(pattern)) if folder.is_dir() else []:
        raw = wire_bytes(wire, read_stream_file(path)) if pattern == "*.chunks.txt" else path.read_bytes()
        if len(data_lines(wire, raw)) <= LONGEST_REAL:
            found.append((path.name.split(".")[0], raw))
    return found


def cases() -> dict[str, tuple[str, bytes]]:
    out: dict[str, tuple[str, bytes]] = {}
    for wire in WIRES:
        for target in TARGETS:
            out[f"{wire} ~{target}"] = (wire, synthetic(wire, target))
        for name, raw in recorded(wire):
            out[f"{wire} {name}"] = (wire, raw)
    return out


def decode(wire: str, chunks: list[bytes]) -> Callable[[], Any]:
    codec = il.get_codec(wire)
    if wire == FRAMED:
        return lambda: il.accumulate(codec.decode_event_stream(chunks))  # type: ignore[attr-defined]
    return lambda: il.accumulate(codec.decode_stream(il.parse_sse(chunks)))


def floor(lines: list[str]) -> Callable[[], Any]:
    loads = json.loads
    return lambda: [loads(line) for line in lines]


def main() -> None:
    print("raw bytes -> Response, against json.loads of each event's data (medians of 15 rounds)")
    print(f"  {'stream':<66} {'events':>6} {'us':>7} {'us/event':>8} {'x floor':>8} {'floor us':>8}")
    per_event = []
    for label, (wire, raw) in cases().items():
        lines = data_lines(wire, raw)
        chunks = [raw]
        decode(wire, chunks)()  # a stream that fails here is a bug to see, not a figure to print
        runs = interleaved_us({"ours": decode(wire, chunks), "floor": floor(lines)}, rounds=15, number=40)
        ours = statistics.median(runs["ours"])
        per_event.append(ours / len(lines))
        print(
            f"  {label:<66} {len(lines):6d} {ours:7.1f} {ours / len(lines):8.2f}"
            f" {ratio(runs, 'ours', 'floor'):8.1f} {statistics.median(runs['floor']):8.1f}"
        )
    print(f"us per event: {min(per_event):.1f}-{max(per_event):.1f}")


if __name__ == "__main__":
    main()
