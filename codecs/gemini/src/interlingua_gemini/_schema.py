"""``generationConfig.responseSchema`` (Gemini's OpenAPI-subset Schema) <-> a JSON Schema, both directions.

Gemini takes a response schema in two fields: ``responseJsonSchema`` (JSON Schema, the IR's form)
and the older ``responseSchema`` (``google.genai.types.Schema``: OpenAPI 3.0 subset, enum type
names such as ``OBJECT``, and ``propertyOrdering``). A ``responseSchema`` that uses only the
keywords both share maps to ``ResponseFormat.json_schema`` so it reaches other vendors; its
spelling (upper or lower case type names, whether objects list ``propertyOrdering``, which here
must equal the order of ``properties``) is recorded so the same wire gets it back exactly.
Anything else (``nullable``, ``example``, ``$ref``, mixed case, an ordering that differs from the
properties) stays in ``provider_options["gemini"]``.
"""

from __future__ import annotations

from typing import Any

_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})
# Schema keywords with the same meaning in JSON Schema (google.genai.types.Schema's fields).
_SHARED = frozenset(
    {"type", "format", "description", "enum", "items", "properties", "required", "anyOf", "minimum", "maximum"}
    | {"minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties", "pattern", "title"}
    | {"default", "propertyOrdering"}
    # JSON Schema's own scalar keywords a tool's ``parameters`` may carry (the API refuses them
    # there: lingua exclusiveMinimumToolParam/google/error.json); kept so the types cross lowercased
    | {"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems"}
)
ORDERED = "ordered"


def decode_schema(schema: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(JSON Schema, spelling) for a ``responseSchema`` of the shared keywords, else None."""
    cases: set[str] = set()
    orderings: set[bool] = set()
    converted = _decode(schema, cases, orderings)
    if converted is None or len(cases) > 1 or len(orderings) > 1:
        return None
    spelling: dict[str, Any] = {"case": cases.pop() if cases else "upper"}
    if orderings == {True}:
        spelling[ORDERED] = True
    return converted, spelling


def _decode(node: Any, cases: set[str], orderings: set[bool]) -> dict[str, Any] | None:
    if not isinstance(node, dict) or not _SHARED.issuperset(node):
        return None
    out = dict(node)
    kind = node.get("type")
    if kind is not None:
        if not isinstance(kind, str) or kind.lower() not in _TYPES or kind not in (kind.upper(), kind.lower()):
            return None
        cases.add("upper" if kind == kind.upper() else "lower")
        out["type"] = kind.lower()
    if "items" in node:
        items = _decode(node["items"], cases, orderings)
        if items is None:
            return None
        out["items"] = items
    if "anyOf" in node:
        if not isinstance(node["anyOf"], list):
            return None
        any_of = [_decode(each, cases, orderings) for each in node["anyOf"]]
        if any(each is None for each in any_of):
            return None
        out["anyOf"] = any_of
    if "properties" in node:
        properties = node["properties"]
        if not isinstance(properties, dict):
            return None
        converted = {name: _decode(each, cases, orderings) for name, each in properties.items()}
        if any(each is None for each in converted.values()):
            return None
        out["properties"] = converted
        ordering = out.pop("propertyOrdering", None)
        if ordering is not None and ordering != list(properties):
            return None
        orderings.add(ordering is not None)
    elif "propertyOrdering" in node:
        return None
    return out


def encode_schema(schema: dict[str, Any], spelling: dict[str, Any]) -> dict[str, Any] | None:
    """The ``responseSchema`` a decoded one came from (its spelling applied), or None when the
    schema (changed since) has a keyword ``responseSchema`` does not share."""
    return _encode(schema, spelling.get("case") == "upper", spelling.get(ORDERED) is True)


def _encode(node: Any, upper: bool, ordered: bool) -> dict[str, Any] | None:
    if not isinstance(node, dict) or "propertyOrdering" in node or not _SHARED.issuperset(node):
        return None
    out = dict(node)
    kind = node.get("type")
    if kind is not None:
        if not isinstance(kind, str) or kind.lower() not in _TYPES:
            return None
        out["type"] = kind.upper() if upper else kind
    if "items" in node:
        items = _encode(node["items"], upper, ordered)
        if items is None:
            return None
        out["items"] = items
    if "anyOf" in node:
        any_of = (
            [_encode(each, upper, ordered) for each in node["anyOf"]] if isinstance(node["anyOf"], list) else [None]
        )
        if any(each is None for each in any_of):
            return None
        out["anyOf"] = any_of
    if "properties" in node:
        if not isinstance(node["properties"], dict):
            return None
        properties = {name: _encode(each, upper, ordered) for name, each in node["properties"].items()}
        if any(each is None for each in properties.values()):
            return None
        out["properties"] = properties
        if ordered:
            out["propertyOrdering"] = list(properties)
    return out
