"""Does a body or stream look like Chat Completions? The signs the CLI's wire detection counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.kit import DISTINCTIVE, Sniffed, quoted, stream_score

_ROLES = frozenset({"system", "developer", "tool", "function"})
_PARTS = frozenset({"image_url", "input_audio", "file", "refusal"})
_KEYS = (
    "max_completion_tokens",
    "response_format",
    "reasoning_effort",
    "n",
    "logprobs",
    "stream_options",
    "seed",
    "frequency_penalty",
    "presence_penalty",
    "modalities",
    "functions",
)


def sniff(body: Mapping[str, Any]) -> Sniffed | None:
    """A completion by ``object`` or ``choices``; a request by the keys, roles and parts only
    Chat has. Half a sign more than their count: plain ``messages`` are taken as Chat, as in
    OpenAI's fine-tuning files."""
    obj = body.get("object")
    if obj == "chat.completion" or ("choices" in body and "messages" not in body):
        why = f"'object' is {obj!r}" if isinstance(obj, str) else "has 'choices'"  # never the repr of a deep value
        return Sniffed("response", DISTINCTIVE, why)
    if "messages" not in body:
        return None
    messages = body["messages"]
    if not isinstance(messages, list):  # claimed all the same: the decoder names what is wrong
        messages = []
    signs = [key for key in _KEYS if key in body] + _tool_signs(body.get("tools"))
    for message in messages[:16]:  # a dataset sniffs every line: the first turns tell
        if len(signs) >= 3:
            break
        if isinstance(message, Mapping):
            signs.extend(sign for sign in _message_signs(message) if sign not in signs)
    if signs:
        return Sniffed("request", len(signs) + 0.5, f"has {quoted(signs)}")
    return Sniffed("request", 0.5, "has 'messages' only (taken as Chat, as in OpenAI fine-tuning files)")


def _message_signs(message: Mapping[str, Any]) -> list[str]:
    signs = []
    role = message.get("role")
    if isinstance(role, str) and role in _ROLES:  # an ill-typed role (a list) is no sign, not a TypeError
        signs.append(f"role {role!r}")
    signs.extend(key for key in ("tool_calls", "tool_call_id", "function_call") if key in message)
    content = message.get("content")
    if isinstance(content, list):
        # only a string type is a sign: str() of a deeply nested value would recurse past the stack
        types = {t for part in content if isinstance(part, Mapping) and isinstance(t := part.get("type"), str)}
        signs.extend(f"{t!r} parts" for t in sorted(types & _PARTS))
    return signs


def _tool_signs(tools: Any) -> list[str]:
    if isinstance(tools, list) and any(isinstance(t, Mapping) and "function" in t for t in tools):
        return ["tools with 'function'"]
    return []


def sniff_stream(first_events: Sequence[tuple[str, Any]]) -> Sniffed | None:
    """Chat streams unnamed ``chat.completion.chunk`` payloads with ``choices``."""
    for index, (_, data) in enumerate(first_events):
        if isinstance(data, Mapping) and (data.get("object") == "chat.completion.chunk" or "choices" in data):
            return Sniffed("stream", stream_score(index), "data chunks with 'choices'")
    return None
