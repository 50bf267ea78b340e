"""Mutations of real wire bodies and streams, for the typed-errors contract (invariant 5).

Each mutation takes a ``random.Random`` and returns a changed copy; the input is never touched.
Hypothesis drives them through ``st.randoms()`` (so a failure shrinks to fewer choices), and
``bench/fuzz_contract.py`` drives them with a seeded ``random.Random`` (no shrinking cost).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._codec import Codec
from .._request import Request
from .._response import Response
from .._sse import ServerSentEvent, SSEEvent
from .._stream import accumulate
from .._wire import body_bytes

Mutation = Callable[[Any, random.Random], Any]

DEEP = 900
"""How deep the deep-nesting mutation nests: near what the stdlib JSON parser still builds."""

_Step = str | int


@dataclass(frozen=True)
class Corpus:
    """The bodies and streams of one wire a fuzz run starts from."""

    requests: list[Any]
    responses: list[Any]
    streams: list[list[SSEEvent]]
    errors: list[tuple[int, Any]]


def load_corpus(wire: str, golden: Path | None = None) -> Corpus:
    """The real corpus of ``wire`` (``shared/fixtures/real``) and, when given, the golden
    fixtures folder ``fixtures/<wire>``: every request, response, stream and error body."""
    from ._fixtures import load_body, read_stream_file, real_fixtures

    def files(kind: str, suffixes: tuple[str, ...]) -> list[Path]:
        found = [p for p in real_fixtures(wire, kind) if p.name.endswith(suffixes)]
        if golden is not None and (golden / kind).is_dir():
            found += sorted(p for p in (golden / kind).iterdir() if p.name.endswith(suffixes) and ".ir." not in p.name)
        return [p for p in found if ".response." not in p.name]

    errors: list[tuple[int, Any]] = []
    for path in files("error", (".json",)):
        document = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(document, dict) and "body" in document:
            status = document.get("status")
            errors.append((status if isinstance(status, int) else 400, document["body"]))
    return Corpus(
        requests=[load_body(p) for p in files("request", (".json",))],
        responses=[load_body(p) for p in files("response", (".json",))],
        streams=[read_stream_file(p) for p in files("stream", (".sse", ".sse.txt", ".chunks.txt"))],
        errors=errors,
    )


def _nodes(value: Any) -> list[tuple[_Step, ...]]:
    """The path of every value inside ``value`` (itself included), down to 64 levels."""
    found: list[tuple[_Step, ...]] = []
    stack: list[tuple[tuple[_Step, ...], Any]] = [((), value)]
    while stack:
        at, item = stack.pop()
        found.append(at)
        if len(at) >= 64:
            continue
        if isinstance(item, dict):
            stack.extend(((*at, key), child) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend(((*at, i), child) for i, child in enumerate(item))
    return found


def _get(value: Any, at: Sequence[_Step]) -> Any:
    for step in at:
        value = value[step]
    return value


def _update(root: Any, at: Sequence[_Step], change: Callable[[Any], Any]) -> Any:
    """``root`` with the value at ``at`` replaced by ``change(value)``; the containers on the
    way are copied, the rest is shared (so the input is never touched, and deep values cost
    nothing to carry over)."""
    if not at:
        return change(root)
    head, rest = at[0], at[1:]
    copied = dict(root) if isinstance(root, dict) else list(root)
    copied[head] = _update(root[head], rest, change)  # type: ignore[index]  # head fits root's kind
    return copied


def _pick(body: Any, rng: random.Random, accept: Callable[[Any], bool]) -> tuple[_Step, ...] | None:
    candidates = [at for at in _nodes(body) if accept(_get(body, at))]
    return rng.choice(candidates) if candidates else None


def _other_type(value: Any, rng: random.Random) -> Any:
    """A value of another JSON type, made from ``value`` where that reads naturally."""
    text = value if isinstance(value, str) else _dumps(value)[:40]
    choices: list[Any] = [text, len(text), -1, 1.5, [value], {"type": text}, True, False, None, "", 0, [], {}]
    return rng.choice([c for c in choices if _differs(c, value)])


def _differs(new: Any, old: Any) -> bool:
    """Cheaply sure that ``new`` is not ``old`` (containers compare by size: ``old`` may nest
    deeper than ``==`` can recurse)."""
    if type(new) is not type(old):
        return True
    if isinstance(new, dict | list):
        return len(new) != len(old)
    return bool(new != old)


def _dumps(value: Any) -> str:
    """JSON text of ``value``; nesting too deep for the stdlib writer becomes the same nesting
    written by hand (what a vendor's or an attacker's JSON would be)."""
    try:
        return json.dumps(value)
    except RecursionError:
        return "[" * DEEP + "]" * DEEP


def delete_key(body: Any, rng: random.Random) -> Any:
    """One object key, anywhere, removed."""
    at = _pick(body, rng, lambda v: isinstance(v, dict) and bool(v))
    if at is None:
        return body
    key = rng.choice(list(_get(body, at)))
    return _update(body, at, lambda owner: {k: v for k, v in owner.items() if k != key})


def null_value(body: Any, rng: random.Random) -> Any:
    """One value, anywhere, made null."""
    return _update(body, rng.choice(_nodes(body)), lambda _: None)


def change_type(body: Any, rng: random.Random) -> Any:
    """One value, anywhere, swapped for a value of another JSON type (str, int, list, dict, bool)."""
    return _update(body, rng.choice(_nodes(body)), lambda value: _other_type(value, rng))


def truncate(body: Any, rng: random.Random) -> Any:
    """One list or string, anywhere, cut short (often to empty)."""
    at = _pick(body, rng, lambda v: isinstance(v, list | str) and bool(v))
    if at is None:
        return body
    return _update(body, at, lambda value: value[: rng.randrange(len(value))])


def lone_surrogate(body: Any, rng: random.Random) -> Any:
    """A lone UTF-16 surrogate put into one string (a key or a value), which no UTF-8 encoder writes."""
    surrogate = rng.choice(["\ud800", "\udfff", "\udc00"])
    if rng.random() < 0.2:
        at = _pick(body, rng, lambda v: isinstance(v, dict) and bool(v))
        if at is not None:
            key = rng.choice(list(_get(body, at)))
            return _update(body, at, lambda owner: {(k + surrogate if k == key else k): v for k, v in owner.items()})
    at = _pick(body, rng, lambda v: isinstance(v, str))
    if at is None:
        return body
    cut = rng.randrange(len(_get(body, at)) + 1)
    return _update(body, at, lambda value: value[:cut] + surrogate + value[cut:])


def deep_nesting(body: Any, rng: random.Random) -> Any:
    """One value, anywhere, buried ``DEEP`` levels down in lists or objects."""
    in_objects = rng.random() < 0.5

    def bury(value: Any) -> Any:
        for _ in range(DEEP):
            value = {"type": "x", "a": value} if in_objects else [value]
        return value

    return _update(body, rng.choice(_nodes(body)), bury)


def duplicate_item(body: Any, rng: random.Random) -> Any:
    """One list item, anywhere, repeated in place (two calls with one id, two system blocks, ...)."""
    at = _pick(body, rng, lambda v: isinstance(v, list) and bool(v))
    if at is None:
        return body
    i = rng.randrange(len(_get(body, at)))
    return _update(body, at, lambda items: [*items[: i + 1], items[i], *items[i + 1 :]])


ENUM_KEYS = frozenset(
    {"role", "type", "tool_choice", "mode", "stop_reason", "finish_reason", "status", "detail", "effort"}
    | {"reasoning_effort", "summary", "ttl", "format", "stopReason", "finishReason", "thinkingLevel", "level"}
)
"""Keys whose string value is one of a set the wire defines (a role, a block type, a mode, a stop
reason, ...), wherever they sit: :func:`vary_enum` changes such a value."""

_HOMOGLYPHS = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445", "i": "\u0456"}
"""Latin letters and the Cyrillic letters drawn the same: ``user`` and ``us\u0435r`` look alike."""


def enum_variants(value: str) -> list[str]:
    """Values a careless or hostile sender writes for ``value``: another case, a space around it,
    a homoglyph inside it, and values no wire defines. None of them equals ``value``."""
    variants = [value.upper(), value.title(), value.swapcase(), f"{value} ", f" {value}", f"{value}\n"]
    if (at := next((i for i, ch in enumerate(value) if ch in _HOMOGLYPHS), None)) is not None:
        variants.append(value[:at] + _HOMOGLYPHS[value[at]] + value[at + 1 :])
    variants += ["hacker", f"{value}_x", ""]
    return [v for v in dict.fromkeys(variants) if v != value]


def enum_paths(body: Any, keys: frozenset[str] = ENUM_KEYS) -> list[tuple[_Step, ...]]:
    """The path of every string value in ``body`` whose key is one of ``keys``."""
    return [at for at in _nodes(body) if at and at[-1] in keys and isinstance(_get(body, at), str)]


def vary_enum(body: Any, rng: random.Random) -> Any:
    """One enum-valued string (a role, a type, a mode, ...), anywhere, swapped for a variant of it
    (:func:`enum_variants`): what must be refused at its path, never read as a near value."""
    paths = enum_paths(body)
    if not paths:
        return body
    at = rng.choice(paths)
    return _update(body, at, lambda value: rng.choice(enum_variants(value)))


def dotted(at: Sequence[_Step]) -> str:
    """A body path as a DecodeError names it: ``messages[2].role``."""
    text = ""
    for step in at:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


BODY_MUTATIONS: tuple[Mutation, ...] = (
    delete_key,
    null_value,
    change_type,
    truncate,
    lone_surrogate,
    deep_nesting,
    duplicate_item,
    vary_enum,
)


def mutate_body(body: Any, rng: random.Random, *, rounds: int = 0) -> Any:
    """``body`` after one to three (or ``rounds``) randomly chosen body mutations."""
    for _ in range(rounds or rng.choice((1, 1, 1, 2, 3))):
        body = rng.choice(BODY_MUTATIONS)(body, rng)
    return body


def _event(data: str, event: str) -> SSEEvent:
    return ServerSentEvent(data=data, event=event)


def drop_event(events: list[SSEEvent], rng: random.Random) -> list[SSEEvent]:
    """One SSE event left out."""
    events = list(events)
    if events:
        del events[rng.randrange(len(events))]
    return events


def duplicate_event(events: list[SSEEvent], rng: random.Random) -> list[SSEEvent]:
    """One SSE event delivered twice in a row."""
    events = list(events)
    if events:
        i = rng.randrange(len(events))
        events.insert(i, events[i])
    return events


def reorder_events(events: list[SSEEvent], rng: random.Random) -> list[SSEEvent]:
    """Two SSE events swapped."""
    events = list(events)
    if len(events) > 1:
        i, j = rng.randrange(len(events)), rng.randrange(len(events))
        events[i], events[j] = events[j], events[i]
    return events


def mutate_event_data(events: list[SSEEvent], rng: random.Random) -> list[SSEEvent]:
    """One event's JSON data mutated as a body, or its raw text cut short or replaced."""
    events = list(events)
    if not events:
        return events
    i = rng.randrange(len(events))
    event = events[i]
    try:
        payload = json.loads(event.data)
    except ValueError:
        payload = None
    if payload is not None and rng.random() < 0.8:
        data = _dumps(mutate_body(payload, rng))
    elif rng.random() < 0.5:
        data = event.data[: rng.randrange(len(event.data) + 1)]
    else:
        data = rng.choice(["", "null", "[]", "{}", "1", '"x"', "[DONE]", "{", "\ud800"])
    events[i] = _event(data, event.event)
    return events


def rename_event(events: list[SSEEvent], rng: random.Random) -> list[SSEEvent]:
    """One event's name changed to another name of the same stream, or to an unknown one."""
    events = list(events)
    if not events:
        return events
    i = rng.randrange(len(events))
    names = sorted({e.event for e in events} | {"message", "error", "unknown_event"})
    events[i] = _event(events[i].data, rng.choice(names))
    return events


STREAM_MUTATIONS: tuple[Callable[[list[SSEEvent], random.Random], list[SSEEvent]], ...] = (
    drop_event,
    duplicate_event,
    reorder_events,
    mutate_event_data,
    mutate_event_data,
    rename_event,
)


def mutate_stream(events: list[SSEEvent], rng: random.Random, *, rounds: int = 0) -> list[SSEEvent]:
    """``events`` after one to three (or ``rounds``) randomly chosen stream mutations."""
    for _ in range(rounds or rng.choice((1, 1, 1, 2, 3))):
        events = rng.choice(STREAM_MUTATIONS)(events, rng)
    return events


def mutate_error(body: Any, rng: random.Random) -> bytes:
    """An error body, mutated, as the bytes a vendor would send (sometimes not JSON at all)."""
    roll = rng.random()
    if roll < 0.1:
        return rng.choice([b"", b"null", b"<html>502</html>", b"{", b"[]", b"\xff\xfe", b'"x"'])
    text = _dumps(mutate_body(body, rng))
    if roll < 0.2:
        text = text[: rng.randrange(len(text) + 1)]
    return text.encode("utf-8", "surrogatepass")


def wires() -> tuple[str, ...]:
    """The wires the contract run covers: every installed codec's (each with its corpus in
    ``fixtures/<wire>``)."""
    from .._registry import codecs

    return tuple(codecs())


KINDS = ("request", "response", "stream", "error")


def decode_mutated(codec: Codec, kind: str, value: Any) -> Any:
    """What ``codec`` makes of one mutated input of ``kind``: a Request, a Response (a stream is
    accumulated) or a ProviderError; an exception is the decoder's verdict."""
    if kind == "request":
        return codec.decode_request(value)
    if kind == "response":
        return codec.decode_response(value)
    if kind == "stream":
        return accumulate(codec.decode_stream(value))
    status, body = value
    return codec.decode_error(status, body, {})


def encode_decoded(codec: Codec, decoded: Request | Response) -> dict[str, Any]:
    """``codec``'s body for what a decoder accepted, checked to be sendable as the transport
    sends it (``body_bytes``: no NaN or Infinity token, no lone surrogate, else EncodeError)."""
    body = codec.encode_request(decoded).body if isinstance(decoded, Request) else codec.encode_response(decoded).body
    body_bytes(body, codec.name)
    return body


def mutated_input(corpus: Corpus, kind: str, rng: random.Random) -> Any | None:
    """One mutated input of ``kind`` from ``corpus``; None when the corpus has none of that kind."""
    if kind == "request" and corpus.requests:
        return mutate_body(rng.choice(corpus.requests), rng)
    if kind == "response" and corpus.responses:
        return mutate_body(rng.choice(corpus.responses), rng)
    if kind == "stream" and corpus.streams:
        return mutate_stream(rng.choice(corpus.streams), rng)
    if kind == "error" and corpus.errors:
        status, body = rng.choice(corpus.errors)
        return status, mutate_error(body, rng)
    return None
