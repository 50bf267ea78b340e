"""Responses both ways: invariant 1 on every recorded and golden answer, stop reasons, usage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import AudioOutput, LossyEncode, Message, Response, Text, Usage
from interlingua.testing import assert_response_round_trip, load_body, real_fixtures
from interlingua_openai.chat import OpenAIChatCodec

GOLDEN = Path(__file__).resolve().parents[4] / "fixtures" / "openai-chat"
CODEC = OpenAIChatCodec()


@pytest.mark.parametrize("path", real_fixtures("openai-chat", "response"), ids=lambda p: p.stem)
def test_recorded_openai_response_round_trips_exactly(path: Path) -> None:
    dialect = "ollama" if path.name.startswith("ollama-") else "openai"
    assert_response_round_trip(OpenAIChatCodec(dialect=dialect), load_body(path))


@pytest.mark.parametrize("path", real_fixtures("mistral", "response"), ids=lambda p: p.stem)
def test_recorded_mistral_response_round_trips_through_the_mistral_dialect(path: Path) -> None:
    assert_response_round_trip(OpenAIChatCodec(dialect="mistral"), load_body(path))


GOLDEN_RESPONSES = sorted(p for p in (GOLDEN / "response").glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", GOLDEN_RESPONSES, ids=lambda p: p.stem)
def test_golden_response_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = load_body(path)
    response = CODEC.decode_response(body)
    assert response.to_json_dict() == json.loads(path.with_name(path.stem + ".ir.json").read_text())
    assert_response_round_trip(CODEC, body)


@pytest.mark.parametrize(
    ("raw", "stop"),
    [
        ("stop", "end_turn"),
        ("length", "max_tokens"),
        ("tool_calls", "tool_use"),
        ("content_filter", "content_filter"),
        ("function_call", "tool_use"),
        ("model_length", "other"),
    ],
)
def test_finish_reason_maps_and_keeps_the_raw_string(raw: str, stop: str) -> None:
    body = load_body(GOLDEN / "response" / "finish-length.json")
    body = {**body, "choices": [{**body["choices"][0], "finish_reason": raw}]}
    response = CODEC.decode_response(body)
    assert (response.stop_reason, response.raw_stop_reason) == (stop, raw)
    assert CODEC.encode_response(response).body["choices"][0]["finish_reason"] == raw


def test_usage_subsets_and_counters() -> None:
    usage = CODEC.decode_response(load_body(GOLDEN / "response" / "cached-and-reasoning-tokens.json")).usage
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens, usage.reasoning_tokens) == (
        2048,
        300,
        1920,
        256,
    )
    assert usage.extra["prompt_tokens_details.audio_tokens"] == 0


def test_refusal_and_audio_output_decode_to_their_parts() -> None:
    refusal = CODEC.decode_response(load_body(GOLDEN / "response" / "refusal.json")).message.parts
    assert [p.text for p in refusal if isinstance(p, Text)] == ["I'm sorry, I can't help with that."]
    audio = CODEC.decode_response(load_body(GOLDEN / "response" / "audio-output.json")).message.parts[0]
    assert isinstance(audio, AudioOutput) and audio.transcript == "Hello there!"


def test_a_foreign_response_encodes_with_mapped_stop_and_warns_for_what_has_no_form() -> None:
    response = Response(
        id="msg_1",
        model="claude-x",
        message=Message.assistant(Text("hi")),
        stop_reason="pause",
        raw_stop_reason="pause_turn",
        usage=Usage(input_tokens=5, output_tokens=2, cache_read_tokens=3),
    )
    encoded = CODEC.encode_response(response)
    choice = encoded.body["choices"][0]
    assert choice["finish_reason"] == "stop" and choice["message"]["content"] == "hi"
    assert encoded.body["usage"] == {
        "prompt_tokens": 5,
        "completion_tokens": 2,
        "total_tokens": 7,
        "prompt_tokens_details": {"cached_tokens": 3},
    }
    assert [w.part_type for w in encoded.warnings if isinstance(w, LossyEncode)] == ["stop_reason"]


def test_extra_choices_are_kept_with_a_lossy_decode_warning() -> None:
    body = load_body(GOLDEN / "response" / "finish-length.json")
    second = {**body["choices"][0], "index": 1}
    body = {**body, "choices": [body["choices"][0], second]}
    response = CODEC.decode_response(body)
    assert [w.kind for w in response.warnings] == ["lossy_decode"]
    assert CODEC.encode_response(response).body["choices"][1] == second


def test_sdk_objects_decode_like_their_json() -> None:
    from openai.types.chat import ChatCompletion

    body = load_body(GOLDEN / "response" / "logprobs.json")
    assert CODEC.decode_response(ChatCompletion.model_validate(body)).message == CODEC.decode_response(body).message
