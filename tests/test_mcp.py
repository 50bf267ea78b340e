"""MCP tools and tool results in and out, on the ``mcp`` package's own types: every content
block kind, ``structuredContent`` and ``isError``; and the reference servers' real tool lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import interlingua as il

types = pytest.importorskip("mcp.types")

MCP_FIXTURES = Path(__file__).parent.parent / "fixtures" / "schemas" / "mcp"
PNG = "iVBORw0KGgo="  # base64 of the PNG signature


def test_a_reference_servers_tools_become_ir_tools_with_their_schemas() -> None:
    listed = json.loads((MCP_FIXTURES / "git.json").read_text())["tools"]
    tools = [il.Tool.from_mcp(types.Tool.model_validate(tool)) for tool in listed]
    assert [tool.name for tool in tools] == [tool["name"] for tool in listed]
    assert [tool.input_schema for tool in tools] == [tool["inputSchema"] for tool in listed]
    assert [tool.description for tool in tools] == [tool.get("description") for tool in listed]


def test_a_tool_without_a_description_takes_its_title_and_goes_back_to_mcp() -> None:
    tool = il.Tool.from_mcp({"name": "t", "title": "Look up", "inputSchema": {"type": "object"}})
    assert tool == il.Tool(name="t", description="Look up", input_schema={"type": "object"})
    back = tool.to_mcp()
    assert isinstance(back, types.Tool) and back.name == "t" and back.description == "Look up"


def _wire(value: object) -> object:
    """An mcp object as MCP's JSON (camelCase): the same whichever mcp release (1.x spells its
    Python fields in camelCase, 2.x in snake_case with camelCase aliases)."""
    return value.model_dump(by_alias=True, exclude_none=True, mode="json")  # type: ignore[attr-defined]


def test_text_image_audio_resources_and_links_become_parts() -> None:
    result = types.CallToolResult.model_validate(
        {
            "content": [
                {"type": "text", "text": "found"},
                {"type": "image", "data": PNG, "mimeType": "image/png"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "resource", "resource": {"uri": "file:///a.md", "mimeType": "text/markdown", "text": "# A"}},
                {
                    "type": "resource",
                    "resource": {"uri": "file:///b.pdf", "mimeType": "application/pdf", "blob": "JVBERg=="},
                },
                {"type": "resource_link", "uri": "https://example.com/c.txt", "name": "c", "mimeType": "text/plain"},
            ],
            "isError": False,
        }
    )
    part = il.ToolResult.from_mcp(result, "call_1", "search")
    assert part.tool_use_id == "call_1" and part.name == "search" and part.is_error is False
    assert part.content == [
        il.Text("found"),
        il.Image(il.MediaSource.from_base64("image/png", PNG)),
        il.Audio(il.MediaSource.from_base64("audio/wav", "UklGRg==")),
        il.Document(il.MediaSource.from_text("# A", "text/markdown"), name="file:///a.md"),
        il.Document(il.MediaSource.from_base64("application/pdf", "JVBERg=="), name="file:///b.pdf"),
        il.Document(il.MediaSource.from_url("https://example.com/c.txt", "text/plain"), name="c"),
    ]
    back = part.to_mcp()
    assert isinstance(back, types.CallToolResult)
    assert _wire(back) == _wire(result)


def test_structured_content_is_the_results_object_and_its_repeating_text_is_not_kept_twice() -> None:
    data = {"temperature": 7, "sky": "rain"}
    result = types.CallToolResult.model_validate(
        {"content": [{"type": "text", "text": json.dumps(data)}], "structuredContent": data}
    )
    part = il.ToolResult.from_mcp(result, "c1", "weather")
    assert part.content == data
    back = _wire(part.to_mcp())
    assert isinstance(back, dict) and back["structuredContent"] == data
    assert back["content"] == _wire(result)["content"]  # type: ignore[index]


def test_an_error_result_stays_an_error_both_ways() -> None:
    result = {"content": [{"type": "text", "text": "no such repo"}], "isError": True}
    part = il.ToolResult.from_mcp(result, "c1", "git_status")
    assert (part.content, part.is_error) == ("no such repo", True)
    back = _wire(part.to_mcp())
    assert isinstance(back, dict) and back["isError"] is True


def test_an_unknown_block_is_a_decode_error_with_its_path() -> None:
    with pytest.raises(il.DecodeError) as raised:
        il.ToolResult.from_mcp({"content": [{"type": "text", "text": "a"}, {"type": "hologram"}]}, "c", "t")
    assert raised.value.path == "content[1]"


def test_a_part_with_no_mcp_block_refuses_to_go_back() -> None:
    part = il.ToolResult("c", "t", [il.Image(il.MediaSource.from_file_id("file-1"))])
    with pytest.raises(ValueError, match=r"content\[0\]"):
        part.to_mcp()


@pytest.mark.parametrize("wire", il.codecs())
def test_mcp_tools_and_a_result_make_a_tool_round_on_every_wire(wire: str) -> None:
    """The reference servers' tools, a call and its MCP result, encoded and decoded on each
    wire: the tool names and the result come back as they went."""
    listed = json.loads((MCP_FIXTURES / "time.json").read_text())["tools"]
    tools: list[il.Tool | il.NativeTool] = [il.Tool.from_mcp(tool) for tool in listed]
    name = listed[0]["name"]
    call = il.ToolUse("call_1", name, {"timezone": "Europe/Oslo"})
    answer = il.ToolResult.from_mcp({"content": [{"type": "text", "text": "12:00"}]}, "call_1", name)
    request = il.Request(
        model="m",
        tools=tools,
        messages=[
            il.Message.user("time in Oslo?"),
            il.Message(role="assistant", parts=[call]),
            il.Message(role="tool", parts=[answer]),
        ],
    )
    codec = il.get_codec(wire)
    decoded = codec.decode_request(codec.encode_request(request).body)
    assert [t.name for t in decoded.tools if isinstance(t, il.Tool)] == [tool["name"] for tool in listed]
    results = [p for m in decoded.messages for p in m.parts if isinstance(p, il.ToolResult)]
    assert [(r.name, r.content) for r in results] == [(name, "12:00")]
