"""A recorded stream cut before its final event fails where it is accumulated, on every real
stream of every wire: accumulate() and StreamAccumulator.response() raise StreamError carrying
the answer so far; a DecodeError in the middle of a stream reaches accumulate()'s caller as a
StreamDecodeError with the partial."""

from __future__ import annotations

from pathlib import Path

import pytest

import interlingua as il
from interlingua.kit import event_frames
from interlingua.testing import read_stream_file, real_fixtures

from .conftest import CONFORMANCE, WIRES, golden, real_folder

# SSE and chunks recordings, and binary event streams (Gemini's JSON-array framing is its codec's
# own, tested there); not insufficient-quota-in-stream, which carries an error event and fails
# with it, not as cut short.
STREAMS = [(wire, path) for wire in WIRES for path in golden(wire, "stream", "*.sse")] + [
    (wire, path)
    for wire in WIRES
    for path in real_fixtures(real_folder(wire), "stream", CONFORMANCE[wire].stream_files)
    if path.name.endswith((".sse.txt", ".chunks.txt", ".eventstream.bin"))
    and not path.name.startswith("insufficient-quota")
]


def _read(path: Path, wire: str) -> list[il.SSEEvent]:
    """A recorded stream's events: SSE text, or the frames of a binary event stream."""
    if path.name.endswith(".eventstream.bin"):
        return list(event_frames([path.read_bytes()], codec=wire))
    return read_stream_file(path)


def _own_stream(wire: str) -> Path:
    """A golden stream of ``wire`` (runs in any clone), else its first recorded one."""
    goldens = golden(wire, "stream", "*.sse")
    if goldens:
        return goldens[0]
    recorded = [path for name, path in STREAMS if name == wire]
    if not recorded:
        pytest.skip(f"{wire} has no golden stream and the recorded corpus is missing")
    return recorded[0]


def _ends(codec: il.Codec, events: list[il.SSEEvent]) -> bool:
    return any(isinstance(event, il.MessageEnd) for event in codec.decode_stream(events))


def _cut_before_the_end(codec: il.Codec, events: list[il.SSEEvent]) -> list[il.SSEEvent]:
    """The longest head of ``events`` that decodes to no message_end: the stream cut just before
    its final event (a chat or Gemini decoder gives message_end only where its input ends)."""
    assert _ends(codec, events), "the recorded stream has no message_end"
    short, long = 0, len(events)  # events[:short] does not end, events[:long] does
    while long - short > 1:
        middle = (short + long) // 2
        short, long = (short, middle) if _ends(codec, events[:middle]) else (middle, long)
    return events[:short]


@pytest.mark.parametrize(("wire", "path"), STREAMS, ids=lambda v: v.name.split(".")[0] if isinstance(v, Path) else v)
def test_a_recorded_stream_cut_before_its_final_event_raises_with_the_partial(wire: str, path: Path) -> None:
    codec = il.get_codec(wire)
    events = _read(path, wire)
    whole = il.accumulate(codec.decode_stream(events))
    cut = _cut_before_the_end(codec, events)
    with pytest.raises(il.StreamError) as caught:
        il.accumulate(codec.decode_stream(cut))
    partial = caught.value.partial
    assert type(caught.value) is il.StreamError and caught.value.error is None
    assert partial is not None and partial.stop_reason is None and partial.id == whole.id
    acc = il.StreamAccumulator()
    for event in codec.decode_stream(cut):
        acc.add(event)
    with pytest.raises(il.StreamError) as again:
        acc.response()
    assert again.value.partial == partial == acc.snapshot()


@pytest.mark.parametrize("wire", WIRES)
def test_a_decode_error_mid_stream_reaches_accumulate_with_the_partial(wire: str) -> None:
    codec = il.get_codec(wire)
    events = _read(_own_stream(wire), wire)
    middle = len(events) // 2
    broken = [*events[:middle], il.ServerSentEvent(data="{not json"), *events[middle:]]
    acc = il.StreamAccumulator()
    with pytest.raises(il.DecodeError) as local:
        for event in codec.decode_stream(broken):
            acc.add(event)
    with pytest.raises(il.StreamDecodeError) as caught:
        il.accumulate(codec.decode_stream(broken))
    error = caught.value
    assert isinstance(error, il.StreamError) and isinstance(error.__cause__, il.DecodeError)
    assert (error.codec, error.path, error.reason) == (local.value.codec, local.value.path, local.value.reason)
    assert error.path.endswith(f"[{middle}]") and error.partial == acc.snapshot()
