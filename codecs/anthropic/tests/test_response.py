"""Responses: exact round trips on the real corpus (invariant 1), stop reasons and usage."""

from __future__ import annotations

from pathlib import Path

import pytest

from interlingua import DecodeError, Message, Native, Response, Text, Thinking, ToolUse, Usage
from interlingua.testing import assert_response_round_trip, load_body, real_fixture, real_fixtures
from interlingua_anthropic import AnthropicMessagesCodec

CODEC = AnthropicMessagesCodec()
RESPONSES = real_fixtures("anthropic-messages", "response")


def _real(stem: str) -> dict:
    body: dict = load_body(real_fixture("anthropic-messages", "response", f"{stem}.json"))
    return body


@pytest.mark.parametrize("path", RESPONSES, ids=[p.stem for p in RESPONSES])
def test_real_response_round_trips_exactly(path: Path) -> None:
    assert_response_round_trip(CODEC, load_body(path))


def test_usage_input_counts_cache_reads_and_writes() -> None:
    usage = CODEC.decode_response(_real("prompt-cache-turn2")).usage
    assert usage == Usage(
        input_tokens=3 + 1111 + 418,
        output_tokens=33,
        cache_read_tokens=1111,
        cache_write_tokens=418,
        extra={"cache_creation.ephemeral_1h_input_tokens": 0, "cache_creation.ephemeral_5m_input_tokens": 418},
    )


def test_thinking_signature_rides_in_the_echo_with_its_model() -> None:
    response = CODEC.decode_response(_real("thinking-with-tool-use-turn1"))
    thinking, text, call = response.message.parts
    assert isinstance(thinking, Thinking) and isinstance(text, Text) and isinstance(call, ToolUse)
    echo = thinking.echo("anthropic")
    assert echo is not None and echo.model == response.model and set(echo.data) == {"signature"}
    assert (response.stop_reason, response.raw_stop_reason) == ("tool_use", "tool_use")


def test_server_tool_blocks_and_citations_decode() -> None:
    response = CODEC.decode_response(_real("web-search-server-tool"))
    kinds = [p.data["type"] if isinstance(p, Native) else p.type for p in response.message.parts[:4]]
    assert kinds == ["thinking", "server_tool_use", "web_search_tool_result", "text"]
    cited = [p for p in response.message.parts if isinstance(p, Text) and p.citations]
    first = cited[0].citations[0]
    assert (
        first.source.type == "url"
        and first.source.url is not None
        and first.source.url.startswith("https://www.accuweather.com/")
    )
    assert set(first.provider_echoes[0].data) == {"encrypted_index"}


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("end_turn", "end_turn"),
        ("max_tokens", "max_tokens"),
        ("stop_sequence", "stop_sequence"),
        ("tool_use", "tool_use"),
        ("pause_turn", "pause"),
        ("refusal", "content_filter"),
        ("model_context_window_exceeded", "max_tokens"),
        ("something_new", "other"),
    ],
)
def test_stop_reasons_map_and_keep_the_raw_string(raw: str, reason: str) -> None:
    body = {**_real("text-basic"), "stop_reason": raw}
    response = CODEC.decode_response(body)
    assert (response.stop_reason, response.raw_stop_reason) == (reason, raw)
    assert CODEC.encode_response(response).body["stop_reason"] == raw


def test_a_foreign_response_encodes_with_mapped_stop_reason_and_wire_usage() -> None:
    response = Response(
        id="r1",
        model="x",
        message=Message.assistant("hi"),
        stop_reason="content_filter",
        usage=Usage(input_tokens=100, output_tokens=7, cache_read_tokens=60, reasoning_tokens=3),
    )
    encoded = CODEC.encode_response(response)
    assert encoded.body["stop_reason"] == "refusal"
    assert encoded.body["usage"] == {
        "input_tokens": 40,
        "cache_read_input_tokens": 60,
        "output_tokens": 7,
        "output_tokens_details": {"thinking_tokens": 3},
    }
    assert encoded.warnings == []


def test_cancelled_has_no_wire_reason_and_warns() -> None:
    encoded = CODEC.encode_response(Response(message=Message.assistant("x"), stop_reason="cancelled"))
    assert encoded.body["stop_reason"] == "end_turn"
    assert [w.path for w in encoded.warnings] == ["stop_reason"]


def test_sdk_message_objects_are_accepted() -> None:
    from anthropic.types import Message as SdkMessage

    body = _real("text-basic")
    assert CODEC.decode_response(SdkMessage.model_validate(body)).message == CODEC.decode_response(body).message


def test_malformed_response_fails_with_a_path() -> None:
    with pytest.raises(DecodeError) as info:
        CODEC.decode_response({"id": "m", "content": [{"type": "tool_use", "id": "t", "name": 3}]})
    assert info.value.path == "content[0].name"
