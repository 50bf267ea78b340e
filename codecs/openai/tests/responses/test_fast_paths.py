"""The decoders' fast paths (plain type checks first, the path-aware readers only when a check
fails) reject bad input as the readers do: a DecodeError naming the JSON path of the bad value."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from interlingua import DecodeError, ServerSentEvent, ToolResult, ToolUse
from interlingua.testing import load_body, read_stream_file, real_fixture, real_fixtures
from interlingua_openai.responses import OpenAIResponsesCodec

CODEC = OpenAIResponsesCodec()
CALL = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": '{"a":1}'}
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "done"}


class Name(str):
    """A str subclass: fails the fast ``type(x) is str`` check, passes the readers."""


def _path(keys: list[str | int]) -> str:
    out = ""
    for key in keys:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


def _places(value: Any, keys: list[str | int]) -> Iterator[tuple[Any, str | int, list[str | int]]]:
    """(container, key, path) for every value inside ``value``."""
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield value, key, [*keys, key]
        yield from _places(child, [*keys, key])


@pytest.mark.parametrize(
    ("item", "path"),
    [
        ({**CALL, "call_id": 7}, "input[0].call_id"),
        ({**CALL, "name": None}, "input[0].name"),
        ({**CALL, "arguments": {"a": 1}}, "input[0].arguments"),
        ({k: v for k, v in CALL.items() if k != "name"}, "input[0].name"),
        ({**OUTPUT, "call_id": ["call_1"]}, "input[0].call_id"),
        ({**OUTPUT, "output": 3}, "input[0].output"),
        ({**OUTPUT, "output": [{"type": "input_text"}]}, "input[0].output[0].text"),
        ({**OUTPUT, "name": 3}, "input[0].name"),
    ],
)
def test_call_items_with_a_wrong_field_name_its_path(item: dict[str, Any], path: str) -> None:
    with pytest.raises(DecodeError) as caught:
        CODEC.decode_request({"model": "m", "input": [item]})
    assert (caught.value.codec, caught.value.path) == ("openai-responses", path)


def test_values_the_fast_check_declines_still_decode_through_the_readers() -> None:
    call = {**CALL, "call_id": Name("call_1"), "name": Name("f")}
    output = {**OUTPUT, "call_id": Name("call_1"), "output": Name("done"), "name": Name("f")}
    parts = [p for m in CODEC.decode_request({"model": "m", "input": [call, output]}).messages for p in m.parts]
    assert isinstance(parts[0], ToolUse) and (parts[0].id, parts[0].name, parts[0].input) == ("call_1", "f", {"a": 1})
    assert isinstance(parts[1], ToolResult) and (parts[1].tool_use_id, parts[1].content) == ("call_1", "done")


@pytest.mark.parametrize("arguments", ['{"x":1.5e-7}', '{"x":1.5e-07}', '{"x":1e16}', '{"x":1E5}', '{"x": 1}'])
def test_arguments_text_round_trips_exactly(arguments: str) -> None:
    body = {"model": "m", "input": [{**CALL, "arguments": arguments}, OUTPUT]}
    request = CODEC.decode_request(body)
    assert CODEC.encode_request(request).body == body


def test_an_easy_assistant_message_after_an_output_message_stays_its_own_item() -> None:
    message = {
        "type": "message",
        "role": "assistant",
        "id": "msg_1",
        "status": "completed",
        "content": [{"type": "output_text", "text": "a", "annotations": []}],
    }
    body = {"model": "m", "input": [message, {"role": "assistant", "content": "b"}]}
    request = CODEC.decode_request(body)
    assert [p.type for p in request.messages[0].parts] == ["text", "text"]
    assert CODEC.encode_request(request).body == body


def _mutations(body: Any) -> Iterator[tuple[str, Any]]:
    """Each value of ``body`` swapped in place, one at a time, for 3 and then null; restored after."""
    for container, key, keys in list(_places(body, [])):
        kept = container[key]
        for wrong in (3, None):
            container[key] = wrong
            yield _path(keys), body
        container[key] = kept


def _assert_errors_point_at(decode: Callable[[Any], object], body: Any) -> int:
    failures = 0
    for path, mutated in _mutations(body):
        try:
            decode(mutated)
        except DecodeError as error:
            failures += 1
            assert path.startswith(error.path), (path, error.path, error.reason)
    return failures


@pytest.mark.parametrize(
    "path",
    real_fixtures("openai-responses", "request") + real_fixtures("openai-responses", "response"),
    ids=lambda p: f"{p.parent.name}-{p.stem}",
)
def test_a_wrong_value_anywhere_fails_at_its_path_or_is_carried(path: Any) -> None:
    """Every value of every real body, replaced by a wrong type: decoding either keeps it (unknown
    fields ride along) or fails with a DecodeError at that value's path or one of its parents."""
    body = load_body(path)
    decode = CODEC.decode_request if path.parent.name == "request" else CODEC.decode_response
    assert _assert_errors_point_at(decode, body) > 0


def test_a_wrong_value_in_a_stream_event_fails_at_its_path() -> None:
    path = real_fixture("openai-responses", "stream", "reasoning-function-call-stream.sse.txt")
    events = list(read_stream_file(path))
    failures = 0
    for number, event in enumerate(events):
        data = json.loads(event.data)

        def decode(mutated: Any, number: int = number, event: Any = event) -> object:
            changed = ServerSentEvent(data=json.dumps(mutated), event=event.event)
            return list(CODEC.decode_stream([*events[:number], changed, *events[number + 1 :]]))

        for wrong_path, mutated in _mutations(data):
            try:
                decode(mutated)
            except DecodeError as error:
                failures += 1
                at = int(error.path[len("events[") : error.path.index("]")])
                # at the bad value, or at a later event the stream no longer makes sense for
                # (an event whose type was broken is skipped, its part never opens)
                assert at > number or f"events[{number}].{wrong_path}".startswith(error.path), (wrong_path, error)
    assert failures > 20


@pytest.mark.parametrize(
    ("event", "path"),
    [
        ({"type": "response.function_call_arguments.delta", "output_index": "0", "delta": "{"}, "output_index"),
        ({"type": "response.function_call_arguments.delta", "output_index": True, "delta": "{"}, "output_index"),
        ({"type": "response.function_call_arguments.delta", "output_index": 0, "delta": 3}, "delta"),
        ({"type": "response.output_text.delta", "output_index": 0, "delta": "x"}, "content_index"),
    ],
)
def test_a_malformed_delta_names_its_field(event: dict[str, Any], path: str) -> None:
    added = {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": ""},
    }
    events = [ServerSentEvent(data=json.dumps(added)), ServerSentEvent(data=json.dumps(event))]
    with pytest.raises(DecodeError) as caught:
        list(CODEC.decode_stream(events))
    assert caught.value.path == f"events[1].{path}"


def test_an_event_that_is_no_object_names_the_event() -> None:
    with pytest.raises(DecodeError) as caught:
        list(CODEC.decode_stream([ServerSentEvent(data="[1, 2]")]))
    assert caught.value.path == "events[0]" and "an object" in caught.value.reason


def test_an_event_that_is_no_json_is_a_decode_error() -> None:
    with pytest.raises(DecodeError) as caught:
        list(CODEC.decode_stream([ServerSentEvent(data="{not json")]))
    assert (caught.value.codec, caught.value.path) == ("openai-responses", "events[0]")
    assert caught.value.reason.startswith("data is not JSON")
