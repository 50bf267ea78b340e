"""Response ``status`` (and ``incomplete_details.reason``) <-> StopReason; the raw string is kept.

``raw_stop_reason`` is ``incomplete_details.reason`` for an incomplete response (what says why),
else ``status``. A completed response that ends in a function call stops for ``tool_use``.
"""

from __future__ import annotations

from interlingua import StopReason, WarningSink

_STATUS: dict[str, StopReason] = {
    "completed": "end_turn",
    "failed": "error",
    "cancelled": "cancelled",
}
_INCOMPLETE: dict[str, StopReason] = {
    "max_output_tokens": "max_tokens",
    "content_filter": "content_filter",
}
STATUSES = frozenset({"completed", "failed", "cancelled", "in_progress", "queued", "incomplete"})


def decode_stop_reason(status: str | None, reason: str | None, *, called: bool) -> tuple[StopReason | None, str | None]:
    """(StopReason, raw) for a response's status; ``called``: its output ends in a client tool call."""
    if status is None:
        return None, None
    if status == "incomplete":
        raw = reason if reason is not None else status
        return _INCOMPLETE.get(raw, "other"), raw
    stop = _STATUS.get(status, "other")
    if stop == "end_turn" and called:
        stop = "tool_use"
    return stop, status


_BY_STOP: dict[str, str] = {"error": "failed", "cancelled": "cancelled"}
_INCOMPLETE_BY_STOP: dict[str, str] = {"max_tokens": "max_output_tokens", "content_filter": "content_filter"}


def encode_stop_reason(
    stop: StopReason | None, raw: str | None, out: WarningSink | None = None
) -> tuple[str, str | None]:
    """(status, incomplete reason or None): the raw string when it still means ``stop`` (exact
    round trips, and a reason newer than this table decoded as ``other``), else from ``stop``:
    another vendor's raw string (``end_turn``, ``STOP``) never becomes a status or a reason.
    A reason with no status of its own (``pause``, ``stop_sequence``) is sent as completed,
    reported to ``out``."""
    if raw is not None and (stop is None or _means(raw, stop)):
        if raw in STATUSES:
            return raw, None
        return "incomplete", raw
    if stop in _INCOMPLETE_BY_STOP:
        return "incomplete", _INCOMPLETE_BY_STOP[stop]
    status = _BY_STOP.get(stop or "", "completed")
    if out is not None and stop is not None and not _means(status, stop):
        out.lossy(
            "stop_reason", "stop_reason", f"no response status means {stop}; sent as {status}", action="converted"
        )
    return status, None


def _means(raw: str, stop: StopReason) -> bool:
    if raw in STATUSES:
        meaning = _STATUS.get(raw, "other")
        return meaning == stop or (meaning == "end_turn" and stop == "tool_use")
    return _INCOMPLETE.get(raw, "other") == stop
