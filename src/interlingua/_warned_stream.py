"""Streams that carry their warnings: what ``encode_stream`` and ``decode_stream`` return.

A stream's losses are found event by event, so the warnings cannot come back beside a finished
body as ``Encoded`` does. The stream is instead an iterator with a ``warnings`` list that grows as
it goes and is complete when iteration ends. Callers that only iterate keep working unchanged, and
nothing is paid per event for the channel: iterating runs the codec's own generator directly
(``__iter__`` hands it out), the list is the codec's ``WarningSink`` list itself, and only
``strict=True`` adds a check per wire event.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from ._sse import SSEEvent
from ._stream import StreamEvent
from ._warnings import AnyWarning, LossyEncodeError, WarningSink

T = TypeVar("T")


class _WarnedStream(Generic[T]):
    __slots__ = ("_items", "codec", "warnings")

    def __init__(self, items: Iterator[T], out: WarningSink) -> None:
        self._items = items
        self.codec = out.codec
        self.warnings: list[AnyWarning] = out.warnings
        """Every warning so far, in order; complete once iteration has ended."""

    def __iter__(self) -> Iterator[T]:
        return self._items

    def __next__(self) -> T:
        return next(self._items)

    def close(self) -> None:
        """Stops the codec's generator (and, through it, the events it reads)."""
        close = getattr(self._items, "close", None)
        if close is not None:
            close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(codec={self.codec!r}, warnings={len(self.warnings)})"


class EncodedStream(_WarnedStream[SSEEvent]):
    """What ``encode_stream`` returns: the wire's SSE events, and ``warnings`` whose paths name
    the IR event that lost something (``events[12].part``, ``events[40].usage.extra.foo``).

    With ``strict=True`` the first warning raises ``LossyEncodeError`` during iteration, at the
    event that loses something: every wire event made from the IR events before it has been
    yielded, none after.
    """

    __slots__ = ()

    def __init__(self, items: Iterator[SSEEvent], out: WarningSink, *, strict: bool = False) -> None:
        super().__init__(_strict(items, out) if strict else items, out)


class DecodedStream(_WarnedStream[StreamEvent]):
    """What ``decode_stream`` returns: the IR events, and ``warnings`` (``LossyDecode``) whose
    paths name the wire event the IR keeps only in part (``events[3].choices[1]``)."""

    __slots__ = ()


def _strict(items: Iterator[SSEEvent], out: WarningSink) -> Iterator[SSEEvent]:
    """``items``, raising at the first warning: an item made after it is held back."""
    warnings = out.warnings
    for item in items:
        if warnings:
            raise LossyEncodeError(out.codec, list(warnings))
        yield item
    if warnings:
        raise LossyEncodeError(out.codec, list(warnings))
