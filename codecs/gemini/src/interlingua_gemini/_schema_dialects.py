"""The JSON Schema each place on the gemini wire takes (data, each fact with its source), and
where a request body holds its schemas.

Gemini takes a schema in two spellings: the JSON Schema fields (``parametersJsonSchema``,
``responseJsonSchema``), which this codec writes, and the older OpenAPI-subset ``Schema``
(``parameters``, ``responseSchema``), written only to give a request decoded from it back as it
came (see ``_schema``). The OpenAPI subset is listed here for the docs; it is not fitted to.
No catalog model family differs in what the JSON Schema fields take (the SDK documents one list).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import SchemaDialect

_SDK = "google/genai/types.py (GenerationConfig.response_json_schema docstring)"
_PAGE = "https://ai.google.dev/gemini-api/docs/structured-output"

JSON_SCHEMA = SchemaDialect(
    name="Gemini JSON Schema",
    keywords=frozenset(
        {"$id", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems"}
        | {"minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties"}
        | {"additionalProperties", "required", "propertyOrdering", "default"}
    ),
    refs=True,
    ref_siblings=True,
    recursion=True,
    sources={
        "keywords": f"{_SDK}: only $id, $defs, $ref, $anchor, type, format, title, description, enum, items, "
        f"prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf (as anyOf), properties, "
        f"additionalProperties, required, and propertyOrdering are supported; {_PAGE}; default too: recorded "
        f"accepted requests (pydantic-ai corpus test_google_recursive_schema_native_output, "
        f"test_google_discriminated_union_native_output) carry it, and an accepted request outranks the list",
        "ref_siblings": f"{_SDK} says beside a $ref no other property may be set except those starting with $, "
        "but a recorded accepted request (pydantic-ai corpus test_google_recursive_schema_native_output) has "
        "a title beside its root $ref, and an accepted request outranks the docstring",
        "recursion": f"{_SDK}: cyclic references are unrolled to a limited degree and only within "
        "non-required properties (not checked here)",
        "tools": "parametersJsonSchema: the SDK's FunctionDeclaration docstring lists no subset of its own; "
        "the responseJsonSchema list is applied to it too",
    },
    notes="parametersJsonSchema and responseJsonSchema",
)

OPENAPI = SchemaDialect(
    name="Gemini OpenAPI Schema",
    keywords=frozenset(
        {"type", "format", "title", "description", "nullable", "enum", "items", "minItems", "maxItems"}
        | {"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern"}
        | {"example", "anyOf", "propertyOrdering", "default", "minimum", "maximum"}
    ),
    refs=False,
    sources={
        "keywords": "google/genai/types.py (class Schema: a select subset of an OpenAPI 3.0 schema object; "
        "its fields); https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Schema; "
        "recorded 400 'Unknown name \"exclusiveMinimum\"' (lingua corpus exclusiveMinimumToolParam/google)",
    },
    notes="parameters and responseSchema: only a request decoded from them is written back so",
)

DIALECTS = {"tool input": JSON_SCHEMA, "structured output": JSON_SCHEMA, "legacy parameters/responseSchema": OPENAPI}
"""Each place a schema goes on this wire, and its dialect (for docs/schemas.md)."""


def schemas_in(body: Mapping[str, Any], model: str | None = None) -> list[tuple[str, Any, SchemaDialect]]:
    """(path, schema, dialect) of each JSON Schema in a generateContent body."""
    found: list[tuple[str, Any, SchemaDialect]] = []
    tools = body.get("tools")
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        declarations = tool.get("functionDeclarations") if isinstance(tool, Mapping) else None
        for j, declaration in enumerate(declarations if isinstance(declarations, list) else []):
            if isinstance(declaration, Mapping) and "parametersJsonSchema" in declaration:
                at = f"tools[{i}].functionDeclarations[{j}].parametersJsonSchema"
                found.append((at, declaration["parametersJsonSchema"], JSON_SCHEMA))
    config = body.get("generationConfig")
    if isinstance(config, Mapping) and "responseJsonSchema" in config:
        found.append(("generationConfig.responseJsonSchema", config["responseJsonSchema"], JSON_SCHEMA))
    return found
