"""The vendor server fixture and the per-codec scenarios the transport tests replay."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import load_body, real_fixtures_dir, skip_without_corpus

from .vendor_server import VendorServer

KEY = "sk-test-9f8e7d6c5b4a-secret"

HOSTS = {"anthropic-messages": "anthropic", "openai-responses": "openai", "gemini": "gemini-api"}
"""The host each wire's own API is recorded as (``Codec.host_for`` with no door); the others name none."""


def through(wire: str, response: il.Response) -> il.Response:
    """``response`` as the Client gives it from the wire's own API: the host recorded on each echo
    bound to a model (signed reasoning, encrypted items), nothing else changed."""
    host = HOSTS.get(wire)
    if host is None:
        return response
    parts = [
        part.model_copy(
            update={
                "provider_echoes": [
                    echo.model_copy(update={"host": host}) if echo.model is not None else echo
                    for echo in part.provider_echoes
                ]
            }
        )
        for part in response.message.parts
    ]
    return response.model_copy(update={"message": response.message.model_copy(update={"parts": parts})})


@dataclass(frozen=True)
class Scenario:
    """Real recorded traffic for one codec: a request/response pair and a request/stream pair.
    ``prefix`` is what the base URL adds before the recorded path (OpenAI's ``/v1``)."""

    wire: str
    send: str
    stream: str
    prefix: str
    auth: tuple[str, str]

    def files(self, name: str) -> tuple[Path, Path, Path]:
        skip_without_corpus()
        root = real_fixtures_dir() / self.wire
        stream = next((root / "stream").glob(f"{name}.sse.txt"), root / "stream" / f"{name}.sse.txt")
        return root / "request" / f"{name}.json", root / "response" / f"{name}.json", stream

    def recorded_request(self, name: str) -> tuple[dict[str, Any], str]:
        """The recorded body, and the path (with its query) the vendor saw."""
        document = json.loads(self.files(name)[0].read_text())
        query = document.get("query")
        return document["body"], document["path"] + (f"?{query}" if query else "")


SCENARIOS = {
    "anthropic-messages": Scenario(
        "anthropic-messages", "thinking-with-tool-use-turn1", "tool-use-stream", "", ("x-api-key", KEY)
    ),
    "openai-chat": Scenario(
        "openai-chat", "parallel-tool-calls-turn1", "tool-call-stream", "/v1", ("authorization", f"Bearer {KEY}")
    ),
    "openai-responses": Scenario(
        "openai-responses",
        "function-call-turn1",
        "reasoning-function-call-stream",
        "/v1",
        ("authorization", f"Bearer {KEY}"),
    ),
    "gemini": Scenario("gemini", "text-basic", "thinking-stream", "", ("x-goog-api-key", KEY)),
}


def loadable() -> list[str]:
    """Codecs that are installed and load; the rest are reported as skipped, never silently."""
    found = []
    for name in SCENARIOS:
        try:
            il.get_codec(name)
        except Exception:
            continue
        found.append(name)
    return found


def codec_params() -> list[Any]:
    ready = loadable()
    return [
        pytest.param(name, marks=() if name in ready else pytest.mark.skip(reason=f"{name} does not load yet"))
        for name in SCENARIOS
    ]


@pytest.fixture(scope="session")
def server() -> Iterator[VendorServer]:
    running = VendorServer()
    yield running
    running.close()


@pytest.fixture
def vendor(server: VendorServer) -> Iterator[VendorServer]:
    """The shared server, reset for one test."""
    server.received.clear()
    server.faults.clear()
    yield server
    server.faults.clear()


def body_of(path: Path) -> Any:
    return load_body(path)
