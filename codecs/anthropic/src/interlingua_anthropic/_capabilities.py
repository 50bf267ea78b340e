"""The declared table: every part type and setting -> native | lossy, with the reason."""

from __future__ import annotations

from interlingua import Capabilities

CAPABILITIES = Capabilities(
    parts={
        "text": "native",
        "image": "native",
        "audio": "lossy",
        "video": "lossy",
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
        "mid_conversation_system": "native",
        "tools": "native",
        "tool_strict": "native",
        "native_tools": "native",
        "tool_choice": "native",
        "parallel_tool_calls": "native",
        "max_tokens": "native",
        "temperature": "native",
        "top_p": "native",
        "top_k": "native",
        "stop": "native",
        "seed": "lossy",
        "presence_penalty": "lossy",
        "frequency_penalty": "lossy",
        "thinking": "native",
        "response_format": "native",
        "cache_control": "native",
        "citations": "lossy",
        "message_name": "lossy",
        "message_id": "lossy",
    },
    notes={
        "audio": "the Messages API takes no audio input",
        "video": "the Messages API takes no video input",
        "image_output": "Claude does not produce images",
        "audio_output": "Claude does not produce audio",
        "thinking": "only thinking Claude signed can be replayed; unsigned thinking is dropped",
        "redacted_thinking": "needs Anthropic's opaque data from the echo",
        "developer": "no developer role: sent as system",
        "seed": "no seed parameter",
        "presence_penalty": "no presence_penalty parameter",
        "frequency_penalty": "no frequency_penalty parameter",
        "response_format": "json_schema as output_config.format; json_object has no wire form",
        "citations": "Claude's own citations round-trip; others lack the vendor's location fields",
        "message_name": "Anthropic messages carry no participant name",
        "message_id": "request messages carry no id",
        "tool_result.json": "a JSON result is sent as its text",
        "thinking_table": "budget_tokens as is; a level alone as budget_tokens: minimal 1024, low 2048, medium 8192, "
        "high 16384, xhigh 32768, or from budgets= (a level it lacks goes to the nearest, warned); "
        "neither -> adaptive; off -> disabled",
    },
    details={"tool_result.json": "lossy"},
)
