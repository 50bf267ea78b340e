"""The CLI's ``--engine`` runs: chunks of numbered lines out to an engine, rows back in input order.

At most ``window`` chunks are in flight, so the driver's memory does not grow with the input,
and rows come back in order, so the CLI writes its output and report exactly as with ``--jobs``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

Rows = list[dict[str, Any]]
Chunk = list[tuple[int, bytes]]

CHUNK_LINES = 256


def chunks(lines: Iterable[tuple[int, bytes]], size: int = CHUNK_LINES) -> Iterator[Chunk]:
    chunk: Chunk = []
    for item in lines:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def ordered(parts: Iterable[Chunk], submit: Callable[[Chunk], Callable[[], Rows]], window: int) -> Iterator[Rows]:
    """Each chunk's rows, in order; ``submit`` starts a chunk and returns how to wait for it."""
    pending: deque[Callable[[], Rows]] = deque()
    for part in parts:
        pending.append(submit(part))
        if len(pending) >= window:
            yield pending.popleft()()
    while pending:
        yield pending.popleft()()
