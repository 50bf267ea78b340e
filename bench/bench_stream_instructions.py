"""Instruction counts of the stream and answer rows, every case in one callgrind run (not a test; just prints).

Issue 46 item 4 and its answer-decode rows, for any install (``--python`` a baseline's venv):

- every wire's synthetic short streams of ``bench_short_streams.py`` (about 2, 5 and 20 events),
  raw bytes -> ``parse_sse`` -> ``decode_stream`` -> ``accumulate`` (bedrock-converse: its
  frames -> ``decode_event_stream``), per stream and per event; the fixed cost is what the line
  through the ~5 and ~20 streams leaves at zero events;
- the answers of the issue's table, ``decode_response`` against the SDK's ``model_validate`` of
  the same dict: chat's text answer (``parallel-tool-calls-turn2``) and two-call answer
  (``parallel-tool-calls-turn1``), Anthropic's text answer (``text-basic``) and two-call answer
  (``parallel-tool-use-turn1``);
- where each SSE wire's ~5 stream goes (``part:`` lines): ``parse_sse`` alone, the codec's
  ``decode_stream`` of the framed events and of none (its set-up), ``accumulate`` of its IR
  events, and ``parse_sse`` of an empty stream.

The same harness as ``bench_instructions.py`` (``valgrind --tool=callgrind`` with
``--toggle-collect=functools_reduce``, ``PYTHONHASHSEED=0``, each case warmed twice and then run N
times in its own ``functools.reduce``).

Run: ``python bench/bench_stream_instructions.py [--python PY] [-k WORDS] [N]`` (default N 10)
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ANSWERS = (
    ("openai-chat", "parallel-tool-calls-turn2", "text answer"),
    ("openai-chat", "parallel-tool-calls-turn1", "two calls"),
    ("anthropic-messages", "text-basic", "text answer"),
    ("anthropic-messages", "parallel-tool-use-turn1", "two calls"),
)


def _sdk(wire: str) -> Any:
    if wire == "openai-chat":
        from openai.types.chat import ChatCompletion

        return ChatCompletion
    from anthropic.types import Message

    return Message


def _parts(il: Any, wire: str, raw: bytes) -> dict[str, Any]:
    codec = il.get_codec(wire)
    events = list(il.parse_sse([raw]))
    ir = list(codec.decode_stream(events))
    return {
        f"part: {wire} ~5, parse_sse": lambda: list(il.parse_sse([raw])),
        f"part: {wire} ~5, decode_stream of its events": lambda: list(codec.decode_stream(events)),
        f"part: {wire}, decode_stream of none (set-up)": lambda: list(codec.decode_stream([])),
        f"part: {wire} ~5, accumulate of its IR events": lambda: il.accumulate(ir),
    }


def cases() -> dict[str, Any]:
    """Each case's step, in the order they run; a stream's name ends in its event count."""
    import interlingua as il
    from interlingua.testing import load_body, load_script, real_fixtures_dir

    short = load_script(HERE / "bench_short_streams.py")
    steps: dict[str, Any] = {}
    for wire in short.WIRES:
        for target in short.TARGETS:
            raw = short.synthetic(wire, target)
            events = len(short.data_lines(wire, raw))
            steps[f"stream {wire} ~{target}: {events}"] = short.decode(wire, [raw])
        if wire != short.FRAMED:  # where the ~5 stream's instructions go
            steps.update(_parts(il, wire, short.synthetic(wire, 5)))
    steps["part: parse_sse of an empty stream"] = lambda: list(il.parse_sse([b""]))
    for wire, stem, label in ANSWERS:
        answer = load_body(real_fixtures_dir() / wire / "response" / f"{stem}.json")
        steps[f"{wire} {label}, decode_response"] = functools.partial(il.get_codec(wire).decode_response, answer)
        steps[f"{wire} {label}, SDK model_validate"] = functools.partial(_sdk(wire).model_validate, answer)
    return steps


def main() -> None:
    harness = __import__("interlingua.testing", fromlist=["load_script"]).load_script(HERE / "bench_instructions.py")
    args = sys.argv[1:]
    if "--inside" in args:
        harness.cases = cases  # its runner, these cases
        harness.run(int(args[args.index("--inside") + 1]), args[args.index("-k") + 1] if "-k" in args else None)
        return
    python = args[args.index("--python") + 1] if "--python" in args else sys.executable
    only = args[args.index("-k") + 1] if "-k" in args else None
    named = ("--python", "-k")
    rest = [a for i, a in enumerate(args) if a not in named and (i == 0 or args[i - 1] not in named)]
    n = int(rest[0]) if rest else 10
    harness.__file__ = __file__  # valgrind runs this file
    found = dict(harness.measure(python, n, only))
    print(f"instructions per call ({n} calls a case, PYTHONHASHSEED=0)")
    for name, count in found.items():
        if name.startswith("stream "):
            events = int(name.rsplit(": ", 1)[1])
            print(f"  {name:48s} {count / 1e3:8.1f} k  {count / events / 1e3:6.1f} k/event")
        elif name.startswith("part: "):
            print(f"  {name:48s} {count / 1e3:8.1f} k")
        elif name.endswith("decode_response"):
            sdk = found[name.replace("decode_response", "SDK model_validate")]
            print(f"  {name:48s} {count / 1e3:8.1f} k  {count / sdk:5.2f}x the SDK ({sdk / 1e3:.1f} k)")
    streams = [(name.split(" ~")[0], int(name.rsplit(": ", 1)[1]), count) for name, count in found.items()
               if name.startswith("stream ") and " ~2:" not in name]
    for wire in dict.fromkeys(w for w, _, _ in streams):
        (n5, c5), (n20, c20) = [(e, c) for w, e, c in streams if w == wire][:2]
        slope = (c20 - c5) / (n20 - n5)
        print(f"  {wire:40s} fixed {(c5 - slope * n5) / 1e3:6.1f} k, {slope / 1e3:5.1f} k an event")


if __name__ == "__main__":
    main()
