"""The CLI's ``--engine`` runs: chunks of numbered lines out to an engine, rows back in input order.

At most ``window`` chunks are in flight, so the driver's memory does not grow with the input,
and rows come back in order, so the CLI writes its output and report exactly as with ``--jobs``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..cli.datasets import Chunk, chunks

__all__ = ["Chunk", "Rows", "chunks", "ordered"]

Rows = list[dict[str, Any]]


def ordered(parts: Iterable[Chunk], submit: Callable[[Chunk], Callable[[], Rows]], window: int) -> Iterator[Rows]:
    """Each chunk's rows, in order; ``submit`` starts a chunk and returns how to wait for it."""
    pending: deque[Callable[[], Rows]] = deque()
    for part in parts:
        pending.append(submit(part))
        if len(pending) >= window:
            yield pending.popleft()()
    while pending:
        yield pending.popleft()()
