"""Plain-text output: aligned tables, the warnings table, a progress line, error messages.

Everything here writes text a terminal and a log file both read well; no colour, no curses, so
the CLI adds no dependency. Bodies go to stdout, everything else to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Never, TextIO

from .. import AnyWarning, ForeignOption, LossyEncode, UnsupportedSetting

if TYPE_CHECKING:
    from tqdm import tqdm


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
    """A progress line on stderr, only on a terminal (a log file or a pipe gets the summary alone):
    lines, failures and rate, and, when the input's size is known, percent and time left by bytes
    read. Drawn by tqdm, imported only when a terminal will see it."""

    def __init__(self, total_bytes: int | None = None, stream: TextIO | None = None, *, every: float = 0.2) -> None:
        self.stream = stream or sys.stderr
        self._bar: tqdm[Never] | None = None
        if self.stream.isatty():
            from tqdm import tqdm

            self._bar = tqdm(
                total=total_bytes, unit="B", unit_scale=True, file=self.stream, mininterval=every, leave=False
            )

    def update(self, done_bytes: int, lines: int, failed: int) -> None:
        """``done_bytes``: the input consumed by the lines converted so far."""
        if self._bar is None:
            return
        self._bar.set_postfix_str(f"{lines:,} lines, {failed:,} failed", refresh=False)
        self._bar.update(done_bytes - self._bar.n)

    def clear(self) -> None:
        """Erase the line before other text is written under it (it comes back on the next update)."""
        if self._bar is not None:
            self._bar.clear()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
