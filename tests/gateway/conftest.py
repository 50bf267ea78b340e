"""A gateway on a local port, in front of the loopback vendor servers replaying real recorded answers.

One gateway and one upstream server per upstream wire for the whole session; each test sets the
answer (or the fault) its upstream gives. Callers are the official SDK clients.
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from interlingua.testing import load_body, real_fixtures_dir, skip_without_corpus

from .vendor import Answer, Fault, VendorServer

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")
GATEWAY_KEY = "gw-caller-key-1"
UPSTREAM_KEY = "sk-upstream-7c1d-do-not-leak"


@dataclass(frozen=True)
class Upstream:
    """A wire's recorded answers: a tool-call response and a tool-call stream, and its model."""

    wire: str
    response: str
    stream: str
    model: str
    prefix: str

    def body(self) -> Any:
        skip_without_corpus()
        return load_body(real_fixtures_dir() / self.wire / "response" / f"{self.response}.json")

    def stream_path(self) -> Path:
        skip_without_corpus()
        return real_fixtures_dir() / self.wire / "stream" / f"{self.stream}.sse.txt"


UPSTREAMS = {
    "anthropic-messages": Upstream(
        "anthropic-messages", "parallel-tool-use-turn1", "tool-use-stream", "claude-haiku-4-5", ""
    ),
    "openai-chat": Upstream("openai-chat", "parallel-tool-calls-turn1", "tool-call-stream", "gpt-4o", "/v1"),
    "openai-responses": Upstream("openai-responses", "function-call-turn1", "function-call-stream", "gpt-4o", "/v1"),
    "gemini": Upstream(
        "gemini",
        "parallel-function-calls-turn1",
        "function-call-thought-signature-stream-turn1",
        "gemini-3-flash-preview",
        "",
    ),
}


class HoldingServer(VendorServer):
    """A vendor server that, when ``hold`` is set, sends a stream's events but holds its end back
    until the client goes away (counted in ``abandoned``) or ``hold`` seconds pass."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = 0.0
        self.abandoned = 0

    def _stream(self, handler: Any, answer: Answer, fault: Fault | None) -> None:  # type: ignore[override]
        if not self.hold:
            VendorServer._stream(handler, answer, fault)
            return
        assert answer.sse is not None
        handler.send_response(answer.status)
        handler.send_header("content-type", "text/event-stream")
        handler.send_header("transfer-encoding", "chunked")
        handler.end_headers()
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(answer.sse), answer.sse))
        handler.wfile.flush()
        if self._left(handler.connection):
            self.abandoned += 1
            return
        handler.wfile.write(b"0\r\n\r\n")
        handler.wfile.flush()

    def _left(self, connection: socket.socket) -> bool:
        """Whether the client closed the connection within ``hold`` seconds."""
        deadline = time.monotonic() + self.hold
        while time.monotonic() < deadline:
            readable, _, _ = select.select([connection], [], [], 0.01)
            if readable and connection.recv(1, socket.MSG_PEEK) == b"":
                return True
        return False


@dataclass
class Running:
    url: str
    gateway: Any
    upstreams: dict[str, HoldingServer]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_in_thread(app: Any) -> tuple[str, Any, threading.Thread]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the gateway did not start")
        time.sleep(0.01)
    return f"http://127.0.0.1:{port}", server, thread


def routes_for(servers: dict[str, HoldingServer]) -> list[Any]:
    from interlingua.gateway import Route

    return [
        Route(
            match=f"via-{wire}",
            codec=wire,
            base_url=servers[wire].url + UPSTREAMS[wire].prefix,
            api_key_env="GATEWAY_TEST_UPSTREAM_KEY",
            model=UPSTREAMS[wire].model,
        )
        for wire in WIRES
    ]


@pytest.fixture(scope="session")
def running() -> Iterator[Running]:
    from interlingua.gateway import Gateway, GatewayConfig, Route

    os.environ["GATEWAY_TEST_UPSTREAM_KEY"] = UPSTREAM_KEY
    servers = {wire: HoldingServer() for wire in WIRES}
    routes = [
        *routes_for(servers),
        # any model name, to the gemini upstream as it came: where a hostile name would reach its URL
        Route(match="gem-*", codec="gemini", base_url=servers["gemini"].url, api_key_env="GATEWAY_TEST_UPSTREAM_KEY"),
        Route(
            match="strict-via-gemini",
            codec="gemini",
            base_url=servers["gemini"].url,
            strict=True,
            api_key_env="GATEWAY_TEST_UPSTREAM_KEY",
            model=UPSTREAMS["gemini"].model,
        ),
    ]
    gateway = Gateway(GatewayConfig(routes, keys=frozenset({GATEWAY_KEY}), max_body_bytes=64 * 1024))
    url, server, thread = serve_in_thread(gateway.app())
    yield Running(url, gateway, servers)
    server.should_exit = True
    thread.join(10)
    for upstream in servers.values():
        upstream.close()


@pytest.fixture
def gw(running: Running) -> Iterator[Running]:
    """The shared gateway, its upstreams reset for one test."""
    for upstream in running.upstreams.values():
        upstream.received.clear()
        upstream.faults.clear()
        upstream.hold = 0.0
    yield running
