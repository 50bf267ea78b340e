"""finish_reason <-> StopReason; the raw string is always kept beside it."""

from __future__ import annotations

from interlingua import StopReason, WarningSink

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


def report_finish_reason(stop: StopReason | None, finish: str | None, out: WarningSink, at: str) -> str:
    """``finish`` (from :func:`encode_finish_reason`), or ``stop`` when it has none; either way
    ``out`` hears of a reason that reads back as another (``stop_sequence`` is sent as ``stop``)."""
    if finish is None:
        out.lossy(at, "stop_reason", f"finish_reason has no form for {stop!r}; sent as 'stop'", action="converted")
        return "stop"
    if stop is not None and DECODE.get(finish, "other") != stop:
        out.lossy(at, "stop_reason", f"finish_reason has no form for {stop!r}; sent as {finish!r}", action="converted")
    return finish
