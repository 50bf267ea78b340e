"""Wire detection: which vendor format and which kind (request, response, stream) a body is.

Detection looks only at keys each wire's documented shape makes distinctive, and returns the
evidence it used, so the CLI can say how it decided. It never guesses between two wires that
both accept a body: a plain ``{"model", "messages"}`` body with text-only user turns is valid
for both openai-chat and anthropic-messages, and the reason says so (``--from`` settles it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["request", "response", "stream"]

TRANSCRIPT = "transcript"
"""The pseudo-wire name of interlingua's own transcript format (``--from/--to transcript``)."""


class DetectError(ValueError):
    """The body matches no known shape; the message says what was looked for."""


@dataclass(frozen=True, slots=True)
class Detected:
    wire: str
    kind: Kind
    reason: str


_OPENAI_CHAT_ROLES = frozenset({"system", "developer", "tool", "function"})
_ANTHROPIC_BLOCKS = frozenset(
    {"tool_use", "tool_result", "thinking", "redacted_thinking", "document", "server_tool_use", "search_result"}
)
_OPENAI_CHAT_PARTS = frozenset({"image_url", "input_audio", "file", "refusal"})
_ANTHROPIC_KEYS = ("system", "stop_sequences", "thinking", "top_k", "anthropic_version", "container", "mcp_servers")
_OPENAI_CHAT_KEYS = (
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
_RESPONSES_KEYS = ("input", "instructions", "max_output_tokens", "previous_response_id", "conversation")


def detect_body(body: Any) -> Detected:
    """The wire and kind of one parsed JSON body (a request, a response or a transcript)."""
    if not isinstance(body, Mapping):
        raise DetectError(f"expected a JSON object, got {_type_name(body)}")
    if body.get("format") == "interlingua.transcript":
        return Detected(TRANSCRIPT, "request", "'format' is 'interlingua.transcript'")
    return _detect_response(body) or _detect_request(body)


def _detect_response(body: Mapping[str, Any]) -> Detected | None:
    obj = body.get("object")
    if obj == "chat.completion" or ("choices" in body and "messages" not in body):
        return Detected("openai-chat", "response", "has 'choices'" if obj is None else f"'object' is {obj!r}")
    if obj == "response" or (isinstance(body.get("output"), list) and "input" not in body):
        return Detected(
            "openai-responses", "response", "has an 'output' list" if obj is None else "'object' is 'response'"
        )
    if body.get("type") == "message" and "content" in body:
        return Detected("anthropic-messages", "response", "'type' is 'message' with 'content'")
    if "candidates" in body or "promptFeedback" in body:
        key = "candidates" if "candidates" in body else "promptFeedback"
        return Detected("gemini", "response", f"has {key!r}")
    return None


def _detect_request(body: Mapping[str, Any]) -> Detected:
    if "contents" in body:
        return Detected("gemini", "request", "has 'contents'")
    responses = [key for key in _RESPONSES_KEYS if key in body]
    if responses and "messages" not in body:
        return Detected("openai-responses", "request", f"has {_keys(responses)}")
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise DetectError(
            "no known request or response shape: expected 'messages' (openai-chat, anthropic-messages), "
            "'input' (openai-responses), 'contents' (gemini), 'choices', 'output', 'candidates' or "
            "'type': 'message' (responses), or an interlingua transcript"
        )
    anthropic, openai = _evidence(body, messages)
    if len(anthropic) > len(openai):
        return Detected("anthropic-messages", "request", f"has {_keys(anthropic)}")
    if openai:
        return Detected("openai-chat", "request", f"has {_keys(openai)}")
    if "max_tokens" in body and "model" in body:
        return Detected("anthropic-messages", "request", "has 'messages' and 'max_tokens', no openai-chat signs")
    return Detected(
        "openai-chat",
        "request",
        "has 'messages' only, which openai-chat and anthropic-messages both accept; chose openai-chat "
        "(as in OpenAI fine-tuning files); pass --from to choose",
    )


def _evidence(body: Mapping[str, Any], messages: Sequence[Any]) -> tuple[list[str], list[str]]:
    """Signs of each wire: top-level keys, then the first turns, until one side clearly leads
    (a dataset detects every line, so a long conversation is not walked to its end)."""
    anthropic = [key for key in _ANTHROPIC_KEYS if key in body]
    openai = [key for key in _OPENAI_CHAT_KEYS if key in body] + _tool_signs(body.get("tools"))
    for message in messages[:16]:
        if abs(len(anthropic) - len(openai)) >= 3:
            break
        if isinstance(message, Mapping):
            anthropic.extend(sign for sign in _anthropic_message_signs(message) if sign not in anthropic)
            openai.extend(sign for sign in _openai_message_signs(message) if sign not in openai)
    return anthropic, openai


def _anthropic_message_signs(message: Mapping[str, Any]) -> list[str]:
    content = message.get("content")
    if not isinstance(content, list):
        return []
    types = {str(block.get("type")) for block in content if isinstance(block, Mapping)}
    signs = [f"{t!r} blocks" for t in sorted(types & _ANTHROPIC_BLOCKS)]
    if any(isinstance(block, Mapping) and isinstance(block.get("source"), Mapping) for block in content):
        signs.append("blocks with 'source'")
    return signs


def _openai_message_signs(message: Mapping[str, Any]) -> list[str]:
    signs = []
    role = message.get("role")
    if role in _OPENAI_CHAT_ROLES:
        signs.append(f"role {role!r}")
    signs.extend(key for key in ("tool_calls", "tool_call_id", "function_call") if key in message)
    content = message.get("content")
    if isinstance(content, list):
        types = {str(part.get("type")) for part in content if isinstance(part, Mapping)}
        signs.extend(f"{t!r} parts" for t in sorted(types & _OPENAI_CHAT_PARTS))
    return signs


def _tool_signs(tools: Any) -> list[str]:
    if isinstance(tools, list) and any(isinstance(t, Mapping) and "function" in t for t in tools):
        return ["tools with 'function'"]
    return []


# -- streams ----------------------------------------------------------------------------------


def detect_stream(first_events: Sequence[tuple[str, Any]]) -> Detected:
    """The wire of a recorded SSE stream, from its first events as (event name, parsed data)."""
    for name, data in first_events:
        if name.startswith("response.") or (
            isinstance(data, Mapping) and str(data.get("type", "")).startswith("response.")
        ):
            return Detected("openai-responses", "stream", f"event {name!r}")
        if name in ("message_start", "content_block_start", "ping") or (
            isinstance(data, Mapping) and data.get("type") == "message_start"
        ):
            return Detected("anthropic-messages", "stream", f"event {name!r}")
        if isinstance(data, Mapping):
            if data.get("object") == "chat.completion.chunk" or "choices" in data:
                return Detected("openai-chat", "stream", "data chunks with 'choices'")
            if "candidates" in data or "usageMetadata" in data:
                return Detected("gemini", "stream", "data chunks with 'candidates'")
    raise DetectError("an SSE stream of no known wire: looked for Anthropic, Responses, Chat and Gemini events")


def _keys(keys: Sequence[str]) -> str:
    shown = ", ".join(key if " " in key else repr(key) for key in keys[:4])
    return shown + (f" (+{len(keys) - 4} more)" if len(keys) > 4 else "")


def _type_name(value: Any) -> str:
    return {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}.get(
        type(value), "null" if value is None else type(value).__name__
    )
