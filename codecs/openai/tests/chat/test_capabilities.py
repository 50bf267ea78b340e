"""Invariant 2: every dialect's declared table holds, row by row."""

from __future__ import annotations

import pytest

from interlingua import MediaSource, Native, NativeTool, ProviderEcho, RedactedThinking, ThinkingConfig
from interlingua.testing import assert_capabilities_hold
from interlingua_openai.chat import OpenAIChatCodec
from interlingua_openai.chat._dialect import dialects


@pytest.mark.parametrize("dialect", sorted(dialects()))
def test_declared_capabilities_hold(dialect: str) -> None:
    codec = OpenAIChatCodec(dialect=dialect)
    plain = codec.dialect.reasoning == "none"  # no reasoning on the wire (OpenAI's own, Gemini's endpoint, ...)
    # The core walk keys the "thinking" part and the "thinking" setting alike (the part row wins),
    # so where the part is lossy the setting probe must warn too: a budget does (sent as effort).
    thinking = ThinkingConfig(budget_tokens=2048) if plain else ThinkingConfig(level="high")
    samples = {
        # raw base64 file data (not a data URL) has no IR form: it stays a Native block
        "native": Native(codec.provider, {"type": "file", "file": {"file_data": "JVBERi0=", "filename": "a.pdf"}}),
        "native_tools": NativeTool(provider=codec.provider, data={"type": "custom", "custom": {"name": "grep"}}),
        "thinking_config": thinking,
        "audio_output": None,
    }
    if dialect == "openrouter":
        detail = {"type": "reasoning.encrypted", "data": "ENC=="}
        samples["redacted_thinking"] = RedactedThinking(
            provider_echoes=[ProviderEcho(provider="openrouter", data={"_detail": detail})]
        )
    checked = assert_capabilities_hold(codec, {k: v for k, v in samples.items() if v is not None})
    assert checked["video"] == "lossy" and checked["tool_use"] == "native"
    assert checked["thinking"] == ("lossy" if plain else "native")


def test_a_budget_is_sent_as_an_effort_with_a_warning() -> None:
    from interlingua import Message, Request

    encoded = OpenAIChatCodec().encode_request(
        Request(model="o4-mini", messages=[Message.user("hi")], thinking=ThinkingConfig(budget_tokens=2048))
    )
    assert encoded.body["reasoning_effort"] == "medium"
    assert [w.setting for w in encoded.warnings] == ["thinking"]  # type: ignore[union-attr]
    assert MediaSource  # the module's imports stay used
