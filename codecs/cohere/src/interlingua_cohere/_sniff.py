"""Does a body or stream look like Cohere v2 chat? The signs the CLI's detection reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.kit import DISTINCTIVE, Sniffed, stream_score

_FINISH = frozenset({"COMPLETE", "STOP_SEQUENCE", "MAX_TOKENS", "TOOL_CALL", "ERROR", "TIMEOUT"})


def sniff(body: Mapping[str, Any]) -> Sniffed | None:
    """An upper-case ``finish_reason`` beside ``message`` answers; ``k`` / ``p`` / ``documents`` /
    ``citation_options`` or an assistant ``tool_plan`` ask."""
    finish = body.get("finish_reason")  # ill-typed values are no sign (an unhashable one is no TypeError)
    if isinstance(finish, str) and finish in _FINISH and isinstance(body.get("message"), Mapping):
        return Sniffed("response", DISTINCTIVE, f"finish_reason {finish!r}")
    if "messages" in body:
        for key in ("citation_options", "documents", "safety_mode", "strict_tools"):
            if key in body:
                return Sniffed("request", DISTINCTIVE, f"has {key!r}")
        messages = body["messages"]
        if isinstance(messages, list) and any(isinstance(m, Mapping) and "tool_plan" in m for m in messages):
            return Sniffed("request", DISTINCTIVE, "an assistant message with 'tool_plan'")
    return None


def sniff_stream(first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
    """Cohere's events carry their ``type`` in the data: ``message-start``, ``content-delta``, ..."""
    for index, (_, data) in enumerate(first_events):
        if isinstance(data, Mapping) and data.get("type") in ("message-start", "content-delta", "tool-plan-delta"):
            return Sniffed("stream", stream_score(index), f"a {data['type']!r} event")
    return None
