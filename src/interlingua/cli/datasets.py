"""``interlingua convert`` on JSONL datasets: line by line, in constant memory, optionally in
worker processes, with a summary at the end.

Lines are read one at a time and written as soon as they (and every line before them) are
done, so memory does not grow with the file. With ``--jobs N`` lines travel to the workers in
chunks (a few hundred lines or a few MB, whichever comes first), at most ``4 * N`` chunks in
flight, and come back in input order. A line that cannot be converted is reported with its line
number and skipped (``--fail-fast`` stops instead); it is never dropped silently, and the exit
code says so. Blank lines are not data: they are counted in the summary and skipped.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import stat
import sys
import time
from collections import Counter, deque
from collections.abc import Generator, Iterable, Iterator
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from typing import IO, Any

from pydantic_core import to_json

from .. import InterlinguaError
from .._wire import loads
from .conversion import ConversionError, Converter
from .detect import DetectError
from .exits import FAILED, INTERRUPTED, LOSSY, OK, CliError
from .output import atomic_output
from .render import Progress, say, table, warning_label

CHUNK_LINES = 256
CHUNK_BYTES = 4 << 20
SHOWN_FAILURES = 20


@dataclass(frozen=True, slots=True)
class LineResult:
    """What became of one line: the output line (None when it failed), its warning labels, and
    the error that stopped it. ``details`` holds the full warnings only when a report is kept."""

    number: int
    output: bytes | None
    source: str = ""
    labels: tuple[str, ...] = ()
    error: str | None = None
    lossy: bool = False
    details: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class LineJob:
    """The per-line work, a picklable value: each worker process gets one copy."""

    converter: Converter
    strict: bool = False
    kind: str | None = None
    details: bool = False

    def __call__(self, number: int, raw: bytes) -> LineResult:
        try:
            body = loads(raw)
        except ValueError as err:
            return LineResult(number, None, error=f"not JSON ({_one_line(err)})")
        try:
            converted = self.converter.convert(body, self.kind)  # type: ignore[arg-type]  # argparse choices are the Kind literals
        except (InterlinguaError, ConversionError, DetectError, ValueError) as err:
            return LineResult(number, None, error=_one_line(err))
        except Exception as err:  # a codec bug must not end a million-line run; it is reported per line
            return LineResult(number, None, error=f"internal error {type(err).__name__}: {_one_line(err)}")
        source = (
            f"{converted.envelope} batch line"
            if converted.envelope
            else f"{converted.detected.wire} {converted.detected.kind}"
        )
        labels = tuple(sorted({warning_label(w) for w in converted.warnings}))
        details = tuple(w.to_json_dict() for w in converted.warnings) if self.details else ()
        if self.strict and converted.warnings:
            return LineResult(number, None, source, labels, f"lossy under --strict: {', '.join(labels)}", True, details)
        return LineResult(number, to_json(converted.output), source, labels, details=details)

    def chunk(self, lines: list[tuple[int, bytes]]) -> list[LineResult]:
        return [self(number, raw) for number, raw in lines]


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__


# -- reading and running ------------------------------------------------------------------------


def numbered_lines(
    source: IO[bytes], blank: Counter[str], ends: deque[tuple[int, int]] | None = None
) -> Iterator[tuple[int, bytes]]:
    """Non-blank lines with their 1-based numbers; blank ones are counted in ``blank``. ``ends``
    gets (number, bytes read through that line) for each line handed out, for the progress line."""
    read = 0
    for number, raw in enumerate(source, 1):
        read += len(raw)
        if raw.strip():
            if ends is not None:
                ends.append((number, read))
            yield number, raw
        else:
            blank["blank"] += 1


def _chunks(lines: Iterable[tuple[int, bytes]]) -> Iterator[list[tuple[int, bytes]]]:
    chunk: list[tuple[int, bytes]] = []
    size = 0
    for item in lines:
        chunk.append(item)
        size += len(item[1])
        if len(chunk) >= CHUNK_LINES or size >= CHUNK_BYTES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


_JOB: LineJob | None = None


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _init_worker(job: LineJob) -> None:
    # Ctrl-C reaches the whole process group: the parent alone decides what an interrupt ends (it
    # terminates the workers); a worker taking SIGTERM dies at once, as terminate() expects. The
    # worker was forked with both signals blocked (see results): its handlers are set first.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    global _JOB
    _JOB = job


def _run_chunk(lines: list[tuple[int, bytes]]) -> list[LineResult]:
    assert _JOB is not None, "worker started without its job"
    return _JOB.chunk(lines)


def results(job: LineJob, lines: Iterable[tuple[int, bytes]], jobs: int) -> Generator[LineResult, None, None]:
    """Every line's result, in input order; ``jobs > 1`` converts chunks in worker processes.

    The workers are a ``multiprocessing`` pool, ended by ``terminate()`` however the loop ends (the
    last chunk, ``--fail-fast``, an interrupt): nothing waits on a worker at exit, which is how
    ``concurrent.futures``' exit handler could hang an interrupted run for minutes."""
    if jobs <= 1:
        for number, raw in lines:
            yield job(number, raw)
        return
    # An interrupt may not land while the pool is being made (its workers would be left running,
    # with the output's pipes) nor while it is being ended: SIGINT and SIGTERM wait, blocked, and
    # arrive as soon as the pool is whole or gone.
    with _signals_held():
        pool = multiprocessing.Pool(jobs, initializer=_init_worker, initargs=(job,))
    try:
        pending: deque[AsyncResult[list[LineResult]]] = deque()
        for chunk in _chunks(lines):
            pending.append(pool.apply_async(_run_chunk, (chunk,)))
            if len(pending) >= 4 * jobs:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()
    finally:
        with _signals_held():
            pool.terminate()
            pool.join()


@contextmanager
def _signals_held() -> Iterator[None]:
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


# -- the command --------------------------------------------------------------------------------


@dataclass
class Summary:
    converted: int = 0
    failed: int = 0
    lossy_rejected: int = 0
    with_warnings: int = 0
    stopped_at: int | None = None

    def __post_init__(self) -> None:
        self.labels: Counter[str] = Counter()
        self.sources: Counter[str] = Counter()
        self.blank: Counter[str] = Counter()
        self.failed_lines: list[int] = []


def run(args: argparse.Namespace, converter: Converter) -> int:
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    job = LineJob(converter, strict=args.strict, kind=args.kind, details=args.report is not None)
    summary = Summary()
    started = time.monotonic()
    with ExitStack() as files:
        source = files.enter_context(_open_in(args.input))
        out = files.enter_context(atomic_output(args.output))
        report = files.enter_context(atomic_output(args.report)) if args.report else None
        progress = Progress(_size(args.input))
        files.callback(progress.close)
        ends: deque[tuple[int, int]] = deque()
        done_bytes = 0
        converted = files.enter_context(closing(results(job, numbered_lines(source, summary.blank, ends), jobs)))
        try:
            for result in converted:
                _record(summary, result, out, report, progress)
                while ends and ends[0][0] <= result.number:
                    done_bytes = ends.popleft()[1]
                progress.update(done_bytes, summary.converted + summary.failed, summary.failed)
                if result.output is None and args.fail_fast:
                    summary.stopped_at = result.number
                    break
        except KeyboardInterrupt:
            progress.clear()
            kept = "" if args.output in (None, "-") else f"; {args.output} was left as it was"
            done = summary.converted + summary.failed
            raise CliError(f"interrupted after {done:,} lines{kept}", INTERRUPTED) from None
        progress.clear()
        if summary.converted + summary.failed == 0 and summary.stopped_at is None:  # nothing written either
            shown = "stdin" if args.input == "-" else args.input
            blank = f" ({summary.blank['blank']:,} blank)" if summary.blank else ""
            raise CliError(f"{shown} holds no lines{blank}: nothing to convert, nothing written", FAILED)
    say(_summary_text(summary, converter, time.monotonic() - started))
    if summary.failed > summary.lossy_rejected:
        return FAILED
    return LOSSY if summary.lossy_rejected else OK


def _record(summary: Summary, result: LineResult, out: IO[bytes], report: IO[bytes] | None, progress: Progress) -> None:
    if result.source:
        summary.sources[result.source] += 1
    summary.labels.update(result.labels)
    summary.with_warnings += bool(result.labels)
    if result.output is not None:
        out.write(result.output + b"\n")
        summary.converted += 1
    else:
        summary.failed += 1
        summary.lossy_rejected += result.lossy
        summary.failed_lines.append(result.number)
        if summary.failed <= SHOWN_FAILURES:
            progress.clear()
            say(f"line {result.number}: {result.error}")
        elif summary.failed == SHOWN_FAILURES + 1:
            say("(further failures are counted in the summary only)")
    if report is not None and (result.error or result.details):
        entry = {"line": result.number, "error": result.error, "warnings": list(result.details)}
        report.write(to_json({k: v for k, v in entry.items() if v}) + b"\n")


def _summary_text(summary: Summary, converter: Converter, seconds: float) -> str:
    total = summary.converted + summary.failed
    rate = total / seconds if seconds > 0 else 0.0
    done = f"converted {summary.converted:,} of {total:,} lines to {converter.target}"
    lines = [f"{done} in {seconds:.2f} s ({rate:,.0f} lines/s)"]
    if summary.sources:
        lines.append("read: " + ", ".join(f"{n:,} {what}" for what, n in summary.sources.most_common()))
    if summary.blank:
        lines.append(f"blank lines skipped: {summary.blank['blank']:,}")
    if summary.labels:
        lines.append(f"lines with warnings: {summary.with_warnings:,}, by kind:")
        rows = [[label, f"{n:,}"] for label, n in summary.labels.most_common()]
        lines.append(_indent(table(["warning", "lines"], rows)))
    if summary.failed:
        shown = ", ".join(str(n) for n in summary.failed_lines[:50])
        more = f" (+{len(summary.failed_lines) - 50:,} more)" if len(summary.failed_lines) > 50 else ""
        rejected = f", {summary.lossy_rejected:,} of them lossy under --strict" if summary.lossy_rejected else ""
        lines.append(f"failed: {summary.failed:,} lines{rejected}: {shown}{more}")
    if summary.stopped_at is not None:
        lines.append(f"stopped at line {summary.stopped_at} (--fail-fast)")
    return "\n".join(lines)


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _size(name: str) -> int | None:
    """The input's size when it is a regular file (stdin and pipes have none)."""
    if name == "-":
        return None
    try:
        info = os.stat(name)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _open_in(name: str) -> IO[bytes]:
    if name == "-":
        return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    try:
        return open(name, "rb")
    except OSError as err:
        raise CliError(f"cannot read {name}: {err.strerror or err}") from None
