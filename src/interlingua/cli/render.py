"""Plain-text output: aligned tables, the warnings table, a progress line, error messages.

Everything here writes text a terminal and a log file both read well; no colour, no curses, so
the CLI adds no dependency. Bodies go to stdout, everything else to stderr.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import TextIO

from .. import AnyWarning, ForeignOption, LossyEncode, UnsupportedSetting


def table(header: Sequence[str], rows: Sequence[Sequence[str]], *, max_width: int = 60) -> str:
    """Rows under a header, columns padded to their widest cell (cells cut at ``max_width``)."""
    cells = [[_cut(c, max_width) for c in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cut(text: str, width: int) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= width else text[: width - 3] + "..."


def warning_label(warning: AnyWarning) -> str:
    """A warning's kind and subject in one token: ``lossy_encode:audio``, ``unsupported_setting:seed``."""
    match warning:
        case LossyEncode():
            return f"lossy_encode:{warning.part_type}"
        case UnsupportedSetting():
            return f"unsupported_setting:{warning.setting}"
        case ForeignOption():
            return f"foreign_option:{warning.provider}.{warning.key}"
        case _:
            return warning.kind


def warnings_table(warnings: Sequence[AnyWarning]) -> str:
    rows = [[w.codec, warning_label(w), getattr(w, "action", ""), w.path or "<body>", w.message] for w in warnings]
    return table(["codec", "warning", "action", "path", "why"], rows, max_width=70)


def say(message: str, stream: TextIO | None = None) -> None:
    print(message, file=stream or sys.stderr, flush=True)


class Progress:
    """A one-line counter on stderr, redrawn at most five times a second, only on a terminal:
    a log file or a pipe gets the summary alone."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.start = time.monotonic()
        self._drawn = 0.0
        self._shown = False

    def update(self, lines: int, failed: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._drawn < 0.2:
            return
        self._drawn = now
        rate = lines / max(now - self.start, 1e-9)
        self.stream.write(f"\r{lines:,} lines  {rate:,.0f} lines/s  {failed:,} failed ")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the line before other text is written under it."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
