"""Batch result lines, both directions: what one request of a batch came to, as the codecs read a
vendor's result line into it and write it back out (the CLI converts result files with these).

A codec declares the result lines of its vendor's batch service (``Codec.batching``): each
:class:`ResultFormat` names the keys that mark its lines, reads a line into a :class:`ResultLine`
(the id, the answer's wire body or a :class:`BatchFailure`, and the request where the line echoes
it) and writes one back, reporting on a ``WarningSink`` what its line cannot hold.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypeAlias, TypeVar

from ._warnings import AnyWarning, WarningSink, article

T = TypeVar("T")

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
    one vendor is declared by each, with one ``name``) and, where ``Client.batch`` can run a batch
    on it, its ``api``."""

    results: tuple[ResultFormat, ...] = ()
    api: BatchApi | None = None


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


# -- the batch API: submit, poll, fetch -----------------------------------------------------------
# A codec writes each step as a generator of the HTTP calls it makes (sans I/O): it yields a
# BatchCall and is sent the answer (a JSON value, or the bytes of a file). Client and AsyncClient
# drive the same generators (interlingua._batching).


@dataclass(frozen=True, slots=True)
class BatchCall:
    """One HTTP call of a batch step: ``path`` under the batch API's base URL, or a whole URL the
    vendor gave (``https://...``); a ``json`` body, or a multipart ``upload`` (form ``fields`` and
    one file: field name, file name, bytes); ``raw``: the answer is a file (bytes), not JSON."""

    method: str
    path: str
    json: Mapping[str, Any] | None = None
    upload: tuple[str, str, bytes] | None = None
    fields: Mapping[str, str] | None = None
    raw: bool = False


@dataclass(frozen=True, slots=True)
class BatchJob:
    """A submitted batch: the vendor's ``id``, its own ``status`` word, whether it has ended
    (``done``), and the vendor's batch object as it last answered (``raw``)."""

    id: str
    status: str
    done: bool
    raw: Mapping[str, Any]
    warnings: Mapping[str, list[AnyWarning]] = field(default_factory=dict)
    """What each line's request could not carry, by line id (filled by the client on submit)."""


Steps: TypeAlias = Generator[BatchCall, Any, T]
"""A batch step: the calls it makes, then its value."""


class BatchApi(NamedTuple):
    """A vendor's batch API for ``Client.batch``: ``base`` turns the wire's message URL into the
    batch API's base URL; ``submit(lines, model)`` sends the batch's lines (``(id, body)``, the
    bodies encoded for the wire) and gives the job; ``poll`` asks after it; ``fetch`` gives an
    ended job's result lines, which ``results`` reads. ``serve`` plays the vendor's side for
    :class:`~interlingua.testing.FakeVendor` (see :class:`FakeBatches`)."""

    base: Callable[[str], str]
    submit: Callable[[Sequence[tuple[str, Mapping[str, Any]]], str | None], Steps[BatchJob]]
    poll: Callable[[BatchJob], Steps[BatchJob]]
    fetch: Callable[[BatchJob], Steps[list[Mapping[str, Any]]]]
    results: ResultFormat
    serve: Callable[[FakeBatches, str, str, Any], tuple[int, Any] | None] | None = None


@dataclass
class FakeBatches:
    """A fake vendor's batches, for a codec's ``BatchApi.serve``: ``answer(body)`` runs one line's
    request body through the fake's scripted replies, giving ``(status, answer body)``; ``store``
    holds what the vendor would (files, batches) by id; a batch reports itself in progress to
    ``polls`` polls before it ends, so a client's polling is exercised."""

    answer: Callable[[Mapping[str, Any]], tuple[int, Mapping[str, Any]]]
    url: str = ""
    """The fake's own URL (for a batch object that names where its results are)."""
    store: dict[str, Any] = field(default_factory=dict)
    polls: int = 1
    count: int = 0

    def new_id(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count:04d}"
