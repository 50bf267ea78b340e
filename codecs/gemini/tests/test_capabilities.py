"""Invariant 2: every declared capability row holds in behaviour."""

from __future__ import annotations

import interlingua as il
from interlingua import Native, NativeTool, ProviderEcho, Thinking
from interlingua.testing import assert_capabilities_hold

CODEC = il.get_codec("gemini")


def test_capabilities_hold() -> None:
    samples = {
        "native": Native("gemini", {"executableCode": {"code": "print(1)", "language": "PYTHON"}}),
        "native_tools": NativeTool(provider="gemini", data={"googleSearch": {}}),
        "thinking": Thinking(
            "let me think", provider_echoes=[ProviderEcho(provider="gemini", data={"thoughtSignature": "c2ln"})]
        ),
    }
    checked = assert_capabilities_hold(CODEC, samples)
    assert checked == {**CODEC.capabilities.parts, **CODEC.capabilities.settings}
