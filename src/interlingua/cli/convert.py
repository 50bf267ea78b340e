"""``interlingua convert``: one body (request, response or recorded stream) to another wire.

A ``.jsonl`` input (or ``--jsonl``) is a dataset and goes to :mod:`.datasets`, except a
transcript in its JSONL form (a header line, then one message per line), which is one body.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .. import DecodeError, InterlinguaError, StreamError, Transcript, UnknownCodecError
from .._wire import loads
from .conversion import ConversionError, Converted, Converter, MisreadError, codec_for
from .detect import TRANSCRIPT, DetectError, is_log
from .exits import FAILED, LOSSY, OK, USAGE, CliError
from .output import write_whole
from .render import say, warnings_table
from .tuning import HF


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="a JSON body, an SSE stream, a transcript, or a .jsonl dataset; '-' reads stdin")
    parser.add_argument(
        "--to",
        required=True,
        metavar="WIRE",
        help="target wire: a codec name (NAME[:DIALECT]), 'transcript', or 'hf-messages' (a TRL conversational line)",
    )
    parser.add_argument(
        "--from", dest="source", metavar="WIRE", help="source wire; detected when omitted (and the reason printed)"
    )
    parser.add_argument(
        "--kind", choices=["request", "response", "stream"], help="what the input is; detected when omitted"
    )
    parser.add_argument(
        "--accumulate", action="store_true", help="a stream becomes the target's response body, not a stream"
    )
    parser.add_argument(
        "--strict", action="store_true", help=f"exit {LOSSY} and write nothing lossy when any warning is raised"
    )
    parser.add_argument(
        "--reasoning", choices=["drop", "as_text"], help="foreign-vendor thinking: drop it (warned) or send it as text"
    )
    parser.add_argument(
        "--model", help="set the request's model (a transcript, or a body whose wire puts it in the URL, has none)"
    )
    parser.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    parser.add_argument("--compact", action="store_true", help="a single body as one JSON line (datasets always are)")
    dataset = parser.add_argument_group("datasets (JSONL, one body per line)")
    dataset.add_argument("--jsonl", action="store_true", help="read the input as a dataset even without a .jsonl name")
    dataset.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="worker processes (0: one per CPU); output stays in order"
    )
    dataset.add_argument(
        "--engine",
        choices=["dask", "ray", "spark"],
        help="convert on this engine (a local cluster of two workers, or --address); same output and report",
    )
    dataset.add_argument(
        "--address", metavar="URL", help="the engine's cluster: a Dask scheduler, a Ray address or a Spark master"
    )
    dataset.add_argument("--fail-fast", action="store_true", help=f"stop at the first bad line (exit {FAILED})")
    dataset.add_argument(
        "--report",
        metavar="FILE",
        help="write every failed or warned line's details here, as JSONL; a FILE ending in .html gets the loss "
        "report as one self-contained page instead",
    )


def run(args: argparse.Namespace) -> int:
    check_wires(args.to, args.source)
    converter = Converter(target=args.to, source=args.source, reasoning=args.reasoning, model=args.model)
    if args.jsonl or (args.input.endswith(".jsonl") and not _is_transcript_lines(args.input)):
        from . import datasets

        return datasets.run(args, converter)
    data = read_input(args.input)
    converted = convert_single(converter, data, args.kind, accumulated=args.accumulate)
    if args.source is None:
        detected = converted.detected
        say(f"from {detected.wire} {detected.kind}: {detected.reason}")
    if converted.warnings:
        say(f"{len(converted.warnings)} warning(s):\n{warnings_table(converted.warnings)}")
        if args.strict:
            say(f"--strict: lossy conversion, nothing written (exit {LOSSY})")
            return LOSSY
    _write(converted.output, args.output, compact=args.compact)
    return OK


def read_input(name: str) -> bytes:
    """The input's bytes; an empty or binary input is refused here, by name, before any wire is
    guessed for it."""
    shown = "stdin" if name == "-" else name
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as err:
        raise CliError(f"cannot read {shown}: {err.strerror or err}", USAGE) from None
    if not data.strip():
        raise CliError(f"{shown} is empty: expected a JSON body, an SSE stream or a transcript", FAILED)
    if b"\x00" in data:
        raise CliError(f"{shown} is not text (it holds NUL bytes): expected JSON or SSE", FAILED)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CliError(f"{shown} is not UTF-8 text (byte {err.start}): expected JSON or SSE", FAILED) from None
    return data


def _is_transcript_lines(name: str) -> bool:
    """A ``.jsonl`` whose first line is a transcript header (no messages) is one transcript."""
    try:
        with open(name, "rb") as lines:
            first = next((line for line in lines if line.strip()), b"")
        head = loads(first)
    except (OSError, ValueError):
        return False
    return isinstance(head, dict) and head.get("format") == "interlingua.transcript" and "messages" not in head


def parse_single(data: bytes, *, several: str = "a dataset? pass --jsonl") -> Any:
    """A JSON body, or None for an SSE stream; a transcript in JSONL form becomes its JSON form.
    ``several`` is the hint for JSON text of several lines that is none of these (the command's
    own way to take one of them)."""
    start = data.lstrip()[:1]
    if start not in (b"{", b"["):
        return None
    try:
        return loads(data)
    except ValueError as err:
        lines = [line for line in data.splitlines() if line.strip()]
        if start == b"{" and len(lines) > 1 and _is_transcript_head(lines[0]):
            return loads(Transcript.load_lines(lines).dumps())
        hint = f"; it has several lines: {several}" if len(lines) > 1 and start == b"{" else ""
        raise CliError(f"input is not JSON ({err}){hint}", FAILED) from None


def _is_transcript_head(line: bytes) -> bool:
    try:
        head = loads(line)
    except ValueError:
        return False
    return isinstance(head, dict) and head.get("format") == "interlingua.transcript"


def convert_single(converter: Converter, data: bytes, kind: str | None, *, accumulated: bool) -> Converted:
    """Convert one body; every way it can fail becomes a one-line CliError with its exit code."""
    with one_line_errors():
        body = None if kind == "stream" else parse_single(data)
        if body is None or (isinstance(body, list) and not converter.reads_log(body)):
            return converter.convert_stream(data, accumulated=accumulated)
        return converter.convert(body, kind)  # type: ignore[arg-type]  # argparse choices are the Kind literals


@contextmanager
def one_line_errors() -> Iterator[None]:
    """Map conversion failures to CliError: usage problems exit 2, bad input exits 1."""
    try:
        yield
    except (UnknownCodecError, ConversionError) as err:
        raise CliError(str(err), USAGE) from None
    except MisreadError as err:
        raise CliError(str(err), FAILED) from None
    except DetectError as err:
        raise CliError(f"cannot tell the input's wire: {err}; pass --from", FAILED) from None
    except DecodeError as err:  # first: a StreamDecodeError is a bad event, not a short stream
        raise CliError(f"cannot decode the input: {err}", FAILED) from None
    except StreamError as err:
        raise CliError(f"the stream is incomplete: {err}", FAILED) from None
    except InterlinguaError as err:
        raise CliError(f"cannot convert: {err}", FAILED) from None
    except ValueError as err:  # not JSON inside a stream event, and the like
        raise CliError(f"cannot read the input: {err}", FAILED) from None


def _write(output: Any, target: str | None, *, compact: bool) -> None:
    if isinstance(output, bytes):
        data = output
    else:
        text = json.dumps(output, ensure_ascii=False, indent=None if compact else 2)
        data = (text + "\n").encode()
    write_whole(data, target)


def check_wires(*names: str | None) -> None:
    """Fail before reading any input when a wire name is unknown (exit 2, installed ones listed)."""
    for name in names:
        if name is None or name in (TRANSCRIPT, HF) or is_log(name):
            continue
        try:
            codec_for(name)
        except (UnknownCodecError, ConversionError) as err:
            raise CliError(str(err), USAGE) from None
