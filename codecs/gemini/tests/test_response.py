"""Responses both ways: invariant 1 on every real and golden response, and what each field means."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from hypothesis import given

import interlingua as il
from interlingua import ImageOutput, LossyDecode, Text, ToolUse
from interlingua.testing import assert_response_round_trip, load_body, real_fixture, real_fixtures, validate_wire
from interlingua.testing.strategies import responses

CODEC = il.get_codec("gemini")
GOLDEN = Path(__file__).resolve().parents[3] / "fixtures" / "gemini"
REAL = real_fixtures("gemini", "response")
OWN = sorted(p for p in (GOLDEN / "response").glob("*.json") if not p.name.endswith(".ir.json"))


def _real(name: str) -> dict:
    return load_body(real_fixture("gemini", "response", f"{name}.json"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_response_round_trips_exactly(path: Path) -> None:
    assert_response_round_trip(CODEC, load_body(path))


@pytest.mark.parametrize("path", OWN, ids=lambda p: p.stem)
def test_golden_response_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = load_body(path)
    expected = json.loads(path.with_name(path.stem + ".ir.json").read_text())
    assert CODEC.decode_response(body).to_json_dict() == expected
    assert_response_round_trip(CODEC, body)
    assert validate_wire("gemini", "response", body) == []


def test_usage_follows_the_convention_output_includes_thoughts() -> None:
    usage = CODEC.decode_response(_real("google-search-grounding")).usage
    assert (usage.input_tokens, usage.output_tokens, usage.reasoning_tokens) == (17, 201 + 213, 213)
    assert usage.extra == {"toolUsePromptTokenCount": 119, "totalTokenCount": 550}
    cached = CODEC.decode_response(_real("cached-content")).usage
    body = _real("cached-content")["usageMetadata"]
    assert cached.cache_read_tokens == body["cachedContentTokenCount"]
    assert cached.input_tokens == body["promptTokenCount"]


def test_grounding_supports_become_citations_on_the_right_characters() -> None:
    body = _real("google-search-grounding")
    supports = body["candidates"][0]["groundingMetadata"]["groundingSupports"]
    response = CODEC.decode_response(body)
    part = response.message.parts[0]
    assert isinstance(part, Text)
    assert len(part.citations) == sum(len(s["groundingChunkIndices"]) for s in supports)
    for citation in part.citations:
        assert citation.start is not None and citation.end is not None
        assert part.text[citation.start : citation.end] == citation.cited_text
        assert citation.source.type == "url" and citation.source.url
    assert "groundingMetadata" in response.echo("gemini").data["candidate"]  # type: ignore[union-attr]


def test_function_call_answer_stops_with_tool_use_and_stable_ids() -> None:
    response = CODEC.decode_response(_real("parallel-function-calls-turn1"))
    assert response.stop_reason == "tool_use" and response.raw_stop_reason == "STOP"
    ids = [p.id for p in response.message.parts if isinstance(p, ToolUse)]
    assert ids == [f"call_{response.id}_{i}" for i in range(3)]
    again = CODEC.decode_response(_real("parallel-function-calls-turn1"))
    assert [p.id for p in again.message.parts if isinstance(p, ToolUse)] == ids


def test_prompt_blocked_before_generation_is_content_filter() -> None:
    response = CODEC.decode_response(_real("prompt-blocked-model-armor"))
    assert (response.stop_reason, response.raw_stop_reason) == ("content_filter", "MODEL_ARMOR")
    assert response.message.parts == []


def test_safety_stop_is_content_filter_with_raw_kept() -> None:
    response = CODEC.decode_response(_real("safety-blocked"))
    assert (response.stop_reason, response.raw_stop_reason) == ("content_filter", "SAFETY")


def test_model_image_is_image_output() -> None:
    response = CODEC.decode_response(_real("image-output-vertex"))
    assert [p.type for p in response.message.parts] == ["image_output"]
    part = response.message.parts[0]
    assert isinstance(part, ImageOutput) and part.source.media_type == "image/jpeg"  # type: ignore[union-attr]


def test_extra_candidates_are_dropped_with_a_lossy_decode_warning() -> None:
    body = _real("text-basic")
    body = {**body, "candidates": [*body["candidates"], {**body["candidates"][0], "index": 1}]}
    response = CODEC.decode_response(body)
    assert [type(w) for w in response.warnings] == [LossyDecode]
    assert response.warnings[0].path == "candidates[1]"


def test_sdk_response_objects_are_accepted() -> None:
    from google.genai import types

    body = _real("thinking-thought-signature-turn1")
    sdk = types.GenerateContentResponse.model_validate(body)
    from_sdk = CODEC.decode_response(sdk)  # type: ignore[arg-type]
    from_json = CODEC.decode_response(body)
    assert [p.type for p in from_sdk.message.parts] == ["thinking", "text"]
    assert from_sdk.message.text == from_json.message.text and from_sdk.usage == from_json.usage
    # google-genai dumps bytes as URL-safe base64 (the API reads either alphabet): same bytes.
    signature = from_sdk.message.parts[1].echo("gemini").data["thoughtSignature"]  # type: ignore[union-attr]
    expected = from_json.message.parts[1].echo("gemini").data["thoughtSignature"]  # type: ignore[union-attr]
    assert base64.urlsafe_b64decode(signature) == base64.b64decode(expected)


def test_malformed_response_raises_decode_error_with_path() -> None:
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_response({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]})
    assert caught.value.path == "candidates[0].content.parts[0].functionCall.name"


@given(responses())
def test_any_response_encodes_to_a_body_the_sdk_accepts(response: il.Response) -> None:
    parts = [p for p in response.message.parts if not (isinstance(p, il.Native) and p.provider == "gemini")]
    response = response.model_copy(update={"message": response.message.model_copy(update={"parts": parts})})
    body = CODEC.encode_response(response).body
    assert validate_wire("gemini", "response", body) == []
