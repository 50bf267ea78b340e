"""Stop reasons, both directions: the wire string -> StopReason, and back (raw string kept)."""

from __future__ import annotations

from interlingua import StopReason

DECODE: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "tool_use": "tool_use",
    "pause_turn": "pause",
    "refusal": "content_filter",
    "model_context_window_exceeded": "max_tokens",
}

ENCODE: dict[StopReason, str] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "content_filter": "refusal",
    "pause": "pause_turn",
}
"""IR reasons with a wire twin; ``cancelled``, ``error`` and ``other`` have none."""


def decode_stop_reason(raw: str | None) -> StopReason | None:
    """An unknown wire value is ``other``, never a plausible guess; the caller keeps ``raw``."""
    if raw is None:
        return None
    return DECODE.get(raw, "other")


def encode_stop_reason(reason: StopReason | None, raw: str | None) -> str | None:
    """The raw string when it still means ``reason`` (exact round trips), else the table's."""
    if raw is not None and (reason is None or DECODE.get(raw, "other") == reason):
        return raw
    if reason is None:
        return None
    return ENCODE.get(reason)
