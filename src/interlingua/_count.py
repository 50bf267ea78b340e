"""Token counts before sending: the vendor's own count endpoint where its wire has one
(``Codec.count_request``), otherwise an estimate from the IR, marked as one.

The estimate is deliberately plain: about four characters of text per token (the figure the
vendors' own token-counting guides give for English text; the codecs' count endpoints cite
them), counted over what the model reads (text, reasoning, tool
calls and results, tool definitions, the response format), a few tokens per message for its
framing, and a flat figure per media part. It is for budgeting and for agents that refuse to
start without a count, never for billing.
"""

from __future__ import annotations

import json
import math
from typing import Any, NamedTuple

from ._message import Message
from ._parts import Document, Text, TextSource, Thinking, ToolResult, ToolUse
from ._request import Request

CHARS_PER_TOKEN = 4
MESSAGE_OVERHEAD = 4
"""Tokens per message for its role and framing (a rough figure, as the estimate is)."""
MEDIA_TOKENS = 256
"""Tokens per image, audio, video or binary document: a rough middle; the real cost depends on
the vendor, the size and the duration, which only the vendor's own count knows."""


class TokenCount(NamedTuple):
    """A request's input tokens. ``estimated``: counted here from the IR, not by the vendor."""

    input_tokens: int
    estimated: bool = False


def estimate_tokens(request: Request) -> TokenCount:
    """The request's input tokens estimated from the IR (see the module's docstring)."""
    chars = 0
    tokens = 0
    for message in request.messages:
        tokens += MESSAGE_OVERHEAD
        part_chars, media = _message_chars(message)
        chars += part_chars
        tokens += media * MEDIA_TOKENS
    for tool in request.tools:
        chars += len(_dumps(tool.model_dump(mode="json", exclude_none=True)))
    if request.response_format is not None and request.response_format.json_schema is not None:
        chars += len(_dumps(request.response_format.json_schema))
    return TokenCount(tokens + math.ceil(chars / CHARS_PER_TOKEN), estimated=True)


def _message_chars(message: Message) -> tuple[int, int]:
    """(characters of text, media parts) in one message."""
    chars = media = 0
    for part in message.parts:
        if isinstance(part, Text | Thinking):
            chars += len(part.text)
        elif isinstance(part, ToolUse):
            chars += len(part.name) + len(part.raw_input if part.raw_input is not None else _dumps(part.input))
        elif isinstance(part, ToolResult):
            inner_chars, inner_media = _result_chars(part.content)
            chars, media = chars + len(part.name) + inner_chars, media + inner_media
        elif isinstance(part, Document) and isinstance(part.source, TextSource):
            chars += len(part.source.text)
        elif part.type in ("image", "audio", "video", "document"):
            media += 1
    return chars, media


def _result_chars(content: Any) -> tuple[int, int]:
    if isinstance(content, str):
        return len(content), 0
    if isinstance(content, dict):
        return len(_dumps(content)), 0
    found = Message(role="user", parts=content)
    return _message_chars(found)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
