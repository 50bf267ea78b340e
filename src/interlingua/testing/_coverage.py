"""The field-coverage contract: every key of a vendor SDK's types, and where a codec says it goes.

A codec declares, per wire, a table ``path -> (where, note)`` (:data:`Declaration`). The walk
here reads the SDK's own types (TypedDict keys, pydantic fields by their wire alias) recursively
through unions, lists and wrappers, and names every key by its path:

- ``messages[].content`` a key inside each element of a list;
- ``messages[].content[text].citations`` inside the list element whose tag key (``type``, or
  ``role`` where messages are told apart by role) is ``"text"``;
- ``tool_choice(tool).name`` inside the union member tagged ``"tool"`` of a single value.

A tag key itself is not listed (its member's keys stand for it); a free-form map (``dict[str, X]``)
is one key. A wire described by a service model rather than SDK classes is walked through its
shapes (:func:`sdk_paths` takes a shape too): a structure's members are keys, a union structure's
members too (its one key names the member, as in ``content[].text``), a list adds ``[]``, and a map
or a document (free-form JSON) is one key. A declaration row is a path, ``[*]`` / ``(*)`` match any
tag (``[]`` none), and a row ending in ``.*`` covers its key and everything under it (a subtree
kept verbatim); a more specific row under it wins.
:func:`coverage_problems` names every SDK key no row covers and every row no SDK key matches (a
stale row, after an SDK release removed the key), so a new vendor field fails a test, by path.
"""

from __future__ import annotations

import collections.abc
import functools
import re
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeAlias

import typing_extensions
from pydantic import BaseModel

from .._codec import Codec, Endpoint
from .._warnings import LossyEncode, ModelWarning, UnsupportedSetting
from ._sdk_types import sdk_fields as _fields
from ._sdk_types import unwrap

Where: TypeAlias = Literal["ir", "replay", "meaning", "native", "provider_option", "warned", "transport"]
"""Where a wire key goes when decoded: ``ir`` (an IR field, named in the note, e.g.
``Request.temperature``), ``replay`` (a ProviderEcho of the part, message or response, replayed to
the same vendor only: opaque and bound to the vendor and model, a signature, encrypted reasoning,
an item id, the vendor's own record of the call; its meaning, if any, crosses separately, so
another wire leaves it out without a word), ``meaning`` (a block's field whose sense another
wire can carry: it maps to the IR field named in the note, which every other codec either
writes or reports dropped with a warning at its path; the spelling may still ride in the echo
for an exact round trip), ``native`` (inside a ``Native`` part or ``NativeTool``, verbatim), ``provider_option``
(``Request.provider_options[provider]``, verbatim, same wire only), ``warned`` (refused or dropped
with a typed warning) or ``transport`` (SDK/HTTP plumbing, not part of a conversation)."""

WHERE: tuple[Where, ...] = typing.get_args(Where)

Declaration: TypeAlias = Mapping[str, tuple[Where, str]]
"""path -> (where, note): one codec's coverage of one wire type tree."""

_LISTS = (list, collections.abc.Iterable, collections.abc.Sequence, collections.abc.Collection, tuple)
_MAPS = (dict, collections.abc.Mapping)
_TAG_KEYS = ("type", "role")


def sdk_paths(root: Any) -> set[str]:
    """Every key path of ``root``: an SDK type (TypedDict, pydantic model, or a union of them), or
    a mapping ``key -> annotation`` for a wire whose body has no single SDK type."""
    found: set[str] = set()
    if isinstance(root, Mapping):
        for key, annotation in root.items():
            _walk(annotation, key, found, ())
    else:
        _walk(root, "", found, ())
    return found


def _walk(annotation: Any, path: str, found: set[str], seen: tuple[Any, ...], tag: str = "") -> None:
    if _is_shape(annotation):
        _walk_shape(annotation, path, found, seen)
        return
    annotation = _unwrap_known(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = [m for m in (_unwrap_known(a) for a in typing.get_args(annotation)) if m is not type(None)]
        for member in members:
            member_tag = _tag(member) if len(members) > 1 else None
            if member_tag is None:
                _walk(member, path, found, seen)
            elif path.endswith("[]"):
                _walk(member, f"{path[:-2]}[{member_tag}]", found, seen, member_tag)
            else:
                _walk(member, f"{path}({member_tag})", found, seen, member_tag)
        return
    if origin in _LISTS:
        args = typing.get_args(annotation)
        if args:
            _walk(args[0], f"{path}[]", found, seen)
        elif path:
            found.add(path)
        return
    if _is_record(annotation):
        if annotation in seen:  # a recursive type (a JSON schema, a nested part): listed once, above
            found.add(path.removesuffix("[]"))
            return
        for key, field in _fields(annotation).items():
            if tag and key in _TAG_KEYS and _literal(field) == (tag,):
                continue
            _walk(field, f"{path}.{key}" if path else key, found, (*seen, annotation))
        return
    if path:  # a scalar, a Literal, a free-form map, or a list of those
        found.add(path.removesuffix("[]"))


def _is_shape(annotation: Any) -> bool:
    """A service model's shape: an object naming its kind in ``type_name`` (``structure``,
    ``list``, ``map``, or a scalar such as ``string`` or ``blob``)."""
    return isinstance(getattr(annotation, "type_name", None), str) and not isinstance(annotation, type)


def _walk_shape(shape: Any, path: str, found: set[str], seen: tuple[Any, ...]) -> None:
    kind = shape.type_name
    if kind == "list":
        _walk_shape(shape.member, f"{path}[]", found, seen)
        return
    if kind == "structure" and not shape.metadata.get("document"):
        if shape.name in seen:  # a recursive shape: listed once, above
            found.add(path.removesuffix("[]"))
            return
        if not shape.members and path:  # a marker object, ``{}``: the key is all it says
            found.add(path.removesuffix("[]"))
        for key, member in shape.members.items():
            _walk_shape(member, f"{path}.{key}" if path else key, found, (*seen, shape.name))
        return
    if path:  # a scalar, a free-form map, or a document (any JSON)
        found.add(path.removesuffix("[]"))


def _is_record(annotation: Any) -> bool:
    if typing_extensions.is_typeddict(annotation):
        return True
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _literal(annotation: Any) -> tuple[Any, ...] | None:
    annotation = _unwrap_known(annotation)
    return typing.get_args(annotation) if typing.get_origin(annotation) is Literal else None


def _tag(annotation: Any) -> str | None:
    """The single literal value of a record's ``type`` (else ``role``) key, if it has one."""
    if not _is_record(annotation):
        return None
    fields = _fields(annotation)
    for key in _TAG_KEYS:
        values = _literal(fields[key]) if key in fields else None
        if values is not None and len(values) == 1 and isinstance(values[0], str):
            return values[0]
    return None


# --- declarations against the walk ---------------------------------------------------------------


@functools.cache
def _pattern(row: str) -> re.Pattern[str]:
    subtree = row.endswith(".*")
    body = row[:-2] if subtree else row
    text = re.escape(body).replace(r"\[\*\]", r"\[[^\]]+\]").replace(r"\(\*\)", r"\([^)]+\)")
    return re.compile(text + (r"(?:[.\[(].*)?" if subtree else ""))


def covering(declaration: Declaration, path: str) -> str | None:
    """The row that covers ``path``: the exact row, else the longest matching one (the most
    specific, as a ``[tag]`` row is longer than its ``[*]`` twin)."""
    if path in declaration:
        return path
    hits = [row for row in declaration if _pattern(row).fullmatch(path)]
    return max(hits, key=len) if hits else None


def coverage_problems(declaration: Declaration, found: Iterable[str]) -> list[str]:
    """Every SDK key no row covers, and every row that covers no SDK key, each named by path."""
    found = sorted(set(found))
    used: set[str] = set()
    problems = []
    for path in found:
        row = covering(declaration, path)
        if row is None:
            problems.append(f"{path}: not declared (where does this SDK key go?)")
        else:
            used.add(row)
    for row, (where, _) in declaration.items():
        if where not in WHERE:
            problems.append(f"{row}: unknown destination {where!r} (one of {', '.join(WHERE)})")
        if row not in used and not any(_pattern(row).fullmatch(path) for path in found):
            problems.append(f"{row}: declared, but the SDK has no such key (stale)")
    return problems


# --- each decoded key, through every other codec -------------------------------------------------

Outcome: TypeAlias = Literal["carried", "warned", "silent"]
"""What a target codec did with a source key: its body (or URL) changed, it warned at the key's
IR path, or neither (a silent drop)."""


def probe_outcome(
    source: Codec,
    target: Codec,
    body: Mapping[str, Any],
    without: Mapping[str, Any],
    at: str,
    *,
    model: str | None = None,
    endpoint: Endpoint | None = None,
) -> Outcome:
    """Decode ``body`` and ``without`` (the same request without the key) with ``source``, encode
    both with ``target`` (for ``model`` when given, the target's own; to ``endpoint``, whose
    settings a codec may need to build its URL), and compare: a different HTTP request (URL or
    body) means the key was carried; otherwise a warning the bare request did not get, at ``at``
    or under it, means it was reported, and so does a warning that the whole of what sits at ``at``
    was not sent (a part dropped, a setting refused), which takes the key with it even where the
    bare request lost the same; anything else is a silent drop."""
    keyed, bare = source.decode_request(body), source.decode_request(without)
    if model is not None:
        keyed, bare = keyed.model_copy(update={"model": model}), bare.model_copy(update={"model": model})
    endpoint = endpoint or Endpoint(api_key="coverage-probe")
    sent = [target.http_request(r, stream=False, endpoint=endpoint) for r in (keyed, bare)]
    if (sent[0].url, dict(sent[0].json)) != (sent[1].url, dict(sent[1].json)):
        return "carried"
    before = {(w.kind, w.path, w.message) for w in target.encode_request(bare).warnings}
    for warning in target.encode_request(keyed).warnings:
        if warning.path == at and _not_sent(warning):
            return "warned"
        if (warning.kind, warning.path, warning.message) in before:
            continue
        if warning.path == at or warning.path.startswith((f"{at}.", f"{at}[")):
            return "warned"
    return "silent"


def _not_sent(warning: ModelWarning) -> bool:
    """The warning says its path was left out whole: a part dropped, or a setting not sent."""
    return isinstance(warning, UnsupportedSetting) or (isinstance(warning, LossyEncode) and warning.action == "dropped")


def response_outcome(
    source: Codec, target: Codec, body: Mapping[str, Any], without: Mapping[str, Any], at: str
) -> Outcome:
    """The same verdict for a response field, through ``decode_response`` and ``encode_response``."""
    keyed, bare = (
        target.encode_response(source.decode_response(body)),
        target.encode_response(source.decode_response(without)),
    )
    if keyed.body != bare.body:
        return "carried"
    before = {(w.kind, w.path, w.message) for w in bare.warnings}
    hit = any(
        (w.path == at and _not_sent(w))
        or ((w.kind, w.path, w.message) not in before and (w.path == at or w.path.startswith((f"{at}.", f"{at}["))))
        for w in keyed.warnings
    )
    return "warned" if hit else "silent"


def _unwrap_known(annotation: Any) -> Any:
    """:func:`unwrap`, and a forward reference the SDK never resolved read as ``Any``."""
    annotation = unwrap(annotation)
    return Any if isinstance(annotation, typing.ForwardRef) else annotation
