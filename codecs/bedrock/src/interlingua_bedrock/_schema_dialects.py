"""The JSON Schema each place on bedrock-converse takes (data, each fact with its source), per
model family, and where a request body holds its schemas.

A tool's ``inputSchema.json`` takes any JSON Schema (no refused keyword is listed). A strict tool
(``toolSpec.strict``) is compiled to a grammar: Bedrock validates it against "a supported subset
of JSON Schema Draft 2020-12" and answers 400 to the rest. For Claude models that subset is
Anthropic's structured-outputs subset (Anthropic's page names Bedrock as serving the same
feature); for the open-weight families no list was found, so none is applied. This codec does not
write ``outputConfig.textFormat`` (response_format is warned), so only tools are fitted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import SchemaDialect

_BEDROCK = "https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html"
_ANTHROPIC = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations"

TOOL = SchemaDialect(
    name="Converse tool input",
    sources={"keywords": "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolInputSchema.html "
             "(a JSON schema; no refused keyword listed)"},
)

STRICT = SchemaDialect(
    name="Converse strict tool input",
    sources={
        "keywords": f"{_BEDROCK} (validated against a supported subset of JSON Schema Draft 2020-12, 400 "
        "otherwise); the subset's list was not found for open-weight model families, so none is applied",
    },
)

STRICT_CLAUDE = SchemaDialect(
    name="Converse strict tool input (Claude)",
    keywords=frozenset(
        {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "allOf"}
        | {"description", "title", "format", "minItems"}
    ),
    recursion=False,
    closed_objects=True,
    root_object=True,
    formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}),
    min_items_at_most=1,
    sources={
        "keywords": f"{_ANTHROPIC} (structured outputs generally available on the Claude API and Amazon "
        f"Bedrock, one subset); {_BEDROCK}",
        "recursion": f"{_ANTHROPIC} (recursive schemas not supported)",
        "closed_objects": f"{_ANTHROPIC} (additionalProperties must be false)",
        "min_items": f"{_ANTHROPIC} (minItems of 0 or 1 only)",
    },
)

FAMILIES = {"anthropic.": STRICT_CLAUDE}
"""Strict-tool dialect per model family, by the part of the model id after any region prefix."""

DIALECTS = {"tool input": TOOL, "strict tool input": STRICT, "strict tool input (Claude)": STRICT_CLAUDE}
"""Each place a schema goes on this wire, and its dialect (for docs/schemas.md)."""


def strict_dialect(model: str | None) -> SchemaDialect:
    """The strict-tool dialect of ``model``'s family (inference profiles: ``us.anthropic....``)."""
    tail = (model or "").rsplit("/", 1)[-1]
    for prefix, dialect in FAMILIES.items():
        if tail.startswith(prefix) or f".{prefix}" in tail:
            return dialect
    return STRICT


def schemas_in(body: Mapping[str, Any], model: str | None = None) -> list[tuple[str, Any, SchemaDialect]]:
    """(path, schema, dialect) of each tool schema in a Converse body."""
    found: list[tuple[str, Any, SchemaDialect]] = []
    config = body.get("toolConfig")
    tools = config.get("tools") if isinstance(config, Mapping) else None
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        spec = tool.get("toolSpec") if isinstance(tool, Mapping) else None
        if not isinstance(spec, Mapping):
            continue
        schema = spec.get("inputSchema")
        if isinstance(schema, Mapping) and "json" in schema:
            dialect = strict_dialect(model or body.get("modelId")) if spec.get("strict") is True else TOOL
            found.append((f"toolConfig.tools[{i}].toolSpec.inputSchema.json", schema["json"], dialect))
    return found
