"""Stop reasons, both directions: ``finish_reason`` (cohere's ``ChatFinishReason``) <-> the IR's
``StopReason``; the raw string is kept beside it (``raw_stop_reason``)."""

from __future__ import annotations

from interlingua import StopReason, WarningSink

STOP_REASONS: dict[str, StopReason] = {
    "COMPLETE": "end_turn",
    "STOP_SEQUENCE": "stop_sequence",
    "MAX_TOKENS": "max_tokens",
    "TOOL_CALL": "tool_use",
    "ERROR": "error",
    "TIMEOUT": "error",
}
_WRITE: dict[StopReason, str] = {
    "end_turn": "COMPLETE",
    "stop_sequence": "STOP_SEQUENCE",
    "max_tokens": "MAX_TOKENS",
    "tool_use": "TOOL_CALL",
    "error": "ERROR",
    "content_filter": "ERROR",
    "pause": "COMPLETE",
    "cancelled": "COMPLETE",
    "other": "COMPLETE",
}


def write_finish(reason: StopReason, out: WarningSink, at: str) -> str:
    """Another wire's stop reason as a ``finish_reason``; ChatFinishReason has six values, so one
    with no counterpart (content_filter, pause, ...) is converted, and reported."""
    finish = _WRITE[reason]
    if STOP_REASONS[finish] != reason:
        out.lossy(
            at, "stop_reason", f"finish_reason has no form for {reason!r}; sent as {finish!r}", action="converted"
        )
    return finish
