"""finishReason <-> StopReason, both directions; the raw string is always kept beside it."""

from __future__ import annotations

from interlingua import StopReason, WarningSink
from interlingua.kit import join

DECODE: dict[str, StopReason] = {
    "STOP": "end_turn",
    "MAX_TOKENS": "max_tokens",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "IMAGE_RECITATION": "content_filter",
    "MALFORMED_FUNCTION_CALL": "error",
    "UNEXPECTED_TOOL_CALL": "error",
    "TOO_MANY_TOOL_CALLS": "error",
    "MISSING_THOUGHT_SIGNATURE": "error",
    "LANGUAGE": "other",
    "OTHER": "other",
    "NO_IMAGE": "other",
    "IMAGE_OTHER": "other",
    "FINISH_REASON_UNSPECIFIED": "other",
}
"""Gemini answers STOP for a natural end, a stop sequence and function calls alike; STOP with a
functionCall in the answer decodes as ``tool_use`` (see ``decode``)."""

ENCODE: dict[StopReason, str] = {
    "end_turn": "STOP",
    "tool_use": "STOP",
    "stop_sequence": "STOP",
    "max_tokens": "MAX_TOKENS",
    "content_filter": "SAFETY",
    "pause": "OTHER",
    "cancelled": "OTHER",
    "error": "OTHER",
    "other": "OTHER",
}


def decode(raw: str | None, *, called: bool) -> StopReason | None:
    """The StopReason for ``finishReason`` ``raw``; unknown values are ``other`` (raw kept)."""
    if raw is None:
        return None
    reason = DECODE.get(raw, "other")
    return "tool_use" if reason == "end_turn" and called else reason


def encode(reason: StopReason | None, raw: str | None, out: WarningSink | None = None, at: str = "") -> str | None:
    """The kept string when it still means ``reason`` (exact round trips, and a finishReason
    newer than this table decoded as ``other``), else the closest finishReason: another
    vendor's raw string (``end_turn``) is never written as a finishReason. A finishReason that
    reads back as another reason (``stop_sequence`` as ``STOP``) is reported to ``out``."""
    if raw is not None and (reason is None or _means(raw, reason)):
        return raw
    if reason is None:
        return None
    finish = ENCODE[reason]
    if out is not None and not _means(finish, reason):
        why = f"no finishReason means {reason}; sent as {finish}"
        out.lossy(join(at, "stop_reason"), "stop_reason", why, action="converted")
    return finish


def _means(raw: str, reason: StopReason) -> bool:
    meaning = DECODE.get(raw, "other")
    return meaning == reason or (meaning == "end_turn" and reason == "tool_use")


BLOCKED: StopReason = "content_filter"
"""A prompt blocked before generation (promptFeedback.blockReason, no candidates)."""
