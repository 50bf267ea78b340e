"""The declared table: every IR part type and setting -> native | lossy, with the reason."""

from __future__ import annotations

from interlingua import Capabilities

CAPABILITIES = Capabilities(
    parts={
        "text": "native",
        "image": "native",
        "audio": "native",
        "video": "native",
        "document": "native",
        "thinking": "native",
        "redacted_thinking": "native",
        "tool_use": "native",
        "tool_result": "native",
        "image_output": "lossy",
        "audio_output": "lossy",
        "native": "native",
    },
    settings={
        "system": "native",
        "developer": "lossy",
        "mid_conversation_system": "lossy",
        "tools": "native",
        "tool_strict": "native",
        "native_tools": "native",
        "tool_choice": "native",
        "parallel_tool_calls": "lossy",
        "max_tokens": "native",
        "temperature": "native",
        "top_p": "native",
        "top_k": "native",
        "stop": "native",
        "seed": "lossy",
        "presence_penalty": "lossy",
        "frequency_penalty": "lossy",
        "thinking": "native",
        "response_format": "lossy",
        "cache_control": "native",
        "citations": "lossy",
        "message_name": "lossy",
        "message_id": "lossy",
    },
    notes={
        "image": "bytes or an s3:// location; an https URL or a file id has no place on Converse",
        "video": "bytes or an s3:// location; an https URL (a YouTube link) has no place on Converse",
        "thinking": "Bedrock's own reasoning (reasoningText with its signature); another vendor's is dropped. "
        "The setting: Claude's thinking in additionalModelRequestFields (budget_tokens; a level by Anthropic's table)",
        "redacted_thinking": "Bedrock's own redactedContent only",
        "image_output": "Converse messages carry no model-made media",
        "audio_output": "Converse messages carry no model-made media",
        "native": "blocks with no IR home (guardContent, citationsContent, searchResult, a system tool's use and "
        "result) verbatim; systemTool tools",
        "developer": "no developer role: developer messages join the system blocks (reported)",
        "mid_conversation_system": "system blocks come before the conversation; a later one is sent as a user turn",
        "parallel_tool_calls": "Converse has no switch for parallel calls",
        "top_k": "Claude's top_k in additionalModelRequestFields",
        "seed": "InferenceConfiguration has no seed",
        "presence_penalty": "InferenceConfiguration has no penalties",
        "frequency_penalty": "InferenceConfiguration has no penalties",
        "response_format": "no JSON mode in this codec yet",
        "cache_control": "cachePoint blocks after the marked block (or tool)",
        "cache_control.tool_result": "a tool result's content has no cache point: an inner mark becomes the "
        "cachePoint after the result (reported)",
        "citations": "requests carry no citations on text",
        "message_name": "Converse messages carry no participant name",
        "message_id": "Converse messages carry no id",
        "tool_choice": "auto, any (required) and a named tool; none has no Converse form",
        "thinking.summary": "Claude on Bedrock takes no summary setting",
    },
    details={"thinking.summary": "lossy", "cache_control.tool_result": "lossy"},
)
