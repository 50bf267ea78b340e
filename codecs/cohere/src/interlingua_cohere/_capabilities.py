"""The declared table: every IR part type and setting -> native | lossy, with the reason."""

from __future__ import annotations

from interlingua import Capabilities

CAPABILITIES = Capabilities(
    parts={
        "text": "native",
        "image": "native",
        "audio": "lossy",
        "video": "lossy",
        "document": "lossy",
        "thinking": "native",
        "redacted_thinking": "lossy",
        "tool_use": "native",
        "tool_result": "native",
        "image_output": "lossy",
        "audio_output": "lossy",
        "native": "native",
    },
    settings={
        "system": "native",
        "developer": "lossy",
        "mid_conversation_system": "native",
        "tools": "native",
        "tool_strict": "lossy",
        "native_tools": "native",
        "tool_choice": "lossy",
        "parallel_tool_calls": "lossy",
        "max_tokens": "native",
        "temperature": "native",
        "top_p": "native",
        "top_k": "native",
        "stop": "native",
        "seed": "native",
        "presence_penalty": "native",
        "frequency_penalty": "native",
        "thinking": "native",
        "response_format": "lossy",
        "cache_control": "lossy",
        "citations": "lossy",
        "message_name": "lossy",
        "message_id": "lossy",
    },
    notes={
        "image": "image_url: a URL or a data: URL",
        "document": "documents as text (document.data), in a tool message; elsewhere sent as text (reported); "
        "a PDF or file has no place",
        "thinking": "Cohere's own thinking blocks; another vendor's is dropped",
        "thinking.summary": "thinking takes a type and a token budget only",
        "tool_result.error": "a tool message has no error flag; the content is sent",
        "tool_result.media": "a tool message holds text and documents only",
        "developer": "no developer role; sent as user",
        "tool_strict": "strictness is strict_tools, for every tool (provider_options)",
        "tool_choice": "REQUIRED and NONE; one named tool is sent as REQUIRED (reported)",
        "parallel_tool_calls": "no switch for parallel calls",
        "response_format": "set provider_options.cohere.response_format",
        "cache_control": "Cohere caches on its own; no breakpoints",
        "citations": "citations are Cohere's own output (kept in the echo), never sent from another wire",
    },
    details={"thinking.summary": "lossy", "tool_result.error": "lossy", "tool_result.media": "lossy"},
)
