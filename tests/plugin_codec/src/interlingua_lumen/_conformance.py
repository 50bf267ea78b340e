"""lumen-chat's conformance data: what the conformance suite needs to run this wire, found through
the codec's ``conformance`` attribute. lumen has no vendor SDK, so no field-coverage contract
(``coverage`` None: the suite's SDK walk and probes leave it out); its golden fixtures sit in
this package."""

from __future__ import annotations

from pathlib import Path

from interlingua.testing.conformance import Conformance, Target

_BASE = {"model": "lumen-1", "messages": [{"role": "user", "parts": [{"type": "text", "text": "hi"}]}]}

CONFORMANCE = Conformance(
    targets=(
        Target(
            "lumen-chat",
            "lumen-1",
            foreign_options=(("mode", {**_BASE, "provider_options": {"lumen": {"mode": "fast"}}}),),
        ),
    ),
    smallest=_BASE,
    golden=Path(__file__).parent / "golden",
    replays_own_reasoning=frozenset({"lumen"}),  # lumen's own reasoning goes back with its echo
)
