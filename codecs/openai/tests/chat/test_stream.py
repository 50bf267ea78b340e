"""Streams both ways: invariant 6 on every recorded and golden stream, and the SDK reads our streams back."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from interlingua import (
    DONE,
    DecodeError,
    MessageEnd,
    MessageStart,
    PartEnd,
    PartStart,
    Response,
    ServerSentEvent,
    SSEEvent,
    StreamEvent,
    Text,
    TextDelta,
    Thinking,
    ThinkingDelta,
    ToolInputDelta,
    ToolUse,
    accumulate,
)
from interlingua.kit import arguments_text
from interlingua.testing import (
    assert_stream_agrees,
    first_difference,
    load_body,
    read_stream_file,
    real_fixture,
    real_fixtures,
)
from interlingua_openai.chat import OpenAIChatCodec

GOLDEN = Path(__file__).resolve().parents[4] / "fixtures" / "openai-chat"
CODEC = OpenAIChatCodec()
RECORDED = [("openai", p) for p in real_fixtures("openai-chat", "stream")] + [
    ("mistral", p) for p in real_fixtures("mistral", "stream")
]


@pytest.mark.parametrize(
    ("dialect", "path"), RECORDED, ids=lambda v: v.name.split(".")[0] if isinstance(v, Path) else v
)
def test_recorded_stream_agrees_with_the_response_it_encodes_to(dialect: str, path: Path) -> None:
    """No recorded stream has its non-streamed twin, so the accumulated answer goes through
    encode_response -> decode_response and must come back the same (invariant 6 by way of 1)."""
    codec = OpenAIChatCodec(dialect=dialect)
    streamed = assert_stream_agrees(codec, read_stream_file(path))
    assert streamed.stop_reason is not None and streamed.message.parts
    again = codec.decode_response(codec.encode_response(streamed).body)
    assert first_difference(streamed.to_json_dict(), again.to_json_dict()) is None


GOLDEN_STREAMS = sorted((GOLDEN / "stream").glob("*.sse"))


@pytest.mark.parametrize("path", GOLDEN_STREAMS, ids=lambda p: p.stem)
def test_golden_stream_accumulates_to_its_recorded_ir(path: Path) -> None:
    twin = GOLDEN / "response" / f"{path.stem}.json"
    streamed = assert_stream_agrees(CODEC, read_stream_file(path), load_body(twin) if twin.exists() else None)
    assert streamed.to_json_dict() == json.loads(path.with_name(path.stem + ".ir.json").read_text())


def test_tool_call_deltas_interleave_by_index_with_arguments_split_anywhere() -> None:
    events = list(CODEC.decode_stream(read_stream_file(GOLDEN / "stream" / "tool-calls-interleaved-by-index.sse")))
    starts = [e.part for e in events if isinstance(e, PartStart)]
    assert [type(p).__name__ for p in starts] == ["Text", "ToolUse", "ToolUse"]
    pieces = [(e.index, e.json) for e in events if isinstance(e, ToolInputDelta)]
    assert pieces[:3] == [(1, '{"ci'), (2, '{"city"'), (1, 'ty":"Os')]
    assert isinstance(events[-1], MessageEnd) and events[-1].usage is not None
    assert events[-1].usage.input_tokens == 80


def test_usage_chunk_with_empty_choices_and_done_end_the_stream() -> None:
    recorded = real_fixture("openai-chat", "stream", "tool-call-stream*")
    end = list(CODEC.decode_stream(read_stream_file(recorded)))[-1]
    assert isinstance(end, MessageEnd) and end.raw_stop_reason == "tool_calls"
    assert end.usage is not None and (end.usage.input_tokens, end.usage.output_tokens) == (54, 20)


def test_a_stream_without_done_completes_at_its_finish_reason() -> None:
    """[DONE] is not the chat wire's final event: chunks-format recordings leave it out and the
    openai SDK ends without it; the chunk with a finish_reason is."""
    events = [e for e in read_stream_file(GOLDEN / "stream" / "refusal-without-usage.sse") if e.data != "[DONE]"]
    assert accumulate(CODEC.decode_stream(events)).raw_stop_reason == "stop"


def test_a_stream_cut_before_finish_reason_does_not_complete() -> None:
    events = read_stream_file(GOLDEN / "stream" / "refusal-without-usage.sse")[:2]
    decoded = list(CODEC.decode_stream(events))
    assert not any(isinstance(e, MessageEnd) for e in decoded)


def test_bad_json_in_a_stream_is_a_decode_error_with_its_place() -> None:
    with pytest.raises(DecodeError) as caught:
        list(CODEC.decode_stream([ServerSentEvent(data="{nope")]))
    assert caught.value.path == "events[0]"


@pytest.mark.parametrize(
    ("chunk", "path"),
    [
        ({"id": "c", "choices": [{"index": 0, "delta": {"content": "Hi"}}]}, ""),
        ({"id": "c", "choices": ["nope"]}, "events[1].choices[0]"),
        (
            {"id": "c", "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": None}},
            "events[1].usage.completion_tokens",
        ),
        # Each of these reached the IR before: a list in a text crashed the accumulator with a
        # bare TypeError, an id of true crashed encode_response.
        ({"id": "c", "choices": [{"index": 0, "delta": ["Hi"]}]}, "events[1].choices[0].delta"),
        ({"id": "c", "choices": [{"index": 0, "delta": {"content": 7}}]}, "events[1].choices[0].delta.content"),
        ({"id": "c", "choices": [{"index": 0, "delta": {"refusal": ["no"]}}]}, "events[1].choices[0].delta.refusal"),
        (
            {"id": "c", "choices": [{"index": 0, "delta": {"content": [{"type": "text", "text": ["Hi"]}]}}]},
            "events[1].choices[0].delta.content[0].text",
        ),
        (
            {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": {"index": 0}}}]},
            "events[1].choices[0].delta.tool_calls",
        ),
        (
            {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": True}]}}]},
            "events[1].choices[0].delta.tool_calls[0].id",
        ),
        (
            {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": [0], "id": "a"}]}}]},
            "events[1].choices[0].delta.tool_calls[0].index",
        ),
        (
            {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"id": "a", "function": "f"}]}}]},
            "events[1].choices[0].delta.tool_calls[0].function",
        ),
        (
            {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"id": "a", "function": {"name": 3}}]}}]},
            "events[1].choices[0].delta.tool_calls[0].function.name",
        ),
        (
            {
                "id": "c",
                "choices": [{"index": 0, "delta": {"tool_calls": [{"id": "a", "function": {"arguments": ["{}"]}}]}}],
            },
            "events[1].choices[0].delta.tool_calls[0].function.arguments",
        ),
    ],
)
def test_a_malformed_chunk_is_a_decode_error_at_its_event(chunk: dict[str, object], path: str) -> None:
    events = [ServerSentEvent(data=json.dumps({"id": "c", "choices": [{"index": 0, "delta": {"role": "assistant"}}]}))]
    events.append(ServerSentEvent(data=json.dumps(chunk)))
    if not path:  # the well-formed control: the text arrives
        assert [e.text for e in CODEC.decode_stream(events) if isinstance(e, TextDelta)] == ["Hi"]
        return
    with pytest.raises(DecodeError) as caught:
        list(CODEC.decode_stream(events))
    assert caught.value.path == path


def _events_of(response: Response) -> Iterator[StreamEvent]:
    yield MessageStart(response.id, response.model, list(response.provider_echoes))
    for index, part in enumerate(response.message.parts):
        if isinstance(part, Text):
            yield PartStart(index, part.model_copy(update={"text": ""}))
            yield TextDelta(index, part.text[:3])
            yield TextDelta(index, part.text[3:])
        elif isinstance(part, Thinking):
            yield PartStart(index, part.model_copy(update={"text": ""}))
            yield ThinkingDelta(index, part.text)
        elif isinstance(part, ToolUse):
            yield PartStart(index, part.model_copy(update={"input": {}, "raw_input": None}))
            text = arguments_text(part.input, part.raw_input)
            yield ToolInputDelta(index, text[:2])
            yield ToolInputDelta(index, text[2:])
        else:
            yield PartStart(index, part)
        yield PartEnd(index)
    yield MessageEnd(response.stop_reason, response.raw_stop_reason, response.usage)


SDK_CASES = [
    GOLDEN / "response" / f"{name}.json"
    for name in ("tool-calls-interleaved-by-index", "refusal", "finish-length", "audio-output")
]


@pytest.mark.parametrize("path", SDK_CASES, ids=lambda p: p.stem)
def test_encode_stream_is_read_back_by_the_openai_sdk_into_the_same_completion(path: Path) -> None:
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    response = CODEC.decode_response(load_body(path))
    sse = list(CODEC.encode_stream(_events_of(response)))
    assert sse[-1].data == "[DONE]"
    state = ChatCompletionStreamState()
    for event in sse[:-1]:
        state.handle_chunk(ChatCompletionChunk.model_validate(json.loads(event.data)))
    completion = state.current_completion_snapshot.model_dump(mode="json", exclude_unset=True)
    message = CODEC.decode_response(completion).message
    assert [p.model_dump(exclude={"provider_echoes"}) for p in message.parts] == [
        p.model_dump(exclude={"provider_echoes"}) for p in response.message.parts
    ]
    assert accumulate(CODEC.decode_stream(sse)).message.parts == response.message.parts


def _argument_pieces(events: Iterable[SSEEvent]) -> list[tuple[int, str]]:
    """Each tool-call delta's (index, arguments), in stream order."""
    pieces = []
    for event in events:
        chunk = json.loads(event.data) if event.data != DONE else {}
        for choice in chunk.get("choices") or []:
            for call in choice["delta"].get("tool_calls") or []:
                pieces.append((call["index"], call["function"]["arguments"]))
    return pieces


def test_a_call_without_arguments_streams_them_as_its_answer_writes_them() -> None:
    """The answer writes "{}" for a call with no arguments; the stream wrote "" and nothing more."""
    events: list[StreamEvent] = [
        MessageStart(id="chatcmpl-1", model="gpt-4o"),
        PartStart(0, ToolUse(id="call_1", name="get_country", input={})),
        PartEnd(0),
        MessageEnd("tool_use", "tool_calls"),
    ]
    answer = CODEC.encode_response(accumulate(events)).body
    assert answer["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == "{}"
    assert _argument_pieces(CODEC.encode_stream(events)) == [(0, ""), (0, "{}")]
    unclosed = [event for event in events if not isinstance(event, PartEnd)]
    assert _argument_pieces(CODEC.encode_stream(unclosed)) == [(0, ""), (0, "{}")]


def test_calls_whose_arguments_came_whole_stream_as_the_api_sends_argument_less_calls() -> None:
    """The recorded stream's two calls without arguments, their argument deltas taken out (as a
    vendor that sends calls whole decodes them): each call gets the API's own pieces back (its
    "{}" now when the call closes, at the finish)."""
    run = read_stream_file(real_fixture("openai-chat", "stream", "parallel-tool-calls-stream*"))
    assert _argument_pieces(run) == [(0, ""), (0, "{}"), (1, ""), (1, "{}")]
    whole = [event for event in CODEC.decode_stream(run) if not isinstance(event, ToolInputDelta)]
    assert sorted(_argument_pieces(CODEC.encode_stream(whole))) == _argument_pieces(run)
    assert _argument_pieces(CODEC.encode_stream(CODEC.decode_stream(run))) == _argument_pieces(run)
