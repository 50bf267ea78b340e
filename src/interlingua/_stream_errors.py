"""The errors of a broken stream, which carry the answer so far (``partial``): above the IR they
hold, and above the base errors they join (a stream's decode error is a DecodeError too, its
timeout a TimeoutError)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._errors import DecodeError, InterlinguaError, ProviderError, TimeoutError

if TYPE_CHECKING:
    from ._response import Response


class StreamError(InterlinguaError):
    """A stream that ended early or carried an error; ``partial`` is what arrived before it."""

    def __init__(self, message: str, *, partial: Response | None = None, error: ProviderError | None = None):
        self.partial = partial
        self.error = error
        super().__init__(message)


class StreamDecodeError(StreamError, DecodeError):
    """A stream event its codec could not read. Both errors at once: ``except StreamError``
    gets ``partial`` (what arrived before the bad event), ``except DecodeError`` gets ``codec``,
    ``path`` and ``reason``; the codec's own DecodeError is the ``__cause__``."""

    def __init__(self, codec: str, path: str, reason: str, *, partial: Response | None = None) -> None:
        DecodeError.__init__(self, codec, path, reason)
        self.partial = partial
        self.error = None

    @classmethod
    def of(cls, error: DecodeError, partial: Response | None) -> StreamDecodeError:
        """``error`` (raised by a codec's decode_stream) with the partial answer; chain it with
        ``raise ... from error``."""
        return cls(error.codec, error.path, error.reason, partial=partial)


class StreamTimeoutError(StreamError, TimeoutError):
    """A stream that went quiet: no event within the client's timeout. Both errors at once:
    ``except StreamError`` gets ``partial``, ``except TimeoutError`` (a TransportError) the timeout."""
