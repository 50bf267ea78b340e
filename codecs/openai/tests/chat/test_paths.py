"""The common shapes on their one path: bad input inside one is a DecodeError naming its path,
and the arguments text is the one the encoder writes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import to_json

from interlingua import DecodeError
from interlingua.kit import arguments_text, tool_arguments
from interlingua_openai.chat import OpenAIChatCodec
from interlingua_openai.chat._parts import respelled

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


@given(_objects, st.sampled_from([(",", ":"), (", ", ": ")]))
def test_respelled_says_whether_the_encoder_would_write_other_text(value: dict[str, Any], separators: Any) -> None:
    text = json.dumps(value, ensure_ascii=False, separators=separators)
    assert respelled(value, text) == (arguments_text(value, None) != text)


def test_arguments_text_prints_floats_inside_tuples_and_float_subclasses_as_json_dumps_does() -> None:
    class Ratio(float):
        pass

    value = {"scores": (1e-05, Ratio(1e16)), "nested": [{"x": 0.1}]}
    assert arguments_text(value, None) == '{"scores":[1e-05,1e+16],"nested":[{"x":0.1}]}'


@given(_objects, st.sampled_from([(",", ":"), (", ", ": ")]), st.booleans())
def test_respelled_agrees_with_the_encoder_on_texts_spelled_by_either_serializer(
    value: dict[str, Any], separators: Any, escaped: bool
) -> None:
    """Texts as servers print them (pydantic-core's float spelling, ASCII escapes) judged as the
    encoder's text would be."""
    try:
        text = to_json(value).decode() if separators == (",", ":") and not escaped else ""
    except ValueError:
        text = ""
    text = text or json.dumps(value, ensure_ascii=escaped, separators=separators)
    assert respelled(value, text) == (arguments_text(value, None) != text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ('{"x":NaN}', False),
        ('{"x":Infinity,"y":-Infinity}', False),
        ('{"x":1e-5}', True),  # pydantic-core's spelling; the encoder writes 1e-05
        ('{"x":1e-05}', False),
        ('{"x":1E5}', True),
        ('{"x":-0}', True),
        ('{"a":1,"a":2}', True),
        ('{"path":"v1.2e3"}', False),  # looks like a float, is a string
        ('{"path":"caf\\u00e9"}', True),
        ('{"path":"café"}', False),
    ],
)
def test_respelled_on_the_texts_a_cheap_test_could_get_wrong(text: str, kept: bool) -> None:
    value, raw = tool_arguments(text)
    assert raw is None
    assert respelled(value, text) is kept
    assert (arguments_text(value, None) != text) is kept


def test_respelled_keeps_a_float_the_encoder_would_print_otherwise() -> None:
    assert respelled({"x": 1e-05}, '{"x":0.00001}')
    assert not respelled({"x": 1e-05}, '{"x":1e-05}')
    assert respelled({"path": ".env"}, '{"path": ".env"}')
    assert not respelled({"path": ".env"}, '{"path":".env"}')


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ('{"x":0.00001}', True),  # pydantic-core's spelling of 1e-05
        ('{"x":1e-05}', False),
        ('{"x":1e-7}', True),
        ('{"x":1e-07}', False),
        ('{"note":"re-run at 0.0000 UTC"}', False),  # the letters in a string: the slow way, same answer
        ('{"note": "re-run"}', True),
    ],
)
def test_respelled_with_a_small_float_or_its_letters_asks_the_encoders_text(text: str, kept: bool) -> None:
    value, _ = tool_arguments(text)
    assert respelled(value, text) is kept
    assert (arguments_text(value, None) != text) is kept
