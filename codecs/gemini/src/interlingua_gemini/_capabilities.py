"""The declared table: every IR part type and setting -> native | lossy, with the reason."""

from __future__ import annotations

from interlingua import Capabilities

CAPABILITIES = Capabilities(
    parts={
        "text": "native",
        "image": "native",
        "audio": "native",
        "video": "native",
        "document": "lossy",
        "thinking": "native",
        "redacted_thinking": "lossy",
        "tool_use": "native",
        "tool_result": "native",
        "image_output": "native",
        "audio_output": "lossy",
        "native": "native",
    },
    settings={
        "system": "native",
        "developer": "lossy",
        "mid_conversation_system": "lossy",
        "tools": "native",
        "tool_strict": "lossy",
        "native_tools": "native",
        "tool_choice": "native",
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
        "response_format": "native",
        "cache_control": "lossy",
        "citations": "lossy",
        "message_name": "lossy",
        "message_id": "lossy",
    },
    notes={
        "document": "inlineData / fileData carry no document name; a named document loses its name",
        "thinking": "Gemini's own thought parts only; reasoning from another vendor is dropped",
        "redacted_thinking": "Gemini has no encrypted reasoning blocks",
        "tool_result.name": "functionResponse.name is the result's own name, sent as it is",
        "audio_output": "inlineData carries no transcript",
        "native": "Gemini parts with no IR home (executableCode, codeExecutionResult, ...) verbatim",
        "developer": "one system instruction; developer messages join it as system",
        "mid_conversation_system": "no system turn mid-conversation; sent as a user turn",
        "tool_strict": "function declarations have no strict flag",
        "parallel_tool_calls": "parallel calls cannot be turned off",
        "cache_control": "caching is by cachedContent (provider_options), not per-block marks",
        "citations": "requests carry no citations; responses rebuild them from groundingMetadata",
        "message_name": "Gemini contents carry no participant name",
        "message_id": "contents carry no id",
        "thinking_table": "budget_tokens <-> thinkingBudget; off -> thinkingBudget 0; "
        "minimal/low/medium/high/xhigh <-> thinkingLevel (with budgets=, or for a Gemini 2.x model, which "
        "rejects levels, a level goes as thinkingBudget from a table, the nearest level when it lacks one, "
        "warned); summary <-> includeThoughts",
        "response_format.name": "GenerateContentConfig has no schema name",
        "response_format.description": "GenerateContentConfig has no schema description",
        "response_format.strict": "Gemini always holds to the schema",
    },
    details={
        "response_format.name": "lossy",
        "response_format.description": "lossy",
        "response_format.strict": "lossy",
    },
)
