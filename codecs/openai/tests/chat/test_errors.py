"""decode_error on the recorded and golden error bodies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua import RateLimitError
from interlingua.kit import dumps
from interlingua.testing import real_fixtures
from interlingua_openai.chat import OpenAIChatCodec

GOLDEN = Path(__file__).resolve().parents[4] / "fixtures" / "openai-chat" / "error"
ERRORS = real_fixtures("openai-chat", "error") + sorted(
    p for p in GOLDEN.glob("*.json") if not p.name.endswith(".ir.json")
)


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.stem)
def test_error_bodies_decode_to_typed_errors(path: Path) -> None:
    recorded = json.loads(path.read_text())
    error = OpenAIChatCodec().decode_error(recorded["status"], dumps(recorded["body"]).encode(), {"retry-after": "2"})
    assert (error.status, error.message, error.type) == (
        recorded["status"],
        recorded["body"]["error"]["message"],
        recorded["body"]["error"]["type"],
    )
    assert error.retry_after == 2.0 and error.codec == "openai-chat"
    expected = path.with_name(path.stem + ".ir.json")
    if expected.exists():
        assert json.loads(expected.read_text())["class"] == type(error).__name__


def test_rate_limit_is_its_own_class() -> None:
    error = OpenAIChatCodec(dialect="mistral").decode_error(429, b'{"message": "slow", "type": "rate_limited"}', {})
    assert isinstance(error, RateLimitError) and error.message == "slow"
