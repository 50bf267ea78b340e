"""Does a body or stream look like Gemini ``generateContent``? The keys the CLI's detection reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.kit import DISTINCTIVE, Sniffed, stream_score


def sniff(body: Mapping[str, Any]) -> Sniffed | None:
    """``candidates``/``promptFeedback`` answer, ``contents`` ask: no other wire has them."""
    for key in ("candidates", "promptFeedback"):
        if key in body:
            return Sniffed("response", DISTINCTIVE, f"has {key!r}")
    if "contents" in body:
        return Sniffed("request", DISTINCTIVE, "has 'contents'")
    return None


def sniff_stream(first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
    """Gemini's SSE events are unnamed chunks of a response body."""
    for index, (_, data) in enumerate(first_events):
        if isinstance(data, Mapping) and ("candidates" in data or "usageMetadata" in data):
            return Sniffed("stream", stream_score(index), "data chunks with 'candidates'")
    return None
