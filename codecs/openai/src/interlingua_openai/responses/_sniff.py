"""Does a body or stream look like the Responses API? The keys the CLI's wire detection reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.kit import DISTINCTIVE, Sniffed, quoted, stream_score

_KEYS = ("input", "instructions", "max_output_tokens", "previous_response_id", "conversation")


def sniff(body: Mapping[str, Any]) -> Sniffed | None:
    """A response by ``object`` or an ``output`` list; a request by the keys only Responses has."""
    obj = body.get("object")
    if obj == "response" or (isinstance(body.get("output"), list) and "input" not in body):
        return Sniffed("response", DISTINCTIVE, "has an 'output' list" if obj is None else "'object' is 'response'")
    keys = [key for key in _KEYS if key in body]
    if keys and "messages" not in body:
        return Sniffed("request", DISTINCTIVE, f"has {quoted(keys)}")
    return None


def sniff_stream(first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
    """Responses events are named (and typed) ``response.*``."""
    for index, (name, data) in enumerate(first_events):
        typed = isinstance(data, Mapping) and isinstance(kind := data.get("type"), str) and kind.startswith("response.")
        if name.startswith("response.") or typed:
            return Sniffed("stream", stream_score(index), f"event {name!r}")
    return None
