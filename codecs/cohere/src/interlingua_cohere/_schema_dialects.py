"""The JSON Schema each place on cohere-chat takes (data, each fact with its source).

Cohere's function ``parameters`` take a JSON Schema; with ``strict_tools`` (a request-wide
option, kept in ``provider_options["cohere"]``) the schemas are compiled. Cohere's page states
one limit, and it is per request, not per schema (at most 200 fields across all tools); no list
of refused keywords was found, so no schema is rewritten for this wire. ``response_format``
crosses only as a provider option, verbatim.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import SchemaDialect

TOOL = SchemaDialect(
    name="Cohere tool parameters",
    sources={
        "keywords": "https://docs.cohere.com/v2/docs/tool-use-parameter-types (no refused keyword listed; "
        "with strict_tools at most 200 fields across all tools of a request, a request-wide limit not checked)",
    },
)

DIALECTS = {"tool input": TOOL}
"""Each place a schema goes on this wire, and its dialect (for docs/schemas.md)."""


def schemas_in(body: Mapping[str, Any], model: str | None = None) -> list[tuple[str, Any, SchemaDialect]]:
    """(path, schema, dialect) of each tool schema in a Chat v2 body."""
    found: list[tuple[str, Any, SchemaDialect]] = []
    tools = body.get("tools")
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        if isinstance(function, Mapping) and "parameters" in function:
            found.append((f"tools[{i}].function.parameters", function["parameters"], TOOL))
    return found
