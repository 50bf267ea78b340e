"""The one writer's shortcuts give what its dispatch gives: the IR's own classes are known by
identity, a subclass of one goes the general way to the same body and warnings; a part's path is
spelled out only for a warning, and names the part's place in the message as given."""

from __future__ import annotations

import sys
from typing import Any

from interlingua import (
    Base64Source,
    CacheControl,
    Image,
    Message,
    ProviderEcho,
    Request,
    Text,
    Tool,
    ToolResult,
    ToolUse,
    UrlSource,
    Video,
)
from interlingua.testing import encode_outcome
from interlingua_openai.chat import OpenAIChatCodec

CODEC = OpenAIChatCodec()
PNG = Base64Source(media_type="image/png", data="iVBORw0KGgo=")


class _Text(Text):
    """A caller's own subclass: the writer's identity checks miss it; the dispatch must not."""


class _Result(ToolResult):
    pass


class _Call(ToolUse):
    pass


for _cls in (_Text, _Result, _Call):  # built here, where the IR's names are known
    _cls.model_rebuild(_types_namespace=vars(sys.modules[Text.__module__]))


def _request(*messages: Message, tools: list[Any] | None = None) -> Request:
    return Request(model="gpt-4.1", messages=list(messages), tools=tools or [])


def _turn(call: type[ToolUse], result: type[ToolResult], text: type[Text]) -> Request:
    return _request(
        Message(role="user", parts=[text(text="read a.py")]),
        Message(
            role="assistant",
            parts=[text(text="Reading."), call(id="call_1", name="read", input={"path": "a.py"})],
        ),
        Message(role="tool", parts=[result(tool_use_id="call_1", name="read", content="print(1)")]),
        Message(role="user", parts=[text(text="thanks")]),
    )


def test_subclasses_of_the_parts_encode_as_the_parts_themselves() -> None:
    plain = encode_outcome(lambda: CODEC.encode_request(_turn(ToolUse, ToolResult, Text)))
    sub = encode_outcome(lambda: CODEC.encode_request(_turn(_Call, _Result, _Text)))
    assert sub == plain
    assert isinstance(plain[0], str)  # a body, not an error
    assert '"content": "Reading."' in plain[0]


def test_parts_after_a_result_follow_its_tool_message_and_warn_at_their_own_places() -> None:
    message = Message(
        role="user",
        parts=[
            ToolResult(tool_use_id="call_1", name="read", content="ok", is_error=True),
            Image(source=PNG, cache_control=CacheControl()),
            Video(source=UrlSource(url="https://example.com/v.mp4")),
            Text(text="and this"),
        ],
    )
    call = Message(role="assistant", parts=[ToolUse(id="call_1", name="read", input={})])
    encoded = CODEC.encode_request(_request(Message(role="user", parts=[Text(text="go")]), call, message))
    assert encoded.body["messages"][2:] == [
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                {"type": "text", "text": "and this"},
            ],
        },
    ]
    assert [(w.path, getattr(w, "part_type", None)) for w in encoded.warnings] == [
        ("messages[2].parts[0]", "tool_result"),
        ("messages[2].parts[1]", "cache_control"),
        ("messages[2].parts[2]", "video"),
    ]


def test_an_image_with_our_echo_keeps_it_and_one_without_is_sent_bare() -> None:
    echo = ProviderEcho(provider="openai", data={"wire": {"detail_note": 1}, "_image_url": {"detail": "low"}})
    message = Message(
        role="user",
        parts=[Image(source=UrlSource(url="https://example.com/a.png")), Image(source=PNG, provider_echoes=[echo])],
    )
    encoded = CODEC.encode_request(_request(message))
    assert encoded.body["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
                {
                    "type": "image_url",
                    "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"},
                    "detail_note": 1,
                },
            ],
        }
    ]
    assert encoded.warnings == []


def test_an_assistant_text_with_our_echo_keeps_its_content_array() -> None:
    listed = ProviderEcho(provider="openai", data={"_list": True})
    message = Message(role="assistant", parts=[Text(text="hi")], provider_echoes=[listed])
    assert CODEC.encode_request(_request(message)).body["messages"] == [
        {"role": "assistant", "content": [{"type": "text", "text": "hi"}]}
    ]
    plain = Message(role="assistant", parts=[Text(text="hi")])
    assert CODEC.encode_request(_request(plain)).body["messages"] == [{"role": "assistant", "content": "hi"}]


def test_a_function_tool_warns_at_its_own_place_and_a_foreign_tool_is_left_out() -> None:
    from interlingua import NativeTool

    tools: list[Any] = [
        NativeTool(provider="acme", data={"type": "search"}),
        Tool(name="read", input_schema={"type": "object", "properties": {}}, cache_control=CacheControl()),
    ]
    encoded = CODEC.encode_request(_request(Message(role="user", parts=[Text(text="hi")]), tools=tools))
    assert encoded.body["tools"] == [{"type": "function", "function": {"name": "read"}}]
    assert [(w.path, getattr(w, "part_type", None)) for w in encoded.warnings] == [
        ("tools[0]", "native_tools"),
        ("tools[1]", "cache_control"),
    ]
