"""What openai-responses carries natively, and what it can only carry with a warning."""

from __future__ import annotations

from interlingua import Capabilities

CAPABILITIES = Capabilities(
    parts={
        "text": "native",
        "image": "native",
        "audio": "lossy",
        "video": "lossy",
        "document": "native",
        "thinking": "lossy",
        "redacted_thinking": "lossy",
        "tool_use": "native",
        "tool_result": "native",
        "image_output": "lossy",
        "audio_output": "lossy",
        "native": "native",
    },
    settings={
        "system": "native",
        "developer": "native",
        "mid_conversation_system": "native",
        "tools": "native",
        "tool_strict": "native",
        "native_tools": "native",
        "tool_choice": "native",
        "parallel_tool_calls": "native",
        "max_tokens": "native",
        "temperature": "native",
        "top_p": "native",
        "top_k": "lossy",
        "stop": "lossy",
        "seed": "lossy",
        "presence_penalty": "lossy",
        "frequency_penalty": "lossy",
        "thinking": "native",
        "response_format": "native",
        "cache_control": "lossy",
        "citations": "lossy",
        "message_name": "lossy",
        "message_id": "lossy",
    },
    notes={
        "audio": "message content takes input_text, input_image and input_file only",
        "video": "no video input",
        "thinking": "only OpenAI's own reasoning items are replayed, to the model that made them",
        "redacted_thinking": "no redacted reasoning; OpenAI's encrypted reasoning rides on thinking parts",
        "image_output": "model-made images are not re-sent; the image_generation_call item is kept as native",
        "audio_output": "no audio output items",
        "top_k": "no top_k",
        "stop": "no stop sequences",
        "seed": "no seed",
        "presence_penalty": "no presence_penalty",
        "frequency_penalty": "no frequency_penalty",
        "thinking.level": "off->none, minimal, low, medium, high, xhigh as reasoning.effort; a budget alone maps "
        "under 4096 -> low, under 16384 -> medium, else high (the nearest level of budgets=, when given); "
        "summary -> reasoning.summary auto",
        "cache_control": "caching is automatic; no breakpoints",
        "citations": "annotations are re-sent only inside the OpenAI output message they came in (it has an id)",
        "tool_result.json": "function_call_output holds text or content: a JSON result is sent as its text",
        "tool_result.error": "function_call_output has no error flag",
        "tool_result.name": "function_call_output.name is sent where the decoded item had one; "
        "a result from elsewhere answers its call by call_id alone",
        "document.text": "a plain-text document is sent as input_text",
        "message_name": "input messages carry no participant name",
        "message_id": "input items carry no message id (an output item's own id rides in its parts' echo)",
    },
    details={
        "tool_result.json": "lossy",
        "tool_result.error": "lossy",
        "tool_result.name": "lossy",
        "document.text": "lossy",
    },
)
