"""decode_error on the recorded and golden google.rpc.Status bodies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import interlingua as il
from interlingua.testing import load_body, real_fixtures, validate_wire

CODEC = il.get_codec("gemini")
GOLDEN = Path(__file__).resolve().parents[3] / "fixtures" / "gemini" / "error"
OWN = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", real_fixtures("gemini", "error") + OWN, ids=lambda p: p.stem)
def test_error_keeps_status_type_message_and_body(path: Path) -> None:
    recorded = json.loads(path.read_text())
    error = CODEC.decode_error(recorded["status"], json.dumps(recorded["body"]).encode(), {})
    assert (error.status, error.type, error.message) == (
        recorded["status"],
        recorded["body"]["error"]["status"],
        recorded["body"]["error"]["message"],
    )
    assert error.raw == load_body(path) and error.codec == "gemini"
    assert validate_wire("gemini", "error", recorded["body"]) == []
    expected = path.with_name(path.stem + ".ir.json")
    if expected.exists():
        want = json.loads(expected.read_text())
        assert type(error).__name__ == want["class"] and error.retry_after == want["retry_after"]


def test_headers_win_over_retry_info_and_non_json_bodies_keep_their_text() -> None:
    body = (GOLDEN / "rate-limit-429.json").read_text()
    error = CODEC.decode_error(429, json.dumps(json.loads(body)["body"]).encode(), {"Retry-After": "3"})
    assert isinstance(error, il.RateLimitError) and error.retry_after == 3.0
    html = CODEC.decode_error(502, b"<html>Bad Gateway</html>", {})
    assert isinstance(html, il.ServerError) and html.message == "<html>Bad Gateway</html>"
    listed = CODEC.decode_error(400, b'[{"error": {"code": 400, "message": "bad", "status": "INVALID_ARGUMENT"}}]', {})
    assert isinstance(listed, il.BadRequestError) and listed.type == "INVALID_ARGUMENT"


def test_a_gateways_error_text_is_the_message() -> None:
    error = CODEC.decode_error(400, b'{"error": "Error: ApiError: Cannot fetch content from the provided URL."}', {})
    assert isinstance(error, il.BadRequestError)
    assert error.message == "Error: ApiError: Cannot fetch content from the provided URL."
