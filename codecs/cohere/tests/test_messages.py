"""cohere-chat messages: a message is read with paths relative to it and its parts written without
their paths, so these pin the whole paths a bad block's DecodeError and a lossy part's warning
name, and how a content list is remembered."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua as il

CODEC = il.get_codec("cohere-chat")


def _call(call_id: str = "c1", arguments: Any = "{}") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "look", "arguments": arguments}}


@pytest.mark.parametrize(
    ("messages", "path"),
    [
        ([{"role": "user", "content": "a"}, 3], "messages[1]"),
        ([{"content": "a"}], "messages[0].role"),
        ([{"role": "user", "content": 5}], "messages[0].content"),
        ([{"role": "user", "content": [{"type": "text", "text": "a"}, "b"]}], "messages[0].content[1]"),
        ([{"role": "user", "content": [{"type": "text", "text": 1}]}], "messages[0].content[0].text"),
        (
            [{"role": "assistant", "content": [{"type": "thinking", "thinking": None}]}],
            "messages[0].content[0].thinking",
        ),
        (
            [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": 4}}]}],
            "messages[0].content[0].image_url.url",
        ),
        ([{"role": "assistant", "tool_calls": {"a": 1}}], "messages[0].tool_calls"),
        ([{"role": "assistant", "tool_calls": [_call(), 2]}], "messages[0].tool_calls[1]"),
        ([{"role": "assistant", "tool_calls": [{"type": "function", "function": {}}]}], "messages[0].tool_calls[0].id"),
        ([{"role": "assistant", "tool_calls": [_call(), {"id": "c2"}]}], "messages[0].tool_calls[1].function"),
        ([{"role": "assistant", "tool_calls": [_call(arguments=7)]}], "messages[0].tool_calls[0].function.arguments"),
        ([{"role": "assistant", "tool_plan": 1}], "messages[0].tool_plan"),
        ([{"role": "tool", "content": "ok"}], "messages[0].tool_call_id"),
        (
            [
                {"role": "assistant", "tool_calls": [_call()]},
                {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "a"}, 1]},
            ],
            "messages[1].content[1]",
        ),
    ],
)
def test_a_bad_message_is_a_decode_error_at_its_whole_path(messages: list[Any], path: str) -> None:
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_request({"model": "m", "messages": messages})
    assert caught.value.path == path


def test_a_bad_answer_is_a_decode_error_at_its_whole_path() -> None:
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_response({"id": "r", "message": {"role": "assistant", "tool_calls": [_call(call_id=None)]}})
    assert caught.value.path == "message.tool_calls[0].id"
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_response({"id": "r", "message": 3})
    assert caught.value.path == "message"


def test_a_content_list_is_remembered_on_its_first_part_whatever_its_kind() -> None:
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
    unknown = {"type": "bogus", "x": 1}
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "a"}]},
            {"role": "user", "content": [unknown, {"type": "text", "text": "b"}]},
            {"role": "user", "content": [image]},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": "c"}]},
        ],
    }
    request = CODEC.decode_request(body)
    listed = [il.ProviderEcho(provider="cohere", data={"listContent": True})]
    assert [m.parts for m in request.messages] == [
        [il.Text("a", provider_echoes=listed)],
        [il.Native("cohere", unknown, provider_echoes=listed), il.Text("b")],
        [il.Image(source=il.MediaSource.from_url("https://example.com/a.png"), provider_echoes=listed)],
        [il.Thinking("t", provider_echoes=listed), il.Text("c")],
    ]
    assert CODEC.encode_request(request).body == body


def test_a_lossy_part_is_warned_at_its_whole_path() -> None:
    messages = [
        il.Message(role="user", parts=[il.Text("a"), il.Text("b", cache_control=il.CacheControl())]),
        il.Message(
            role="assistant",
            parts=[il.AudioOutput(source=il.MediaSource.from_url("u")), il.ToolUse("c1", "look", {"q": 1})],
        ),
        il.Message(role="tool", parts=[il.ToolResult("c1", "look", [il.Text("ok"), il.Native("acme", {})])]),
    ]
    encoded = CODEC.encode_request(il.Request(model="m", messages=messages))
    assert [(w.path, w.message) for w in encoded.warnings] == [
        ("messages[0].parts[1].cache_control", "Cohere caches on its own; no breakpoints"),
        ("messages[1].parts[0]", "an audio_output part has no place in a Cohere assistant message"),
        ("messages[2].parts[0].content[1]", "a native part has no place in a Cohere tool message"),
    ]
    assert encoded.body["messages"][1:] == [
        {"role": "assistant", "tool_calls": [_call(arguments='{"q":1}')]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "ok"}]},
    ]


def test_each_warning_of_the_writer_names_its_message_part_and_block() -> None:
    """The writer is given a message's index and a part's position and spells a path out only
    when it warns: each warning here comes from a different place that formats one."""
    cite = il.Citation(cited_text="x", source=il.CitationSource(type="url", url="https://a"))
    messages = [
        il.Message(role="developer", parts=[il.Text("be brief")]),
        il.Message(
            role="user",
            parts=[
                il.Text("look"),
                il.Image(source=il.FileSource(file_id="f1", provider="acme")),
                il.Document(source=il.TextSource(text="doc")),
            ],
        ),
        il.Message(
            role="assistant",
            parts=[il.Text("call", citations=[cite]), il.ToolUse("c1", "look", {"q": 1}), il.ToolUse("c2", "look", {})],
        ),
        il.Message(
            role="tool",
            name="bot",
            parts=[
                il.ToolResult("c1", "look", "bad", is_error=True),
                il.ToolResult("c2", "look", [il.Text("ok"), il.Audio(source=il.MediaSource.from_url("u"))]),
                il.Text("and"),
            ],
        ),
    ]
    encoded = CODEC.encode_request(il.Request(model="m", messages=messages))
    assert [(w.path, w.message) for w in encoded.warnings] == [
        ("messages[0].role", "Cohere has no developer role; sent as user"),
        ("messages[1].parts[1]", "Cohere takes images by URL or inline data only"),
        ("messages[1].parts[2]", "a Cohere user message takes no document; its text is sent as text"),
        ("messages[2].parts[0].citations", "citations are written by Cohere, not sent"),
        ("messages[3].parts[0].is_error", "Cohere's tool message has no error flag; the content is sent"),
        ("messages[3].parts[1].content[1]", "an audio part has no place in a Cohere tool message"),
        ("messages[3].name", "this wire's messages carry no participant name"),
    ]
    assert encoded.body["messages"] == [
        {"role": "user", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "text", "text": "doc"}]},
        {"role": "assistant", "tool_calls": [_call(arguments='{"q":1}'), _call("c2")], "content": "call"},
        {"role": "tool", "tool_call_id": "c1", "content": "bad"},
        {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "ok"}]},
        {"role": "user", "content": "and"},
    ]


def test_an_answers_warnings_and_an_unresolved_handle_name_their_whole_paths() -> None:
    answer = il.Response(
        message=il.Message(
            role="assistant",
            parts=[
                il.Text("a", cache_control=il.CacheControl()),
                il.Image(source=il.FileSource(file_id="f1", provider="acme")),
            ],
        ),
        stop_reason="end_turn",
    )
    assert [(w.path, w.message) for w in CODEC.encode_response(answer).warnings] == [
        ("message.parts[0].cache_control", "Cohere caches on its own; no breakpoints"),
        ("message.parts[1]", "Cohere takes images by URL or inline data only"),
    ]
    handle = il.Image(source=il.HandleSource(id="h1", media_type="image/png"))
    messages = [
        il.Message(role="user", parts=[il.Text("a")]),
        il.Message(role="assistant", parts=[il.Text("b"), handle]),
    ]
    with pytest.raises(il.EncodeError, match=r"^cohere-chat: messages\[1\]\.parts\[1\]\.source: artifact handle 'h1'"):
        CODEC.encode_request(il.Request(model="m", messages=messages))
