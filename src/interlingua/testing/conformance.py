"""A wire's conformance data, kept in its codec's own package and found through the codec.

The conformance suite (``tests/conformance``) runs every installed codec that names a
:class:`Conformance` (the codec's ``conformance`` attribute, ``"module:NAME"``, as ``oracle``):
the targets it adds to the target list, the coverage probes of the rows its ``_coverage``
declares, where its recorded traffic sits, and the documented departures from its declared
capabilities, each with the note or vendor source it rests on. A new wire adds its codec package;
no file of the core or of its tests changes.

The probe helpers (:class:`Probe`, :func:`setting`, :func:`pair`, :func:`options`,
:func:`answer`, and the small payloads ``PNG``, ``PDF``, ``SCHEMA``, ``ANSWER_SCHEMA``) are the
ones the six codecs' probes are written with.
"""

from __future__ import annotations

import copy
import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "ANSWER_SCHEMA",
    "Body",
    "Conformance",
    "Coverage",
    "Departure",
    "Expected",
    "PDF",
    "PNG",
    "Probe",
    "SCHEMA",
    "Target",
    "answer",
    "conformance_for",
    "merged",
    "options",
    "pair",
    "setting",
]

Body = dict[str, Any]
Expected = Literal["native", "lossy", "either"]


# --- coverage probes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Probe:
    """A minimal body with one key (``body``), the same body without it or with another value
    where the key is required (``without``), and the IR path a warning about it names (``at``)."""

    body: Body
    without: Body
    at: str


PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
PDF = "JVBERi0xLjQK"
SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "string"}},
    "required": ["a"],
    "additionalProperties": False,
}

_DROP = object()


def _with(base: Body, **changes: Any) -> Body:
    body = copy.deepcopy(base)
    for key, value in changes.items():
        if value is _DROP:
            body.pop(key, None)
        else:
            body[key] = value
    return body


def setting(base: Body, key: str, value: Any, at: str) -> Probe:
    """A top-level key added to the base body."""
    return Probe(_with(base, **{key: value}), _with(base, **{key: _DROP}), at)


def pair(base: Body, with_: dict[str, Any], without: dict[str, Any], at: str) -> Probe:
    """The base body with some top-level keys set one way, and another."""
    return Probe(_with(base, **with_), _with(base, **without), at)


def options(base: Body, provider: str, rows: dict[str, tuple[str, Any]]) -> dict[str, Probe]:
    """Provider-option rows: row -> (top-level key, value); the warning path names the key."""
    return {row: setting(base, key, value, f"provider_options.{provider}.{key}") for row, (key, value) in rows.items()}


def merged(base: Mapping[str, Probe], extra: Mapping[str, Probe]) -> dict[str, Probe]:
    """Two probe tables as one; a row in both is a mistake in the tables, not an override."""
    assert not base.keys() & extra.keys(), sorted(base.keys() & extra.keys())
    return {**base, **extra}


def answer(base: Body, at: str, **changes: Any) -> Probe:
    """A response with some top-level keys changed, and the base response."""
    return Probe(_with(base, **changes), copy.deepcopy(base), at)


# --- the data ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A place in the conformance target list: the suite encodes every transcript and probe for
    it. ``id`` names it in test ids; ``dialect`` is passed to ``get_codec`` (None: the codec's
    default); ``model`` is the model a request to it addresses (one its recorded traffic uses);
    ``real_folder`` is the folder of ``shared/fixtures/real`` holding its recorded traffic, if
    any (that traffic is decoded by this target); ``foreign_options`` are (option key, a request
    body of this target carrying it) pairs: its own provider options, which every other target
    must report by a ForeignOption."""

    id: str
    model: str
    dialect: str | None = None
    real_folder: str | None = None
    foreign_options: tuple[tuple[str, Body], ...] = ()


@dataclass(frozen=True)
class Coverage:
    """The field-coverage contract of a wire (invariant 2): ``declared`` names the module whose
    ``REQUEST`` and ``RESPONSE`` ``Declaration``s place every key of the vendor SDK's types
    (``request_types`` / ``response_types`` load them, lazily: the SDK is a test dependency);
    ``sdk`` is (distribution, release the declarations were last checked against: an older
    installed release skips the walk); ``model`` is the wire's own model, sent with its probes;
    ``response_rows`` the response rows its answer probes cover at least."""

    declared: str
    request_types: Callable[[], Any]
    response_types: Callable[[], Any]
    sdk: tuple[str, str]
    model: str
    response_rows: frozenset[str] = frozenset()

    def declaration(self, kind: str) -> Any:
        """The ``Declaration`` of ``kind`` (request or response)."""
        return getattr(importlib.import_module(self.declared), "REQUEST" if kind == "request" else "RESPONSE")

    def types(self, kind: str) -> Any:
        return self.request_types() if kind == "request" else self.response_types()


@dataclass(frozen=True)
class Departure:
    """A documented departure from the target's declared capability row: where ``applies``
    (request, feature) holds, a warning about the feature is ``expected`` (``native``: none may
    name it, ``lossy``: one must, ``either``); ``note`` quotes the note or source it rests on."""

    applies: Callable[[Any, Any], bool]
    expected: Expected
    note: str


@dataclass(frozen=True)
class Conformance:
    """One codec's conformance data. Exceptions are keyed by *target key*: the codec's provider
    (a dialect's provider for a dialect), or the wire name where installed codecs share a
    provider key (two wires of one vendor).

    - ``targets``: its places in the target list (one per dialect worth encoding for).
    - ``smallest``: the smallest request body of the wire, one user turn saying ``hi`` (its
      ``model``, where the body names one, is replaced by the suite).
    - ``coverage``: its field-coverage contract (:class:`Coverage`); ``requests`` / ``answers``:
      the coverage probes, row of its declarations -> :class:`Probe`; ``model_row``: the request
      row whose probe keeps its own model names, if any.
    - ``lingua_folders``: the lingua corpus's provider folders whose requests and streams it
      decodes; ``lingua_stream_folders``: those whose streams only it decodes.
    - ``golden``: the folder of its golden fixtures (``request/``, ``response/``, ``stream/``,
      each ``*.json`` or ``*.sse``) when they live in its package (None: the checkout's
      ``fixtures/<wire>``); ``stream_files``: the pattern of its recorded streams' files.
    - ``model_in_url``: the model is named in the URL, not the body (``decode_request(model=)``).
    - ``replays_own_reasoning`` / ``needs_own_signature``: target keys that send their own
      reasoning back / replay only reasoning their vendor produced.
    - ``tool_ids``: target key -> the tool call ids it accepts unchanged.
    - ``documented``: (target key, feature key) -> :class:`Departure`.
    - ``stop_reasons``: IR stop reason the wire has no value for -> what it sends instead, with
      the vendor's list it rests on (converted with a warning).
    """

    targets: tuple[Target, ...]
    smallest: Body | None = None
    coverage: Coverage | None = None
    requests: Callable[[], Mapping[str, Probe]] | None = None
    answers: Callable[[], Mapping[str, Probe]] | None = None
    model_row: str | None = None
    lingua_folders: tuple[str, ...] = ()
    lingua_stream_folders: tuple[str, ...] = ()
    golden: Path | None = None
    stream_files: str = "*.txt"
    model_in_url: bool = False
    replays_own_reasoning: frozenset[str] = frozenset()
    needs_own_signature: frozenset[str] = frozenset()
    tool_ids: Mapping[str, Callable[[str], bool]] = field(default_factory=dict)
    documented: Mapping[tuple[str, str], Departure] = field(default_factory=dict)
    stop_reasons: Mapping[str, str] = field(default_factory=dict)


def conformance_for(wire: str) -> Conformance | None:
    """The conformance data the installed codec ``wire`` names (None: it names none, and the
    suite leaves it out); ValueError for a name that is no Conformance."""
    from .._registry import get_codec

    ref = get_codec(wire).conformance
    return None if ref is None else _load(ref)


@functools.cache
def _load(ref: str) -> Conformance:
    module, _, name = ref.partition(":")
    found = getattr(importlib.import_module(module), name, None)
    if not isinstance(found, Conformance):
        kind = type(found).__name__
        raise ValueError(f"conformance {ref!r} is not an interlingua.testing.Conformance (found {kind})")
    return found
