"""One streamed answer, upstream bytes in, the caller's SSE bytes out, on the event loop's thread.

The codecs' stream decoders and encoders are pull-based generators: a stream in flight needs a
stack of its own while it waits for bytes. The pipe gives the whole chain (frame, decode, map
ids, encode, render) a greenlet: ``feed`` switches into it with a network chunk, and it switches
back with the bytes made as soon as it needs the next one. No thread, no queue, no lock; a
switch costs about a microsecond. (A thread per stream, the transport's way, measured 3x the
gateway's CPU per stream in bench_gateway.py, most of it in GIL hand-offs.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .._codec import Codec, Framing
from .._errors import ProviderError, ServerError
from .._response import Response, Usage
from .._sse import parse_sse, render_event
from .._stream import ErrorEvent, MessageEnd, PartStart, StreamAccumulator, StreamEvent, UsageUpdate
from .._stream_errors import StreamError
from .._warnings import AnyWarning
from ._ids import ToolIdMap

_END = object()


class Pipe:
    """``feed(chunk)`` returns the caller's bytes made from it (maybe none yet); ``finish()``
    (with the exception that broke the network, if one did) returns the rest. ``warnings``,
    ``usage`` and ``failed`` are final after ``finish``. ``close`` abandons the chain."""

    def __init__(
        self,
        upstream: Codec,
        caller: Codec,
        ids: ToolIdMap,
        accepts: Callable[[str], bool] | None,
        *,
        max_event_size: int | None,
        hide: Callable[[str], str],
        framing: Framing | None = None,
        collect: bool = False,
    ) -> None:
        from greenlet import greenlet  # type: ignore[import-untyped]  # greenlet ships no stubs; used as Any

        self.warnings: list[AnyWarning] = []
        self.usage: Usage | None = None
        self.failed = False
        self.content = False
        """Whether a part has begun (the answer is under way, past its opening)."""
        self.ended = False
        """Whether the answer's end has come (its MessageEnd)."""
        self.early_error: ProviderError | None = None
        """The vendor's error event, when it came before any part began."""
        self._upstream, self._caller, self._ids, self._accepts = upstream, caller, ids, accepts
        self._max_event_size, self._hide, self._framing = max_event_size, hide, framing
        self._made: list[bytes] = []
        self._answer = StreamAccumulator() if collect else None  # for the telemetry's span
        self._network: BaseException | None = None
        self._chain: Any = greenlet(self._run)
        self._chain.switch()  # runs up to its first wait for bytes

    def feed(self, chunk: bytes) -> bytes:
        return self._switch(chunk)

    def finish(self, network: BaseException | None = None) -> bytes:
        return self._switch(network if network is not None else _END)

    def close(self) -> None:
        if not self._chain.dead:
            self._chain.throw()  # GreenletExit: the generators' finally blocks run

    def traced(self, call: Any, sent: list[AnyWarning]) -> None:
        """End the upstream call's span (``collect=True``): the answer relayed, or the failure."""
        warnings = [*sent, *self.warnings]
        if self.failed:
            why = self._hide(str(self._network)) if self._network is not None else "the upstream stream failed"
            call.failed(StreamError(f"the stream broke off: {why}"), warnings)
            return
        # the answer relayed; where the accumulator gave up on it, what the pipe saw of it (its usage)
        answer = self._answer.snapshot() if self._answer is not None else Response(usage=self.usage or Usage())
        call.ok(answer.model_copy(update={"warnings": warnings}))

    def _collect(self, event: StreamEvent) -> None:
        """The event into the span's answer; one the accumulator refuses stops the collecting,
        never the relay (the caller's stream is the same with telemetry on or off)."""
        try:
            self._answer.add(event)  # type: ignore[union-attr]  # only called while collecting
        except Exception:
            self._answer = None

    def _switch(self, item: object) -> bytes:
        if self._chain.dead:
            return b""
        made = self._chain.switch(item)
        return made if isinstance(made, bytes) else b""

    # --- inside the greenlet -----------------------------------------------------------------

    def _run(self) -> bytes:
        try:
            encoded = self._caller.encode_stream(self._events())
            for event in encoded:
                self._made.append(render_event(event))
            self.warnings = list(encoded.warnings)
        except Exception as exc:  # the caller's encoder failed: what was made goes, then the end
            self.failed = True
            self._network = self._network or exc
        return self._take()

    def _take(self) -> bytes:
        made, self._made = b"".join(self._made), []
        return made

    def _chunks(self) -> Iterator[bytes]:
        parent = self._chain.parent
        while True:
            item = parent.switch(self._take())  # out of input: hand back what is made, wait
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
            chunks = self._chunks()
            # a cloud door's own framing (HttpRequest.events), e.g. binary event-stream frames
            framing = self._framing
            frames = parse_sse(chunks, max_event_size=self._max_event_size) if framing is None else framing(chunks)
            for event in self._upstream.decode_stream(frames):
                if isinstance(event, MessageEnd):
                    ended = self.ended = True
                    self.usage = event.usage or self.usage
                elif isinstance(event, UsageUpdate):
                    self.usage = event.usage
                elif isinstance(event, ErrorEvent):
                    errored = True
                    self.early_error = None if self.content else event.error
                elif isinstance(event, PartStart):
                    self.content = True
                if self._answer is not None:
                    self._collect(event)
                yield self._ids.outward_event(event, self._accepts)
        except Exception as exc:  # a DecodeError or a framing StreamError: the stream is over
            self._network = self._network or exc
        if errored:
            self.failed = True
        elif self._network is not None or not ended:
            self.failed = True
            why = f": {self._hide(str(self._network))}" if self._network is not None else ""
            yield ErrorEvent(ServerError(f"the stream broke off{why}", status=500, type="api_error"))
