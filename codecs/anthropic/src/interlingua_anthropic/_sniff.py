"""Does a body or stream look like Anthropic Messages? The signs the CLI's wire detection counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.kit import DISTINCTIVE, Sniffed, quoted, stream_score

_BLOCKS = frozenset(
    {"tool_use", "tool_result", "thinking", "redacted_thinking", "document", "server_tool_use", "search_result"}
)
_KEYS = ("system", "stop_sequences", "thinking", "top_k", "anthropic_version", "container", "mcp_servers")
_STREAM_EVENTS = frozenset({"message_start", "content_block_start", "ping"})


def sniff(body: Mapping[str, Any]) -> Sniffed | None:
    """A message response by its ``type``; a request by the keys and blocks only Messages has.
    ``{"model", "max_tokens", "messages"}`` with no such sign scores 0.75 (Messages requires
    ``max_tokens``); bare ``messages`` 0.25, as other wires take them too."""
    if body.get("type") == "message" and "content" in body:
        return Sniffed("response", DISTINCTIVE, "'type' is 'message' with 'content'")
    if "messages" not in body:
        return None
    messages = body["messages"]
    if not isinstance(messages, list):  # claimed all the same: the decoder names what is wrong
        messages = []
    signs = [key for key in _KEYS if key in body]
    for message in messages[:16]:  # a dataset sniffs every line: the first turns tell
        if len(signs) >= 3:
            break
        if isinstance(message, Mapping):
            signs.extend(sign for sign in _message_signs(message) if sign not in signs)
    if signs:
        return Sniffed("request", len(signs), f"has {quoted(signs)}")
    if "max_tokens" in body and "model" in body:
        return Sniffed("request", 0.75, "has 'messages' and 'max_tokens' (required by Messages)")
    return Sniffed("request", 0.25, "has 'messages'")


def _message_signs(message: Mapping[str, Any]) -> list[str]:
    content = message.get("content")
    if not isinstance(content, list):
        return []
    # Only a string type is a sign: str() of a deeply nested value (a mutated body) would recurse past the stack.
    types = {t for block in content if isinstance(block, Mapping) and isinstance(t := block.get("type"), str)}
    signs = [f"{t!r} blocks" for t in sorted(types & _BLOCKS)]
    if any(isinstance(block, Mapping) and isinstance(block.get("source"), Mapping) for block in content):
        signs.append("blocks with 'source'")
    return signs


def sniff_stream(first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
    """Messages streams name their events; a ``message_start`` payload says it too."""
    for index, (name, data) in enumerate(first_events):
        if name in _STREAM_EVENTS or (isinstance(data, Mapping) and data.get("type") == "message_start"):
            return Sniffed("stream", stream_score(index), f"event {name!r}")
    return None
