"""A wire body checked against a vendor SDK's own types: the machinery every codec's oracle is
built from. For tests only; the SDK types are imported when a check first runs, never here.

Why not a plain ``TypeAdapter(...).validate_python(body)``: pydantic validates the SDKs'
``Iterable[...]`` fields lazily (a bogus block passes until someone iterates), and TypedDicts
ignore keys they do not declare. :func:`sdk_problems` forces every lazy iterable and walks the
body against the declared types itself to report every undeclared key. SDK response models that
allow extra keys get the same walk; models that forbid them report them already.
"""

from __future__ import annotations

import collections.abc
import functools
import importlib
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, TypeAlias

import typing_extensions
from pydantic import BaseModel, TypeAdapter, ValidationError

from .._read import join
from ._sdk_types import sdk_fields
from ._sdk_types import unwrap as _unwrap

Check: TypeAlias = Callable[[Mapping[str, Any]], list[str]]
"""One kind's check: a JSON object in, its problems out (``[]`` when it is valid)."""

_MAX_SHOWN = 12


def sdk_type(module: str, name: str) -> Callable[[], Any]:
    """The SDK type ``module.name``, imported when first asked for (the SDKs are test dependencies)."""

    def target() -> Any:
        return getattr(importlib.import_module(module), name)

    return target


def either(*targets: Callable[[], Any]) -> Check:
    """Valid when the body fits any one target (say, an SDK's GA and beta types); otherwise the
    problems of the closest fit."""

    def check(body: Mapping[str, Any]) -> list[str]:
        return _closest(sdk_problems(target(), body) for target in targets)

    return check


def request_check(*params: tuple[str, str, str], legacy: Mapping[str, type | tuple[type, ...]] | None = None) -> Check:
    """A request body against params TypedDicts, each ``(module, non-streaming name, streaming
    name)`` (they differ only in ``stream``: the body's own picks); valid when any one fits.
    ``legacy``: top-level fields the API still takes (for older models) that the installed SDK no
    longer declares; checked for their JSON type here, then left out of the SDK check."""
    targets = [(sdk_type(module, plain), sdk_type(module, streaming)) for module, plain, streaming in params]

    def check(body: Mapping[str, Any]) -> list[str]:
        problems = []
        if legacy:
            for key, typ in legacy.items():
                if key in body and (isinstance(body[key], bool) or not isinstance(body[key], typ)):
                    problems.append(f"{key}: expected a number")
            body = {key: value for key, value in body.items() if key not in legacy}
        streaming = bool(body.get("stream"))
        return problems + _closest(sdk_problems((pair[1] if streaming else pair[0])(), body) for pair in targets)

    return check


def _closest(attempts: Iterable[list[str]]) -> list[str]:
    best: list[str] | None = None
    for problems in attempts:
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


# --- validation through pydantic, with lazy iterables forced --------------------------------


@functools.cache
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def sdk_problems(target: Any, body: Any, at: str = "") -> list[str]:
    """``body`` against the SDK type ``target``: type errors (pydantic, lazy iterables forced) plus
    undeclared keys (our own walk), each with its path under ``at``."""
    problems: list[str] = []
    try:
        value = _adapter(target).validate_python(body)
    except ValidationError as error:
        problems.extend(_format(error, at, body))
    else:
        _force(value, body, at, problems)
    problems.extend(_unknown_keys(target, body, at))
    return problems


def _format(error: ValidationError, at: str, value: Any = None) -> list[str]:
    """Readable problems from a ValidationError: union member tags (``list[union[...]]``,
    ``TextBlockParam``, a TypedDict's name) are dropped from paths, errors of union members whose ``type`` literal
    does not match the block are left out, and undeclared keys are left to the walk."""
    cleaned: list[tuple[tuple[str, ...], str, bool]] = []
    for detail in error.errors(include_url=False):
        if detail["type"] == "extra_forbidden":
            continue
        path, tags, current = at, [], value
        loc = detail["loc"]
        for position, key in enumerate(loc):
            if isinstance(key, int):
                path = join(path, key)
                current = current[key] if isinstance(current, list) and key < len(current) else None
            elif isinstance(current, Mapping) and key in current:
                path, current = join(path, key), current[key]
            elif position == len(loc) - 1 or not _looks_like_tag(key):
                path, current = join(path, key), None
            else:
                tags.append(f"{path}:{key}")
        wrong_member = detail["type"] == "literal_error" and loc[-1:] == ("type",) and bool(tags)
        cleaned.append((tuple(tags), f"{path or 'body'}: {detail['msg']}", wrong_member))
    mismatched = {tags for tags, _, wrong in cleaned if wrong}
    kept = [line for tags, line, _ in cleaned if not any(tags[: len(bad)] == bad for bad in mismatched)]
    kept = kept or [line for _, line, _ in cleaned]
    # "Input should be a valid string" from the str arm of a str-or-list union says nothing when
    # the list arm has found the real problem.
    specific = [line for line in kept if not _is_wrong_shape(line)]
    kept = specific or kept
    return list(dict.fromkeys(kept))[:_MAX_SHOWN]


def _is_wrong_shape(line: str) -> bool:
    return any(
        line.endswith(f"Input should be a valid {shape}")
        for shape in ("string", "list", "dictionary", "integer", "number", "boolean", "array")
    )


def _looks_like_tag(key: str) -> bool:
    """pydantic names union members in error paths by type: ``TextBlockParam``, ``list[...]``,
    ``str``, ``function-after[...]``."""
    return key[:1].isupper() or "[" in key or key in ("str", "int", "float", "bool", "none", "dict", "list")


def _force(value: Any, source: Any, at: str, problems: list[str]) -> None:
    """Iterate every lazy ``ValidatorIterator`` pydantic left in a validated value; ``source`` is
    the matching part of the input, for readable paths."""
    if isinstance(value, dict):
        for key, item in value.items():
            inner = source.get(key) if isinstance(source, Mapping) else None
            _force(item, inner, join(at, str(key)), problems)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            inner = source[index] if isinstance(source, list) and index < len(source) else None
            _force(item, inner, join(at, index), problems)
    elif type(value).__name__ == "ValidatorIterator":
        items: list[Any] = []
        try:
            for item in value:
                items.append(item)
        except ValidationError as error:
            problems.extend(_format(error, at, source))
        for index, item in enumerate(items):
            inner = source[index] if isinstance(source, list) and index < len(source) else None
            _force(item, inner, join(at, index), problems)


# --- the undeclared-key walk ------------------------------------------------------------------

_LISTS = (list, collections.abc.Iterable, collections.abc.Sequence, collections.abc.Collection)
_MAPS = (dict, collections.abc.Mapping)


def _oracle_fields(cls: type) -> dict[str, Any]:
    return sdk_fields(cls, by_name=True)


def _is_record(annotation: Any) -> bool:
    if typing_extensions.is_typeddict(annotation):  # the SDKs use typing_extensions' TypedDict
        return True
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _unknown_keys(annotation: Any, value: Any, at: str) -> list[str]:
    annotation = _unwrap(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return _unknown_in_union(typing.get_args(annotation), value, at)
    if isinstance(value, Mapping) and _is_record(annotation):
        return _unknown_in_record(annotation, value, at)
    if isinstance(value, Mapping) and (origin in _MAPS):
        args = typing.get_args(annotation)
        if len(args) == 2:
            return [p for key, item in value.items() for p in _unknown_keys(args[1], item, join(at, str(key)))]
    if isinstance(value, list) and (origin in _LISTS or getattr(origin, "__name__", "") == "SequenceNotStr"):
        args = typing.get_args(annotation)
        if args:
            return [p for index, item in enumerate(value) for p in _unknown_keys(args[0], item, join(at, index))]
    return []


def _unknown_in_record(cls: Any, value: Mapping[str, Any], at: str) -> list[str]:
    fields = _oracle_fields(cls)
    problems = []
    for key, item in value.items():
        if key not in fields:
            problems.append(f"{join(at, key)}: unknown key (not in {cls.__name__})")
        else:
            problems.extend(_unknown_keys(fields[key], item, join(at, key)))
    return problems


def _unknown_in_union(members: Sequence[Any], value: Any, at: str) -> list[str]:
    """The problems of the best-fitting member: one whose ``type`` literal matches first, then the
    one with fewest undeclared keys."""
    candidates = [m for m in (_unwrap(m) for m in members) if _could_hold(m, value)]
    for tag in ("type", "role"):
        if isinstance(value, Mapping) and tag in value:
            typed = [m for m in candidates if _record_tag_matches(m, tag, value[tag])]
            if typed:  # plain mappings (a JSON schema's ``dict[str, object]``) stay candidates
                candidates = typed + [m for m in candidates if not _is_record(m)]
    best: list[str] | None = None
    for member in candidates:
        problems = _unknown_keys(member, value, at)
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def _could_hold(annotation: Any, value: Any) -> bool:
    origin = typing.get_origin(annotation)
    if isinstance(value, Mapping):
        return _is_record(annotation) or origin in _MAPS or origin in (typing.Union, types.UnionType)
    if isinstance(value, list):
        return (
            origin in _LISTS
            or getattr(origin, "__name__", "") == "SequenceNotStr"
            or origin
            in (
                typing.Union,
                types.UnionType,
            )
        )
    return False


def _record_tag_matches(annotation: Any, key: str, tag: Any) -> bool:
    if not _is_record(annotation):
        return False
    field = _oracle_fields(annotation).get(key)
    if field is None:
        return False
    field = _unwrap(field)
    return typing.get_origin(field) is Literal and tag in typing.get_args(field)
