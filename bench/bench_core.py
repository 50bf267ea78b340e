"""Core costs, as ratios against baselines timed in the same run (not a test; just prints).

- cold ``import interlingua`` against cold ``import pydantic`` (separate processes, medians of
  interleaved rounds); PERF.md target: at most +40 ms over pydantic, all installed codecs loaded
  too. ``import pydantic`` loads no model machinery, so the floor line shows what importing
  ``BaseModel`` alone adds, and the in-process line shows interlingua's own share above it.
- accumulating 10k vs 100k text deltas: the ratio shows accumulation is linear (target <= 12x).
- ``construct`` (what decoders build IR with) against pydantic's ``model_construct`` and
  ``model_validate`` of the same values, per instance, for the classes decoders build most.
- ``parse_sse`` set-up per stream (a one-event stream), against ``json.loads`` of its data line.

Run: ``python bench/bench_core.py``
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from _timing import interleaved_us
from pydantic import BaseModel

import interlingua as il
from interlingua.kit import construct, maker

RUNS = 9


# Users import from compiled bytecode; an environment with PYTHONDONTWRITEBYTECODE set (as some
# CI images and sandboxes have) would otherwise time the compiling of every module, every run.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cold_imports(statements: dict[str, str]) -> dict[str, float]:
    """Median wall time (ms) of a fresh interpreter running each statement, minus an empty one.
    One untimed run first writes the bytecode caches, as any install does; then each round runs
    every statement once, so a burst of load from another process hits them all alike."""

    def once(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=_ENV)
        return (time.perf_counter() - start) * 1e3

    runs: dict[str, list[float]] = {label: [] for label in ["empty", *statements]}
    for code in statements.values():
        once(code)
    for _ in range(RUNS):
        runs["empty"].append(once("pass"))
        for label, code in statements.items():
            runs[label].append(once(code))
    empty = statistics.median(runs.pop("empty"))
    return {label: statistics.median(times) - empty for label, times in runs.items()}


_IN_PROCESS = """
import time
from pydantic import BaseModel, Field, TypeAdapter
start = time.perf_counter()
{}
print((time.perf_counter() - start) * 1e3)
"""


def imports_after_floor(statements: dict[str, str]) -> dict[str, float]:
    """Median time (ms) of each statement inside a fresh interpreter that has already imported
    pydantic's BaseModel machinery: interlingua's own share, without start-up and tear-down."""

    def once(code: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", _IN_PROCESS.format(code)], check=True, env=_ENV, capture_output=True
        )
        return float(out.stdout)

    runs: dict[str, list[float]] = {label: [] for label in statements}
    for _ in range(RUNS):
        for label, code in statements.items():
            runs[label].append(once(code))
    return {label: statistics.median(times) for label, times in runs.items()}


def deltas(n: int) -> list[il.StreamEvent]:
    return [
        il.MessageStart(id="m"),
        il.PartStart(0, il.Text("")),
        *(il.TextDelta(0, "tok ") for _ in range(n)),
        il.PartEnd(0),
        il.MessageEnd("end_turn"),
    ]


def time_accumulate(n: int) -> float:
    events = deltas(n)
    best = []
    for _ in range(5):
        start = time.perf_counter()
        il.accumulate(events)
        best.append(time.perf_counter() - start)
    return statistics.median(best)


def interleaved_ns(fns: dict[str, Callable[[], Any]], rounds: int = 15, number: int = 5000) -> dict[str, list[float]]:
    """``interleaved_us`` in nanoseconds: the per-instance costs here are below a microsecond."""
    return {name: [us * 1e3 for us in runs] for name, runs in interleaved_us(fns, rounds, number).items()}


CONSTRUCTED: dict[str, tuple[type[BaseModel], dict[str, Any]]] = {
    "Text": (il.Text, {"text": "Here is what I found."}),
    "ToolUse": (il.ToolUse, {"id": "call_1", "name": "lookup", "input": {"q": "x"}}),
    "ProviderEcho": (il.ProviderEcho, {"provider": "acme", "data": {"signature": "c2ln"}, "model": "m"}),
    "Message": (il.Message, {"role": "assistant", "parts": []}),
}


def time_construct() -> None:
    print("construct per instance (ns; x = construct over the baseline, medians of per-round ratios):")
    for label, (cls, values) in CONSTRUCTED.items():
        cls.model_validate(values)  # build the validator outside the timing
        runs = interleaved_ns(
            {
                "construct": partial(construct, cls, **values),
                "maker": partial(maker(cls, *values), **values),
                "model_construct": partial(cls.model_construct, **values),
                "model_validate": partial(cls.model_validate, values),
            },
            rounds=9,
            number=2000,
        )
        ours = runs["construct"]
        ratios = {
            name: statistics.median(o / b for o, b in zip(ours, base, strict=True))
            for name, base in runs.items()
            if name != "construct"
        }
        print(
            f"  {label:<13} construct {statistics.median(ours):6.0f}"
            f"  maker {statistics.median(runs['maker']):6.0f} ({ratios['maker']:.2f}x)"
            f"  model_construct {statistics.median(runs['model_construct']):6.0f} ({ratios['model_construct']:.2f}x)"
            f"  model_validate {statistics.median(runs['model_validate']):6.0f} ({ratios['model_validate']:.2f}x)"
        )


def time_sse_setup() -> None:
    line = '{"type":"ping"}'
    chunks = [f"data: {line}\n\n".encode()]
    runs = interleaved_ns(
        {"parse_sse": lambda: list(il.parse_sse(chunks)), "json.loads": lambda: json.loads(line)}, number=500
    )
    ours, floor = statistics.median(runs["parse_sse"]), statistics.median(runs["json.loads"])
    print(f"parse_sse of a one-event stream: {ours / 1e3:6.1f} us  (json.loads of its data: {floor / 1e3:.1f} us)")


def main() -> None:
    load_all = "import interlingua as il; [il.get_codec(n) for n in il.codecs()]"
    cold = cold_imports(
        {
            "pydantic": "import pydantic",
            "floor": "from pydantic import BaseModel, Field, TypeAdapter",
            "core": "import interlingua",
            "all": load_all,
        }
    )
    pydantic_ms, floor_ms, core_ms, all_ms = cold["pydantic"], cold["floor"], cold["core"], cold["all"]
    print(f"cold import pydantic:                    {pydantic_ms:7.1f} ms")
    print(
        f"floor, pydantic's BaseModel machinery:   {floor_ms:7.1f} ms  (+{floor_ms - pydantic_ms:.1f} ms: what any"
        " pydantic-model library pays)"
    )
    print(
        f"cold import interlingua:                 {core_ms:7.1f} ms  (+{core_ms - pydantic_ms:.1f} ms over pydantic;"
        f" +{core_ms - floor_ms:.1f} over the floor; target < +50, PERF.md +40)"
    )
    print(
        f"cold import interlingua + every codec:   {all_ms:7.1f} ms  (+{all_ms - pydantic_ms:.1f} ms over pydantic;"
        f" +{all_ms - floor_ms:.1f} over the floor)"
    )
    inside = imports_after_floor(
        {"core": "import interlingua", "all": load_all, "codecs()": "import interlingua as il; il.codecs()"}
    )
    print(
        f"inside a process that has the floor: import interlingua {inside['core']:.1f} ms;"
        f" + every codec {inside['all']:.1f} ms (finding them, il.codecs(), {inside['codecs()'] - inside['core']:.1f})"
    )
    small, large = time_accumulate(10_000), time_accumulate(100_000)
    print(f"accumulate 10k deltas:  {small * 1e3:7.2f} ms  ({small / 10_000 * 1e6:.2f} us/event)")
    print(f"accumulate 100k deltas: {large * 1e3:7.2f} ms  ({large / 100_000 * 1e6:.2f} us/event)")
    print(f"ratio 100k/10k: {large / small:.2f}x  (linear is 10x; target <= 12x)")
    time_construct()
    time_sse_setup()


if __name__ == "__main__":
    main()
