"""finish_reason <-> StopReason; the raw string is always kept beside it."""

from __future__ import annotations

from interlingua import StopReason

DECODE: dict[str, StopReason] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "content_filter": "content_filter",
}

ENCODE: dict[StopReason, str] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "content_filter": "content_filter",
}


def decode_finish_reason(raw: str | None) -> StopReason | None:
    """A value this table does not know (a compatible server's own) is ``other``, raw kept."""
    if raw is None:
        return None
    return DECODE.get(raw, "other")


def encode_finish_reason(stop: StopReason | None, raw: str | None) -> str | None:
    """The raw string when it says the same thing (so same-wire round trips are exact), else the
    table's; None when the IR reason has no wire form (pause, cancelled, error, other)."""
    if raw is not None and DECODE.get(raw, "other") == stop:
        return raw
    if stop is None:
        return None
    return ENCODE.get(stop)
