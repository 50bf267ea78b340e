"""Binary event-stream framing (``application/vnd.amazon.eventstream``), read into SSE-shaped events.

Some cloud doors stream a wire's events in this binary framing instead of SSE: each frame has
headers (``:message-type``, ``:event-type``, ``:exception-type``, ...) and a payload. The frames
are parsed by botocore's own event-stream parser (imported on the first frame, never by
``import interlingua``); this module only names each frame as the codecs read events:

- an event frame -> ``ServerSentEvent(event=<:event-type>, data=<payload text>)``;
- an exception or error frame -> ``ServerSentEvent(event="exception", data=<JSON object>)``
  holding ``type`` (the ``:exception-type`` or ``:error-code``) and ``message``.

A frame that does not parse (bad lengths, a checksum mismatch, ...) raises ``DecodeError`` at
``frames[i]``; the transport turns it into the stream's ``StreamDecodeError`` with the partial answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ._errors import DecodeError
from ._sse import ServerSentEvent
from ._wire import dumps, loads

EXCEPTION = "exception"
"""The event name an exception or error frame is read as."""


def event_frames(chunks: Iterable[bytes], *, codec: str) -> Iterator[ServerSentEvent]:
    """The frames in ``chunks`` (bytes as they arrive, split anywhere) as events, in order."""
    from botocore.eventstream import EventStreamBuffer, ParserError

    buffer = EventStreamBuffer()
    index = fed = read = 0
    for chunk in chunks:
        buffer.add_data(chunk)
        fed += len(chunk)
        while True:
            try:
                frame = next(buffer, None)
            except ParserError as exc:
                raise DecodeError(codec, f"frames[{index}]", f"not an event-stream frame ({exc})") from None
            if frame is None:
                break
            read += frame.prelude.total_length
            yield _event(frame.headers, frame.payload, codec, index)
            index += 1
    if read != fed:  # bytes of a frame that never completed: the connection ended mid-frame
        raise DecodeError(codec, f"frames[{index}]", "the stream ended inside a frame")


def _event(headers: dict[str, Any], payload: bytes, codec: str, index: int) -> ServerSentEvent:
    kind = headers.get(":message-type", "event")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise DecodeError(codec, f"frames[{index}]", "the frame's payload is not UTF-8") from None
    if kind == "event":
        return ServerSentEvent(data=text, event=str(headers.get(":event-type", "message")))
    if kind == "exception":
        name, message = headers.get(":exception-type", "exception"), _message(text)
    else:  # "error": the code and message ride in headers
        name, message = headers.get(":error-code", "error"), headers.get(":error-message", _message(text))
    return ServerSentEvent(data=dumps({"type": str(name), "message": str(message)}), event=EXCEPTION)


def _message(text: str) -> str:
    try:
        body = loads(text)
    except ValueError:
        return text
    if isinstance(body, dict):
        for key in ("message", "Message"):
            if isinstance(body.get(key), str):
                return str(body[key])
    return text


def render_frames(events: Iterable[tuple[str, bytes]]) -> Iterator[bytes]:
    """``(event type, payload)`` pairs as event frames: what a loopback server or a gateway sends.

    The format (a prelude of total and header lengths with its CRC32, string headers, the
    payload, a CRC32 of the whole) is AWS's published event-stream encoding; frames written here
    are checked by parsing them back with botocore's parser."""
    import struct
    import zlib

    for name, payload in events:
        headers = b"".join(
            _header(key, value)
            for key, value in ((":event-type", name), (":content-type", "application/json"), (":message-type", "event"))
        )
        total = 12 + len(headers) + len(payload) + 4
        prelude = struct.pack(">II", total, len(headers))
        prelude += struct.pack(">I", zlib.crc32(prelude))
        body = prelude + headers + payload
        yield body + struct.pack(">I", zlib.crc32(body))


def _header(name: str, value: str) -> bytes:
    import struct

    key, raw = name.encode(), value.encode()
    return struct.pack(">B", len(key)) + key + struct.pack(">BH", 7, len(raw)) + raw  # 7: a string value
