"""Golden fixtures written for what the real corpus lacks: each decodes to its recorded IR and
re-encodes exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import Request, Response, accumulate
from interlingua.testing import (
    assert_request_round_trip,
    assert_response_round_trip,
    load_body,
    read_stream_file,
    validate_wire,
)
from interlingua_anthropic import AnthropicMessagesCodec

CODEC = AnthropicMessagesCodec()
ROOT = Path(__file__).resolve().parents[3] / "fixtures" / "anthropic-messages"


def _cases(kind: str, pattern: str = "*.json") -> list[Path]:
    return sorted(p for p in (ROOT / kind).glob(pattern) if not p.name.endswith(".ir.json"))


def _ir(path: Path) -> dict:
    expected: dict = json.loads(path.with_name(path.name.split(".")[0] + ".ir.json").read_text())
    return expected


@pytest.mark.parametrize("path", _cases("request"), ids=lambda p: p.stem)
def test_golden_request_decodes_to_its_ir_and_back(path: Path) -> None:
    body = load_body(path)
    assert CODEC.decode_request(body).to_json_dict() == _ir(path)
    assert Request.model_validate(_ir(path)).to_json_dict() == _ir(path)
    assert_request_round_trip(CODEC, body)
    assert validate_wire("anthropic-messages", "request", body) == []


@pytest.mark.parametrize("path", _cases("response"), ids=lambda p: p.stem)
def test_golden_response_decodes_to_its_ir_and_back(path: Path) -> None:
    body = load_body(path)
    assert CODEC.decode_response(body).to_json_dict() == _ir(path)
    assert Response.model_validate(_ir(path)).to_json_dict() == _ir(path)
    assert_response_round_trip(CODEC, body)
    assert validate_wire("anthropic-messages", "response", body) == []


@pytest.mark.parametrize("path", _cases("stream", "*.sse"), ids=lambda p: p.stem)
def test_golden_stream_accumulates_to_its_ir(path: Path) -> None:
    assert accumulate(CODEC.decode_stream(read_stream_file(path))).to_json_dict() == _ir(path)


@pytest.mark.parametrize("path", _cases("error"), ids=lambda p: p.stem)
def test_golden_error_decodes_to_its_class_and_fields(path: Path) -> None:
    document = json.loads(path.read_text())
    error = CODEC.decode_error(document["status"], json.dumps(document["body"]).encode(), document["headers"])
    found = {
        "class": type(error).__name__,
        "status": error.status,
        "type": error.type,
        "message": error.message,
        "retry_after": error.retry_after,
        "request_id": error.request_id,
    }
    assert found == _ir(path)
    assert validate_wire("anthropic-messages", "error", document["body"]) == []
