"""Streams both ways: invariant 6 on every recorded stream (and the golden ones against their
response bodies), the joining rules, Vertex streamed arguments, the JSON-array form, and
encode_stream giving chunks google-genai parses back to the same answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import interlingua as il
from interlingua import ErrorEvent, ServerSentEvent, Text, Thinking, ToolUse, accumulate
from interlingua.testing import (
    assert_stream_agrees,
    first_difference,
    load_body,
    read_stream_file,
    real_fixture,
    real_fixtures,
    validate_wire,
)

CODEC = il.get_codec("gemini")
GOLDEN = Path(__file__).resolve().parents[3] / "fixtures" / "gemini" / "stream"
REAL = real_fixtures("gemini", "stream")
OWN = sorted(GOLDEN.glob("*.sse"))


def _events(path: Path) -> list[il.SSEEvent]:
    if path.name.endswith(".json-array.txt"):
        from interlingua_gemini._stream import json_array_events

        raw = path.read_bytes()
        return list(json_array_events(raw[i : i + 61] for i in range(0, len(raw), 61)))
    return read_stream_file(path)


def _chunks(path: Path) -> list[dict]:
    return [json.loads(event.data) for event in _events(path)]


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name.split(".")[0])
def test_real_stream_accumulates_to_the_text_calls_and_usage_it_carried(path: Path) -> None:
    chunks = _chunks(path)
    response = assert_stream_agrees(CODEC, _events(path))
    parts = [
        p for c in chunks for cand in c.get("candidates", [])[:1] for p in cand.get("content", {}).get("parts", [])
    ]
    said = "".join(p.get("text", "") for p in parts if not p.get("thought"))
    thought = "".join(p.get("text", "") for p in parts if p.get("thought"))
    assert "".join(p.text for p in response.message.parts if isinstance(p, Text)) == said
    assert "".join(p.text for p in response.message.parts if isinstance(p, Thinking)) == thought
    names = [p["functionCall"]["name"] for p in parts if p.get("functionCall", {}).get("name")]
    assert [p.name for p in response.message.parts if isinstance(p, ToolUse)] == names
    last = chunks[-1]
    assert response.raw_stop_reason == last["candidates"][0]["finishReason"]
    meta = last["usageMetadata"]
    assert response.usage.input_tokens == meta.get("promptTokenCount", 0)
    assert response.usage.output_tokens == meta.get("candidatesTokenCount", 0) + meta.get("thoughtsTokenCount", 0)
    assert response.usage.extra.get("totalTokenCount") == meta.get("totalTokenCount")
    signatures = [p["thoughtSignature"] for p in parts if "thoughtSignature" in p]
    kept = [
        e.data["thoughtSignature"]
        for p in response.message.parts
        for e in p.provider_echoes
        if "thoughtSignature" in e.data
    ]
    assert kept == signatures


@pytest.mark.parametrize("path", OWN, ids=lambda p: p.stem)
def test_golden_stream_agrees_with_its_response_and_recorded_ir(path: Path) -> None:
    body = load_body(path.with_name(path.stem + ".response.json"))
    response = assert_stream_agrees(CODEC, read_stream_file(path), body)
    assert response.to_json_dict() == json.loads(path.with_name(path.stem + ".ir.json").read_text())


def test_vertex_streamed_arguments_are_gathered_per_call() -> None:
    path = real_fixture("gemini", "stream", "vertex-stream-function-call-partial-args*")
    response = accumulate(CODEC.decode_stream(read_stream_file(path)))
    calls = [(p.name, p.input) for p in response.message.parts if isinstance(p, ToolUse)]
    assert calls == [("getWeather", {"location": "Boston"}), ("getWeather", {"location": "San Francisco"})]
    assert response.stop_reason == "tool_use"


def test_signature_on_a_later_empty_chunk_joins_the_open_text_part() -> None:
    path = real_fixture("gemini", "stream", "reasoning-gemini3*")
    response = accumulate(CODEC.decode_stream(read_stream_file(path)))
    assert [p.type for p in response.message.parts] == ["text"]
    assert "thoughtSignature" in response.message.parts[0].echo("gemini").data  # type: ignore[union-attr]


def test_json_array_framing_is_independent_of_chunk_boundaries() -> None:
    from interlingua_gemini._stream import json_array_events

    path = real_fixture("gemini", "stream", "*turn1.json-array.txt")
    raw = path.read_bytes()
    whole = [e.data for e in json_array_events([raw])]
    bytewise = [e.data for e in json_array_events(raw[i : i + 1] for i in range(len(raw)))]
    assert whole == bytewise and len(whole) == 2
    assert [json.loads(d) for d in whole] == json.loads(raw)
    tricky = b'[{"candidates": [{"content": {"parts": [{"text": "a \\" } ] { \\\\"}]}}]}]'
    assert [json.loads(e.data) for e in json_array_events([tricky])] == json.loads(tricky)


def test_error_chunk_becomes_an_error_event() -> None:
    error = ServerSentEvent(
        data='{"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}'
    )
    events = list(CODEC.decode_stream([error]))
    assert len(events) == 1 and isinstance(events[0], ErrorEvent)
    assert isinstance(events[0].error, il.OverloadedError) and events[0].error.status == 503


def test_malformed_chunk_raises_decode_error() -> None:
    with pytest.raises(il.DecodeError) as caught:
        list(CODEC.decode_stream([ServerSentEvent(data='{"candidates": [{"content": {"parts": [7]}}]}')]))
    assert caught.value.path == "chunk[0].candidates[0].content.parts[0]"


def test_a_chunk_that_is_not_json_fails_at_its_place() -> None:
    events = [ServerSentEvent(data='{"candidates": []}'), ServerSentEvent(data='{"candidates": [')]
    with pytest.raises(il.DecodeError) as caught:
        list(CODEC.decode_stream(events))
    assert (caught.value.codec, caught.value.path) == ("gemini", "chunk[1]")
    assert caught.value.reason.startswith("data is not JSON")


@pytest.mark.parametrize("path", REAL + OWN, ids=lambda p: p.name.split(".")[0])
def test_encoded_stream_parses_in_the_sdk_and_decodes_to_the_same_answer(path: Path) -> None:
    events = _events(path)
    original = accumulate(CODEC.decode_stream(events))
    encoded = list(CODEC.encode_stream(CODEC.decode_stream(events)))
    for event in encoded:
        assert validate_wire("gemini", "stream_event", json.loads(event.data)) == []
    again = accumulate(CODEC.decode_stream(encoded))
    assert first_difference(original.to_json_dict(), again.to_json_dict()) is None


def _sse(*chunks: dict) -> list[il.SSEEvent]:
    return [ServerSentEvent(data=json.dumps(chunk)) for chunk in chunks]


def _chunk(text: str, usage: dict, **candidate: object) -> dict:
    return {
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, **candidate}],
        "usageMetadata": usage,
    }


@pytest.mark.parametrize(
    ("bad", "path"),
    [
        ({"usageMetadata": {"promptTokenCount": "3"}}, "chunk[1].usageMetadata.promptTokenCount"),
        ({"usageMetadata": [3]}, "chunk[1].usageMetadata"),
        (
            {"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]},
            "chunk[1].candidates[0].content.parts[0].functionCall.name",
        ),
        ({"candidates": [{"content": "x"}]}, "chunk[1].candidates[0].content"),
        ({"candidates": [{"finishReason": 1}]}, "chunk[1].candidates[0].finishReason"),
        ([1], "chunk[1]"),
    ],
)
def test_bad_chunk_names_its_whole_path(bad: object, path: str) -> None:
    events = _sse(_chunk("a", {"promptTokenCount": 3}), bad)  # type: ignore[arg-type]
    with pytest.raises(il.DecodeError) as caught:
        list(CODEC.decode_stream(events))
    assert (caught.value.codec, caught.value.path) == ("gemini", path)


def test_candidate_fields_that_arrive_late_reach_the_echo_and_repeated_usage_is_reported_each_chunk() -> None:
    usage = {"promptTokenCount": 3, "candidatesTokenCount": 1, "totalTokenCount": 4}
    ratings = [{"category": "HARM_CATEGORY_HARASSMENT", "probability": "NEGLIGIBLE"}]
    events = list(
        CODEC.decode_stream(
            _sse(
                _chunk("a", usage, index=0),
                _chunk("b", usage, index=0),
                _chunk("c", {**usage, "candidatesTokenCount": 2}, index=0, finishReason="STOP", safetyRatings=ratings),
            )
        )
    )
    assert [type(e).__name__ for e in events].count("UsageUpdate") == 3
    response = accumulate(events)
    assert response.message.parts == [Text("abc")]
    assert response.echo("gemini").data["candidate"] == {"index": 0, "safetyRatings": ratings}  # type: ignore[union-attr]
    assert (response.usage.input_tokens, response.usage.output_tokens, response.stop_reason) == (3, 2, "end_turn")


def test_a_partial_args_index_past_what_the_bytes_can_fill_is_a_decode_error() -> None:
    """A 168-byte event naming ``$.a[100000000]`` once allocated a list that long (issue 39)."""
    opened = {"functionCall": {"name": "f", "willContinue": True}}
    huge = {"functionCall": {"partialArgs": [{"jsonPath": "$.a[100000000]", "numberValue": 1}], "willContinue": True}}
    events = _sse(*({"candidates": [{"content": {"role": "model", "parts": [part]}}]} for part in (opened, huge)))

    with pytest.raises(il.DecodeError) as caught:
        list(CODEC.decode_stream(events))

    assert caught.value.path == "chunk[1].candidates[0].content.parts[0].functionCall.partialArgs[0].jsonPath"
    assert "index past what" in caught.value.reason
