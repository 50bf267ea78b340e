"""Streams: invariant 6 on every recorded stream, errors inside a 200 stream, and encode_stream
read back by the official openai SDK."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua import (
    ErrorEvent,
    MessageEnd,
    ServerSentEvent,
    SSEEvent,
    StreamError,
    accumulate,
    parse_sse,
    render_sse,
)
from interlingua.testing import (
    first_difference,
    read_stream_file,
    real_fixture,
    real_fixtures,
    strip_none,
    validate_wire,
)
from interlingua_openai.responses import OpenAIResponsesCodec

CODEC = OpenAIResponsesCodec()
GOLDEN = Path(__file__).parents[4] / "fixtures" / "openai-responses"
_FINAL = ("response.completed", "response.incomplete", "response.failed")


def _responses(path: Path) -> list[list[SSEEvent]]:
    """A recording split into its responses (reasoning-encrypted-content holds four turns)."""
    runs: list[list[SSEEvent]] = []
    for event in read_stream_file(path):
        if json.loads(event.data).get("type") == "response.created":
            runs.append([])
        runs[-1].append(event)
    return runs


def _final(run: list[SSEEvent]) -> dict[str, Any]:
    data = [json.loads(e.data) for e in run]
    return next(d["response"] for d in reversed(data) if d["type"] in _FINAL)


STREAMS = [
    pytest.param(run, id=f"{path.name.split('.')[0]}-{i}")
    for path in real_fixtures("openai-responses", "stream")
    if "quota" not in path.name
    for i, run in enumerate(_responses(path))
]


@pytest.mark.parametrize("run", STREAMS)
def test_stream_agrees_with_the_response_it_completes_with(run: list[SSEEvent]) -> None:
    streamed = accumulate(CODEC.decode_stream(run))
    expected = CODEC.decode_response(_final(run))
    assert first_difference(expected.to_json_dict(), streamed.to_json_dict()) is None


def test_error_inside_a_200_stream_is_an_error_event_and_a_failed_end() -> None:
    [run] = _responses(real_fixture("openai-responses", "stream", "insufficient-quota*"))
    events = list(CODEC.decode_stream(run))
    [error] = [e for e in events if isinstance(e, ErrorEvent)]
    assert (error.error.type, error.error.status) == ("insufficient_quota", None)
    assert error.error.message.startswith("You exceeded your current quota")
    assert [(e.stop_reason, e.raw_stop_reason) for e in events if isinstance(e, MessageEnd)] == [("error", "failed")]
    with pytest.raises(StreamError) as caught:
        accumulate(events)
    assert caught.value.error is error.error


GOLDEN_STREAMS = sorted((GOLDEN / "stream").glob("*.sse"))


@pytest.mark.parametrize("path", GOLDEN_STREAMS, ids=lambda p: p.stem)
def test_golden_stream_accumulates_to_its_ir_and_agrees_with_its_final_response(path: Path) -> None:
    run = read_stream_file(path)
    assert [found for e in run for found in validate_wire("openai-responses", "stream_event", json.loads(e.data))] == []
    streamed = accumulate(CODEC.decode_stream(run))
    assert streamed.to_json_dict() == json.loads(path.with_suffix(".ir.json").read_text())
    assert first_difference(CODEC.decode_response(_final(run)).to_json_dict(), streamed.to_json_dict()) is None


def test_golden_refusal_stream_matches_its_ir() -> None:
    path = GOLDEN / "stream" / "refusal.sse"
    streamed = accumulate(CODEC.decode_stream(parse_sse([path.read_bytes()])))
    assert streamed.to_json_dict() == json.loads(path.with_suffix(".ir.json").read_text())
    assert streamed.message.parts[0].echo("openai").data["refusal"] is True  # type: ignore[union-attr]


def _floats(value: Any) -> Any:
    """JSON with ints as floats (the SDK's models read ``created_at`` and friends as floats) and
    nulls left out (its parsed models add ``parsed: null``)."""
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    return float(value) if type(value) is int else value


def _sdk_final(raw: bytes) -> dict[str, Any]:
    """What the openai SDK's own stream reader makes of the bytes: its final response."""
    import openai
    from openai._models import construct_type
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    state: Any = ResponseStreamState(input_tools=openai.omit, text_format=openai.omit)
    for event in parse_sse([raw]):
        state.handle_event(construct_type(type_=ResponseStreamEvent, value=json.loads(event.data)))
    final = state._completed_response
    assert final is not None
    dumped: dict[str, Any] = final.model_dump(mode="json", exclude_unset=True, by_alias=True)
    return dumped


@pytest.mark.parametrize("run", STREAMS)
def test_encoded_stream_reads_back_through_the_openai_sdk(run: list[SSEEvent]) -> None:
    events = list(CODEC.decode_stream(run))
    encoded = list(CODEC.encode_stream(events))
    for event in encoded:
        problems = validate_wire("openai-responses", "stream_event", json.loads(event.data))
        # the recorded response fields predate the installed SDK's Response type
        assert [p for p in problems if not p.startswith("response.")] == []
    back = CODEC.decode_response(_sdk_final(b"".join(render_sse(encoded))))
    expected = accumulate(events)
    assert (
        first_difference(_floats(strip_none(expected.to_json_dict())), _floats(strip_none(back.to_json_dict()))) is None
    )


def test_encoded_error_event_is_the_apis_shape_and_the_sdk_types() -> None:
    """The API nests the error (as recorded); the SDK's type has its fields on the event: both."""
    [run] = _responses(real_fixture("openai-responses", "stream", "insufficient-quota*"))
    [recorded] = [json.loads(e.data) for e in run if json.loads(e.data)["type"] == "error"]
    encoded = [json.loads(e.data) for e in CODEC.encode_stream(CODEC.decode_stream(run))]
    [error] = [e for e in encoded if e["type"] == "error"]
    assert error["error"] == recorded["error"]
    assert (error["code"], error["message"], error["param"]) == (
        "insufficient_quota",
        recorded["error"]["message"],
        None,
    )
    # the one drift the API's own error event has too (tests/test_oracle.py)
    assert validate_wire("openai-responses", "stream_event", error) == [
        "error: unknown key (not in ResponseErrorEvent)"
    ]
    assert encoded[-1]["type"] == "response.failed"


@pytest.mark.parametrize(
    "shape",
    [
        {"error": {"type": "server_error", "code": "server_error", "message": "boom", "param": None}},
        {"code": "server_error", "message": "boom", "param": None},
    ],
    ids=["nested", "flat"],
)
def test_an_error_event_of_either_shape_decodes_and_reencodes_nested(shape: dict[str, Any]) -> None:
    data = {"type": "error", "sequence_number": 0, **shape}
    [event] = CODEC.decode_stream([ServerSentEvent(data=json.dumps(data), event="error")])
    assert isinstance(event, ErrorEvent)
    assert (event.error.type, event.error.message) == ("server_error", "boom")
    [sse] = CODEC.encode_stream([event])
    written = json.loads(sse.data)
    assert written["error"] == {"type": "server_error", "code": "server_error", "message": "boom", "param": None}
    assert (written["code"], written["message"]) == ("server_error", "boom")


def test_interleaved_calls_are_written_one_item_at_a_time_with_their_own_pieces() -> None:
    """Parallel calls from a Chat Completions upstream interleave their pieces; the API writes
    one item at a time, and each finished item's arguments are its pieces joined (issue 39)."""
    from interlingua import MessageEnd, MessageStart, PartEnd, PartStart, ToolInputDelta, ToolUse

    events = [
        MessageStart(id="resp_1", model="gpt-4o"),
        PartStart(0, ToolUse("call_a", "f", {})),
        PartStart(1, ToolUse("call_b", "g", {})),
        ToolInputDelta(0, '{"x": '),
        ToolInputDelta(1, '{"y": 2}'),
        ToolInputDelta(0, "1}"),
        PartEnd(0),
        PartEnd(1),
        MessageEnd("tool_use"),
    ]

    written = [json.loads(sse.data) for sse in CODEC.encode_stream(events)]

    kinds = [(e["type"].removeprefix("response."), e.get("output_index")) for e in written]
    assert kinds[2:12] == [
        ("output_item.added", 0),
        ("function_call_arguments.delta", 0),
        ("function_call_arguments.delta", 0),
        ("function_call_arguments.done", 0),
        ("output_item.done", 0),
        ("output_item.added", 1),
        ("function_call_arguments.delta", 1),
        ("function_call_arguments.done", 1),
        ("output_item.done", 1),
        ("completed", None),
    ]
    done = [e["item"]["arguments"] for e in written if e["type"] == "response.output_item.done"]
    assert done == ['{"x": 1}', '{"y": 2}']
    assert [i["arguments"] for i in written[-1]["response"]["output"]] == done


def test_a_call_that_came_whole_is_streamed_as_one_piece() -> None:
    from interlingua import MessageEnd, MessageStart, PartEnd, PartStart, ToolUse

    call = ToolUse("c", "f", {"a": 1})
    events = [MessageStart(id="r", model="m"), PartStart(0, call), PartEnd(0), MessageEnd("tool_use")]

    written = [json.loads(sse.data) for sse in CODEC.encode_stream(events)]

    pieces = [e["delta"] for e in written if e["type"] == "response.function_call_arguments.delta"]
    [done] = [e["arguments"] for e in written if e["type"] == "response.function_call_arguments.done"]
    assert pieces == ['{"a":1}'] and done == '{"a":1}'
