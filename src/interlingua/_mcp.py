"""Model Context Protocol tools and tool results <-> the IR, both directions.

MCP is a protocol, not a vendor: a host lists an MCP server's tools to a model as IR ``Tool`` s
(``Tool.from_mcp``), hands each result back as a ``ToolResult`` (``ToolResult.from_mcp``), and,
serving MCP itself, answers with what a model's tool turn holds (``ToolResult.to_mcp``).

``from_mcp`` takes the ``mcp`` package's objects (``mcp.types.Tool``, ``mcp.types.CallToolResult``)
or their JSON (camelCase, as on the wire), so reading needs no import of ``mcp``; ``to_mcp``
builds ``mcp`` objects and imports the package then (``pip install interlingua[mcp]``).

Content blocks (MCP spec 2025-06-18, "Tool Result"): ``text`` -> Text; ``image``/``audio`` ->
Image/Audio from base64; an embedded ``resource`` -> Document named by its URI (text as text, a
blob as base64; an image or audio blob as Image/Audio); a ``resource_link`` -> Document from its
URI, named by its name; ``structuredContent`` -> the result's JSON object content (the text block
that, as the spec recommends, repeats it is not kept twice); ``isError`` -> ``is_error``.
Annotations, ``_meta``, icons and a tool's ``outputSchema``/``annotations`` are hints for the
host with no place in a model's request; they are not carried.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._errors import DecodeError
from ._parts import Audio, ContentPart, Document, Image, MediaSource, Text, TextSource, ToolResult, UrlSource

if TYPE_CHECKING:
    from ._request import Tool

CODEC = "mcp"


def as_json(value: Any, what: str) -> dict[str, Any]:
    """An ``mcp`` object (anything with ``model_dump``) or a JSON object, as MCP's JSON."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        value = dump(by_alias=True, exclude_none=True, mode="json")
    if not isinstance(value, Mapping):
        raise DecodeError(CODEC, "", f"expected an MCP {what}, got {type(value).__name__}")
    return dict(value)


def tool_from_mcp(tool: Any) -> Tool:
    from ._request import Tool

    data = as_json(tool, "Tool")
    name = data.get("name")
    schema = data.get("inputSchema", {"type": "object", "properties": {}})
    if not isinstance(name, str) or not isinstance(schema, Mapping):
        raise DecodeError(CODEC, "name" if not isinstance(name, str) else "inputSchema", "an MCP tool needs both")
    description = data.get("description")
    if not isinstance(description, str):
        title = data.get("title")
        description = title if isinstance(title, str) else None
    return Tool(name=name, description=description, input_schema=dict(schema))


def result_from_mcp(result: Any, tool_use_id: str, name: str) -> ToolResult:
    data = as_json(result, "CallToolResult")
    blocks = data.get("content", [])
    if not isinstance(blocks, list):
        raise DecodeError(CODEC, "content", "expected a list of content blocks")
    parts = [_decode_block(block, f"content[{i}]") for i, block in enumerate(blocks)]
    structured = data.get("structuredContent")
    content: str | list[ContentPart] | dict[str, Any]
    if isinstance(structured, Mapping):
        repeats = [p for p in parts if not (isinstance(p, Text) and _is_json_of(p.text, structured))]
        content = dict(structured) if not repeats else [*parts, Text(json.dumps(structured))]
    elif len(parts) == 1 and isinstance(parts[0], Text):
        content = parts[0].text
    else:
        content = parts
    return ToolResult(tool_use_id, name, content, is_error=data.get("isError") is True)


def _is_json_of(text: str, value: Mapping[str, Any]) -> bool:
    try:
        return bool(json.loads(text) == value)
    except ValueError:
        return False


def _decode_block(block: Any, at: str) -> ContentPart:
    if not isinstance(block, Mapping):
        raise DecodeError(CODEC, at, "expected a content block object")
    kind = block.get("type")
    if kind == "text" and isinstance(block.get("text"), str):
        return Text(block["text"])
    if kind in ("image", "audio") and isinstance(block.get("data"), str) and isinstance(block.get("mimeType"), str):
        source = MediaSource.from_base64(block["mimeType"], block["data"])
        return Image(source) if kind == "image" else Audio(source)
    if kind == "resource" and isinstance(block.get("resource"), Mapping):
        return _decode_resource(block["resource"], f"{at}.resource")
    if kind == "resource_link" and isinstance(block.get("uri"), str):
        mime = block.get("mimeType") if isinstance(block.get("mimeType"), str) else None
        return Document(MediaSource.from_url(block["uri"], mime), name=block.get("name"))
    raise DecodeError(CODEC, at, f"not an MCP content block this maps: type {kind!r}")


def _decode_resource(resource: Mapping[str, Any], at: str) -> ContentPart:
    uri = resource.get("uri")
    mime = resource.get("mimeType") if isinstance(resource.get("mimeType"), str) else None
    if isinstance(resource.get("text"), str):
        return Document(MediaSource.from_text(resource["text"], mime or "text/plain"), name=uri)
    if isinstance(resource.get("blob"), str):
        source = MediaSource.from_base64(mime or "application/octet-stream", resource["blob"])
        if source.media_type.startswith("image/"):
            return Image(source)
        if source.media_type.startswith("audio/"):
            return Audio(source)
        return Document(source, name=uri)
    raise DecodeError(CODEC, at, "an embedded resource has text or a blob")


# --- IR -> MCP ---------------------------------------------------------------------------------


def tool_to_mcp(tool: Tool) -> Any:
    from mcp import types

    data: dict[str, Any] = {"name": tool.name, "inputSchema": tool.input_schema}
    if tool.description is not None:
        data["description"] = tool.description
    return types.Tool.model_validate(data)


def result_to_mcp(result: ToolResult) -> Any:
    """A ``mcp.types.CallToolResult``: a JSON object as ``structuredContent`` with its text
    beside it (the spec's advice for older clients); parts as content blocks."""
    from mcp import types

    content = result.content
    data: dict[str, Any] = {"isError": result.is_error}
    if isinstance(content, str):
        data["content"] = [{"type": "text", "text": content}]
    elif isinstance(content, dict):
        data["structuredContent"] = content
        data["content"] = [{"type": "text", "text": json.dumps(content)}]
    else:
        data["content"] = [_encode_part(part, i) for i, part in enumerate(content)]
    return types.CallToolResult.model_validate(data)


def _encode_part(part: ContentPart, index: int) -> dict[str, Any]:
    source = getattr(part, "source", None)
    if isinstance(part, Text):
        return {"type": "text", "text": part.text}
    if isinstance(part, Image | Audio) and source is not None and source.type == "base64":
        return {"type": part.type, "data": source.data, "mimeType": source.media_type}
    if isinstance(part, Document) and isinstance(source, TextSource):
        uri = part.name or f"interlingua:document/{index}"
        return {"type": "resource", "resource": {"uri": uri, "mimeType": source.media_type, "text": source.text}}
    if isinstance(part, Document) and source is not None and source.type == "base64":
        uri = part.name or f"interlingua:document/{index}"
        return {"type": "resource", "resource": {"uri": uri, "mimeType": source.media_type, "blob": source.data}}
    if isinstance(part, Image | Audio | Document) and isinstance(source, UrlSource):
        name = getattr(part, "name", None) or source.url
        link: dict[str, Any] = {"type": "resource_link", "uri": source.url, "name": name}
        if source.media_type is not None:
            link["mimeType"] = source.media_type
        return link
    kind = getattr(source, "type", None)
    raise ValueError(f"content[{index}]: {part.type} has no MCP content block (a source of {kind!r})")
