"""The JSON Schema each place on the two OpenAI wires takes (data, each fact with its source),
shared by openai-chat and openai-responses, and where a request body holds its schemas.

Only strict schemas are held to a dialect: a function tool or response format with ``strict``
true (Chat: ``tools[].function.strict``, ``response_format.json_schema.strict``; Responses:
``tools[].strict``, ``text.format.strict``). A non-strict schema is a hint to the model that the
API does not compile, and no page lists keywords it refuses, so it passes as written. No model
family in the catalog differs: the structured-outputs page states one subset for every model
that supports strict mode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import SchemaDialect

_PAGE = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"

STRICT = SchemaDialect(
    name="OpenAI strict mode",
    keywords=frozenset(
        {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf"}
        | {"description", "title", "pattern", "format", "multipleOf", "minimum", "maximum"}
        | {"exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"}
    ),
    refs=True,
    ref_siblings=False,
    recursion=True,
    closed_objects=True,
    all_required=True,
    root_object=True,
    max_depth=10,
    max_properties=5000,
    max_enum_values=1000,
    sources={
        "keywords": f"{_PAGE} (supported types and properties: string pattern/format, number "
        "multipleOf/minimum/maximum/exclusive bounds, array minItems/maxItems, anyOf, enum); "
        "'default' refused: recorded 400 \"In context=('properties', ...), 'default' is not permitted\" "
        "(https://zenn.dev/nicopin/scraps/a8d8f53f5faebb)",
        "refs": f"{_PAGE} (definitions with $defs and recursive schemas are supported)",
        "ref_siblings": "openai/lib/_pydantic.py (the SDK's to_strict_json_schema: \"we can't use $ref "
        "with other properties\", so it inlines such a $ref)",
        "closed_objects": f"{_PAGE} (additionalProperties: false must always be set in objects)",
        "all_required": f"{_PAGE} (all fields must be required; an optional one is a union with null); "
        "recorded 400 \"'required' is required to be supplied and to be an array including every key in "
        "properties\" (lingua corpus textFormatJsonSchemaMissingRequiredPropertyParam/chat-completions)",
        "root_object": f"{_PAGE} (the root level object must be an object, not anyOf)",
        "limits": f"{_PAGE} (at most 5000 object properties, 10 levels of nesting, 1000 enum values), "
        "as quoted with that address in https://docs.rs/crate/artifactize-core/latest/source/src/agent/"
        "verdict/structured/limits.rs; the page itself was not in the search corpus",
    },
    notes="applies where strict is true; a non-strict schema passes as written",
)

LOOSE = SchemaDialect(
    name="OpenAI non-strict",
    sources={"keywords": f"{_PAGE} (a schema without strict is not compiled; no refused keyword is listed)"},
)

DIALECTS = {
    "tool input": LOOSE,
    "strict tool input": STRICT,
    "structured output": LOOSE,
    "strict structured output": STRICT,
}
"""Each place a schema goes on these wires, and its dialect (for docs/schemas.md)."""


def chat_schemas(body: Mapping[str, Any], model: str | None = None) -> list[tuple[str, Any, SchemaDialect]]:
    """(path, schema, dialect) of each strict schema in a Chat Completions body."""
    found: list[tuple[str, Any, SchemaDialect]] = []
    tools = body.get("tools")
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        if isinstance(function, Mapping) and function.get("strict") is True and "parameters" in function:
            found.append((f"tools[{i}].function.parameters", function["parameters"], STRICT))
    fmt = body.get("response_format")
    inner = fmt.get("json_schema") if isinstance(fmt, Mapping) else None
    if isinstance(inner, Mapping) and inner.get("strict") is True and "schema" in inner:
        found.append(("response_format.json_schema.schema", inner["schema"], STRICT))
    return found


def responses_schemas(body: Mapping[str, Any], model: str | None = None) -> list[tuple[str, Any, SchemaDialect]]:
    """(path, schema, dialect) of each strict schema in a Responses body."""
    found: list[tuple[str, Any, SchemaDialect]] = []
    tools = body.get("tools")
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        if isinstance(tool, Mapping) and tool.get("type") == "function" and tool.get("strict") is True:
            found.append((f"tools[{i}].parameters", tool.get("parameters"), STRICT))
    text = body.get("text")
    fmt = text.get("format") if isinstance(text, Mapping) else None
    if isinstance(fmt, Mapping) and fmt.get("type") == "json_schema" and fmt.get("strict") is True:
        found.append(("text.format.schema", fmt.get("schema"), STRICT))
    return found
