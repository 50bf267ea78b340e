"""Batch result lines, both directions: what one request of a batch came to, as the codecs read a
vendor's result line into it and write it back out (the CLI converts result files with these).

A codec declares the result lines of its vendor's batch service (``Codec.batching``): each
:class:`ResultFormat` names the keys that mark its lines, reads a line into a :class:`ResultLine`
(the id, the answer's wire body or a :class:`BatchFailure`, and the request where the line echoes
it) and writes one back, reporting on a ``WarningSink`` what its line cannot hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from ._warnings import WarningSink, article

FailureKind = Literal["errored", "canceled", "expired"]
"""Why a request has no answer: it failed, or the batch was canceled or expired before it ran."""


@dataclass(frozen=True, slots=True)
class BatchFailure:
    """A request that came to no answer: ``kind``, the vendor's words (``message``), the HTTP status
    and the vendor's error type or code where the line gives them (None: it does not)."""

    kind: FailureKind = "errored"
    message: str = ""
    status: int | None = None
    code: str | None = None


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One result line read: its ``id`` (None where the format has none), the answer's wire body
    (``response``) or ``failure``, and the ``request`` body where the line repeats it. ``own``:
    what the vendor stamped on the line (its own ids, times), written back only by the format
    named ``format`` (the one it was read from), so a line round-trips exactly."""

    id: Any
    response: Mapping[str, Any] | None = None
    failure: BatchFailure | None = None
    request: Mapping[str, Any] | None = None
    format: str = ""
    own: Mapping[str, Any] | None = None

    def own_for(self, name: str) -> Mapping[str, Any]:
        """The vendor's own fields where ``name`` is the format they were read from, else none."""
        return (self.own or {}) if self.format == name else {}


class ResultFormat(NamedTuple):
    """A vendor's batch result line. A JSON object is one when it has every key of ``keys`` and
    at least one of ``any_of``. ``read`` raises DecodeError (with a path) on a malformed line;
    ``write`` reports on the sink what the line cannot hold. ``request`` says whether its line
    holds the request too. ``body_wire``: the wire its bodies are in, None where a line may hold
    several (an InvokeModel body of any model): the bodies are then detected."""

    name: str
    keys: frozenset[str]
    any_of: frozenset[str]
    read: Callable[[Mapping[str, Any]], ResultLine]
    write: Callable[[ResultLine, WarningSink], dict[str, Any]]
    request: bool = False
    body_wire: str | None = None

    def fits(self, line: Mapping[str, Any]) -> bool:
        return self.keys <= line.keys() and not self.any_of.isdisjoint(line.keys())

    def score(self, line: Mapping[str, Any]) -> int:
        """How many of its marking keys the line has (the best fitting format wins)."""
        return len(self.keys) + len(self.any_of & line.keys())


class Batching(NamedTuple):
    """A codec's batch service: its result lines (``results``; a format shared by several wires of
    one vendor is declared by each, with one ``name``)."""

    results: tuple[ResultFormat, ...] = ()


def failure_note(line: ResultLine, kinds: tuple[FailureKind, ...], out: WarningSink, at: str) -> None:
    """Warn where the target's line has no way to say this failure's kind (it is written as an
    error carrying the message)."""
    failure = line.failure
    if failure is not None and failure.kind not in kinds:
        why = f"{article(failure.kind)} request is written as an error"
        out.lossy(at, "batch_result", why, action="converted")


def message_note(line: ResultLine, out: WarningSink, at: str) -> None:
    """Warn where the target's line says a request was canceled or expired with no words of its
    own, and the source's line had some."""
    if line.failure is not None and line.failure.message:
        out.lossy(at, "batch_message", f"a {line.failure.kind} result carries no message")


def request_note(line: ResultLine, out: WarningSink, at: str = "request") -> None:
    """Warn where the source line held the request and the target's line has no place for it."""
    if line.request is not None:
        out.lossy(at, "batch_request", "the target's result line does not repeat the request")
