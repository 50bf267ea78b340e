"""Where each key of a generateContent request and response goes, for the coverage walk.

The wire is the REST camelCase JSON: ``REQUEST`` covers the request body's keys as google-genai
types them (``Content``, ``Tool``, ``ToolConfig``, ``SafetySetting``, ``GenerationConfig``),
``RESPONSE`` ``google.genai.types.GenerateContentResponse``; rows read as
``interlingua.testing.Declaration``. Gemini parts carry no ``type``: one data field each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interlingua.testing import Declaration, Where

_OPTION: tuple[Where, str] = ("provider_option", "verbatim")
_REPLAY: tuple[Where, str] = ("replay", "the part's echo")
_UNMAPPED: tuple[Where, str] = ("meaning", "no IR field: the part's echo, marked unmapped (reported by other wires)")
_RESPONSE_ECHO: tuple[Where, str] = ("replay", "the response's echo (the vendor's record of the call)")


def _parts(at: str) -> Declaration:
    """One part's keys (see _parts.DATA_KEYS and PART_EXTRAS)."""
    return {
        f"{at}.text": ("ir", "Text.text (Thinking.text with thought)"),
        f"{at}.thought": ("ir", "Thinking (the flag)"),
        f"{at}.thoughtSignature": ("replay", "thoughtSignature, replayed to Gemini only"),
        f"{at}.functionCall.*": ("ir", "ToolUse (id, name, args; the rest in the echo)"),
        f"{at}.functionResponse.*": ("ir", "ToolResult (id, name, response, parts)"),
        f"{at}.inlineData.*": ("ir", "Image/Audio/Video/Document source (base64) by mimeType"),
        f"{at}.fileData.*": ("ir", "Image/Audio/Video/Document source (file or url) by mimeType"),
        f"{at}.videoMetadata.*": _UNMAPPED,
        f"{at}.mediaResolution.*": _UNMAPPED,  # its levels and numTokens are not Image.detail's
        f"{at}.partMetadata": ("replay", "the part's echo (the caller's own metadata)"),
        f"{at}.mediaProcessing": _REPLAY,
        f"{at}.audioTranscription.*": _UNMAPPED,
        f"{at}.speechMetadata.*": _UNMAPPED,
        f"{at}.documentMetadata.*": _UNMAPPED,
        f"{at}.spreadsheetMetadata.*": _UNMAPPED,
        f"{at}.audioMetadata.*": _UNMAPPED,
        f"{at}.executableCode.*": ("native", "Native(gemini)"),
        f"{at}.codeExecutionResult.*": ("native", "Native(gemini)"),
        f"{at}.toolCall.*": ("native", "Native(gemini)"),
        f"{at}.toolResponse.*": ("native", "Native(gemini)"),
    }


REQUEST: Declaration = {
    "contents[].role": ("ir", "Message.role (user, model)"),
    **_parts("contents[].parts[]"),
    "systemInstruction.role": ("replay", "the message's echo (a system instruction has no usual role)"),
    **_parts("systemInstruction.parts[]"),
    "tools[].functionDeclarations[].name": ("ir", "Tool.name"),
    "tools[].functionDeclarations[].description": ("ir", "Tool.description"),
    "tools[].functionDeclarations[].parametersJsonSchema": ("ir", "Tool.input_schema"),
    "tools[].functionDeclarations[].parameters.*": ("ir", "Tool.input_schema (the spelling in the wire record)"),
    "tools[].functionDeclarations[].*": ("native", "a declaration with fields the IR lacks: NativeTool(gemini)"),
    "tools[].*": ("native", "a tool of another kind (googleSearch, codeExecution, ...): NativeTool(gemini)"),
    "toolConfig.functionCallingConfig.mode": ("ir", "Request.tool_choice"),
    "toolConfig.functionCallingConfig.allowedFunctionNames": ("ir", "Request.tool_choice = Tool(name)"),
    "toolConfig.*": _OPTION,
    "generationConfig.maxOutputTokens": ("ir", "Request.max_tokens"),
    "generationConfig.temperature": ("ir", "Request.temperature"),
    "generationConfig.topP": ("ir", "Request.top_p"),
    "generationConfig.topK": ("ir", "Request.top_k"),
    "generationConfig.stopSequences": ("ir", "Request.stop"),
    "generationConfig.seed": ("ir", "Request.seed"),
    "generationConfig.presencePenalty": ("ir", "Request.presence_penalty"),
    "generationConfig.frequencyPenalty": ("ir", "Request.frequency_penalty"),
    "generationConfig.responseMimeType": ("ir", "Request.response_format (json_object / json_schema)"),
    "generationConfig.responseJsonSchema": ("ir", "Request.response_format.json_schema"),
    "generationConfig.thinkingConfig.thinkingBudget": ("ir", "Request.thinking.budget_tokens"),
    "generationConfig.thinkingConfig.thinkingLevel": ("ir", "Request.thinking.level"),
    "generationConfig.thinkingConfig.includeThoughts": ("ir", "Request.thinking.summary"),
    "generationConfig.*": ("provider_option", "generationConfig fields without an IR home, verbatim"),
    "safetySettings[].*": _OPTION,
    "cachedContent": _OPTION,
    "labels": _OPTION,
}

RESPONSE: Declaration = {
    "responseId": ("ir", "Response.id"),
    "modelVersion": ("ir", "Response.model"),
    "candidates[].content.role": ("ir", "Message(role=assistant)"),
    **_parts("candidates[].content.parts[]"),
    "candidates[].finishReason": ("ir", "Response.stop_reason, raw_stop_reason"),
    "candidates[].*": ("replay", "the response's echo (first candidate; extra candidates: LossyDecode)"),
    "promptFeedback.blockReason": ("ir", "Response.stop_reason content_filter when no candidate"),
    "promptFeedback.*": _RESPONSE_ECHO,
    "usageMetadata.promptTokenCount": ("ir", "Usage.input_tokens"),
    "usageMetadata.candidatesTokenCount": ("ir", "Usage.output_tokens (with thoughts)"),
    "usageMetadata.thoughtsTokenCount": ("ir", "Usage.reasoning_tokens"),
    "usageMetadata.cachedContentTokenCount": ("ir", "Usage.cache_read_tokens"),
    "usageMetadata.toolUsePromptTokenCount": ("ir", "Usage.extra"),
    "usageMetadata.totalTokenCount": ("ir", "Usage.extra"),
    "usageMetadata.*": ("replay", "the response's echo (details by modality, traffic type)"),
    "createTime": _RESPONSE_ECHO,
    "modelStatus.*": _RESPONSE_ECHO,
    "automaticFunctionCallingHistory.*": ("transport", "the SDK's own record of its function-calling loop"),
    "parsed": ("transport", "the SDK's parse of the answer"),
    "sdkHttpResponse.*": ("transport", "the SDK's HTTP response"),
}
