"""Batch result lines in ``interlingua convert``: a vendor's result line -> the target vendor's
result line with the same id; an answer converted as a response body, a failure written as the
target's error shape, a request the line repeats converted as a request.

The codecs declare the lines (``Codec.batching``); this module names no vendor. A line is the
format whose marking keys it has most of; where another format fits too, the reason names it.
The body inside is detected by its shape (``--from`` sets it), since one format may carry several
wires' bodies (one vendor's output line may hold an answer of either of its two wires; a cloud's
batch record the body of whichever model ran); a line with no body is read as its format's own wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any, NamedTuple, Protocol

from .. import AnyWarning, Codec, DecodeError, Encoded, WarningSink, codecs, get_codec
from .._batch import ResultFormat
from .._read import decode_with
from .detect import Detected, DetectError, detect_body


@cache
def formats() -> tuple[tuple[str, ResultFormat], ...]:
    """Every installed codec's result formats, with the codec's name; a format two wires of one
    vendor share (one ``name``) is listed once, under the first."""
    found: dict[str, tuple[str, ResultFormat]] = {}
    for name in codecs():
        batching = get_codec(name).batching
        for result in batching.results if batching is not None else ():
            found.setdefault(result.name, (name, result))
    return tuple(found.values())


def find(line: Mapping[str, Any]) -> tuple[str, ResultFormat, str] | None:
    """The result format ``line`` is (its codec, the format, the reason), or None: not a result line."""
    fitting = sorted(((f.score(line), name, f) for name, f in formats() if f.fits(line)), key=lambda t: -t[0])
    if not fitting:
        return None
    score, name, best = fitting[0]
    keys = ", ".join(sorted(best.keys | (best.any_of & line.keys())))
    reason = f"{best.name} line ({keys})"
    close = [f.name for s, _, f in fitting[1:] if s == score]
    if close:
        reason += f"; {', '.join(close)} fits too: pass --from to choose"
    return name, best, reason


def target_format(target: str, source: ResultFormat) -> ResultFormat:
    """The target wire's result line: the one that repeats the request where the source's does,
    else its first."""
    batching = get_codec(target.partition(":")[0]).batching
    owned = batching.results if batching is not None else ()
    if not owned:
        raise DetectError(f"{target} declares no batch result line: convert to a wire with a batch service")
    return next((f for f in owned if f.request == source.request), owned[0])


class Outcome(NamedTuple):
    """A converted result line: the target's line, every warning, how the source was read."""

    line: dict[str, Any]
    warnings: list[AnyWarning]
    detected: Detected
    format: str


def convert(
    line: Mapping[str, Any],
    found: tuple[str, ResultFormat, str],
    converter: ResultConverter,
) -> Outcome:
    """One result line in the target's result line, with every warning of the way."""
    name, source, reason = found
    read = decode_with(name, source.read, line)
    target = target_format(converter.target, source)
    warnings: list[AnyWarning] = []
    wire = _wire_of(converter.source, read.response, name)
    if read.response is not None:
        response = converter.codec(wire).decode_response(read.response)
        encoded = converter.codec(converter.target).encode_response(response)
        warnings += [*response.warnings, *encoded.warnings]
        read = replace(read, response=encoded.body)
    if read.request is not None and target.request:
        request_wire = _wire_of(converter.source, read.request, "")
        if not request_wire:
            raise DecodeError(name, "request", "the request the line repeats is of no known wire")
        encoded = converter.request(read.request, Detected(request_wire, "request", "the result line's request"))
        warnings += [_under("request", w) for w in encoded.warnings]
        read = replace(read, request=encoded.body)
    out = WarningSink(converter.target)
    written = target.write(read, out)
    return Outcome(written, [*warnings, *out.warnings], Detected(wire, "response", reason), source.name)


class ResultConverter(Protocol):
    """What a result line's conversion asks of the converter (cli/conversion.py's Converter)."""

    @property
    def target(self) -> str: ...
    @property
    def source(self) -> str | None: ...
    def codec(self, spec: str) -> Codec: ...
    def request(self, body: Mapping[str, Any], detected: Detected) -> Encoded: ...


def _under(prefix: str, warning: AnyWarning) -> AnyWarning:
    return warning.model_copy(update={"path": f"{prefix}.{warning.path}" if warning.path else prefix})


def body_wire(body: Mapping[str, Any] | None, own: str) -> str:
    """The wire of a result line's body, by its shape (``own``: the format's, where it has none)."""
    return _wire_of(None, body, own)


def _wire_of(given: str | None, body: Mapping[str, Any] | None, own: str) -> str:
    """The wire of the line's body: ``--from``, else its shape, else the format's own wire."""
    if given is not None:
        return given
    if body is None:
        return own
    try:
        return detect_body(body).wire
    except DetectError:
        return own
