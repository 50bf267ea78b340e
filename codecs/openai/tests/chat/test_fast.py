"""The writer of common shapes (``_fast.py``) against the careful one: the same result wherever
the fast one answers. Reading has one path; bad input inside a common shape is a DecodeError
naming its path, and the arguments text is the one the encoder writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua import DecodeError, Message, Text, ToolResult, WarningSink
from interlingua.kit import arguments_text
from interlingua.testing import load_body, real_fixtures, strategies
from interlingua_openai.chat import OpenAIChatCodec
from interlingua_openai.chat._echo import Ctx
from interlingua_openai.chat._fast import encode_message
from interlingua_openai.chat._messages import encode_careful
from interlingua_openai.chat._parts import compact_arguments, respelled

GOLDEN = Path(__file__).resolve().parents[4] / "fixtures" / "openai-chat"


def _ctx(dialect: str) -> Ctx:
    codec = OpenAIChatCodec(dialect=dialect)
    return Ctx(codec.dialect, codec.provider, codec._ids, WarningSink(codec.name))


def _dialect_for(path: Path) -> str:
    if "mistral" in path.parts:
        return "mistral"
    return "ollama" if path.name.startswith("ollama-") else "openai"


REQUESTS = [
    *real_fixtures("openai-chat", "request"),
    *real_fixtures("mistral", "request"),
    *sorted(p for p in (GOLDEN / "request").glob("*.json") if not p.name.endswith(".ir.json")),
]


def _encode_both(message: Message, dialect: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]], Ctx]:
    fast = encode_message(message, _ctx(dialect))
    careful_ctx = _ctx(dialect)
    return fast, encode_careful(message, "messages[0]", careful_ctx, []), careful_ctx


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_fast_message_writer_agrees_with_the_careful_one_on_every_recorded_message(path: Path) -> None:
    dialect = _dialect_for(path)
    for message in OpenAIChatCodec(dialect=dialect).decode_request(load_body(path)).messages:
        fast, careful, ctx = _encode_both(message, dialect)
        if fast is not None:
            assert [fast] == careful
            assert ctx.out.warnings == []


_plain_messages = st.builds(
    Message,
    role=st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
    parts=st.lists(
        st.builds(Text, text=strategies.texts)
        | strategies.tool_uses()
        | st.builds(ToolResult, tool_use_id=strategies.ids, name=strategies.names, content=strategies.texts),
        min_size=1,
        max_size=3,
    ),
)
"""Messages of plain parts, the shapes the fast writer takes (the kit's carry echoes and marks)."""


@given(strategies.messages() | _plain_messages)
def test_fast_message_writer_answers_only_where_the_careful_one_gives_one_message_and_no_warning(
    message: Message,
) -> None:
    for dialect in ("openai", "mistral"):
        fast, careful, ctx = _encode_both(message, dialect)
        if fast is not None:
            assert [fast] == careful
            assert ctx.out.warnings == []


# --- bad input inside a common shape still names its path ------------------------------------


@pytest.mark.parametrize(
    ("message", "path"),
    [
        ({"role": "tool", "tool_call_id": 7, "content": "done"}, "messages[1].tool_call_id"),
        ({"role": "user", "content": [{"type": "text", "text": 3}]}, "messages[1].content[0].text"),
        (
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": None}}]},
            "messages[1].content[0].image_url.url",
        ),
        (
            {
                "role": "assistant",
                "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}],
            },
            "messages[1].tool_calls[0].function.arguments",
        ),
        (
            {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"arguments": "{}"}}]},
            "messages[1].tool_calls[0].function.name",
        ),
        ({"role": "assistant", "content": "ok", "tool_calls": [None]}, "messages[1].tool_calls[0]"),
        ({"role": "system", "content": 5}, "messages[1].content"),
        ({"role": 5, "content": "hi"}, "messages[1].role"),
    ],
)
def test_a_malformed_common_message_is_a_decode_error_at_its_path(message: dict[str, Any], path: str) -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}, message]}
    with pytest.raises(DecodeError) as caught:
        OpenAIChatCodec().decode_request(body)
    assert (caught.value.codec, caught.value.path) == ("openai-chat", path)


def test_a_malformed_tool_call_in_an_answer_is_a_decode_error_at_its_path() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": ["read"], "arguments": "{}"}}
    body = {
        "id": "x",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": [call]},
            }
        ],
    }
    with pytest.raises(DecodeError) as caught:
        OpenAIChatCodec().decode_response(body)
    assert caught.value.path == "choices[0].message.tool_calls[0].function.name"


def test_a_usage_count_of_the_wrong_type_is_a_decode_error_at_its_path() -> None:
    body = {"id": "x", "choices": [], "usage": {"prompt_tokens": "7", "completion_tokens": 1}}
    with pytest.raises(DecodeError) as caught:
        OpenAIChatCodec().decode_response(body)
    assert caught.value.path == "usage.prompt_tokens"


# --- the arguments text -------------------------------------------------------------------------

_floats = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([1e16, 1e-05, 1.5e-07, 0.1, -0.0, 1e300])
_strings = st.text(max_size=8) | st.sampled_from(["\x00\x1f", '"\\', "\u2028é/", "\ud800"])
_scalars = st.none() | st.booleans() | st.integers() | _floats | _strings
_values = st.recursive(
    _scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_strings, inner, max_size=3)
)
_objects = st.dictionaries(_strings, _values, max_size=4)


@given(_objects)
def test_compact_arguments_is_the_text_arguments_text_writes(value: dict[str, Any]) -> None:
    assert compact_arguments(value) == arguments_text(value, None)


@given(_objects, st.sampled_from([(",", ":"), (", ", ": ")]))
def test_respelled_says_whether_the_encoder_would_write_other_text(value: dict[str, Any], separators: Any) -> None:
    text = json.dumps(value, ensure_ascii=False, separators=separators)
    assert respelled(value, text) == (arguments_text(value, None) != text)


def test_compact_arguments_prints_floats_inside_tuples_and_float_subclasses_as_json_dumps_does() -> None:
    class Ratio(float):
        pass

    value = {"scores": (1e-05, Ratio(1e16)), "nested": [{"x": 0.1}]}
    assert compact_arguments(value) == '{"scores":[1e-05,1e+16],"nested":[{"x":0.1}]}' == arguments_text(value, None)


def test_respelled_keeps_a_float_the_encoder_would_print_otherwise() -> None:
    assert respelled({"x": 1e-05}, '{"x":0.00001}')
    assert not respelled({"x": 1e-05}, '{"x":1e-05}')
    assert respelled({"path": ".env"}, '{"path": ".env"}')
    assert not respelled({"path": ".env"}, '{"path":".env"}')
