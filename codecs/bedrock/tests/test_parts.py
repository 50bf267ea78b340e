"""bedrock-converse content blocks: blocks are read with paths relative to them and written without
their paths, so these pin the whole paths a bad block's DecodeError and a lossy part's warning
name, at every depth, and where cache points go."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua as il
from interlingua_bedrock import BedrockConverseCodec

CODEC = BedrockConverseCodec()


def _user(*blocks: Any) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def _call(call_id: str = "t1", name: str = "look") -> dict[str, Any]:
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": {}}}


def _request_error(body: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_request(body)
    return caught.value.path, caught.value.reason


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"messages": [_user({"text": "a"}), 7]}, "messages[1]"),
        ({"messages": [{"role": 1, "content": []}]}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": {}}]}, "messages[0].content"),
        ({"messages": [_user({"text": "a"}, "b")]}, "messages[0].content[1]"),
        ({"messages": [_user({"text": "a"}, {"toolUse": []})]}, "messages[0].content[1].toolUse"),
        (
            {"messages": [{"role": "assistant", "content": [{"toolUse": {"name": "x", "input": {}}}]}]},
            "messages[0].content[0].toolUse.toolUseId",
        ),
        (
            {"messages": [_user({"toolResult": {"toolUseId": "t1", "content": {}}})]},
            "messages[0].content[0].toolResult.content",
        ),
        (
            {"messages": [_user({"toolResult": {"toolUseId": "t1", "content": [{"text": "a"}, 5]}})]},
            "messages[0].content[0].toolResult.content[1]",
        ),
        (
            {
                "messages": [
                    _user({"text": "a"}),
                    _user(
                        {
                            "toolResult": {
                                "toolUseId": "t1",
                                "content": [{"text": "a"}, {"image": {"format": "png", "source": {"bytes": 1}}}],
                            }
                        }
                    ),
                ]
            },
            "messages[1].content[0].toolResult.content[1].image.source.bytes",
        ),
        (
            {"messages": [_user({"document": {"format": "txt", "source": {"text": "x"}}})]},
            "messages[0].content[0].document.name",
        ),
        ({"messages": [_user({"image": {"format": "png", "source": []}})]}, "messages[0].content[0].image.source"),
        ({"messages": [_user({"image": {"format": 3, "source": {}}})]}, "messages[0].content[0].image.format"),
        (
            {"messages": [{"role": "assistant", "content": [{"reasoningContent": {"reasoningText": {"text": 2}}}]}]},
            "messages[0].content[0].reasoningContent.reasoningText.text",
        ),
        ({"messages": [_user({"text": "a"}, {"cachePoint": 3})]}, "messages[0].content[1].cachePoint"),
        ({"system": [{"text": "a"}, {"text": None}]}, "system[1].text"),
    ],
)
def test_a_bad_block_is_a_decode_error_at_its_whole_path(body: dict[str, Any], path: str) -> None:
    assert _request_error(body)[0] == path


def test_a_bad_answer_block_is_a_decode_error_at_its_whole_path() -> None:
    body = {
        "output": {
            "message": {"role": "assistant", "content": [{"text": "a"}, {"toolUse": {"toolUseId": "t", "input": {}}}]}
        }
    }
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_response(body)
    assert caught.value.path == "output.message.content[1].toolUse.name"


def test_blocks_decode_to_parts_and_cache_points_fold_into_the_part_before() -> None:
    body = {
        "messages": [
            _user({"text": "hi"}, {"cachePoint": {"type": "default"}}, {"guardContent": {"text": {"text": "g"}}}),
            {"role": "assistant", "content": [_call(), {"cachePoint": {"type": "default", "ttl": "1h"}}]},
            _user({"toolResult": {"toolUseId": "t1", "content": [{"json": {"a": 1}}], "status": "error"}}),
        ]
    }
    request = CODEC.decode_request(body)
    assert [m.parts for m in request.messages] == [
        [
            il.Text("hi", cache_control=il.CacheControl()),
            il.Native("bedrock", {"guardContent": {"text": {"text": "g"}}}),
        ],
        [il.ToolUse("t1", "look", {}), il.Native("bedrock", {"cachePoint": {"type": "default", "ttl": "1h"}})],
        [il.ToolResult("t1", "look", {"a": 1}, is_error=True)],
    ]
    assert CODEC.encode_request(request).body == body


def _warnings(parts: list[il.ContentPart], *, earlier: int = 1) -> list[tuple[str, str, str]]:
    messages = [il.Message(role="user", parts=[il.Text("x")]) for _ in range(earlier)]
    request = il.Request(model="m", messages=[*messages, il.Message(role="user", parts=parts)])
    return [(w.path, type(w).__name__, w.message) for w in CODEC.encode_request(request).warnings]


def test_a_lossy_part_is_warned_at_its_whole_path() -> None:
    cited = il.Text("t", citations=[il.Citation(cited_text="c", source=il.CitationSource(type="url", url="u"))])
    result = il.ToolResult("t1", "look", [il.Text("a"), il.AudioOutput(source=il.MediaSource.from_url("u"))])
    assert _warnings([il.Text("a"), cited, il.Native("acme", {"k": 1})], earlier=2) == [
        (
            "messages[2].parts[1].citations",
            "LossyEncode",
            "Converse takes no citations on a text block; the text is sent",
        ),
        ("messages[2].parts[2]", "LossyEncode", "an acme block has no place on Converse"),
    ]
    answered = [il.Message(role="assistant", parts=[il.ToolUse("t1", "look", {})])]
    request = il.Request(model="m", messages=[*answered, il.Message(role="user", parts=[result])])
    assert [(w.path, w.message) for w in CODEC.encode_request(request).warnings] == [
        ("messages[1].parts[0].content[1]", "Converse messages carry no model-made media"),
    ]


def test_a_part_is_written_with_the_cache_point_after_it_only_when_it_has_a_mark() -> None:
    request = il.Request(
        model="m",
        messages=[
            il.Message(role="user", parts=[il.Text("a", cache_control=il.CacheControl(ttl="1h")), il.Text("b")]),
            il.Message(role="assistant", parts=[il.ToolUse("t1", "look", {})]),
            il.Message(role="user", parts=[il.ToolResult("t1", "look", "ok", cache_control=il.CacheControl())]),
        ],
    )
    assert CODEC.encode_request(request).body["messages"] == [
        {"role": "user", "content": [{"text": "a"}, {"cachePoint": {"type": "default", "ttl": "1h"}}, {"text": "b"}]},
        {"role": "assistant", "content": [_call()]},
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "t1", "content": [{"text": "ok"}]}},
                {"cachePoint": {"type": "default"}},
            ],
        },
    ]


def _marked_result(*, own: bool) -> il.Request:
    mark = il.CacheControl(ttl="1h")
    result = il.ToolResult("t1", "look", [il.Text("page one", cache_control=mark), il.Text("page two")])
    if own:
        result = result.model_copy(update={"cache_control": il.CacheControl()})
    return il.Request(
        model="anthropic.claude-sonnet-4-5",
        messages=[il.Message.user("read"), il.Message.assistant(il.ToolUse("t1", "look", {})), il.Message.tool(result)],
    )


def test_a_cache_mark_inside_a_tool_result_becomes_the_cache_point_after_it_reported() -> None:
    """botocore's ToolResultContentBlock has no cachePoint: the mark on the result's text moves
    to the cachePoint that follows the toolResult block, and the move is reported where it sat."""
    encoded = CODEC.encode_request(_marked_result(own=False))
    assert encoded.body["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": "t1", "content": [{"text": "page one"}, {"text": "page two"}]}},
        {"cachePoint": {"type": "default", "ttl": "1h"}},
    ]
    assert [(w.path, w.part_type, w.action) for w in encoded.warnings] == [
        ("messages[2].parts[0].content[0].cache_control", "cache_control", "converted")
    ]


def test_a_tool_results_own_cache_mark_is_the_one_cache_point_after_it() -> None:
    encoded = CODEC.encode_request(_marked_result(own=True))
    assert encoded.body["messages"][2]["content"][1] == {"cachePoint": {"type": "default"}}
    assert [w.path for w in encoded.warnings] == ["messages[2].parts[0].content[0].cache_control"]
