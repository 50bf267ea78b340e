"""The declared table, per dialect: every part type and setting -> native | lossy, with why."""

from __future__ import annotations

from interlingua import Capabilities, Support

from ._dialect import Dialect

_NOTES = {
    "video": "no video input",
    "image_output": "Chat Completions produces no images",
    "audio_output": "earlier audio goes back only by the id the server gave it, not as bytes",
    "cache_control": "caching is automatic; no breakpoints on the wire",
    "citations": "a request cannot carry citations (answers can: url_citation annotations)",
    "top_k": "no top_k field",
    "thinking": "reasoning_effort; a budget is sent as the nearest effort with a warning (by the table low 1024, "
    "medium 4096, high 16384, xhigh 65536 tokens, or budgets=)",
    "redacted_thinking": "encrypted reasoning goes back only as the reasoning_details its host sent (OpenRouter)",
    "tool_result.json": "a tool message holds text: a JSON result is sent as its text",
    "tool_result.error": "a tool message cannot mark an error",
    "tool_result.media": "a tool message holds text; media move to a user message after it",
    "tool_result.name": "a tool message answers its call by tool_call_id and has no name",
    "document.text": "a plain-text document is sent as a text part",
    "document.url": "a file part takes base64 data or a file id, not a url",
    "thinking.summary": "Chat Completions returns no reasoning summaries",
    "message_name": "name on system, developer, user and assistant messages; a tool message has none (a warning)",
    "message_id": "request messages carry no id",
}


def capabilities_for(dialect: Dialect) -> Capabilities:
    reasoning = dialect.reasoning != "none"
    lossy: Support = "lossy"
    parts: dict[str, Support] = {
        "text": "native",
        "image": "native",
        "audio": "native",
        "video": lossy,
        "document": "native",
        "thinking": "native" if reasoning else lossy,
        "redacted_thinking": "native" if dialect.reasoning_details else lossy,
        "tool_use": "native",
        "tool_result": "native",
        "image_output": lossy,
        "audio_output": lossy,
        "native": "native",
    }
    settings: dict[str, Support] = {
        "system": "native",
        "developer": "native" if dialect.developer_role else lossy,
        "mid_conversation_system": "native",
        "tools": "native",
        "tool_strict": "native",
        "native_tools": "native",
        "tool_choice": "native",
        "parallel_tool_calls": "native",
        "max_tokens": "native",
        "temperature": "native",
        "top_p": "native",
        "top_k": "native" if dialect.top_k else lossy,
        "stop": "native",
        "seed": "native",
        "presence_penalty": "native",
        "frequency_penalty": "native",
        "thinking": "native",
        "response_format": "native",
        "cache_control": lossy,
        "citations": lossy,
        "message_name": "native",
        "message_id": lossy,
    }
    notes = dict(_NOTES)
    if not reasoning:
        notes["thinking_part"] = "OpenAI's Chat Completions takes no reasoning text back"
    if not dialect.developer_role:
        notes["developer"] = f"{dialect.name} has no developer role; sent as system"
    details: dict[str, Support] = {
        "tool_result.json": lossy,
        "tool_result.error": lossy,
        "tool_result.media": lossy,
        "tool_result.name": lossy,
        "document.text": lossy,
        "document.url": "native" if dialect.document_url else lossy,
        "thinking.summary": lossy,
    }
    return Capabilities(parts=parts, settings=settings, notes=notes, details=details)
