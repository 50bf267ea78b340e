"""Fine-tuning lines in ``interlingua convert``: which tuning format a line is, and the line in the
target's tuning format, both directions.

Each codec declares its vendor's tuning file (``Codec.tuning``); ``hf-messages`` (the
conversational format of chat templates and TRL) is the core's own. A line one of them claims is
decoded to a :class:`~interlingua.kit.TuningExample` and written in the target's tuning format,
or, where the target has none, as the target's request body (``--model`` sets its model; a
preference pair keeps its preferred completion). What the target cannot hold (a weight, a rejected completion, a
setting, a dataset column) is a warning at its path.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from .. import AnyWarning, Request, WarningSink, codecs, get_codec
from .._chat_messages import HF_MESSAGES, NAME
from .._sniff import DISTINCTIVE, Sniffed
from .._tuning import TuningExample, TuningFile, supervised, unweighted
from .detect import Detected, DetectError, detect_body, strongest

HF = NAME
"""The pseudo-wire name of the conversational dataset format (``--from/--to hf-messages``)."""


@cache
def tuning_files() -> tuple[tuple[str, TuningFile], ...]:
    """Every installed tuning format, by wire name, once per process."""
    found = [(name, file) for name in codecs() if (file := get_codec(name).tuning) is not None]
    return (*found, (HF, HF_MESSAGES))


def tuning_file(wire: str) -> TuningFile | None:
    name = wire.partition(":")[0]
    return next((file for found, file in tuning_files() if found == name), None)


def detect_tuning(line: Mapping[str, Any], source: str | None) -> Detected | None:
    """The tuning format of ``line`` (``source``: the one ``--from`` named, if it claims the line),
    or None when no tuning format claims it. The reason names a runner-up that fits as well."""
    if source is not None:
        file = tuning_file(source)
        if source == HF or (file is not None and file.sniff(line) is not None):
            return Detected(source, "request", "a tuning line; format given by --from")
        return None
    claims = [(claim, name) for name, file in tuning_files() if (claim := _claim(file, line)) is not None]
    if claims and all(claim.score < DISTINCTIVE for claim, _ in claims):
        claims = _agreeing(line, claims)
    return strongest(claims)  # every tuning claim is of a request


def _agreeing(line: Mapping[str, Any], claims: list[tuple[Sniffed, str]]) -> list[tuple[Sniffed, str]]:
    """Claims on shared signs (``messages`` and no model) stand only for the wire the body's own
    shape names (one wire's messages without a model are not another wire's tuning line);
    ``hf-messages``, whose plain lines look like a chat wire's, stands beside such a claim as the
    runner-up, never alone."""
    try:
        wire = detect_body(line).wire
    except DetectError:
        return []
    owned = [(claim, name) for claim, name in claims if name == wire]
    return [*owned, *((claim, name) for claim, name in claims if name == HF)] if owned else []


def _claim(file: TuningFile, line: Mapping[str, Any]) -> Sniffed | None:
    try:
        return file.sniff(line)
    except Exception:  # a third party's sniffer failing on an odd line claims nothing
        return None


def read_example(line: Mapping[str, Any], detected: Detected) -> TuningExample:
    file = tuning_file(detected.wire)
    assert file is not None, f"{detected.wire} has no tuning file"
    return file.decode(line)


def write_example(example: TuningExample, target: str) -> tuple[dict[str, Any], list[AnyWarning]] | None:
    """The target's tuning line for ``example``, or None where the target has no tuning format."""
    file = tuning_file(target)
    if file is None:
        return None
    out = WarningSink(target.partition(":")[0])
    if not file.pairs:
        example = supervised(example, out)
    return file.encode(example, out), [*out.warnings, *_columns(example, target)]


def as_request(example: TuningExample, target: str) -> tuple[Request, list[AnyWarning]]:
    """The example as one request, for a target with no tuning format (or ``--to transcript``): a
    pair keeps its preferred completion; a weight, a rejected completion or a column is reported."""
    out = WarningSink(target.partition(":")[0])
    example = supervised(example, out)
    unweighted(example, out, "a request has no weights: every assistant message is sent")
    return example.request, [*out.warnings, *_columns(example, target)]


def _columns(example: TuningExample, target: str) -> list[AnyWarning]:
    """A dataset's own columns (kept in the request's metadata) that only its format writes back."""
    if target == HF:
        return []
    out = WarningSink(target.partition(":")[0])
    for key in example.request.metadata:
        column = key.removeprefix(f"{HF}.")
        out.unsupported(column, column, "a dataset column this tuning format has no place for")
    return list(out.warnings)
