"""Timing the benchmark scripts share (not a test). Cases take turns within each round and a
ratio is the median of per-round ratios: load from other processes drifts over seconds, so it
weighs on both sides of a ratio. Alike for CPU load; not for memory-bandwidth contention, which
slows interpreted, allocating code more than a compiled baseline (docs/performance.md: the
same build measured 8.6x alone and 11x beside a process copying large buffers)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

Case = Callable[[], Any] | tuple[Callable[[], Any], int]
"""A function, or a function and its own number of calls per batch."""


def per_call_us(fn: Callable[[], Any], number: int) -> float:
    """Microseconds per call over one batch of ``number`` calls."""
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number * 1e6


def median_us(fn: Callable[[], Any], number: int = 200, repeat: int = 7) -> float:
    """Median microseconds per call over ``repeat`` batches."""
    return statistics.median(per_call_us(fn, number) for _ in range(repeat))


def interleaved_us(cases: Mapping[str, Case], rounds: int = 15, number: int = 20) -> dict[str, list[float]]:
    """Microseconds per call of each case, one batch of each per round."""
    runs: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, case in cases.items():
            fn, calls = case if isinstance(case, tuple) else (case, number)
            runs[name].append(per_call_us(fn, calls))
    return runs


def ratio(runs: Mapping[str, list[float]], name: str, base: str) -> float:
    """The median of the per-round ratios of ``name`` to ``base``."""
    return statistics.median(a / b for a, b in zip(runs[name], runs[base], strict=True))
