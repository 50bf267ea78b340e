"""Fixture loading and the round-trip assertions every codec's tests run (invariants 1 and 6)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from .._codec import Codec
from .._response import Response
from .._sse import ServerSentEvent, SSEEvent, parse_sse
from .._stream import accumulate

REQUIRE_CORPUS = "INTERLINGUA_REQUIRE_CORPUS"
"""Set to ``1`` (CI does) and a missing corpus fails the run instead of skipping its tests."""

Corpus = Literal["real", "lingua", "pydantic-ai"]
"""The recorded corpora under ``shared/fixtures/``, by folder name."""

_VARIABLES = {
    "real": "INTERLINGUA_REAL_FIXTURES",
    "lingua": "INTERLINGUA_LINGUA_FIXTURES",
    "pydantic-ai": "INTERLINGUA_PYDANTIC_AI_FIXTURES",
}


def real_fixtures_dir() -> Path:
    """``shared/fixtures/real``: the recorded vendor traffic read in place, never copied.

    ``INTERLINGUA_REAL_FIXTURES`` overrides; otherwise the first ``shared/fixtures/real`` found
    beside the current directory or any parent (the checkout sits next to ``shared/``). Raises
    FileNotFoundError with :func:`corpus_missing`'s line when there is none.
    """
    return _corpus_dir("real")


def lingua_fixtures_dir() -> Path:
    """``shared/fixtures/lingua``: real requests the vendors accepted, with their answers and
    streams, as ``<case>/<provider>/<file>.json`` (its README gives the layout).

    ``INTERLINGUA_LINGUA_FIXTURES`` overrides; otherwise ``lingua`` beside the real corpus.
    """
    return _corpus_dir("lingua")


def pydantic_ai_fixtures_dir() -> Path:
    """``shared/fixtures/pydantic-ai``: pydantic-ai's recorded API calls (VCR cassettes) cut per
    wire, as ``<wire>/<case>/{request,response,error,meta}.json`` with ``response.sse`` or
    ``response.eventstream`` for streams (its README gives the layout), requests the vendors
    accepted and refused.

    ``INTERLINGUA_PYDANTIC_AI_FIXTURES`` overrides; otherwise ``pydantic-ai`` beside the real corpus.
    """
    return _corpus_dir("pydantic-ai")


def corpus_missing(corpus: Corpus = "real") -> str | None:
    """Why ``shared/fixtures/<corpus>`` cannot be read, in one line, or None when it can.

    A clone without ``shared/`` beside it skips the tests that read a corpus, all with this one
    reason (so pytest folds them into one summary line); the line says how to point at it.
    """
    try:
        _corpus_dir(corpus)
    except FileNotFoundError as missing:
        return str(missing)
    return None


def corpus_required() -> bool:
    """Whether ``INTERLINGUA_REQUIRE_CORPUS`` asks for a missing corpus to fail, not skip."""
    return os.environ.get(REQUIRE_CORPUS, "") not in ("", "0")


def skip_without_corpus(corpus: Corpus = "real") -> None:
    """Skip the calling test, with :func:`corpus_missing`'s reason, when the corpus is absent; fail
    it instead under ``INTERLINGUA_REQUIRE_CORPUS=1``. For a test that reads the corpus inside its
    body (a loop over :func:`real_fixtures`, a directory walk), which would otherwise pass on
    nothing."""
    reason = corpus_missing(corpus)
    if reason is None:
        return
    if corpus_required():
        raise FileNotFoundError(f"{reason} ({REQUIRE_CORPUS} is set)")
    import pytest  # the kit runs under pytest; importing it here keeps the module importable without

    pytest.skip(reason)


def _corpus_dir(name: Corpus) -> Path:
    variable = _VARIABLES[name]
    override = os.environ.get(variable)
    if not override and name != "real" and os.environ.get(_VARIABLES["real"]):
        override = str(Path(os.environ[_VARIABLES["real"]]).parent / name)
    hint = f"set {variable}=/path/to/shared/fixtures/{name}"
    if override:
        if not Path(override).is_dir():
            raise FileNotFoundError(f"{name} corpus not found at {override}; {hint}")
        return Path(override)
    for start in (Path.cwd(), Path(__file__).resolve()):
        for folder in (start, *start.parents):
            candidate = folder / "shared" / "fixtures" / name
            if candidate.is_dir():
                return candidate
    raise FileNotFoundError(f"{name} corpus not found (no shared/fixtures/{name} beside the checkout); {hint}")


def real_fixtures(wire: str, kind: str, pattern: str = "*") -> list[Path]:
    """The recorded files of ``wire`` and ``kind`` (request, response, stream, error), sorted.

    Empty when the corpus is absent, so a test parametrized over them is skipped (the root
    conftest gives those the one :func:`corpus_missing` reason); under ``INTERLINGUA_REQUIRE_CORPUS``
    the absence raises instead. ``wire`` and ``kind`` may be glob patterns too (``"*"``).
    """
    reason = corpus_missing("real")
    if reason is not None:
        if corpus_required():
            raise FileNotFoundError(f"{reason} ({REQUIRE_CORPUS} is set)")
        return []
    return sorted(real_fixtures_dir().glob(f"{wire}/{kind}/{pattern}"))


def real_fixture(wire: str, kind: str, pattern: str) -> Path:
    """The one recorded file of ``wire`` and ``kind`` matching ``pattern`` (a test that pins one
    named recording). Skips the test when the corpus is absent (see :func:`skip_without_corpus`);
    a pattern that matches nothing, or more than one file, in a present corpus is an error."""
    skip_without_corpus("real")
    found = real_fixtures(wire, kind, pattern)
    if len(found) != 1:
        raise FileNotFoundError(f"{wire}/{kind}/{pattern} matches {len(found)} recorded files, expected one")
    return found[0]


def load_body(path: Path) -> Any:
    """A fixture file's JSON body: the ``body`` of ``{"status", "body"}`` / ``{"method", "path",
    "body"}`` wrappers, else the whole document."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(document, dict) and "body" in document and ({"status", "method"} & document.keys()):
        return document["body"]
    return document


def load_script(path: Path) -> ModuleType:
    """A script that is not part of a package (a benchmark in ``bench/``) as a module, so tests
    can use its workload; its own directory is importable while it loads (its sibling helpers)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def read_stream_file(path: Path) -> list[SSEEvent]:
    """A recorded stream as SSE events.

    ``.sse.txt`` (and ``.sse``) files are framed by :func:`parse_sse`, in uneven chunks as a
    network would deliver them. ``.chunks.txt`` files hold one ``data`` payload per line; they
    are replayed as events named after the payload's ``type`` where it has one.
    """
    raw = path.read_bytes()
    if path.name.endswith(".chunks.txt"):
        events: list[SSEEvent] = []
        for line in raw.decode("utf-8").splitlines():
            if not line.strip():
                continue
            payload = json.loads(line)
            name = payload.get("type") if isinstance(payload, dict) else None
            events.append(ServerSentEvent(data=line, event=name if isinstance(name, str) else "message"))
        return events
    chunks = [raw[i : i + 997] for i in range(0, len(raw), 997)]
    return list(parse_sse(chunks))


def strip_none(value: Any) -> Any:
    """``value`` with None-valued object keys removed, recursively (a null and an absent key mean
    the same to every vendor, and SDKs write either)."""
    if isinstance(value, Mapping):
        return {k: strip_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [strip_none(v) for v in value]
    return value


def first_difference(expected: Any, actual: Any, at: str = "") -> str | None:
    """The path of the first place two JSON values differ, with both sides; None if equal."""
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        for key in expected.keys() | actual.keys():
            where = f"{at}.{key}" if at else str(key)
            if key not in actual:
                return f"{where}: missing (expected {_short(expected[key])})"
            if key not in expected:
                return f"{where}: unexpected {_short(actual[key])}"
            found = first_difference(expected[key], actual[key], where)
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (a, b) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(a, b, f"{at}[{i}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{at}: length {len(actual)}, expected {len(expected)}"
        return None
    if expected != actual or type(expected) is not type(actual):
        return f"{at or '<body>'}: {_short(actual)}, expected {_short(expected)}"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) < 160 else text[:157] + "..."


def assert_same_json(expected: Any, actual: Any, what: str = "body") -> None:
    """Equal after :func:`strip_none`, or an AssertionError naming the first difference."""
    difference = first_difference(strip_none(expected), strip_none(actual))
    if difference:
        raise AssertionError(f"{what} differs at {difference}")


def assert_request_round_trip(codec: Codec, body: Mapping[str, Any]) -> None:
    """Invariant 1 for requests: encode(decode(body)) == body, None-valued keys aside, and the
    re-encode of an exact round trip warns about nothing."""
    request = codec.decode_request(body)
    encoded = codec.encode_request(request)
    assert_same_json(body, encoded.body, f"{codec.name} request round trip")
    if encoded.warnings:
        raise AssertionError(f"round trip warned: {[str(w) for w in encoded.warnings]}")


def assert_response_round_trip(codec: Codec, body: Mapping[str, Any]) -> None:
    """Invariant 1 for responses."""
    response = codec.decode_response(body)
    encoded = codec.encode_response(response)
    assert_same_json(body, encoded.body, f"{codec.name} response round trip")
    if encoded.warnings:
        raise AssertionError(f"round trip warned: {[str(w) for w in encoded.warnings]}")


def assert_stream_agrees(
    codec: Codec, events: Iterable[SSEEvent], response_body: Mapping[str, Any] | None = None
) -> Response:
    """Invariant 6: the accumulated stream equals decode_response of the same answer (when a
    recorded body exists). Returns the accumulated Response for further checks."""
    streamed = accumulate(codec.decode_stream(events))
    if response_body is not None:
        expected = codec.decode_response(response_body)
        difference = first_difference(expected.to_json_dict(), streamed.to_json_dict())
        if difference:
            raise AssertionError(f"stream and response disagree at {difference}")
    return streamed
