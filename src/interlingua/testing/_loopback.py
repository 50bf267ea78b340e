"""A real HTTP server on loopback that plays a vendor: the transport tests drive it directly, and
:class:`~interlingua.testing.FakeVendor` answers on it with what a codec writes.

It records every request (method, path, headers, JSON body), answers with what the test set
(a JSON body, or SSE bytes sent in small chunks as a network would), and injects faults on
demand, in order: a status with headers, a connection reset midway through a stream, a stream
that ends cleanly after some of its bytes, a pause longer than the client's timeout, a body that
is not JSON.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw: bytes = b""


@dataclass
class Answer:
    """What the server sends: ``json`` (one body) or ``sse`` (bytes, sent ``chunk`` at a time, as
    ``media_type``: SSE, or another framing such as binary event-stream frames)."""

    status: int = 200
    json: Any = None
    sse: bytes | None = None
    chunk: int = 97
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None
    media_type: str = "text/event-stream"


@dataclass
class Fault:
    """One misbehaviour for the next request: ``status`` (with ``headers`` and ``body``), ``reset``
    (send ``after`` bytes of the stream, then reset the connection), ``cut`` (send ``after``
    bytes, then end the response as if the stream were complete), ``slow`` (wait ``seconds``
    before answering)."""

    kind: str
    status: int = 500
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b'{"error": {"message": "injected", "type": "server_error"}}'
    after: int = 0
    seconds: float = 0.0


class VendorServer:
    """Serves on ``host:port`` (port 0: a free one) from a daemon thread until ``close``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.received: list[Received] = []
        self.faults: deque[Fault] = deque()
        self.answer = Answer(json={})
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # no 40 ms delayed-ACK stalls on keep-alive

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                server._handle(self)

            def do_GET(self) -> None:  # a model list, a batch API's status and result files
                server._handle(self)

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                # A client leaving a stream early, or a reset the test asked for, is expected here.
                pass

        self._http = Server((host, port), Handler)
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()

    @staticmethod
    def _read(handler: BaseHTTPRequestHandler) -> Received:
        length = int(handler.headers.get("content-length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        return Received(handler.command, handler.path, {k.lower(): v for k, v in handler.headers.items()}, body, raw)

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        received = self._read(handler)
        with self._lock:
            self.received.append(received)
            fault = self.faults.popleft() if self.faults else None
        if fault is not None and fault.kind == "slow":
            time.sleep(fault.seconds)
            fault = None
        if fault is not None and fault.kind == "status":
            self._send(handler, fault.status, fault.headers, fault.body, "application/json")
            return
        answer = self.answer
        if answer.sse is not None:
            self._stream(handler, answer, fault)
        elif answer.raw is not None:
            self._send(handler, answer.status, answer.headers, answer.raw, "application/json")
        else:
            self._send(handler, answer.status, answer.headers, json.dumps(answer.json).encode(), "application/json")

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], body: bytes, kind: str) -> None:
        handler.send_response(status)
        handler.send_header("content-type", kind)
        handler.send_header("content-length", str(len(body)))
        for key, value in headers.items():
            handler.send_header(key, value)
        handler.end_headers()
        handler.wfile.write(body)
        handler.wfile.flush()

    @staticmethod
    def _stream(handler: BaseHTTPRequestHandler, answer: Answer, fault: Fault | None) -> None:
        assert answer.sse is not None
        handler.send_response(answer.status)
        handler.send_header("content-type", answer.media_type)
        handler.send_header("transfer-encoding", "chunked")
        for key, value in answer.headers.items():
            handler.send_header(key, value)
        handler.end_headers()
        data = answer.sse if fault is None else answer.sse[: fault.after]
        for start in range(0, len(data), answer.chunk):
            piece = data[start : start + answer.chunk]
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            handler.wfile.flush()
        if fault is not None and fault.kind == "reset":
            # SO_LINGER 0: close with a TCP reset, as a dropped connection looks to the client.
            handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            handler.connection.close()
            handler.close_connection = True
            return
        handler.wfile.write(b"0\r\n\r\n")
        handler.wfile.flush()
