"""Where each key of a Converse request and response goes, for the coverage walk.

The wire's types are botocore's ``bedrock-runtime`` service model (the oracle's, see _oracle.py):
``REQUEST`` covers the ``Converse`` input shape (``ConverseRequest``), ``RESPONSE`` its output
shape (``ConverseResponse``). A content block is an object with one key naming its kind, so a row
reads ``content[].toolUse.name``; rows read as ``interlingua.testing.Declaration``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interlingua.testing import Declaration, Where

_OPTION: tuple[Where, str] = ("provider_option", "verbatim")
_REPLAY: tuple[Where, str] = ("replay", "the part's echo")
_NATIVE: tuple[Where, str] = ("native", "Native(bedrock)")
_RESPONSE_ECHO: tuple[Where, str] = ("replay", "the response's echo (the vendor's record of the call)")


def _media(at: str, kind: str, part: str) -> Declaration:
    """An image, video, audio or document block (see _parts._media)."""
    error: Declaration = {f"{at}.error.*": ("replay", f"the part's echo (the {kind}'s error, Bedrock's record)")}
    return {
        **(error if kind in ("image", "audio") else {}),
        f"{at}.format": ("ir", f"{part} source media_type (a format spelled otherwise: the echo)"),
        f"{at}.source.bytes": ("ir", f"{part}.source (base64)"),
        f"{at}.source.s3Location.uri": ("ir", f"{part}.source (an s3:// url)"),
        f"{at}.source.s3Location.bucketOwner": ("replay", "the part's echo (an S3 access detail)"),
    }


def _document(at: str) -> Declaration:
    return {
        **_media(at, "document", "Document"),
        f"{at}.name": ("ir", "Document.name"),
        f"{at}.source.text": ("ir", "Document.source (text)"),
        f"{at}.source.content[].*": ("native", "a document of content blocks has no MediaSource: Native(bedrock)"),
        f"{at}.context": ("meaning", "Document.context"),
        f"{at}.citations.*": ("meaning", "Document.citations (citations.enabled)"),
    }


def _blocks(at: str) -> Declaration:
    """One content block's keys (see _parts.decode_block)."""
    result = f"{at}.toolResult"
    return {
        f"{at}.text": ("ir", "Text.text"),
        **_media(f"{at}.image", "image", "Image"),
        **_media(f"{at}.video", "video", "Video"),
        **_media(f"{at}.audio", "audio", "Audio"),
        **_document(f"{at}.document"),
        f"{at}.toolUse.toolUseId": ("ir", "ToolUse.id"),
        f"{at}.toolUse.name": ("ir", "ToolUse.name"),
        f"{at}.toolUse.input": ("ir", "ToolUse.input"),
        f"{at}.toolUse.type": ("native", "a system tool's call (server_tool_use): Native(bedrock)"),
        f"{result}.toolUseId": ("ir", "ToolResult.tool_use_id (in an assistant message: Native, the server's)"),
        f"{result}.status": ("ir", "ToolResult.is_error (success rides in the echo)"),
        f"{result}.type": _REPLAY,
        f"{result}.content[].text": ("ir", "ToolResult.content (a string, or a Text part)"),
        f"{result}.content[].json": ("ir", "ToolResult.content (an object; beside other blocks: Native)"),
        f"{result}.content[].image.*": ("ir", "ToolResult.content parts (Image)"),
        f"{result}.content[].video.*": ("ir", "ToolResult.content parts (Video)"),
        f"{result}.content[].document.*": ("ir", "ToolResult.content parts (Document)"),
        f"{result}.content[].searchResult.*": _NATIVE,
        f"{at}.reasoningContent.reasoningText.text": ("ir", "Thinking.text"),
        f"{at}.reasoningContent.reasoningText.signature": ("replay", "signature, replayed to Bedrock only"),
        f"{at}.reasoningContent.redactedContent": ("ir", "RedactedThinking (the data in its echo)"),
        f"{at}.cachePoint.*": ("ir", "<the part before>.cache_control (with nothing before it: Native)"),
        f"{at}.guardContent.*": _NATIVE,
        f"{at}.citationsContent.*": ("meaning", "Text.citations (the block in the text's echo; another shape: Native)"),
        f"{at}.searchResult.*": _NATIVE,
        f"{at}.toolAddition.*": _NATIVE,
        f"{at}.toolRemoval.*": _NATIVE,
    }


REQUEST: Declaration = {
    "modelId": ("ir", "Request.model (in the URL on the wire; a boto3 call's keyword)"),
    "messages[].role": ("ir", "Message.role"),
    **_blocks("messages[].content[]"),
    "system[].text": ("ir", "Message(role=system), leading: Text.text"),
    "system[].cachePoint.*": ("ir", "<the system part before>.cache_control"),
    "system[].guardContent.*": _NATIVE,
    "inferenceConfig.maxTokens": ("ir", "Request.max_tokens"),
    "inferenceConfig.temperature": ("ir", "Request.temperature"),
    "inferenceConfig.topP": ("ir", "Request.top_p"),
    "inferenceConfig.stopSequences": ("ir", "Request.stop"),
    "toolConfig.tools[].toolSpec.name": ("ir", "Tool.name"),
    "toolConfig.tools[].toolSpec.description": ("ir", "Tool.description"),
    "toolConfig.tools[].toolSpec.inputSchema.json": ("ir", "Tool.input_schema"),
    "toolConfig.tools[].toolSpec.strict": ("ir", "Tool.strict"),
    "toolConfig.tools[].cachePoint.*": ("ir", "<the tool before>.cache_control"),
    "toolConfig.tools[].systemTool.*": ("native", "NativeTool(bedrock)"),
    "toolConfig.toolChoice.auto": ("ir", "Request.tool_choice auto"),
    "toolConfig.toolChoice.any": ("ir", "Request.tool_choice required"),
    "toolConfig.toolChoice.tool.name": ("ir", "Request.tool_choice = Tool(name)"),
    # A model's own fields: Claude's thinking and top_k are read into Request.thinking and top_k
    # (https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html).
    "additionalModelRequestFields": ("provider_option", "verbatim, but for Claude's thinking and top_k (the IR's)"),
    "additionalModelResponseFieldPaths": _OPTION,
    "guardrailConfig.*": _OPTION,
    "projectIdentifier": _OPTION,
    "promptVariables": _OPTION,
    "requestMetadata": _OPTION,
    "performanceConfig.*": _OPTION,
    "serviceTier.*": _OPTION,
    "outputConfig.*": ("provider_option", "verbatim (its textFormat is not read as Request.response_format)"),
}

RESPONSE: Declaration = {
    "output.message.role": ("ir", "Message(role=assistant)"),
    **_blocks("output.message.content[]"),
    "stopReason": ("ir", "Response.stop_reason, raw_stop_reason"),
    "usage.inputTokens": ("ir", "Usage.input_tokens (with the cache reads and writes added)"),
    "usage.outputTokens": ("ir", "Usage.output_tokens"),
    "usage.cacheReadInputTokens": ("ir", "Usage.cache_read_tokens"),
    "usage.cacheWriteInputTokens": ("ir", "Usage.cache_write_tokens"),
    "usage.totalTokens": ("ir", "Usage.extra, when it is not input + output"),
    "usage.cacheDetails[].*": _RESPONSE_ECHO,
    "metrics.*": _RESPONSE_ECHO,
    "additionalModelResponseFields": _RESPONSE_ECHO,
    "trace.*": _RESPONSE_ECHO,
    "performanceConfig.*": _RESPONSE_ECHO,
    "serviceTier.*": _RESPONSE_ECHO,
}
