"""A gateway serves one vendor's answer in another vendor's format: every real recorded answer,
decoded by its own codec and encoded by each other codec, is a body the target vendor's SDK
accepts (the oracle: SDK response types, unknown keys reported)."""

from __future__ import annotations

from pathlib import Path

import pytest

import interlingua as il
from interlingua.testing import load_body, real_fixtures_dir, validate_wire

WIRES = ("anthropic-messages", "gemini", "openai-chat", "openai-responses")
ANSWERS = [(wire, path) for wire in WIRES for path in sorted((real_fixtures_dir() / wire / "response").glob("*.json"))]


@pytest.mark.filterwarnings("ignore::UserWarning")  # google-genai warns on enum values it does not know
@pytest.mark.parametrize(("source", "path"), ANSWERS, ids=[f"{w}/{p.stem}" for w, p in ANSWERS])
def test_every_real_answer_encodes_to_a_body_every_other_vendor_sdk_accepts(source: str, path: Path) -> None:
    answer = il.get_codec(source).decode_response(load_body(path))
    for target in WIRES:
        if target != source:
            body = il.get_codec(target).encode_response(answer).body
            assert validate_wire(target, "response", body) == [], target
