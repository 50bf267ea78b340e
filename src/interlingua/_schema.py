"""JSON Schemas fitted to what one place on a wire takes (IR -> wire): the dialect, as data each
codec declares with its sources; the problems a schema has in it; and the least rewrite that
removes them, each change reported where it happened.

A codec names one :class:`SchemaDialect` per place a schema goes (tool input, strict tool input,
structured output) and calls :func:`fit_schema` where it writes the schema. A schema that already
fits is returned as the same object, untouched: what a wire accepted crosses back to it exactly.
Otherwise the rewrite first does what changes nothing a schema accepts (inline a ``$ref``, drop
the ``$defs`` nothing points to any more, carry a description that sat beside a ``$ref`` onto the
inlined schema, spell ``const`` as a one-value ``enum``), then the least it must (drop a keyword
the target refuses, relax ``exclusiveMinimum`` to ``minimum``, cut a recursion at a depth, close
an object, make an optional property required and nullable), with one ``LossyEncode`` per change
at its path (``tools[2].input_schema.properties.tags.propertyNames``).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ._warnings import WarningSink

PART_TYPE = "json_schema"
"""The ``part_type`` of every warning a schema rewrite gives."""

RECURSION_DEPTH = 3
"""How many times a recursive definition is unrolled where the target takes no recursion."""

# Keywords whose value is one subschema, a map of subschemas, or a list of them (2020-12 and
# draft-07 spellings both: ``definitions``, array-form ``items``, ``additionalItems``).
_ONE = ("items", "additionalProperties", "not", "propertyNames", "contains", "if", "then", "else")
_ONE_MORE = ("additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
_MAPS = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_DEFS = ("$defs", "definitions")
_HOLDERS = frozenset(_ONE + _ONE_MORE + _MAPS + _LISTS)  # the keywords that hold subschemas
_REFS = frozenset({"$ref", *_DEFS})
_COMBINED = frozenset({"anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not"})
_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment", "deprecated"})
# Identify the dialect or comment, and constrain no value: where a target does not list them they
# are left out without a warning, since nothing a schema accepts changes.
_INERT = frozenset({"$schema", "$comment"})


@dataclass(frozen=True)
class SchemaDialect:
    """The JSON Schema one place on one wire takes, each fact with its source in ``sources``
    (fact name -> page, or a sentence saying no page was found).

    ``keywords``: the keywords taken (None: any); ``refs``: local ``$ref``/``$defs`` taken;
    ``ref_siblings``: keywords taken beside a ``$ref`` (other than ``$``-keywords);
    ``recursion``: a definition may reach itself; ``closed_objects``: every object says
    ``additionalProperties: false``; ``all_required``: every property is required;
    ``root_object``: the root is an object schema; ``formats``: the string formats taken (None:
    any); ``min_items_at_most``: the largest ``minItems`` taken; ``max_depth``: object nesting
    levels; ``max_properties``/``max_enum_values``: totals over the schema.
    """

    name: str
    keywords: frozenset[str] | None = None
    refs: bool = True
    ref_siblings: bool = True
    recursion: bool = True
    closed_objects: bool = False
    all_required: bool = False
    root_object: bool = False
    formats: frozenset[str] | None = None
    min_items_at_most: int | None = None
    max_depth: int | None = None
    max_properties: int | None = None
    max_enum_values: int | None = None
    sources: Mapping[str, str] = field(default_factory=dict)
    notes: str = ""

    @functools.cached_property  # found once: building a dialect to compare with took 14 us an encoded tool
    def constrains(self) -> bool:
        """Whether this dialect refuses anything at all (an open one lets every schema pass)."""
        return self != SchemaDialect(self.name, sources=self.sources, notes=self.notes)

    @functools.cached_property
    def _taken(self) -> frozenset[str] | None:
        """Every keyword taken, as one set a node's keys are compared with at C speed; None when
        the dialect lists none (any keyword but a refused ``$ref``/``$defs`` is taken)."""
        if self.keywords is None:
            return None
        return (self.keywords - _REFS) | (_REFS if self.refs else frozenset())

    def takes_all(self, node: Mapping[str, Any]) -> bool:
        """Whether every keyword of ``node`` is taken (``takes`` of each, in one set test)."""
        taken = self._taken
        if taken is None:
            return self.refs or node.keys().isdisjoint(_REFS)
        return node.keys() <= taken

    @functools.cached_property
    def limits(self) -> bool:
        """Whether a node's own values are limited here (closed objects, required properties,
        formats, ``minItems``, nesting, totals); if not, a node is checked for its keywords alone."""
        limits = (self.formats, self.min_items_at_most, self.max_depth, self.max_properties, self.max_enum_values)
        return self.closed_objects or self.all_required or any(limit is not None for limit in limits)

    def takes(self, keyword: str) -> bool:
        if keyword in _REFS:
            return self.refs
        return self.keywords is None or keyword in self.keywords


def subschemas(node: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """(relative path, subschema) of each schema directly inside ``node``."""
    for key in _ONE + _ONE_MORE:
        if key in node:
            value = node[key]
            if isinstance(value, list):
                for i, each in enumerate(value):
                    yield f"{key}[{i}]", each
            else:
                yield key, value
    # ``is not None`` first: a Mapping test of an absent key's None is an ABC check, and most are absent
    for key in _MAPS:
        value = node.get(key)
        if value is not None and isinstance(value, Mapping):
            for name, each in value.items():
                yield f"{key}.{name}", each
    for key in _LISTS:
        value = node.get(key)
        if value is not None and isinstance(value, list):
            for i, each in enumerate(value):
                yield f"{key}[{i}]", each


def _join(at: str, rel: str) -> str:
    return f"{at}.{rel}" if at and rel else at or rel


def _resolve(root: Mapping[str, Any], ref: Any) -> tuple[str, Any] | None:
    """(definition key, schema) a local ``#/$defs/X`` (or ``#/definitions/X``, ``#``) names."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    if ref == "#":
        return "#", root
    parts = ref[2:].split("/") if ref.startswith("#/") else []
    node: Any = root
    for part in parts:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return (ref, node) if parts and isinstance(node, Mapping) else None


def _recursive_refs(root: Mapping[str, Any]) -> set[str]:
    """The refs whose definition can reach itself again through refs."""
    edges: dict[str, set[str]] = {}

    def refs_in(node: Any, found: set[str]) -> None:
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if isinstance(ref, str):
                found.add(ref)
            for _, each in subschemas(node):
                if not (isinstance(each, Mapping) and each is not node):
                    continue
                refs_in(each, found)

    def targets(ref: str) -> set[str]:
        if ref not in edges:
            edges[ref] = set()
            resolved = _resolve(root, ref)
            if resolved is not None:
                found: set[str] = set()
                body = resolved[1] if ref != "#" else {k: v for k, v in root.items() if k not in _DEFS}
                refs_in(body, found)
                edges[ref] = found
        return edges[ref]

    every: set[str] = set()
    refs_in(root, every)
    recursive: set[str] = set()
    for start in every:
        seen: set[str] = set()
        todo = list(targets(start))
        while todo:
            ref = todo.pop()
            if ref == start:
                recursive.add(start)
                break
            if ref not in seen:
                seen.add(ref)
                todo.extend(targets(ref))
    return recursive


def schema_problems(schema: Any, dialect: SchemaDialect) -> list[tuple[str, str]]:
    """(path under the schema, problem) for each thing ``dialect`` does not take in ``schema``;
    ``[]`` when it fits. The rule checker and :func:`fit_schema` ask this one function."""
    if not isinstance(schema, Mapping):
        return [("", "not a schema object")]
    problems: list[tuple[str, str]] = []
    totals = {"properties": 0, "enum": 0}
    if dialect.root_object and schema.get("type") != "object":
        problems.append(("", "the root is not an object schema"))
    recursive = _recursive_refs(schema) if not dialect.recursion else set()
    for ref in sorted(recursive):
        problems.append(("", f"recursive $ref {ref} (no recursion taken)"))
    _node_problems(schema, "", 0, dialect, problems, totals)
    if dialect.max_properties is not None and totals["properties"] > dialect.max_properties:
        problems.append(("", f"{totals['properties']} properties (at most {dialect.max_properties})"))
    if dialect.max_enum_values is not None and totals["enum"] > dialect.max_enum_values:
        problems.append(("", f"{totals['enum']} enum values (at most {dialect.max_enum_values})"))
    return problems


def _node_problems(
    node: Any, at: str, depth: int, dialect: SchemaDialect, problems: list[tuple[str, str]], totals: dict[str, int]
) -> None:
    if type(node) is not dict and not isinstance(node, Mapping):  # a dict skips the ABC check
        return
    if not dialect.takes_all(node):
        for key in node:
            if not dialect.takes(key):
                problems.append((_join(at, key), f"keyword {key} not taken"))
    if "$ref" in node:
        if not dialect.ref_siblings and any(not key.startswith("$") for key in node):
            problems.append((at, "keywords beside a $ref"))
        if dialect.refs and _resolve_any(node["$ref"]) is None:
            problems.append((_join(at, "$ref"), f"unresolvable $ref {node['$ref']!r}"))
    level = depth
    if dialect.limits:  # the checks of a node's own values, for a dialect that has any
        level = _limit_problems(node, at, depth, dialect, problems, totals)
        if level < 0:
            return
    if node.keys().isdisjoint(_HOLDERS):  # a leaf (most nodes): no subschema to walk
        return
    for rel, each in subschemas(node):
        inner = 0 if rel.startswith(_DEFS) else level
        _node_problems(each, _join(at, rel), inner, dialect, problems, totals)


def _limit_problems(
    node: Mapping[str, Any],
    at: str,
    depth: int,
    dialect: SchemaDialect,
    problems: list[tuple[str, str]],
    totals: dict[str, int],
) -> int:
    """A node held to the dialect's limits (closed objects, required properties, formats,
    ``minItems``, nesting, totals); the object nesting level below it, or -1 where the nesting
    is too deep to walk further."""
    is_object = _is_object(node)
    raw = node.get("properties")
    properties: Mapping[str, Any] = raw if raw is not None and isinstance(raw, Mapping) else {}
    if is_object and dialect.closed_objects and node.get("additionalProperties") is not False:
        problems.append((at, "an object without additionalProperties: false"))
    if dialect.all_required and properties:
        listed = node.get("required")
        required: list[Any] = listed if isinstance(listed, list) else []
        for name in properties:
            if name not in required:
                problems.append((_join(at, f"properties.{name}"), "an optional property (all must be required)"))
    fmt = node.get("format")
    formats = dialect.formats
    if isinstance(fmt, str) and formats is not None and dialect.takes("format") and fmt not in formats:
        problems.append((_join(at, "format"), f"string format {fmt!r} not taken"))
    min_items = node.get("minItems")
    most = dialect.min_items_at_most
    if most is not None and isinstance(min_items, int) and min_items > most:
        problems.append((_join(at, "minItems"), f"minItems {min_items} (at most {most})"))
    level = depth + 1 if is_object else depth
    if dialect.max_depth is not None and level > dialect.max_depth and is_object:
        problems.append((at, f"{level} levels of object nesting (at most {dialect.max_depth})"))
        return -1
    totals["properties"] += len(properties)
    if isinstance(node.get("enum"), list):
        totals["enum"] += len(node["enum"])
    return level


def _is_object(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def _resolve_any(ref: Any) -> str | None:
    return ref if isinstance(ref, str) and ref.startswith("#") else None


def fit_schema(schema: dict[str, Any], dialect: SchemaDialect, at: str, out: WarningSink) -> dict[str, Any]:
    """``schema`` as ``dialect`` takes it: the same object when it already fits; else a rewritten
    copy, each change that alters what it accepts reported to ``out`` at ``{at}.{path}``."""
    if not dialect.constrains or not schema_problems(schema, dialect):
        return schema
    return _Fitter(dialect, at, out).fit(copy.deepcopy(schema))


class _Fitter:
    def __init__(self, dialect: SchemaDialect, at: str, out: WarningSink) -> None:
        self.dialect = dialect
        self.at = at
        self.out = out

    def warn(self, rel: str, why: str, *, action: Literal["dropped", "converted"] = "dropped") -> None:
        self.out.lossy(_join(self.at, rel), PART_TYPE, why, action=action)

    def fit(self, schema: dict[str, Any]) -> dict[str, Any]:
        fitted: dict[str, Any] = self._fit(schema)
        return fitted

    def _fit(self, schema: dict[str, Any]) -> Any:
        dialect = self.dialect
        recursive = _recursive_refs(schema)
        if not dialect.refs or (recursive and not dialect.recursion):
            schema = self._inline_all(schema, schema, "", (), recursive)
            schema = {key: value for key, value in schema.items() if key not in _DEFS}
        elif not dialect.ref_siblings:
            schema = self._inline_beside(schema, schema)
        if dialect.root_object and isinstance(schema.get("$ref"), str) and dialect.refs:
            resolved = _resolve(schema, schema["$ref"])
            if resolved is not None and resolved[0] != "#":
                rest = {key: value for key, value in schema.items() if key != "$ref"}
                schema = {**copy.deepcopy(resolved[1]), **rest}
        if dialect.root_object and schema.get("type") is None and not schema.keys() & _COMBINED:
            schema["type"] = "object"  # a tool's input (and a strict format's root) is an object by rule
        return self._node(schema, "", 0)

    # --- $ref: inlined where the dialect takes no refs, no recursion or no siblings ----------------

    def _inline_all(
        self, node: Any, root: dict[str, Any], rel: str, stack: tuple[str, ...], recursive: set[str]
    ) -> Any:
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            resolved = _resolve(root, ref)
            if resolved is None:
                self.warn(_join(rel, "$ref"), f"the $ref {ref!r} does not resolve; any value is taken in its place")
                return {key: value for key, value in node.items() if key != "$ref"}
            if stack.count(ref) >= RECURSION_DEPTH:
                self.warn(rel, f"recursion through {ref} cut after {RECURSION_DEPTH} levels; any value taken below")
                return {}
            target = resolved[1] if ref != "#" else {k: v for k, v in root.items() if k not in _DEFS}
            merged = {**copy.deepcopy(target), **{k: v for k, v in node.items() if k != "$ref"}}
            self._note_clash(target, node, rel)
            return self._inline_all(merged, root, rel, (*stack, ref), recursive)
        # every ref is resolved against the root, so no definition is needed (or walked) below
        bare = {key: value for key, value in node.items() if key not in _DEFS}
        return self._map_children(
            bare, lambda each, sub: self._inline_all(each, root, _join(rel, sub), stack, recursive)
        )

    def _inline_beside(self, node: Any, root: dict[str, Any], stack: tuple[str, ...] = ()) -> Any:
        """Only a ``$ref`` with keywords beside it is inlined (the definitions stay); a ref met
        again inside its own inlining is left as a ref, so a recursion stays one."""
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in stack and any(not key.startswith("$") for key in node):
            resolved = _resolve(root, ref)
            if resolved is not None and ref != "#":
                self._note_clash(resolved[1], node, "")
                node = {**copy.deepcopy(resolved[1]), **{k: v for k, v in node.items() if k != "$ref"}}
                stack = (*stack, ref)
        return self._map_children(node, lambda each, sub: self._inline_beside(each, root, stack))

    def _note_clash(self, target: Mapping[str, Any], beside: Mapping[str, Any], rel: str) -> None:
        for key in sorted(beside.keys() & target.keys() - _ANNOTATIONS - {"$ref"}):
            if beside[key] != target[key]:
                self.warn(_join(rel, key), f"{key} beside the $ref replaces the definition's own", action="converted")

    @staticmethod
    def _map_children(node: dict[str, Any], fix: Callable[[Any, str], Any]) -> dict[str, Any]:
        out = dict(node)
        for key in _ONE + _ONE_MORE:
            if isinstance(node.get(key), dict):
                out[key] = fix(node[key], key)
            elif isinstance(node.get(key), list):
                out[key] = [fix(each, f"{key}[{i}]") for i, each in enumerate(node[key])]
        for key in _MAPS:
            if isinstance(node.get(key), dict):
                out[key] = {name: fix(each, f"{key}.{name}") for name, each in node[key].items()}
        for key in _LISTS:
            if isinstance(node.get(key), list):
                out[key] = [fix(each, f"{key}[{i}]") for i, each in enumerate(node[key])]
        return out

    # --- one node: keywords, objects, formats, limits -------------------------------------------

    def _node(self, node: Any, rel: str, depth: int) -> Any:
        if not isinstance(node, dict):
            return node
        dialect = self.dialect
        node = self._respell(node, rel)
        for key in list(node):
            if not dialect.takes(key):
                del node[key]
                if key in _INERT:
                    continue
                self.warn(_join(rel, key), f"{key} is not taken by {dialect.name}; dropped")
        fmt = node.get("format")
        if isinstance(fmt, str) and dialect.formats is not None and fmt not in dialect.formats:
            del node["format"]
            self.warn(_join(rel, "format"), f"the string format {fmt!r} is not taken by {dialect.name}; dropped")
        min_items = node.get("minItems")
        most = dialect.min_items_at_most
        if most is not None and isinstance(min_items, int) and min_items > most:
            del node["minItems"]
            self.warn(_join(rel, "minItems"), f"minItems above {most} is not taken; dropped")
        is_object = _is_object(node)
        level = depth + 1 if is_object else depth
        if dialect.max_depth is not None and is_object and level > dialect.max_depth:
            self.warn(rel, f"object nesting beyond {dialect.max_depth} levels is not taken; any value taken here")
            return {}
        if is_object:
            self._close(node, rel)
        return self._map_children(
            node, lambda each, sub: self._node(each, _join(rel, sub), 0 if sub.startswith(_DEFS) else level)
        )

    def _respell(self, node: dict[str, Any], rel: str) -> dict[str, Any]:
        """What has a spelling the target takes: const as a one-value enum (same meaning), oneOf
        as anyOf and an exclusive bound as an inclusive one (each wider, so warned)."""
        dialect = self.dialect
        if "const" in node and not dialect.takes("const") and dialect.takes("enum") and "enum" not in node:
            node["enum"] = [node.pop("const")]
        if "oneOf" in node and not dialect.takes("oneOf") and dialect.takes("anyOf") and "anyOf" not in node:
            node["anyOf"] = node.pop("oneOf")
            why = "oneOf sent as anyOf: a value matching two branches is no longer refused"
            self.warn(_join(rel, "oneOf"), why, action="converted")
        for exclusive, inclusive in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            bound = node.get(exclusive)
            if bound is None or dialect.takes(exclusive) or not dialect.takes(inclusive):
                continue
            if isinstance(bound, int | float) and not isinstance(bound, bool) and inclusive not in node:
                node[inclusive] = node.pop(exclusive)
                why = f"{exclusive} relaxed to {inclusive}: the bound itself is now taken"
                self.warn(_join(rel, exclusive), why, action="converted")
        return node

    def _close(self, node: dict[str, Any], rel: str) -> None:
        dialect = self.dialect
        if dialect.closed_objects and node.get("additionalProperties") is not False:
            node["additionalProperties"] = False
            why = "objects must be closed here: keys beyond the properties are no longer taken"
            self.warn(_join(rel, "additionalProperties"), why, action="converted")
        properties = node.get("properties")
        if not (dialect.all_required and isinstance(properties, dict)):
            return
        required = list(node["required"]) if isinstance(node.get("required"), list) else []
        for name in properties:
            if name not in required:
                required.append(name)
                properties[name] = _nullable(properties[name])
                why = "optional property made required and nullable (every property must be required here)"
                self.warn(_join(rel, f"properties.{name}"), why, action="converted")
        node["required"] = required


def _nullable(schema: Any) -> Any:
    """``schema`` or null: the documented spelling of an optional property where all are required."""
    if not isinstance(schema, dict):
        return schema
    kind = schema.get("type")
    if isinstance(kind, str) and "$ref" not in schema and "enum" not in schema and "const" not in schema:
        return {**schema, "type": [kind, "null"]} if kind != "null" else schema
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if isinstance(schema.get("anyOf"), list) and len(schema) == 1:
        branches = schema["anyOf"]
        return schema if {"type": "null"} in branches else {"anyOf": [*branches, {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}
