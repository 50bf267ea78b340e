"""A gateway serves one vendor's answer in another vendor's format: every real recorded answer,
decoded by its own codec and encoded by each other codec it serves, is a body the target vendor's
SDK accepts (the oracle: SDK response types, unknown keys reported).

The gateway serves the wires whose codec declares its ``serving`` (``WIRES``); any codec may be
its upstream, so the answers of a codec served as an upstream only are sources here, never targets
(their own codec tests encode every other wire's answers for them)."""

from __future__ import annotations

from pathlib import Path

import pytest

import interlingua as il
from interlingua.testing import load_body, real_fixtures, validate_wire

from .conftest import WIRES as UPSTREAMS
from .conftest import golden_answers, real_folder

WIRES = tuple(wire for wire in UPSTREAMS if il.get_codec(wire).serving is not None)
"""The wires the gateway serves (answers in): those whose codec declares its ``serving``."""
# The project's golden answers, and the recorded ones where the corpus is present.
ANSWERS = [
    (wire, path)
    for wire in UPSTREAMS
    for path in [*golden_answers(wire), *real_fixtures(real_folder(wire), "response", "*.json")]
]


@pytest.mark.filterwarnings("ignore::UserWarning")  # google-genai warns on enum values it does not know
@pytest.mark.parametrize(("source", "path"), ANSWERS, ids=[f"{w}/{p.stem}" for w, p in ANSWERS])
def test_every_real_answer_encodes_to_a_body_every_other_vendor_sdk_accepts(source: str, path: Path) -> None:
    answer = il.get_codec(source).decode_response(load_body(path))
    for target in WIRES:
        if target != source:
            body = il.get_codec(target).encode_response(answer).body
            assert validate_wire(target, "response", body) == [], target


@pytest.mark.parametrize("target", WIRES)
def test_an_answer_message_name_and_id_are_reported_where_no_answer_wire_carries_them(target: str) -> None:
    """No vendor's answer has a participant name or a message id of its own (the answer's id is
    ``Response.id``): a Response whose message holds them says so, and the body stays valid."""
    message = il.Message.assistant("Light rain, 18°C.", name="weather_bot", id="msg_asst_02")
    answer = il.Response(id="resp_1", model="m-1", message=message, stop_reason="end_turn")
    encoded = il.get_codec(target).encode_response(answer)
    reported = [(w.path, w.setting) for w in encoded.warnings if isinstance(w, il.UnsupportedSetting)]
    assert reported == [("message.name", "message_name"), ("message.id", "message_id")]
    assert "weather_bot" not in str(encoded.body) and "msg_asst_02" not in str(encoded.body)
    assert validate_wire(target, "response", encoded.body) == []
    plain = il.get_codec(target).encode_response(answer.model_copy(update={"message": il.Message.assistant("hi")}))
    assert plain.warnings == []
