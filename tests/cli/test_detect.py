"""Wire detection on every golden and real recorded body and stream: the body alone decides."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from interlingua import parse_sse
from interlingua.cli.conversion import unwrap
from interlingua.cli.detect import DetectError, detect_body, detect_stream
from interlingua.kit import DISTINCTIVE, Sniffed, loads, stream_score
from interlingua.testing import load_body, real_fixtures

from .conftest import FIXTURES

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")


def _bodies(wire: str, kind: str) -> list[object]:
    golden = [p for p in (FIXTURES / wire / kind).glob("*.json") if not p.name.endswith((".ir.json", ".response.json"))]
    return [load_body(p) for p in [*golden, *real_fixtures(wire, kind, "*.json")]]


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("kind", ["request", "response"])
def test_every_recorded_body_is_detected_as_its_wire_and_kind(wire: str, kind: str) -> None:
    bodies = _bodies(wire, kind)
    assert bodies
    for body in bodies:
        detected = detect_body(unwrap(body)[1])  # the HTTP path is ignored: the body decides
        assert (detected.wire, detected.kind) == (wire, kind), detected.reason


@pytest.mark.parametrize("wire", WIRES)
def test_every_recorded_sse_stream_is_detected_from_its_first_events(wire: str) -> None:
    paths = [*(FIXTURES / wire / "stream").glob("*.sse"), *real_fixtures(wire, "stream", "*.sse.txt")]
    assert paths
    for path in paths:
        events = list(parse_sse([path.read_bytes()]))[:4]
        first = [(e.event, loads(e.data) if e.data.startswith("{") else None) for e in events]
        assert detect_stream(first).wire == wire, path.name


def test_ambiguous_and_unknown_bodies_say_so() -> None:
    plain = detect_body({"messages": [{"role": "user", "content": "hi"}]})
    assert plain.wire == "openai-chat"
    assert plain.reason == (
        "has 'messages' only (taken as Chat, as in OpenAI fine-tuning files); "
        "anthropic-messages fits too: pass --from to choose"
    )
    assert detect_body({"model": "m", "max_tokens": 5, "messages": []}).wire == "anthropic-messages"
    with pytest.raises(DetectError, match="expected a JSON object, got an array"):
        detect_body([1])
    with pytest.raises(DetectError, match="no known request or response shape"):
        detect_body({"prompt": "hi"})


class _AcmeChat:
    """A third-party codec as the CLI sees it: only its sniffers matter here."""

    name = "acme-chat"

    @staticmethod
    def sniff(body: Mapping[str, Any]) -> Sniffed | None:
        return Sniffed("request", DISTINCTIVE, "has 'prompt'") if "prompt" in body else None

    @staticmethod
    def sniff_stream(first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
        named = [i for i, (name, _) in enumerate(first_events) if name.startswith("acme.")]
        return Sniffed("stream", stream_score(named[0]), "event 'acme.delta'") if named else None


@dataclass
class _Entry:
    name: str
    value: Any

    def load(self) -> Any:
        return self.value


def test_a_third_party_codec_teaches_the_cli_its_wire(monkeypatch: pytest.MonkeyPatch) -> None:
    from interlingua import _registry

    installed = _registry._entry_points()
    monkeypatch.setattr(_registry, "_entry_points", lambda: {**installed, "acme-chat": _Entry("acme-chat", _AcmeChat)})
    monkeypatch.setattr(_registry, "_default", functools.cache(_registry._default.__wrapped__))  # none kept after
    found = detect_body({"prompt": "hi"})
    assert (found.wire, found.kind, found.reason) == ("acme-chat", "request", "has 'prompt'")
    assert detect_stream([("acme.delta", {"text": "x"}), ("ping", None)]).wire == "acme-chat"
    assert detect_stream([("ping", None), ("acme.delta", {"text": "x"})]).wire == "anthropic-messages"  # earliest
    assert detect_body({"contents": []}).wire == "gemini"  # the bundled codecs still answer
    monkeypatch.setattr(_registry, "_entry_points", lambda: installed)
    with pytest.raises(DetectError, match=r"no installed codec \(anthropic-messages, .*gemini, .*\) claims it"):
        detect_body({"prompt": "hi"})
