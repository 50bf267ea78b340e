"""The SDK oracle's entry points: a wire's body checked against its vendor SDK's own types and
against the vendor rules types miss (DESIGN.md invariant 3), by the oracle its codec names.

Each codec package holds its wires' oracles (``<package>/_oracle.py``: the SDK types per kind,
the vendor's turn rules with their sources, the reader of its model-ruled settings), built from
:class:`Oracle`, :class:`Sendable` and the checks of :mod:`interlingua.testing._sdk_check`. The
codec names it in an ``oracle`` attribute, ``"module:NAME"`` (see :class:`interlingua.Codec`),
so nothing here knows a vendor: ``validate_wire`` and ``check_rules`` find the codec by its wire
name and ask its oracle. Importing the oracle module is the test kit's business: it reads the
vendor SDK, a test dependency, which a codec never imports at import time.
"""

from __future__ import annotations

import functools
import importlib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .._model_check import RuleView
from .._rules import RuleTable, broken_rules
from .._schema import SchemaDialect, schema_problems
from ._model_rules import model_refusals
from ._sdk_check import Check

Kind = Literal["request", "response", "stream_event", "error"]
KINDS: tuple[Kind, ...] = ("request", "response", "stream_event", "error")

Rules = Callable[[Mapping[str, Any], str | None], list[str]]
"""A wire's turn rules: a request body and the target model (None: any) in, problems out."""

SchemaSites = Callable[[Mapping[str, Any], str | None], list[tuple[str, Any, SchemaDialect]]]
"""Where a request body holds JSON Schemas: (path, schema, the dialect that place takes) for a
body and its target model (None: the body's own)."""


def _no_schemas(body: Mapping[str, Any], model: str | None) -> list[tuple[str, Any, SchemaDialect]]:
    return []


def _no_ids(body: Mapping[str, Any]) -> list[tuple[str, list[tuple[int, Any]]]]:
    return []


def _no_payload(value: Mapping[str, Any]) -> tuple[str, Any] | None:
    return None


@dataclass(frozen=True)
class Sendable:
    """What no vendor takes whatever the turn rules, said in one wire's words: an empty model, a
    negative token limit, a NaN or infinite setting, a tool name outside the wire's pattern, an
    empty or repeated call id in one turn, base64 data that is not (``interlingua._sendable``
    refuses the same in the IR, before a body is built).

    ``tool_name``: the wire's tool-name pattern, cited where it is built; ``max_tokens`` and
    ``sampling``: dotted paths of the token limits and of the float settings; ``turns``: the
    top-level keys holding the conversation, walked for data URLs; ``tool_names``: ``(path,
    name)`` of every function tool; ``turn_call_ids``: per assistant turn, the path of its calls
    and their ``(position, id)``; ``payload``: a wire-specific base64 field of an object, as
    ``(path under the object, data)``; ``empty_ids``: whether the wire takes an empty call id.
    """

    tool_name: re.Pattern[str]
    max_tokens: tuple[str, ...]
    sampling: tuple[str, ...]
    turns: tuple[str, ...]
    tool_names: Callable[[Mapping[str, Any]], list[tuple[str, Any]]]
    turn_call_ids: Callable[[Mapping[str, Any]], list[tuple[str, list[tuple[int, Any]]]]] = _no_ids
    payload: Callable[[Mapping[str, Any]], tuple[str, Any] | None] = _no_payload
    empty_ids: bool = False

    def problems(self, body: Mapping[str, Any]) -> list[str]:
        problems: list[str] = []
        if body.get("model") == "":
            problems.append("model: empty")
        for key in self.max_tokens:
            value = dig(body, key)
            if isinstance(value, int | float) and value < 0:
                problems.append(f"{key}: {value} is negative")
        for key in self.sampling:
            value = dig(body, key)
            if isinstance(value, float) and not math.isfinite(value):
                problems.append(f"{key}: {value} is not a JSON number")
        for at, name in self.tool_names(body):
            if not isinstance(name, str) or self.tool_name.fullmatch(name) is None:
                problems.append(f"{at}: {name!r} does not match {self.tool_name.pattern}")
        for at, ids in self.turn_call_ids(body):
            seen: set[Any] = set()
            for position, call_id in ids:
                if call_id == "" and not self.empty_ids:
                    problems.append(f"{at}[{position}]: empty tool call id")
                elif call_id in seen:
                    problems.append(f"{at}[{position}]: tool call id {call_id!r} used twice in one turn")
                seen.add(call_id)
        for at, data in self._base64_data(body):
            if not isinstance(data, str) or _BASE64_TEXT.fullmatch(data) is None:
                problems.append(f"{at}: not base64 data")
        return problems

    def _base64_data(self, body: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """(path, data) of every base64 payload in the turns, data URLs cut to their data."""
        found: list[tuple[str, Any]] = []

        def walk(value: Any, at: str) -> None:
            if isinstance(value, list):
                for i, item in enumerate(value):
                    walk(item, f"{at}[{i}]")
            elif isinstance(value, Mapping):
                payload = self.payload(value)
                if payload is not None:
                    found.append((f"{at}.{payload[0]}", payload[1]))
                for key, item in value.items():
                    if isinstance(item, str) and item.startswith("data:") and ";base64," in item[:100]:
                        found.append((f"{at}.{key}", item.partition(",")[2]))
                    elif isinstance(item, list | Mapping) and key != "source":
                        walk(item, f"{at}.{key}" if at else key)

        walk({k: body.get(k) for k in self.turns if k in body}, "")
        return found


_BASE64_TEXT = re.compile(r"[A-Za-z0-9+/=_\-\r\n]*")


@dataclass(frozen=True)
class Oracle:
    """One wire's oracle, built in its codec package's ``_oracle.py``.

    ``checks``: the SDK-type check of each kind (request, response, stream_event, error), usually
    :func:`~interlingua.testing.request_check` and :func:`~interlingua.testing.either` over
    :func:`~interlingua.testing.sdk_type`; ``rules``: what the API answers 400 to although the
    body type-checks, each rule with its source; ``sendable``: the wire's words for what no
    vendor takes; ``rule_view``: the body's model-ruled settings, held to the model catalog by
    :func:`~interlingua.testing.check_model_rules`; ``schemas``: where the body holds JSON Schemas
    and the dialect of each place (see :class:`interlingua.kit.SchemaDialect`), each held to it;
    ``dialects``: each place's name and dialect, with its sources, for docs/schemas.md.
    """

    checks: Mapping[Kind, Check]
    rules: Rules
    sendable: Sendable
    rule_view: Callable[[Mapping[str, Any]], RuleView]
    schemas: SchemaSites = _no_schemas
    dialects: Mapping[str, SchemaDialect] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [kind for kind in KINDS if kind not in self.checks]
        if missing:
            raise ValueError(f"an oracle checks every kind; missing {missing}")


# --- the public entry points ----------------------------------------------------------------


def validate_wire(wire: str, kind: Kind, body: Any) -> list[str]:
    """Problems found checking ``body`` (a plain JSON value) against the SDK types of ``wire``'s
    ``kind``: ``["messages[0].content[1].bogus: unknown key", ...]``; ``[]`` when it is valid."""
    check = oracle_for(wire).checks.get(kind)
    if check is None:
        raise ValueError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    if not isinstance(body, Mapping):
        return [f"body: expected an object, got {type(body).__name__}"]
    return check(body)


def check_rules(
    wire: str, body: Mapping[str, Any], *, model: str | None = None, table: RuleTable | None = None
) -> list[str]:
    """Vendor rules a request body must keep beyond its types (DESIGN.md invariant 3): what the
    API answers 400 to although the body type-checks. ``model`` narrows model-specific rules
    (a rule the oracle keeps for some models only applies when the model is unknown or one of
    them), and the model catalog's rules for ``model`` (default: the body's own) apply
    (``check_model_rules``). ``table``: the rule table of the host the body goes to, where it is
    not the wire's default (a codec's ``rules.table``: a host of a shared wire keeps its own id
    rule); by default the oracle's."""
    oracle = oracle_for(wire)
    rules = oracle.rules(body, model) if table is None else broken_rules(table, body, model)
    found = rules + oracle.sendable.problems(body) + check_model_rules(wire, body, model)
    return found + _schema_rule(oracle, body, model)


def check_model_rules(wire: str, body: Mapping[str, Any], model: str | None = None) -> list[str]:
    """What ``model`` (default: the body's own ``model``) would refuse in ``body``; ``[]`` when the
    catalog does not know the model."""
    from .._registry import get_codec

    oracle = oracle_for(wire)
    return model_refusals(oracle.rule_view, get_codec(wire).provider, wire, body, model)


def _schema_rule(oracle: Oracle, body: Mapping[str, Any], model: str | None) -> list[str]:
    """Each schema held to the dialect of its place: what an encoder let through (a keyword the
    target refuses, an open object where objects must be closed, a recursion it cannot take)."""
    problems: list[str] = []
    for at, schema, dialect in oracle.schemas(body, model):
        for rel, problem in schema_problems(schema, dialect):
            problems.append(f"{at}.{rel}: {problem}" if rel else f"{at}: {problem}")
    return problems


def oracle_for(wire: str) -> Oracle:
    """The oracle the installed codec ``wire`` names; ValueError, saying what is missing, for a
    wire no codec serves or a codec that names no oracle."""
    from .._registry import UnknownCodecError, get_codec

    try:
        codec = get_codec(wire)
    except UnknownCodecError as error:
        raise ValueError(f"no oracle for wire {wire!r}: {error}") from None
    ref = codec.oracle
    if ref is None:
        raise ValueError(
            f"no oracle for wire {wire!r}: its codec {type(codec).__qualname__} names none (an `oracle` "
            'attribute, "module:NAME" of an interlingua.testing.Oracle; see docs/guide/codecs.md)'
        )
    return _load(ref)


@functools.cache
def _load(ref: str) -> Oracle:
    module, _, name = ref.partition(":")
    found = getattr(importlib.import_module(module), name, None)
    if not isinstance(found, Oracle):
        raise ValueError(f"oracle {ref!r} is not an interlingua.testing.Oracle (found {type(found).__name__})")
    return found


# --- small readers the codecs' rules share ----------------------------------------------------


def dig(body: Mapping[str, Any], dotted: str) -> Any:
    """The value at ``a.b.c``, None where a step is missing or not an object."""
    value: Any = body
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def objects(value: Any) -> list[Mapping[str, Any]]:
    """The items of a JSON list, each non-object item as ``{}`` (so positions stay true)."""
    return [v if isinstance(v, Mapping) else {} for v in value] if isinstance(value, list) else []
