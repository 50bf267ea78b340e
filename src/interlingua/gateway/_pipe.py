"""One streamed answer, upstream bytes in, the caller's SSE bytes out, on one worker thread.

The codecs' stream decoders and encoders are pull-based generators, so a stream in flight needs
a stack of its own while it waits for bytes. The pipe gives it one thread for the whole chain
(frame, decode, map ids, encode, render), fed the raw network chunks and handing back rendered
bytes when it runs out of input: two crossings between the event loop and the thread per
network chunk, however many events the chunk holds. (Decoding through ``AsyncEventStream`` and
encoding on a second thread cost two threads and two crossings per event; bench_gateway.py
measured the difference.)
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from .._codec import Codec
from .._errors import ServerError
from .._response import Usage
from .._sse import parse_sse, render_event
from .._stream import ErrorEvent, MessageEnd, StreamEvent, UsageUpdate
from .._warnings import AnyWarning
from ._ids import ToolIdMap

_END = object()


class Pipe:
    """``feed`` network chunks and ``stop`` (or ``fail``) from the loop; ``get`` the caller's
    bytes there (None once the answer is over). ``warnings`` and ``usage`` are final after that."""

    def __init__(
        self,
        upstream: Codec,
        caller: Codec,
        ids: ToolIdMap,
        accepts: Callable[[str], bool] | None,
        *,
        max_event_size: int | None,
        hide: Callable[[str], str],
    ) -> None:
        self.warnings: list[AnyWarning] = []
        self.usage: Usage | None = None
        self.failed = False
        self._upstream, self._caller, self._ids, self._accepts = upstream, caller, ids, accepts
        self._max_event_size, self._hide = max_event_size, hide
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._outbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._made: list[bytes] = []
        self._network: BaseException | None = None
        self._over = False
        threading.Thread(target=self._run, daemon=True).start()

    def feed(self, chunk: bytes) -> None:
        self._inbox.put(chunk)

    def fail(self, exc: BaseException) -> None:
        """The network broke: the answer ends with the caller's error event."""
        self._inbox.put(exc)

    def stop(self) -> None:
        self._inbox.put(_END)

    async def get(self) -> bytes | None:
        if self._over:
            return None
        chunk = await self._outbox.get()
        self._over = chunk is None
        return chunk

    # --- on the worker thread ----------------------------------------------------------------

    def _run(self) -> None:
        try:
            encoded = self._caller.encode_stream(self._events())
            for event in encoded:
                self._made.append(render_event(event))
            self.warnings = list(encoded.warnings)
        except Exception as exc:  # the caller's encoder failed: what was made goes, then the end
            self.failed = True
            self._made.append(b"")
            self.warnings = []
            self._network = self._network or exc
        finally:
            self._post()
            self._send(None)

    def _chunks(self) -> Iterator[bytes]:
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                self._post()  # out of input: hand the loop what is made before waiting
                item = self._inbox.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                self._network = item
                return
            yield item

    def _events(self) -> Iterator[StreamEvent]:
        """The upstream's events, ids mapped; a stream that broke or ended before its end gets
        the error event the caller's wire ends a failed stream with."""
        ended = errored = False
        try:
            for event in self._upstream.decode_stream(parse_sse(self._chunks(), max_event_size=self._max_event_size)):
                if isinstance(event, MessageEnd):
                    ended = True
                    self.usage = event.usage or self.usage
                elif isinstance(event, UsageUpdate):
                    self.usage = event.usage
                elif isinstance(event, ErrorEvent):
                    errored = True
                yield self._ids.outward_event(event, self._accepts)
        except Exception as exc:  # a DecodeError or a framing StreamError: the stream is over
            self._network = self._network or exc
        if errored:
            self.failed = True
        elif self._network is not None or not ended:
            self.failed = True
            why = f": {self._hide(str(self._network))}" if self._network is not None else ""
            yield ErrorEvent(ServerError(f"the stream broke off{why}", status=500, type="api_error"))

    def _post(self) -> None:
        if self._made:
            made, self._made = b"".join(self._made), []
            self._send(made)

    def _send(self, item: bytes | None) -> None:
        # RuntimeError: the loop closed while the stream was abandoned; nobody is listening.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._outbox.put_nowait, item)
