"""SIGTERM as Ctrl-C, so a `kill` ends a command the way Ctrl-C does: its cleanup runs (no
temporary file is left behind), and it says how far it got. A second signal while that cleanup
runs is ignored, so the cleanup cannot itself be cut short halfway."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(KeyboardInterrupt):
    """Raised in the main thread by the first SIGINT or SIGTERM inside :func:`interrupts_as_keyboard`."""


@contextmanager
def interrupts_as_keyboard() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Stopped` (a KeyboardInterrupt) once; later ones are ignored
    until the block is left. Outside the main thread (a test running the CLI in-process) a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {number: signal.getsignal(number) for number in _SIGNALS}

    def stop(number: int, frame: FrameType | None) -> None:
        for each in _SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        raise Stopped(signal.Signals(number).name)

    for number in _SIGNALS:
        signal.signal(number, stop)
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def stopped(err: BaseException) -> bool:
    """Whether ``err`` is, or was raised while handling, the interrupt: a signal that lands inside
    a lock's bookkeeping (``threading.Condition.wait`` under a pool's ``get``) can turn the
    KeyboardInterrupt into ``RuntimeError: release unlocked lock``, with the interrupt as its
    context. Seen once in 23 interrupts under load."""
    seen: set[int] = set()
    found: BaseException | None = err
    while found is not None and id(found) not in seen:
        if isinstance(found, KeyboardInterrupt):
            return True
        seen.add(id(found))
        found = found.__context__
    return False
