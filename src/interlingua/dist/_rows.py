"""One dataset line in, one row out: the columns every engine adapter returns, and back.

A row is what the CLI knows of a line: its number, the converted line (JSON text, or None when
it failed), what it was read as, its warnings (kind, codec, path, message, and the kind's own
fields as JSON in ``detail``), the error that stopped it, and whether ``--strict`` refused it.
No line is dropped: a blank line is a row too (``blank``), so counts add up across partitions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from ..cli.conversion import Converter
from ..cli.datasets import LineJob, LineResult
from ..cli.loss import LossReport

ROW_FIELDS = ("line", "output", "source", "labels", "warnings", "error", "lossy", "blank")
"""The columns, in order: ``line`` (1-based, blank lines counted), ``output`` (str | None),
``source`` (str), ``labels`` (list[str]: the warning kinds as the CLI's summary counts them),
``warnings`` (list of {kind, codec, path, message, detail}), ``error`` (str | None), ``lossy``
(bool: refused under ``strict``), ``blank`` (bool)."""

_HEAD = ("kind", "codec", "path", "message")


@dataclass(frozen=True)
class Conversion:
    """What the CLI's ``convert`` does to each line, as a picklable value for any engine.

    ``target`` is a codec name (``NAME[:DIALECT]``) or ``"transcript"``; ``source`` a codec name
    or None to detect each line; ``model`` sets the request's model; ``strict`` refuses lossy
    lines (their row has ``output=None``, ``lossy=True``). Each worker builds its codecs once."""

    target: str
    source: str | None = None
    model: str | None = None
    reasoning: Literal["drop", "as_text"] | None = None
    strict: bool = False
    kind: Literal["request", "response", "stream"] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "job"}  # workers build their own

    @cached_property
    def job(self) -> LineJob:
        converter = Converter(target=self.target, source=self.source, reasoning=self.reasoning, model=self.model)
        return LineJob(converter, strict=self.strict, kind=self.kind, details=True)

    def row(self, number: int, line: str | bytes) -> dict[str, Any]:
        """The row of one line (``number`` is its 1-based place in the file)."""
        raw = line.encode() if isinstance(line, str) else line
        if not raw.strip():
            return _row(LineResult(number, None), blank=True)
        return _row(self.job(number, raw), blank=False)

    def rows(self, lines: Iterable[tuple[int, str | bytes]]) -> list[dict[str, Any]]:
        """The rows of numbered lines, in the order given."""
        return [self.row(number, line) for number, line in lines]

    def report(self, rows: Iterable[Mapping[str, Any]]) -> LossReport:
        """The loss report of some rows (a partition's, or all): add partitions' reports with ``+``."""
        report = LossReport(target=self.job.converter.target)
        for row in rows:
            if row["blank"]:
                report.blank += 1
            else:
                report.add(result_of(row))
        return report


def _row(result: LineResult, *, blank: bool) -> dict[str, Any]:
    return {
        "line": result.number,
        "output": None if result.output is None else result.output.decode(),
        "source": result.source,
        "labels": list(result.labels),
        "warnings": [_warning_cell(w) for w in result.details],
        "error": result.error,
        "lossy": result.lossy,
        "blank": blank,
    }


def _warning_cell(warning: Mapping[str, Any]) -> dict[str, str]:
    detail = {k: v for k, v in warning.items() if k not in _HEAD}
    return {**{k: str(warning.get(k, "")) for k in _HEAD}, "detail": json.dumps(detail, ensure_ascii=False)}


def warning_of(cell: Mapping[str, Any]) -> dict[str, Any]:
    """A warnings cell back as the warning's JSON (``ModelWarning.to_json_dict``): the CLI's
    ``--report`` line shape."""
    return {**{k: cell[k] for k in _HEAD}, **json.loads(str(cell["detail"]))}


def result_of(row: Mapping[str, Any]) -> LineResult:
    """A row back as the CLI's per-line result (engines hand columns back as arrays or lists)."""
    output = row["output"]
    return LineResult(
        number=int(row["line"]),
        output=None if output is None else str(output).encode(),
        source=str(row["source"]),
        labels=tuple(str(label) for label in row["labels"]),
        error=None if row["error"] is None else str(row["error"]),
        lossy=bool(row["lossy"]),
        details=tuple(warning_of(cell) for cell in row["warnings"]),
    )


def report_line(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The CLI's ``--report`` JSONL entry for a row, or None when the line had nothing to report."""
    warnings = [warning_of(cell) for cell in row["warnings"]]
    if not (row["error"] or warnings):
        return None
    entry = {"line": int(row["line"]), "error": row["error"], "warnings": warnings}
    return {k: v for k, v in entry.items() if v}
