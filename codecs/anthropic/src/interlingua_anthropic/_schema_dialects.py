"""The JSON Schema each place on anthropic-messages takes (data, each fact with its source), and
where a request body holds its schemas.

A tool's ``input_schema`` takes any JSON Schema whose root is an object; a strict tool
(``strict: true``) and the structured output (``output_config.format.schema``) take the
structured-outputs subset, compiled to a grammar. Every model the catalog lists with structured
outputs takes the same subset: the page states one list for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from interlingua.kit import SchemaDialect

_LIMITS = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations"
_SDK = (
    "anthropic/lib/_parse/_transform.py (the SDK's transform_schema keeps exactly these; "
    "the rest it moves into the description)"
)

TOOL = SchemaDialect(
    name="Anthropic tool input",
    root_object=True,
    sources={
        "root_object": "anthropic/types/tool_param.py (InputSchemaTyped: type is Required[Literal['object']])",
        "keywords": "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools (a JSON Schema "
        "object; no refused keyword is listed for non-strict tools)",
    },
)

STRUCTURED = SchemaDialect(
    name="Anthropic structured outputs",
    keywords=frozenset(
        {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "allOf"}
        | {"description", "title", "format", "minItems"}
    ),
    refs=True,
    recursion=False,
    closed_objects=True,
    formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}),
    min_items_at_most=1,
    sources={
        "keywords": f"{_LIMITS}; {_SDK}",
        "refs": f"{_LIMITS} ($ref, $defs and definitions supported; no external $ref)",
        "recursion": f"{_LIMITS} (recursive schemas not supported)",
        "closed_objects": f"{_LIMITS} (additionalProperties must be false); {_SDK}",
        "formats": f"{_SDK} (SupportedStringFormats)",
        "min_items": f"{_LIMITS} (minItems of 0 or 1 only); {_SDK}",
        "limits": "the page's counts (strict tools per request, optional parameters, union types) are per "
        "request, not per schema; not checked here",
    },
    notes="strict tools and output_config.format; numeric and string length constraints are refused",
)

STRICT_TOOL = replace(
    STRUCTURED,
    name="Anthropic strict tool input",
    root_object=True,
    sources={**STRUCTURED.sources, "root_object": TOOL.sources["root_object"]},
)

DIALECTS = {"tool input": TOOL, "strict tool input": STRICT_TOOL, "structured output": STRUCTURED}
"""Each place a schema goes on this wire, and its dialect (for docs/schemas.md)."""


def schemas_in(body: Mapping[str, Any], model: str | None = None) -> list[tuple[str, Any, SchemaDialect]]:
    """(path, schema, dialect) of each schema in a Messages body."""
    found: list[tuple[str, Any, SchemaDialect]] = []
    tools = body.get("tools")
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        if isinstance(tool, Mapping) and "input_schema" in tool:
            dialect = STRICT_TOOL if tool.get("strict") is True else TOOL
            found.append((f"tools[{i}].input_schema", tool["input_schema"], dialect))
    config = body.get("output_config")
    fmt = config.get("format") if isinstance(config, Mapping) else None
    if isinstance(fmt, Mapping) and fmt.get("type") == "json_schema" and "schema" in fmt:
        found.append(("output_config.format.schema", fmt["schema"], STRUCTURED))
    return found
