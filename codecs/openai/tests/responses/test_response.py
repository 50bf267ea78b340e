"""Responses: invariant 1 on every real and golden response, stop reasons, usage, citations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import Message, Response, Text, Thinking, ToolUse, Usage
from interlingua.testing import assert_response_round_trip, load_body, real_fixture, real_fixtures, validate_wire
from interlingua_openai.responses import OpenAIResponsesCodec

CODEC = OpenAIResponsesCodec()
GOLDEN = Path(__file__).parents[4] / "fixtures" / "openai-responses"
REAL = real_fixtures("openai-responses", "response")
GOLDEN_RESPONSES = sorted(p for p in (GOLDEN / "response").glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_response_round_trips_exactly(path: Path) -> None:
    assert_response_round_trip(CODEC, load_body(path))


@pytest.mark.parametrize("path", GOLDEN_RESPONSES, ids=lambda p: p.stem)
def test_golden_response_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = json.loads(path.read_text())
    assert validate_wire("openai-responses", "response", body) == []
    assert CODEC.decode_response(body).to_json_dict() == json.loads(path.with_suffix(".ir.json").read_text())
    assert_response_round_trip(CODEC, body)


def _golden(name: str) -> Response:
    return CODEC.decode_response(json.loads((GOLDEN / "response" / f"{name}.json").read_text()))


def test_incomplete_status_is_max_tokens_with_the_reason_kept() -> None:
    response = _golden("incomplete-max-output-tokens")
    assert (response.stop_reason, response.raw_stop_reason) == ("max_tokens", "max_output_tokens")
    assert response.usage == Usage(
        input_tokens=21, output_tokens=64, cache_read_tokens=0, cache_write_tokens=0, reasoning_tokens=48
    )


def test_refusal_is_text_marked_as_a_refusal() -> None:
    response = _golden("refusal")
    [part] = response.message.parts
    assert isinstance(part, Text) and part.text == "I'm sorry, I can't help with that."
    echo = part.echo("openai")
    assert echo is not None and echo.data["refusal"] is True
    assert response.stop_reason == "end_turn"


def test_a_function_call_stops_for_tool_use() -> None:
    response = _golden("reasoning-function-call-turn1")
    assert (response.stop_reason, response.raw_stop_reason) == ("tool_use", "completed")
    assert [p.type for p in response.message.parts] == ["thinking", "thinking", "tool_use"]


def test_url_citations_become_citations_with_the_cited_span() -> None:
    response = CODEC.decode_response(
        load_body(real_fixture("openai-responses", "response", "web-search-url-citations.json"))
    )
    text = next(p for p in response.message.parts if isinstance(p, Text))
    first = text.citations[0]
    assert (first.source.type, first.start, first.end) == ("url", 426, 517)
    assert first.source.url is not None and first.source.url.startswith("https://www.theverge.com/")
    assert first.cited_text == text.text[426:517]
    assert [p.type for p in response.message.parts].count("native") == 3


def test_usage_keeps_cached_and_reasoning_tokens() -> None:
    response = CODEC.decode_response(
        load_body(real_fixture("openai-responses", "response", "web-search-url-citations.json"))
    )
    assert response.usage == Usage(
        input_tokens=19681, output_tokens=3773, cache_read_tokens=3712, reasoning_tokens=3136
    )


def test_foreign_response_gets_item_ids_and_validates() -> None:
    response = Response(
        id="r1",
        model="m",
        message=Message.assistant(Thinking("hmm"), Text("Hello"), ToolUse("call_1", "f", {"a": 1})),
        stop_reason="tool_use",
        usage=Usage(input_tokens=5, output_tokens=7),
    )
    body = CODEC.encode_response(response).body
    assert [(i["type"], i["id"]) for i in body["output"]] == [
        ("reasoning", "rs_0"),
        ("message", "msg_1"),
        ("function_call", "fc_2"),
    ]
    assert body["status"] == "completed"
    assert validate_wire("openai-responses", "response", body) == []
    back = CODEC.decode_response(body)
    assert [p.type for p in back.message.parts] == ["thinking", "text", "tool_use"]
    assert back.stop_reason == "tool_use"


@pytest.mark.parametrize(
    ("stop", "status", "details"),
    [
        ("max_tokens", "incomplete", {"reason": "max_output_tokens"}),
        ("content_filter", "incomplete", {"reason": "content_filter"}),
        ("error", "failed", None),
        ("end_turn", "completed", None),
    ],
)
def test_stop_reasons_encode_to_status(stop: str, status: str, details: object) -> None:
    body = CODEC.encode_response(Response(id="r", model="m", stop_reason=stop)).body  # type: ignore[arg-type]
    assert (body["status"], body.get("incomplete_details")) == (status, details)


def test_multi_turn_replays_reasoning_and_call_exactly() -> None:
    """turn1's response output, replayed in turn2's request, gives the recorded turn2 body."""
    turn1 = _golden("reasoning-function-call-turn1")
    body = json.loads((GOLDEN / "request" / "reasoning-function-call-turn2.json").read_text())
    turn2 = CODEC.decode_request(body)
    messages = [turn2.messages[0], turn2.messages[1], turn1.message, turn2.messages[3]]
    encoded = CODEC.encode_request(turn2.model_copy(update={"messages": messages}))
    assert encoded.body == body
    assert encoded.warnings == []
