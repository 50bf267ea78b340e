"""A loopback server that answers too slowly in the ways a read timeout alone does not catch:
``headers`` drips the status line and header bytes one at a time, forever; ``stall`` sends the
headers and a first event, then nothing; ``comments`` sends the headers and a first event, then
an SSE comment line every few milliseconds, bytes that never make an event. Each connection ends
when the client leaves (or after ``limit`` seconds)."""

from __future__ import annotations

import socket
import threading
import time


class DripServer:
    def __init__(self, mode: str, first: bytes = b"", *, every: float = 0.05, limit: float = 20.0) -> None:
        self.mode, self.first, self.every, self.limit = mode, first, every, limit
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._listener.getsockname()[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._listener.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        ends = time.monotonic() + self.limit
        try:
            _read_request(conn)
            if self.mode == "headers":
                head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-drip: " + b"a" * 100_000
                for byte in head:
                    if self._stop.is_set() or time.monotonic() > ends:
                        return
                    conn.sendall(bytes([byte]))
                    time.sleep(self.every)
                return
            conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
            conn.sendall(b"%x\r\n%s\r\n" % (len(self.first), self.first))
            while not self._stop.is_set() and time.monotonic() < ends:
                if self.mode == "comments":
                    conn.sendall(b"3\r\n: \n\r\n")
                time.sleep(self.every)
        except OSError:  # the client left: what a timeout is meant to do
            pass
        finally:
            conn.close()


def _read_request(conn: socket.socket) -> None:
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0
    )
    while len(body) < length:
        body += conn.recv(65536)
