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
from multiprocessing.pool import AsyncResult, Pool
from typing import IO, Any

from pydantic_core import to_json

from .. import InterlinguaError
from .._wire import loads
from .conversion import ConversionError, Converter
from .detect import DetectError
from .exits import FAILED, INTERRUPTED, LOSSY, OK, CliError
from .loss import LossReport
from .loss_html import is_html, render_html
from .output import atomic_output
from .render import Progress, say, warning_label
from .signals import stopped

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
        source = converted.label
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


Chunk = list[tuple[int, bytes]]
CHUNK_LINES = 256
CHUNK_BYTES = 4 << 20


def chunks(
    lines: Iterable[tuple[int, bytes]], size: int = CHUNK_LINES, max_bytes: int = CHUNK_BYTES
) -> Iterator[Chunk]:
    """Numbered lines in chunks of at most ``size`` lines, cut early at ``max_bytes`` so a few huge
    lines do not make one chunk (and one worker's memory) huge; ``--jobs`` and the engines share it."""
    chunk: Chunk = []
    total = 0
    for item in lines:
        chunk.append(item)
        total += len(item[1])
        if len(chunk) >= size or total >= max_bytes:
            yield chunk
            chunk, total = [], 0
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
    # arrive as soon as the pool is whole or gone. The same holds for every call into the pool (see
    # _collect). Its threads start with both blocked and keep them so: a signal is the main thread's.
    pool: Pool | None = None
    try:
        with _signals_held():
            pool = multiprocessing.Pool(jobs, initializer=_init_worker, initargs=(job,))
        pending: deque[AsyncResult[list[LineResult]]] = deque()
        for chunk in chunks(lines):
            with _signals_held():  # no interrupt inside the pool's own bookkeeping either
                pending.append(pool.apply_async(_run_chunk, (chunk,)))
            if len(pending) >= 4 * jobs:
                yield from _collect(pending.popleft())
        while pending:
            yield from _collect(pending.popleft())
    finally:
        if pool is not None:
            with _signals_held():
                pool.terminate()
                pool.join()


def _collect(result: AsyncResult[list[LineResult]]) -> list[LineResult]:
    """One chunk's results, waited for with SIGINT and SIGTERM held back.

    An interrupt raised just after ``threading.Event.wait`` has taken its condition's lock, before
    the ``with`` there guards it, leaves that lock held: the pool's result thread blocks on it for
    ever when it sets the result, and ``terminate()`` waits on that thread (a CI run hung once after
    a Ctrl-C). Held back, the signal is seen pending and raised as the block ends, where no lock is
    held."""
    with _signals_held():
        while not result.ready() and not signal.sigpending() & _STOPS:
            result.wait(0.05)
        found = result.get() if result.ready() else []
    return found


@contextmanager
def _signals_held() -> Iterator[None]:
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def engine_results(
    args: argparse.Namespace, job: LineJob, lines: Iterable[tuple[int, bytes]]
) -> Generator[LineResult, None, None]:
    """Every line's result, in input order, converted on Dask, Ray or Spark (``--engine``)."""
    from importlib import import_module

    from ..dist import Conversion, result_of

    converter = job.converter
    conversion = Conversion(
        target=converter.target,
        source=converter.source,
        model=converter.model,
        reasoning=converter.reasoning,
        strict=job.strict,
        kind=job.kind,  # type: ignore[arg-type]  # argparse choices are the Kind literals
    )
    engine = import_module(f"..dist._{args.engine}", __package__)
    try:
        for row in engine.convert_lines(lines, conversion, address=args.address):
            yield result_of(row)
    except ImportError as err:
        needed = err.name or args.engine
        raise CliError(f"--engine {args.engine} needs {needed}: pip install 'interlingua[{args.engine}]'") from None


# -- the command --------------------------------------------------------------------------------


@dataclass
class Summary:
    """The run's loss report, and where ``--fail-fast`` stopped it."""

    report: LossReport
    stopped_at: int | None = None


def run(args: argparse.Namespace, converter: Converter) -> int:
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    job = LineJob(converter, strict=args.strict, kind=args.kind, details=args.report is not None)
    summary = Summary(LossReport(target=converter.target))
    started = time.monotonic()
    with ExitStack() as files:
        source = files.enter_context(_open_in(args.input))
        out = files.enter_context(atomic_output(args.output))
        report = files.enter_context(atomic_output(args.report)) if args.report else None
        html, report = (report, None) if is_html(args.report) else (None, report)
        progress = Progress(_size(args.input))
        files.callback(progress.close)
        ends: deque[tuple[int, int]] = deque()
        blank: Counter[str] = Counter()
        done_bytes = 0
        lines = numbered_lines(source, blank, ends)
        found = engine_results(args, job, lines) if args.engine else results(job, lines, jobs)
        converted = files.enter_context(closing(found))
        try:
            for result in converted:
                _record(summary.report, result, out, report, progress)
                while ends and ends[0][0] <= result.number:
                    done_bytes = ends.popleft()[1]
                progress.update(done_bytes, summary.report.total, summary.report.failed)
                if result.output is None and args.fail_fast:
                    summary.stopped_at = result.number
                    break
        except (KeyboardInterrupt, Exception) as err:
            if not stopped(err):
                raise
            progress.clear()
            kept = "" if args.output in (None, "-") else f"; {args.output} was left as it was"
            done = summary.report.total
            raise CliError(f"interrupted after {done:,} lines{kept}", INTERRUPTED) from None
        progress.clear()
        summary.report.blank = blank["blank"]
        if summary.report.total == 0 and summary.stopped_at is None:  # nothing written either
            shown = "stdin" if args.input == "-" else args.input
            blanks = f" ({summary.report.blank:,} blank)" if summary.report.blank else ""
            raise CliError(f"{shown} holds no lines{blanks}: nothing to convert, nothing written", FAILED)
        if html is not None:
            html.write(render_html([summary.report], title=args.input).encode())
    say(_summary_text(summary, time.monotonic() - started))
    if summary.report.failed > summary.report.lossy_rejected:
        return FAILED
    return LOSSY if summary.report.lossy_rejected else OK


def _record(
    summary: LossReport, result: LineResult, out: IO[bytes], report: IO[bytes] | None, progress: Progress
) -> None:
    summary.add(result)
    if result.output is not None:
        out.write(result.output + b"\n")
    elif summary.failed <= SHOWN_FAILURES:
        progress.clear()
        say(f"line {result.number}: {result.error}")
    elif summary.failed == SHOWN_FAILURES + 1:
        say("(further failures are counted in the summary only)")
    if report is not None and (result.error or result.details):
        entry = {"line": result.number, "error": result.error, "warnings": list(result.details)}
        report.write(to_json({k: v for k, v in entry.items() if v}) + b"\n")


def _summary_text(summary: Summary, seconds: float) -> str:
    report = summary.report
    rate = report.total / seconds if seconds > 0 else 0.0
    done = f"converted {report.converted:,} of {report.total:,} lines to {report.target}"
    lines = [f"{done} in {seconds:.2f} s ({rate:,.0f} lines/s)", *report.summary()]
    if summary.stopped_at is not None:
        lines.append(f"stopped at line {summary.stopped_at} (--fail-fast)")
    return "\n".join(lines)


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
