"""The one message writer: common shapes written as SDK users write them, every other case warned
at the path of the part it concerns (paths are spelled out only then)."""

from __future__ import annotations

from interlingua import (
    Base64Source,
    CacheControl,
    Image,
    LossyEncode,
    Message,
    Request,
    Text,
    ToolResult,
    ToolUse,
    UnsupportedSetting,
)
from interlingua.kit import arguments_text
from interlingua_openai.chat import OpenAIChatCodec

PNG = "iVBORw0KGgo="


def _encode(*messages: Message, dialect: str = "openai") -> tuple[list[dict[str, object]], list[object]]:
    encoded = OpenAIChatCodec(dialect=dialect).encode_request(Request(model="gpt-4o", messages=list(messages)))
    return encoded.body["messages"], encoded.warnings


def test_common_shapes_are_written_as_sdk_users_write_them_with_no_warning() -> None:
    spaced = '{"path": "a.py"}'  # a server's own spacing, kept by decode in this codec's echo
    decoded = OpenAIChatCodec().decode_request(
        {
            "model": "gpt-4o",
            "messages": [
                {
                    "role": "assistant",
                    "content": "Reading.",
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read", "arguments": spaced}}],
                }
            ],
        }
    )
    messages, warnings = _encode(
        Message(role="system", parts=[Text("Be brief.")]),
        Message(role="user", parts=[Text("Look:"), Image(source=Base64Source(media_type="image/png", data=PNG))]),
        *decoded.messages,
        Message(role="tool", parts=[ToolResult("c1", "read", "print(1)")]),
        Message(role="assistant", parts=[ToolUse("c2", "read", {"path": "b.py"})]),
        Message(role="tool", parts=[ToolResult("c2", "read", "print(2)")]),
    )
    assert warnings == []
    assert messages == [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Look:"},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
            ],
        },
        {
            "role": "assistant",
            "content": "Reading.",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read", "arguments": spaced}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "print(1)"},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c2", "type": "function", "function": {"name": "read", "arguments": '{"path":"b.py"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c2", "content": "print(2)"},
    ]


def test_kept_arguments_text_is_dropped_once_the_input_no_longer_says_it() -> None:
    decoded = OpenAIChatCodec().decode_request(
        {
            "model": "gpt-4o",
            "messages": [
                {
                    "role": "assistant",
                    "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}
                    ],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            ],
        }
    )
    call = decoded.messages[0].parts[0]
    assert isinstance(call, ToolUse)
    changed = call.model_copy(update={"input": {"a": 2}})
    messages, warnings = _encode(Message(role="assistant", parts=[changed]), decoded.messages[1])
    assert messages[0]["tool_calls"] == [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": arguments_text({"a": 2}, None)}}
    ]
    assert warnings == []


def test_each_loss_is_warned_at_the_path_of_its_part() -> None:
    image = Image(source=Base64Source(media_type="image/png", data=PNG))
    _, warnings = _encode(
        Message(role="user", parts=[Text("hi"), Text("cached", cache_control=CacheControl())]),
        Message(role="assistant", parts=[Text("ok"), image, ToolUse("c1", "f", {})]),
        Message(role="tool", parts=[ToolResult("c1", "f", "boom", is_error=True)]),
        Message(role="developer", parts=[Text("rules")]),
        dialect="mistral",
    )
    assert [(type(w), w.path) for w in warnings] == [
        (LossyEncode, "messages[0].parts[1]"),
        (LossyEncode, "messages[1].parts[1]"),
        (LossyEncode, "messages[2].parts[0]"),
        (UnsupportedSetting, "messages[3]"),
    ]


def test_media_in_a_tool_result_follows_the_tool_messages_in_a_user_message() -> None:
    image = Image(source=Base64Source(media_type="image/png", data=PNG))
    messages, warnings = _encode(
        Message(role="assistant", parts=[ToolUse("c1", "shot", {}), ToolUse("c2", "shot", {})]),
        Message(
            role="tool",
            parts=[ToolResult("c1", "shot", [Text("see"), image]), ToolResult("c2", "shot", "none")],
        ),
        Message(role="user", parts=[Text("and?")]),
    )
    assert [m["role"] for m in messages] == ["assistant", "tool", "tool", "user", "user"]
    assert messages[1]["content"] == [{"type": "text", "text": "see"}]
    assert messages[3] == {
        "role": "user",
        "content": [{"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}],
    }
    assert [(w.path, w.action) for w in warnings if isinstance(w, LossyEncode)] == [
        ("messages[1].parts[0].content[1]", "converted")
    ]
