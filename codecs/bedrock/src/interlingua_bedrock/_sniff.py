"""Does a body or stream look like Converse? The signs the CLI's detection reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.kit import DISTINCTIVE, Sniffed, stream_score

_REQUEST_KEYS = ("inferenceConfig", "toolConfig", "additionalModelRequestFields", "guardrailConfig")
_STREAM_EVENTS = frozenset({"messageStart", "contentBlockDelta", "contentBlockStart", "messageStop", "metadata"})


def sniff(body: Mapping[str, Any]) -> Sniffed | None:
    """``output.message`` with ``stopReason`` answers; camelCase settings or content blocks without
    a ``type`` (one key naming the kind) ask."""
    output = body.get("output")
    if isinstance(output, Mapping) and "message" in output and "stopReason" in body:
        return Sniffed("response", DISTINCTIVE, "has 'output.message' and 'stopReason'")
    if "messages" in body:  # Gemini has a toolConfig too, beside its contents
        for key in _REQUEST_KEYS:
            if key in body:
                return Sniffed("request", DISTINCTIVE, f"has 'messages' and {key!r}")
    messages = body.get("messages")
    if isinstance(messages, list) and messages and isinstance(messages[0], Mapping):
        content = messages[0].get("content")
        if isinstance(content, list) and content and all(isinstance(b, Mapping) and "type" not in b for b in content):
            return Sniffed("request", 1.5, "content blocks without 'type'")
    return None


def sniff_stream(first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
    """ConverseStream events are named ``messageStart``, ``contentBlockDelta``, ..."""
    for index, (name, _) in enumerate(first_events):
        if name in _STREAM_EVENTS:
            return Sniffed("stream", stream_score(index), f"a {name!r} event")
    return None
