"""Core costs, as ratios against baselines timed in the same run (not a test; just prints).

- cold ``import interlingua`` against cold ``import pydantic`` (separate processes, medians);
  PERF.md target: at most +40 ms over pydantic, all installed codecs loaded too.
- accumulating 10k vs 100k text deltas: the ratio shows accumulation is linear (target <= 12x).

Run: ``python bench/bench_core.py``
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import interlingua as il

RUNS = 9


# Users import from compiled bytecode; an environment with PYTHONDONTWRITEBYTECODE set (as some
# CI images and sandboxes have) would otherwise time the compiling of every module, every run.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cold_import(statement: str) -> float:
    """Median wall time of a fresh interpreter running ``statement``, minus an empty interpreter;
    one untimed run first writes the bytecode caches, as any install does."""

    def once(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=_ENV)
        return time.perf_counter() - start

    once(statement)
    empty = statistics.median(once("pass") for _ in range(RUNS))
    return statistics.median(once(statement) for _ in range(RUNS)) - empty


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


def main() -> None:
    pydantic_ms = cold_import("import pydantic") * 1000
    floor_ms = cold_import("from pydantic import BaseModel, Field, TypeAdapter") * 1000
    core_ms = cold_import("import interlingua") * 1000
    load_all = "import interlingua as il; [il.get_codec(n) for n in il.codecs()]"
    try:
        all_ms = cold_import(load_all) * 1000
    except subprocess.CalledProcessError:
        all_ms = float("nan")
    print(f"cold import pydantic:                    {pydantic_ms:7.1f} ms")
    print(
        f"floor, pydantic's BaseModel machinery:   {floor_ms:7.1f} ms  (+{floor_ms - pydantic_ms:.1f} ms: what any"
        " pydantic-model library pays)"
    )
    print(
        f"cold import interlingua:                 {core_ms:7.1f} ms  (+{core_ms - pydantic_ms:.1f} ms over pydantic;"
        " target < +50, PERF.md +40)"
    )
    print(f"cold import interlingua + every codec:   {all_ms:7.1f} ms  (+{all_ms - pydantic_ms:.1f} ms over pydantic)")
    small, large = time_accumulate(10_000), time_accumulate(100_000)
    print(f"accumulate 10k deltas:  {small * 1e3:7.2f} ms  ({small / 10_000 * 1e6:.2f} us/event)")
    print(f"accumulate 100k deltas: {large * 1e3:7.2f} ms  ({large / 100_000 * 1e6:.2f} us/event)")
    print(f"ratio 100k/10k: {large / small:.2f}x  (linear is 10x; target <= 12x)")


if __name__ == "__main__":
    main()
