"""Where each key of the Responses API's request and response types goes, for the coverage walk.

``REQUEST`` covers ``openai.types.responses.ResponseCreateParams``, ``RESPONSE``
``openai.types.responses.Response``; rows read as ``interlingua.testing.Declaration``. Items and
blocks the IR has no part for (hosted tool calls, MCP, shell, compaction, ...) are Native parts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interlingua.testing import Declaration, Where

_OPTION: tuple[Where, str] = ("provider_option", "verbatim")
_ECHO: tuple[Where, str] = ("replay", "the item's or part's echo (ids, status: OpenAI's record)")
_RESPONSE_ECHO: tuple[Where, str] = ("replay", "the response's echo (the vendor's record of the call)")
_BREAKPOINT: tuple[Where, str] = (
    "meaning",
    "<part>.cache_control (the spelling in the echo; a ttl, marked unmapped, is reported elsewhere)",
)


def _items(at: str) -> Declaration:
    """The item kinds the IR has parts for, at ``input`` or ``output``."""
    message = f"{at}[message].content"
    return {
        f"{at}[message].role": ("ir", "Message.role"),
        f"{at}[message].id": _ECHO,
        f"{at}[message].status": _ECHO,
        f"{at}[message].phase": _ECHO,
        f"{message}[output_text].text": ("ir", "Text.text"),
        f"{message}[output_text].annotations[*].*": ("ir", "Text.citations (url and file citations)"),
        f"{message}[output_text].logprobs[].*": _ECHO,
        f"{message}[refusal].refusal": ("ir", "Text.text, the refusal flag in the echo"),
        f"{at}[function_call].call_id": ("ir", "ToolUse.id"),
        f"{at}[function_call].name": ("ir", "ToolUse.name"),
        f"{at}[function_call].arguments": ("ir", "ToolUse.input (parsed JSON)"),
        f"{at}[function_call].*": _ECHO,
        f"{at}[reasoning].summary[].*": ("ir", "Thinking.text (one part per summary entry)"),
        f"{at}[reasoning].content[].*": ("ir", "Thinking.text (one part per reasoning text, marked content)"),
        f"{at}[reasoning].id": _ECHO,
        f"{at}[reasoning].encrypted_content": _ECHO,
        f"{at}[reasoning].status": _ECHO,
        f"{at}[*].*": ("native", "Native(openai), verbatim"),
    }


def _input_blocks(message: str) -> Declaration:
    """The input-only content blocks (images and files), inside a message or a call's output."""
    return {
        f"{message}[input_text].text": ("ir", "Text.text"),
        f"{message}[input_image].image_url": ("ir", "Image.source (url or data URL)"),
        f"{message}[input_image].file_id": ("ir", "Image.source (file)"),
        f"{message}[input_file].file_data": ("ir", "Document.source (base64)"),
        f"{message}[input_file].file_id": ("ir", "Document.source (file)"),
        f"{message}[input_file].file_url": ("ir", "Document.source (url)"),
        f"{message}[input_file].filename": ("ir", "Document.name"),
        f"{message}[input_image].detail": ("meaning", "Image.detail"),
        f"{message}[input_file].detail": ("meaning", "Document.detail"),
        f"{message}[*].prompt_cache_breakpoint.*": _BREAKPOINT,
    }


_ECHOED = (
    *("access_programs", "background", "completed_at", "conversation", "created_at", "error", "image"),
    *("input_transformations", "instructions", "max_output_tokens", "max_tool_calls", "metadata"),
    *("moderation", "object", "parallel_tool_calls", "previous_response_id", "prompt"),
    *("prompt_cache_diagnostics", "prompt_cache_key", "prompt_cache_options", "prompt_cache_retention"),
    *("reasoning", "safety_identifier", "service_tier", "temperature", "text", "tool_choice"),
    *("tool_usage", "tools", "top_logprobs", "top_p", "truncation", "user"),
)
"""Response-level fields (mostly the request's settings echoed back) kept for re-encoding."""

REQUEST: Declaration = {
    "model": ("ir", "Request.model"),
    "instructions": ("ir", "Message(role=system), marked in its echo"),
    "input": ("ir", "Message(role=user) (a bare string; the form rides in the echo)"),
    **_items("input"),
    **_input_blocks("input[message].content"),
    "input[message].content": ("ir", "Message.parts (a string is one Text)"),
    "input[].type": ("ir", "an easy input message"),
    "input[].id": _ECHO,
    "input[function_call_output].call_id": ("ir", "ToolResult.tool_use_id"),
    "input[function_call_output].output": ("ir", "ToolResult.content"),
    **_input_blocks("input[function_call_output].output"),
    "input[function_call_output].name": ("ir", "ToolResult.name"),
    "input[function_call_output].*": _ECHO,
    "tools[function].name": ("ir", "Tool.name"),
    "tools[function].description": ("ir", "Tool.description"),
    "tools[function].parameters": ("ir", "Tool.input_schema"),
    "tools[function].strict": ("ir", "Tool.strict"),
    "tools[function].*": ("native", "a function tool with fields the IR lacks: NativeTool(openai)"),
    "tools[*].*": ("native", "NativeTool(openai)"),
    "tools[].*": ("native", "NativeTool(openai)"),
    "tool_choice": ("ir", "Request.tool_choice (auto, none, required)"),
    "tool_choice(function).name": ("ir", "Request.tool_choice = Tool(name)"),
    "tool_choice(*).*": _OPTION,
    "tool_choice.type": _OPTION,
    "parallel_tool_calls": ("ir", "Request.parallel_tool_calls"),
    "max_output_tokens": ("ir", "Request.max_tokens"),
    "temperature": ("ir", "Request.temperature"),
    "top_p": ("ir", "Request.top_p"),
    "reasoning.effort": ("ir", "Request.thinking.level"),
    "reasoning.summary": ("ir", "Request.thinking.summary (auto); other values stay in options"),
    "reasoning.*": _OPTION,
    "text.format(*).*": ("ir", "Request.response_format"),
    "text.verbosity": _OPTION,
    "access_programs.*": _OPTION,
    "background": _OPTION,
    "background_options.*": _OPTION,
    "context_management[].*": _OPTION,
    "conversation.*": _OPTION,
    "image.*": _OPTION,
    "include": _OPTION,
    "max_tool_calls": _OPTION,
    "metadata": _OPTION,
    "moderation.*": _OPTION,
    "previous_response_id": _OPTION,
    "prompt.*": _OPTION,
    "prompt_cache_key": _OPTION,
    "prompt_cache_options.*": _OPTION,
    "prompt_cache_retention": _OPTION,
    "safety_identifier": _OPTION,
    "service_tier": _OPTION,
    "store": _OPTION,
    "top_logprobs": _OPTION,
    "truncation": _OPTION,
    "user": _OPTION,
    "stream": ("transport", "the client's stream flag"),
    "stream_options.*": ("transport", "stream framing, kept verbatim"),
}

RESPONSE: Declaration = {
    "id": ("ir", "Response.id"),
    "model": ("ir", "Response.model"),
    "status": ("ir", "Response.stop_reason, raw_stop_reason"),
    "incomplete_details.*": ("ir", "Response.stop_reason (max_output_tokens, content_filter)"),
    **_items("output"),
    "usage.input_tokens": ("ir", "Usage.input_tokens"),
    "usage.output_tokens": ("ir", "Usage.output_tokens"),
    "usage.total_tokens": ("ir", "the sum, recomputed"),
    "usage.input_tokens_details.cached_tokens": ("ir", "Usage.cache_read_tokens"),
    "usage.input_tokens_details.cache_write_tokens": ("ir", "Usage.cache_write_tokens"),
    "usage.output_tokens_details.reasoning_tokens": ("ir", "Usage.reasoning_tokens"),
    "usage.input_tokens_details.*": ("ir", "Usage.extra"),
    **{f"{key}.*": _RESPONSE_ECHO for key in _ECHOED},
}
