"""The core's schema fitting (interlingua.kit.fit_schema) on dialects written here: what it
leaves alone, what it rewrites silently because nothing accepted changes, and what it changes
with a warning at the path."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua.kit import SchemaDialect, WarningSink, fit_schema, schema_problems

NO_REFS = SchemaDialect("acme no refs", refs=False)
NO_SIBLINGS = SchemaDialect("acme", ref_siblings=False)
NO_RECURSION = SchemaDialect("acme", recursion=False)
SMALL = SchemaDialect("acme small", keywords=frozenset({"type", "properties", "enum", "minimum", "required"}))
STRICT = SchemaDialect("acme strict", closed_objects=True, all_required=True)


def fit(schema: dict, dialect: SchemaDialect) -> tuple[dict, list[tuple[str, str]]]:
    out = WarningSink("acme")
    fitted = fit_schema(schema, dialect, "tools[0].input_schema", out)
    return fitted, [(w.path, w.action) for w in out.warnings]  # type: ignore[union-attr]  # all LossyEncode


def test_a_schema_that_fits_is_the_same_object() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    out = WarningSink("acme")
    assert fit_schema(schema, SMALL, "tools[0].input_schema", out) is schema and out.warnings == []


def test_refs_are_inlined_and_the_definitions_dropped_without_a_warning() -> None:
    schema = {"$defs": {"A": {"type": "string"}}, "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}
    assert fit(schema, NO_REFS) == ({"type": "object", "properties": {"a": {"type": "string"}}}, [])


def test_a_description_beside_a_ref_moves_onto_the_inlined_schema() -> None:
    schema = {
        "$defs": {"A": {"type": "string", "description": "old"}},
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A", "description": "new"}},
    }
    fitted, warnings = fit(schema, NO_SIBLINGS)
    assert fitted["properties"]["a"] == {"type": "string", "description": "new"} and warnings == []
    assert schema_problems(fitted, NO_SIBLINGS) == []


def test_recursion_is_cut_after_three_levels_with_one_warning() -> None:
    schema = {
        "$defs": {
            "Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}
        },
        "$ref": "#/$defs/Node",
    }
    fitted, warnings = fit(schema, NO_RECURSION)
    deep = fitted["properties"]["kids"]["items"]["properties"]["kids"]["items"]["properties"]["kids"]["items"]
    assert deep == {}
    cut = "tools[0].input_schema" + ".properties.kids.items" * 3
    assert warnings == [(cut, "dropped")]
    assert schema_problems(fitted, NO_RECURSION) == []


def test_keywords_are_dropped_const_becomes_enum_and_exclusive_bounds_relax() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "exclusiveMinimum": 0},
            "k": {"const": "x"},
            "tags": {"type": "object", "propertyNames": {"pattern": "^a"}},
        },
    }
    fitted, warnings = fit(schema, SMALL)
    n, k, tags = {"type": "integer", "minimum": 0}, {"enum": ["x"]}, {"type": "object"}
    assert fitted["properties"] == {"n": n, "k": k, "tags": tags}
    assert warnings == [
        ("tools[0].input_schema.properties.n.exclusiveMinimum", "converted"),
        ("tools[0].input_schema.properties.tags.propertyNames", "dropped"),
    ]


def test_strict_objects_are_closed_and_optional_properties_made_required_and_nullable() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]}
    fitted, warnings = fit(schema, STRICT)
    assert fitted == {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}},
        "required": ["a", "b"],
        "additionalProperties": False,
    }
    assert warnings == [
        ("tools[0].input_schema.additionalProperties", "converted"),
        ("tools[0].input_schema.properties.b", "converted"),
    ]


_KEYS = ["type", "properties", "items", "$ref", "$defs", "anyOf", "oneOf", "required", "additionalProperties"]
_KEYS += ["const", "enum", "exclusiveMinimum", "minimum", "format", "minItems", "propertyNames", "definitions"]
_LEAVES = st.sampled_from([None, 1, "x", True, [], {}, ["a"], "#/$defs/A", "#", "#/properties/a", "object", -1.5])
_SCHEMAS = st.recursive(
    st.dictionaries(st.sampled_from(_KEYS), _LEAVES, max_size=3),
    lambda inner: st.dictionaries(
        st.sampled_from(_KEYS),
        st.one_of(
            _LEAVES, inner, st.lists(inner, max_size=2), st.dictionaries(st.sampled_from("aAb"), inner, max_size=2)
        ),
        max_size=4,
    ),
    max_leaves=12,
)
_DIALECTS = [NO_REFS, NO_SIBLINGS, NO_RECURSION, SMALL, STRICT]


@settings(max_examples=300, deadline=None)
@given(_SCHEMAS, st.sampled_from(_DIALECTS))
def test_any_schema_fits_and_the_callers_schema_is_never_changed(schema: dict, dialect: SchemaDialect) -> None:
    before = copy.deepcopy(schema)
    fitted = fit_schema(schema, dialect, "tools[0].input_schema", WarningSink("acme"))
    assert isinstance(fitted, dict) and schema == before
