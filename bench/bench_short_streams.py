"""Short streams (not a test; just prints): the fixed cost of a stream, per wire.

PERF.md: streams of 2-23 events cost 8-35 us an event (long ones 4-5), so most of a short
stream's time is set-up: framing, the codec's decoder, the accumulator, the first event. Target:
6 us an event, i.e. that fixed cost cut to a few events' worth.

Every wire gets the same answer made by its own ``encode_stream`` (a text part and a tool call,
the text in as many deltas as make about 2, 5 and 20 wire events; a wire's smallest stream may be
longer than 2) and the short real recordings under ``../shared/fixtures/real`` (at most 25
events). A case runs raw SSE bytes -> ``parse_sse`` -> ``decode_stream`` -> ``accumulate``; its
floor is ``json.loads`` of each of its ``data:`` lines, timed in the same rounds (each figure a
median of per-round ratios, so the machine's load cancels out).

Run: ``python bench/bench_short_streams.py``
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from typing import Any

from _timing import interleaved_us, ratio

import interlingua as il
from interlingua.testing import real_fixtures_dir

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")
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


def wire_bytes(codec: il.Codec, events: list[il.StreamEvent]) -> bytes:
    return b"".join(il.render_sse(codec.encode_stream(events)))


def data_lines(raw: bytes) -> list[str]:
    lines = (line[5:].strip() for line in raw.decode().splitlines() if line.startswith("data:"))
    return [line for line in lines if line != "[DONE]"]


def synthetic(codec: il.Codec, target: int) -> bytes:
    """The answer whose wire stream has the number of JSON events nearest ``target``."""
    made = [wire_bytes(codec, answer(deltas)) for deltas in range(target + 1)]
    return min(made, key=lambda raw: (abs(len(data_lines(raw)) - target), len(raw)))


def recorded(wire: str) -> list[tuple[str, bytes]]:
    folder = real_fixtures_dir() / wire / "stream"
    found = []
    for path in sorted(folder.glob("*.sse.txt")) if folder.is_dir() else []:
        raw = path.read_bytes()
        if len(data_lines(raw)) <= LONGEST_REAL:
            found.append((path.name.split(".")[0], raw))
    return found


def cases() -> dict[str, tuple[str, bytes]]:
    out: dict[str, tuple[str, bytes]] = {}
    for wire in WIRES:
        codec = il.get_codec(wire)
        for target in TARGETS:
            out[f"{wire} ~{target}"] = (wire, synthetic(codec, target))
        for name, raw in recorded(wire):
            out[f"{wire} {name}"] = (wire, raw)
    return out


def decode(wire: str, chunks: list[bytes]) -> Callable[[], Any]:
    codec = il.get_codec(wire)
    return lambda: il.accumulate(codec.decode_stream(il.parse_sse(chunks)))


def floor(lines: list[str]) -> Callable[[], Any]:
    loads = json.loads
    return lambda: [loads(line) for line in lines]


def main() -> None:
    print("raw SSE bytes -> Response, against json.loads of the data lines (medians of 15 rounds)")
    print(f"  {'stream':<66} {'events':>6} {'us':>7} {'us/event':>8} {'x floor':>8} {'floor us':>8}")
    per_event = []
    for label, (wire, raw) in cases().items():
        lines = data_lines(raw)
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
