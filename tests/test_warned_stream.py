"""EncodedStream / DecodedStream: the warning channel of streams, apart from any codec ("acme")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from interlingua import DecodedStream, EncodedStream, LossyEncodeError, ServerSentEvent, SSEEvent, WarningSink


def _acme(out: WarningSink, lossy_at: set[int], count: int = 4) -> Iterator[SSEEvent]:
    """One wire event per IR event; the events in ``lossy_at`` lose something first."""
    for at in range(count):
        if at in lossy_at:
            out.lossy(f"events[{at}].part", "audio_output", "acme has no audio")
        yield ServerSentEvent(data=str(at))


def test_warnings_grow_as_the_stream_is_read_and_are_complete_at_its_end() -> None:
    out = WarningSink("acme")
    encoded = EncodedStream(_acme(out, {1, 3}), out)
    assert [next(encoded).data, next(encoded).data] == ["0", "1"]
    assert [w.path for w in encoded.warnings] == ["events[1].part"]
    assert [sse.data for sse in encoded] == ["2", "3"]
    assert [w.path for w in encoded.warnings] == ["events[1].part", "events[3].part"]


def test_strict_raises_at_the_lossy_event_having_yielded_every_event_before_it() -> None:
    out = WarningSink("acme")
    seen: list[str] = []
    with pytest.raises(LossyEncodeError) as caught:
        for sse in EncodedStream(_acme(out, {2}), out, strict=True):
            seen.append(sse.data)
    assert seen == ["0", "1"]
    assert [(w.codec, w.path) for w in caught.value.warnings] == [("acme", "events[2].part")]


def test_strict_raises_for_a_loss_in_the_last_event_that_sends_nothing() -> None:
    out = WarningSink("acme")

    def ends_lossy() -> Iterator[SSEEvent]:
        yield ServerSentEvent(data="0")
        out.lossy("events[1].usage.extra.acme_tokens", "usage", "acme has no such counter")

    encoded = EncodedStream(ends_lossy(), out, strict=True)
    assert next(encoded).data == "0"
    with pytest.raises(LossyEncodeError):
        next(encoded)


def test_a_lossless_strict_stream_reads_to_its_end() -> None:
    out = WarningSink("acme")
    assert [sse.data for sse in EncodedStream(_acme(out, set()), out, strict=True)] == ["0", "1", "2", "3"]


def test_iterating_hands_out_the_codec_generator_itself() -> None:
    """No wrapper frame per event when not strict: the channel costs nothing to read."""
    out = WarningSink("acme")
    events = _acme(out, set())
    assert iter(EncodedStream(events, out)) is events


def test_close_stops_the_codec_generator() -> None:
    out = WarningSink("acme")
    decoded = DecodedStream(iter([]), out)
    encoded = EncodedStream(_acme(out, set()), out)
    next(encoded)
    encoded.close()
    decoded.close()
    assert list(encoded) == []
    assert repr(encoded) == "EncodedStream(codec='acme', warnings=0)"
