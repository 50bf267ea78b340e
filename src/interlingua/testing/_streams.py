"""Streams for tests: an answer as the IR events a codec's ``encode_stream`` takes, and the
warnings an encoded stream reports once it has been read."""

from __future__ import annotations

from collections.abc import Iterable

from .._codec import Codec
from .._parts import ContentPart
from .._response import StopReason, Usage
from .._stream import MessageEnd, MessageStart, PartEnd, PartStart, StreamEvent
from .._warnings import AnyWarning


def answer_events(
    *parts: ContentPart, model: str = "acme-1", stop: StopReason = "end_turn", usage: Usage | None = None
) -> list[StreamEvent]:
    """An answer of whole ``parts`` as stream events (a start and an end per part, no deltas), as
    another vendor's stream decodes: what a gateway hands ``encode_stream``."""
    events: list[StreamEvent] = [MessageStart(id="msg_1", model=model)]
    for i, part in enumerate(parts):
        events += [PartStart(i, part), PartEnd(i)]
    return [*events, MessageEnd(stop, None, usage)]


def stream_warnings(codec: Codec, events: Iterable[StreamEvent]) -> list[AnyWarning]:
    """Every warning ``codec.encode_stream(events)`` reports, read to its end."""
    encoded = codec.encode_stream(events)
    for _ in encoded:
        pass
    return list(encoded.warnings)
