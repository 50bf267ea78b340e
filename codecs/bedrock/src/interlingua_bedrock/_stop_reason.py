"""Stop reasons, both directions: ``stopReason`` (botocore's ``StopReason`` enum) <-> the IR's
``StopReason``; the raw string is kept beside it (``raw_stop_reason``)."""

from __future__ import annotations

from interlingua import StopReason, WarningSink

STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
    "model_context_window_exceeded": "max_tokens",
}
"""botocore's ``StopReason`` enum -> the IR's."""

_WRITE: dict[StopReason, str] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "content_filter": "content_filtered",
    "pause": "end_turn",
    "cancelled": "end_turn",
    "error": "malformed_model_output",
    "other": "end_turn",
}


def write_stop(reason: StopReason, out: WarningSink, at: str) -> str:
    """Another wire's stop reason as botocore's ``StopReason``; one with no counterpart (pause,
    cancelled, other) is converted, and reported."""
    stop = _WRITE[reason]
    if STOP_REASONS[stop] != reason:
        out.lossy(at, "stop_reason", f"stopReason has no form for {reason!r}; sent as {stop!r}", action="converted")
    return stop
