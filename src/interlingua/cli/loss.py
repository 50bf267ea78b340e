"""The loss report of a dataset run: counts, warnings by kind and every warned or failed line.

One value for every way a dataset is converted: the CLI's ``convert`` fills it line by line,
and :mod:`interlingua.dist` builds one per partition on Ray, Dask or Spark and adds them up
(``+``), so a cluster's report equals the single machine's for the same input. It renders as
the CLI's summary (:meth:`LossReport.summary`) and as a static HTML page (:mod:`.loss_html`); the
per-line details stay in the rows (the CLI's ``--report`` JSONL, the engines' columns).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .render import table

if TYPE_CHECKING:
    from .datasets import LineResult

SHOWN_FAILED_LINES = 50
EXAMPLE_LINES = 5
_INDEX = re.compile(r"\[\d+\]")


def field_of(path: str) -> str:
    """A warning's path with its indices folded (``messages[*].parts[*]``): the field it is about."""
    return _INDEX.sub("[*]", path) or "<body>"


@dataclass
class PathStat:
    """Warnings of one kind at one field: how many, the first lines that had one, and the
    message of the first."""

    count: int = 0
    lines: list[int] = field(default_factory=list)
    message: str = ""
    first: int = 0

    def add(self, line: int, message: str) -> None:
        self.count += 1
        if not self.lines or line < self.first:
            self.first, self.message = line, message
        if line not in self.lines:
            self.lines = sorted([*self.lines, line])[:EXAMPLE_LINES]

    def __add__(self, other: PathStat) -> PathStat:
        if not other.count:
            return self
        if not self.count:
            return other
        first = self if self.first <= other.first else other
        lines = sorted(set(self.lines) | set(other.lines))[:EXAMPLE_LINES]
        return PathStat(self.count + other.count, lines, first.message, first.first)


@dataclass
class LossReport:
    """What a run did to its lines, in memory that does not grow with them: counts, warnings
    by kind (``labels``: lines per kind, as the summary shows) and by kind and field (``paths``),
    and the first failed lines with their errors."""

    target: str = ""
    converted: int = 0
    failed: int = 0
    lossy_rejected: int = 0
    with_warnings: int = 0
    blank: int = 0
    sources: Counter[str] = field(default_factory=Counter)
    labels: Counter[str] = field(default_factory=Counter)
    paths: dict[tuple[str, str], PathStat] = field(default_factory=dict)
    failures: list[tuple[int, str]] = field(default_factory=list)
    first_seen: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Where each source and label was first met (line, place in the line): ties in the summary
    are listed in that order, however the lines were split across workers."""

    def add(self, result: LineResult) -> None:
        """Count one line's result; the order lines arrive in does not matter."""
        if result.source:
            self.sources[result.source] += 1
            self.first_seen.setdefault(f"source:{result.source}", (result.number, 0))
        self.labels.update(result.labels)
        for place, label in enumerate(result.labels, 1):
            self.first_seen.setdefault(f"label:{label}", (result.number, place))
        self.with_warnings += bool(result.labels)
        if result.output is not None:
            self.converted += 1
        else:
            self.failed += 1
            self.lossy_rejected += result.lossy
            self.failures = _first_failures([*self.failures, (result.number, result.error or "")])
        for warning in result.details:
            key = (str(warning.get("kind", "")), field_of(str(warning.get("path", ""))))
            self.paths.setdefault(key, PathStat()).add(result.number, str(warning.get("message", "")))

    def __add__(self, other: LossReport) -> LossReport:
        """Two partitions' reports as one."""
        if self.target and other.target and self.target != other.target:
            raise ValueError(f"cannot add reports of two targets: {self.target!r} and {other.target!r}")
        paths = dict(self.paths)
        for key, stat in other.paths.items():
            paths[key] = paths.get(key, PathStat()) + stat
        return LossReport(
            target=self.target or other.target,
            converted=self.converted + other.converted,
            failed=self.failed + other.failed,
            lossy_rejected=self.lossy_rejected + other.lossy_rejected,
            with_warnings=self.with_warnings + other.with_warnings,
            blank=self.blank + other.blank,
            sources=self.sources + other.sources,
            labels=self.labels + other.labels,
            paths=paths,
            failures=_first_failures(self.failures + other.failures),
            first_seen={
                key: min(seen for seen in (self.first_seen.get(key), other.first_seen.get(key)) if seen is not None)
                for key in self.first_seen.keys() | other.first_seen.keys()
            },
        )

    @property
    def total(self) -> int:
        """Lines of data read (blank lines are not data)."""
        return self.converted + self.failed

    def summary(self) -> list[str]:
        """The CLI's summary after its first line (which adds the time taken)."""
        lines = []
        if self.sources:
            lines.append("read: " + ", ".join(f"{n:,} {what}" for what, n in self._ranked(self.sources, "source")))
        if self.blank:
            lines.append(f"blank lines skipped: {self.blank:,}")
        if self.labels:
            lines.append(f"lines with warnings: {self.with_warnings:,}, by kind:")
            rows = [[label, f"{n:,}"] for label, n in self._ranked(self.labels, "label")]
            lines.append("\n".join("  " + line for line in table(["warning", "lines"], rows).splitlines()))
        if self.failed:
            shown = ", ".join(str(n) for n, _ in self.failures)
            left = self.failed - len(self.failures)
            more = f" (+{left:,} more)" if left > 0 else ""
            rejected = f", {self.lossy_rejected:,} of them lossy under --strict" if self.lossy_rejected else ""
            lines.append(f"failed: {self.failed:,} lines{rejected}: {shown}{more}")
        return lines

    def to_json_dict(self) -> dict[str, Any]:
        """Plain JSON (the HTML page embeds it), in a fixed order so equal reports dump equal."""
        return {
            "target": self.target,
            "converted": self.converted,
            "failed": self.failed,
            "lossy_rejected": self.lossy_rejected,
            "with_warnings": self.with_warnings,
            "blank": self.blank,
            "sources": dict(self._ranked(self.sources, "source")),
            "labels": dict(self._ranked(self.labels, "label")),
            "paths": [
                {"kind": kind, "field": where, "count": s.count, "lines": s.lines, "message": s.message}
                for (kind, where), s in sorted(self.paths.items(), key=lambda item: (-item[1].count, item[0]))
            ],
            "failures": [{"line": n, "error": error} for n, error in self.failures],
        }

    def _ranked(self, counts: Counter[str], what: str) -> list[tuple[str, int]]:
        """Most first, ties in the order first met (as ``Counter.most_common`` lists one pass)."""
        never = (1 << 62, 0)
        return sorted(counts.items(), key=lambda item: (-item[1], self.first_seen.get(f"{what}:{item[0]}", never)))

    @classmethod
    def from_json_dict(cls, data: Mapping[str, Any]) -> LossReport:
        """The report back from :meth:`to_json_dict` (the HTML page's embedded data)."""
        paths = {
            (str(p["kind"]), str(p["field"])): _path_stat(p)
            for p in data["paths"]
        }
        return cls(
            target=str(data["target"]),
            converted=int(data["converted"]),
            failed=int(data["failed"]),
            lossy_rejected=int(data["lossy_rejected"]),
            with_warnings=int(data["with_warnings"]),
            blank=int(data["blank"]),
            sources=Counter(data["sources"]),
            labels=Counter(data["labels"]),
            first_seen={
                **{f"source:{name}": (0, place) for place, name in enumerate(data["sources"])},
                **{f"label:{name}": (0, place) for place, name in enumerate(data["labels"])},
            },
            paths=paths,
            failures=[(int(f["line"]), str(f["error"])) for f in data["failures"]],
        )


def _path_stat(data: Mapping[str, Any]) -> PathStat:
    lines = [int(n) for n in data["lines"]]
    return PathStat(int(data["count"]), lines, str(data["message"]), lines[0] if lines else 0)


def _first_failures(failures: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return sorted(failures)[:SHOWN_FAILED_LINES]
