"""Where each key of a v2 chat request and response goes, for the coverage walk.

``REQUEST`` covers the parameters of cohere's ``client.v2.chat`` as the oracle types them (see
_oracle.py), ``RESPONSE`` ``cohere.V2ChatResponse``. Messages are told apart by ``role``
(``messages[assistant]``); rows read as ``interlingua.testing.Declaration``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interlingua.testing import Declaration, Where

_OPTION: tuple[Where, str] = ("provider_option", "verbatim")
_RESPONSE_ECHO: tuple[Where, str] = ("replay", "the response's echo (the vendor's record of the call)")


def _assistant(at: str) -> Declaration:
    """An assistant message's keys, in a request or an answer (see _messages.decode_message)."""
    return {
        f"{at}.content[text].text": ("ir", "Text.text"),
        f"{at}.content[thinking].thinking": ("ir", "Thinking.text"),
        f"{at}.tool_plan": ("ir", "Text, first in the message, with a toolPlan echo"),
        f"{at}.tool_calls[].*": ("ir", "ToolUse (id, name, arguments; their spelling rides in the echo)"),
        f"{at}.citations[].*": ("meaning", "Text.citations (the wire's spelling in the text's echo)"),
    }


REQUEST: Declaration = {
    "model": ("ir", "Request.model"),
    "messages[*].content": ("ir", "Message.parts (a bare string is one Text; a list rides in the echo)"),
    "messages[system].content[].text": ("ir", "Text.text (a system message's blocks)"),
    "messages[system].content[].type": ("ir", "Text (a system message's blocks)"),
    "messages[user].content[text].text": ("ir", "Text.text"),
    "messages[user].content[image_url].image_url.url": ("ir", "Image.source (url, or base64 from a data URL)"),
    "messages[user].content[image_url].image_url.detail": ("meaning", "Image.detail"),
    **_assistant("messages[assistant]"),
    "messages[tool].tool_call_id": ("ir", "ToolResult.tool_use_id"),
    "messages[tool].content[text].text": ("ir", "ToolResult.content (Text parts)"),
    "messages[tool].content[document].document.data": ("ir", "ToolResult.content (a Document of text)"),
    "messages[tool].content[document].document.id": ("replay", "the document's echo (an id the citations name)"),
    "tools[].type": ("ir", "Tool (function; another type: NativeTool(cohere))"),
    "tools[].function.name": ("ir", "Tool.name"),
    "tools[].function.description": ("ir", "Tool.description"),
    "tools[].function.parameters": ("ir", "Tool.input_schema"),
    "tool_choice": ("ir", "Request.tool_choice (REQUIRED, NONE)"),
    "thinking.type": ("ir", "Request.thinking (disabled: level off)"),
    "thinking.token_budget": ("ir", "Request.thinking.budget_tokens"),
    "max_tokens": ("ir", "Request.max_tokens"),
    "stop_sequences": ("ir", "Request.stop"),
    "temperature": ("ir", "Request.temperature"),
    "seed": ("ir", "Request.seed"),
    "frequency_penalty": ("ir", "Request.frequency_penalty"),
    "presence_penalty": ("ir", "Request.presence_penalty"),
    "k": ("ir", "Request.top_k"),
    "p": ("ir", "Request.top_p"),
    "documents": _OPTION,
    "documents[].*": _OPTION,
    "citation_options.*": _OPTION,
    "response_format(*).*": ("provider_option", "verbatim (not read as Request.response_format)"),
    "safety_mode": _OPTION,
    "strict_tools": _OPTION,
    "logprobs": _OPTION,
    "priority": _OPTION,
    "stream": ("transport", "decode_stream / encode_stream"),
}

RESPONSE: Declaration = {
    "id": ("ir", "Response.id"),
    "message.role": ("ir", "Message(role=assistant)"),
    **_assistant("message"),
    "finish_reason": ("ir", "Response.stop_reason, raw_stop_reason"),
    "usage.tokens.input_tokens": ("ir", "Usage.input_tokens"),
    "usage.tokens.output_tokens": ("ir", "Usage.output_tokens"),
    "usage.cached_tokens": ("ir", "Usage.cache_read_tokens"),
    "usage.billed_units.*": _RESPONSE_ECHO,
    "logprobs[].*": _RESPONSE_ECHO,
}
