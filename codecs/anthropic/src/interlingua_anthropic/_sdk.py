"""The only module that imports the ``anthropic`` SDK, inside functions: SDK objects in, and the
SDK's own stream accumulation (used to check that encode_stream output parses back)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from interlingua import SSEEvent
from interlingua.kit import as_object, loads


def plain(value: Any, at: str = "") -> dict[str, Any]:
    """A wire dict, or an SDK object (anything with ``model_dump``) dumped as the wire sends it."""
    return as_object(value, at)


def sdk_accumulate(events: Iterable[SSEEvent]) -> dict[str, Any]:
    """The Message the official SDK builds from these stream events, as a wire dict."""
    from anthropic.lib.streaming._messages import accumulate_event

    snapshot: Any = None
    json_bufs: dict[int, bytes] = {}
    for event in events:
        data = loads(event.data)
        if data.get("type") in ("ping", "error"):
            continue
        snapshot = accumulate_event(event=data, current_snapshot=snapshot, json_bufs=json_bufs)
    if snapshot is None:
        raise ValueError("the stream had no message_start")
    dumped: dict[str, Any] = snapshot.model_dump(mode="json", exclude_none=True, by_alias=True)
    return dumped
