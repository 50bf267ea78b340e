"""A response's stop reason crosses vendors: every real recorded answer, encoded by every other
codec and decoded back, stops for the same reason, and another vendor's raw string is never
written into a wire field (Gemini's finishReason, Responses' status and incomplete reason)."""

from __future__ import annotations

from pathlib import Path

import pytest

import interlingua as il
from interlingua.testing import load_body, real_fixtures, validate_wire

from .conftest import CONFORMANCE, WIRES, golden_answers, real_folder

# The project's golden answers, and the recorded ones where the corpus is present.
ANSWERS = [
    (wire, path)
    for wire in WIRES
    for path in [*golden_answers(wire), *real_fixtures(real_folder(wire), "response", "*.json")]
]


NO_FORM = {(wire, stop): note for wire, data in CONFORMANCE.items() for stop, note in data.stop_reasons.items()}
"""(target, stop reason) the target's wire has no value for: converted, with a warning
(``Conformance.stop_reasons``, each with the vendor's list)."""


@pytest.mark.parametrize(("source", "path"), ANSWERS, ids=[f"{w}/{p.stem}" for w, p in ANSWERS])
def test_every_real_answer_keeps_its_stop_reason_through_every_other_codec(source: str, path: Path) -> None:
    answer = il.get_codec(source).decode_response(load_body(path))
    for target in WIRES:
        if target == source:
            continue
        codec = il.get_codec(target)
        encoded = codec.encode_response(answer)
        back = codec.decode_response(encoded.body)
        if (target, answer.stop_reason) in NO_FORM:
            assert [w.path for w in encoded.warnings if w.path == "stop_reason"] == ["stop_reason"], target
            continue
        assert back.stop_reason == answer.stop_reason, (target, answer.raw_stop_reason, back.raw_stop_reason)


FOREIGN = [
    # (stop, raw from another vendor, gemini finishReason, responses (status, reason))
    ("end_turn", "end_turn", "STOP", ("completed", None)),
    ("end_turn", "stop", "STOP", ("completed", None)),
    ("tool_use", "tool_calls", "STOP", ("completed", None)),
    ("max_tokens", "length", "MAX_TOKENS", ("incomplete", "max_output_tokens")),
    ("content_filter", "refusal", "SAFETY", ("incomplete", "content_filter")),
    ("end_turn", "STOP", "STOP", ("completed", None)),
    ("max_tokens", "MAX_TOKENS", "MAX_TOKENS", ("incomplete", "max_output_tokens")),
]


@pytest.mark.parametrize(("stop", "raw", "finish", "status"), FOREIGN)
def test_a_foreign_raw_stop_reason_is_mapped_not_copied(
    stop: il.StopReason, raw: str, finish: str, status: tuple[str, str | None]
) -> None:
    answer = il.Response(model="m", message=il.Message.assistant("hi"), stop_reason=stop, raw_stop_reason=raw)
    gemini = il.get_codec("gemini").encode_response(answer).body
    assert gemini["candidates"][0]["finishReason"] == finish
    responses = il.get_codec("openai-responses").encode_response(answer).body
    reason = (responses.get("incomplete_details") or {}).get("reason")
    assert (responses["status"], reason) == status
    assert not [
        e for e in validate_wire("openai-responses", "response", responses) if "status" in e or "incomplete" in e
    ]


def test_an_own_raw_reason_newer_than_the_table_is_kept_for_an_exact_round_trip() -> None:
    answer = il.Response(model="m", message=il.Message.assistant("hi"), stop_reason="other", raw_stop_reason="NEW_KIND")
    assert il.get_codec("gemini").encode_response(answer).body["candidates"][0]["finishReason"] == "NEW_KIND"
    assert il.get_codec("openai-responses").encode_response(answer).body["incomplete_details"] == {"reason": "NEW_KIND"}
