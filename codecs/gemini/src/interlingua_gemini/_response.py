"""Responses, both directions: the first candidate's content, finishReason, usage, grounding.

Response-level fields with no IR home ride in the response's ``gemini`` echo: ``candidate``
(the candidate's other fields: index, safetyRatings, groundingMetadata, logprobs, finishMessage,
and its content object without parts when it is not the usual ``{"role": "model"}``),
``usageMetadata`` (its non-counter fields), and every other top-level field (promptFeedback,
createTime, ...). groundingMetadata also becomes Text.citations where a support's segment maps
into a text part (segment offsets are UTF-8 bytes; citations count characters).
"""

from __future__ import annotations

from typing import Any

from interlingua import (
    AnyWarning,
    Citation,
    CitationSource,
    ContentPart,
    DecodeError,
    Encoded,
    LossyDecode,
    Message,
    Response,
    Text,
    ToolUse,
    Usage,
    WarningSink,
)
from interlingua.kit import construct, each, expect, optional

from . import _stop_reason, _usage
from ._parts import NAME, PROVIDER, Decoding, Encoding, decode_parts, encode_part
from ._sdk import wire_object

_OWN = frozenset({"candidates", "responseId", "modelVersion", "usageMetadata"})
_DEFAULT_CONTENT = {"role": "model"}


def call_prefix(response_id: str | None) -> str:
    """Ids made up for calls without one: stable, and unique per response when it has an id."""
    return f"call_{response_id}_" if response_id else "call_"


def decode_response(body: Any) -> Response:
    """GenerateContentResponse -> IR; extra candidates are dropped with a LossyDecode warning."""
    obj = wire_object(body)
    model = optional(obj, "modelVersion", str, "")
    response_id = optional(obj, "responseId", str, "")
    echo: dict[str, Any] = {key: value for key, value in obj.items() if key not in _OWN}
    if "usageMetadata" in obj:
        usage, echo["usageMetadata"] = _usage.decode(
            expect(obj["usageMetadata"], dict, "usageMetadata"), "usageMetadata"
        )
    else:
        usage = construct(Usage)
    candidates = list(each(obj, "candidates", ""))
    warnings: list[AnyWarning] = []
    parts: list[ContentPart] = []
    stop, raw = None, None
    if candidates:
        at, candidate = candidates[0]
        candidate = expect(candidate, dict, at)
        parts, raw, rest = decode_candidate(candidate, at, Decoding(model, call_prefix(response_id)))
        stop = _stop_reason.decode(raw, called=any(isinstance(p, ToolUse) for p in parts))
        if rest:
            echo["candidate"] = rest
        if len(candidates) > 1:
            message = f"{len(candidates) - 1} extra candidate(s) dropped; the IR keeps the first"
            warnings.append(LossyDecode(codec=NAME, path="candidates[1]", message=message))
    else:
        raw = blocked_reason(obj)
        stop = _stop_reason.BLOCKED if raw is not None else None
    return construct(
        Response,
        id=response_id,
        model=model,
        message=construct(Message, role="assistant", parts=parts),
        stop_reason=stop,
        raw_stop_reason=raw,
        usage=usage,
        provider_echoes=Decoding(model).echo(echo) if echo else [],
        warnings=warnings,
    )


def blocked_reason(obj: dict[str, Any]) -> str | None:
    feedback = obj.get("promptFeedback")
    reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
    return reason if isinstance(reason, str) else None


def decode_candidate(
    candidate: dict[str, Any], at: str, ctx: Decoding
) -> tuple[list[ContentPart], str | None, dict[str, Any]]:
    """(parts, finishReason, the candidate's other fields for the echo)."""
    content = optional(candidate, "content", dict, at)
    if content is not None and content.get("role") not in (None, "model"):  # a candidate is the model's
        role = optional(content, "role", str, f"{at}.content")
        raise DecodeError("", f"{at}.content.role", f"unknown role {role!r}")
    parts = decode_parts((content or {}).get("parts"), f"{at}.content.parts", ctx, model_role=True)
    raw = optional(candidate, "finishReason", str, at)
    rest = {key: value for key, value in candidate.items() if key not in ("content", "finishReason")}
    shell = None if content is None else {key: value for key, value in content.items() if key != "parts"}
    if shell != _DEFAULT_CONTENT:
        rest["content"] = shell
    grounding = rest.get("groundingMetadata")
    if isinstance(grounding, dict) and grounding.get("groundingSupports"):
        parts = cite(parts, grounding)
    return parts, raw, rest


def cite(parts: list[ContentPart], grounding: dict[str, Any]) -> list[ContentPart]:
    """Text.citations from groundingSupports: each support's segment, once per grounding chunk
    it names. Supports that do not fit (no such part, no web chunk) give no citation; the
    metadata stays whole in the echo either way."""
    chunks = grounding.get("groundingChunks")
    chunks = chunks if isinstance(chunks, list) else []
    found: dict[int, list[Citation]] = {}
    for support in grounding.get("groundingSupports") or []:
        segment = support.get("segment") if isinstance(support, dict) else None
        if not isinstance(segment, dict):
            continue
        index = segment.get("partIndex", 0)
        part = parts[index] if isinstance(index, int) and 0 <= index < len(parts) else None
        if not isinstance(part, Text):
            continue
        start, end = _chars(part.text, segment.get("startIndex", 0)), _chars(part.text, segment.get("endIndex"))
        for chunk_index in support.get("groundingChunkIndices") or []:
            chunk = chunks[chunk_index] if isinstance(chunk_index, int) and 0 <= chunk_index < len(chunks) else None
            web = (chunk.get("web") or chunk.get("retrievedContext")) if isinstance(chunk, dict) else None
            if not isinstance(web, dict):
                continue
            source = construct(CitationSource, type="url", url=_text(web.get("uri")), title=_text(web.get("title")))
            citation = construct(Citation, cited_text=_text(segment.get("text")), source=source, start=start, end=end)
            found.setdefault(index, []).append(citation)
    return [
        part.model_copy(update={"citations": found[i]}) if i in found and isinstance(part, Text) else part
        for i, part in enumerate(parts)
    ]


def _text(value: Any) -> str | None:
    """A string field of groundingMetadata, or None: the metadata is kept whole in the echo, so a
    value of another type is not an error, only no citation text."""
    return value if isinstance(value, str) else None


def _chars(text: str, offset: Any) -> int | None:
    """A UTF-8 byte offset into ``text`` as a character offset."""
    if not isinstance(offset, int):
        return None
    return len(text.encode()[:offset].decode("utf-8", "ignore"))


def encode_response(response: Response, *, strict: bool) -> Encoded:
    """IR -> GenerateContentResponse; exact for a response this codec decoded."""
    out = WarningSink(NAME)
    out.unsent_message_fields(response.message, "message")
    echo = response.echo(PROVIDER)
    data = dict(echo.data) if echo is not None else {}
    candidate_rest = data.pop("candidate", None)
    usage_rest = data.pop("usageMetadata", None)
    body: dict[str, Any] = {}
    blocked = not response.message.parts and blocked_reason(data) is not None
    if not blocked:
        rest = candidate_rest if isinstance(candidate_rest, dict) else {}
        body["candidates"] = [encode_candidate(response, rest, Encoding(out, response.model), out)]
    body.update(data)
    if response.id is not None:
        body["responseId"] = response.id
    if response.model is not None:
        body["modelVersion"] = response.model
    if response.usage.cache_write_tokens:
        out.unsupported("usage.cache_write_tokens", "usage", "Gemini reports no cache writes")
    if usage_rest is not None or response.usage != Usage():
        body["usageMetadata"] = _usage.encode(response.usage, usage_rest if isinstance(usage_rest, dict) else None, out)
    return out.finish(body, strict=strict)


def encode_candidate(response: Response, rest: dict[str, Any], ctx: Encoding, out: WarningSink) -> dict[str, Any]:
    rest = dict(rest)
    shell = rest.pop("content", _DEFAULT_CONTENT)
    parts = [
        block
        for i, part in enumerate(response.message.parts)
        if (block := _encode_output(part, f"message.parts[{i}]", ctx, "groundingMetadata" in rest))
    ]
    candidate: dict[str, Any] = {}
    if shell is not None or parts:
        content = dict(shell) if isinstance(shell, dict) else dict(_DEFAULT_CONTENT)
        if parts:
            content["parts"] = parts
        candidate["content"] = content
    finish = _stop_reason.encode(response.stop_reason, response.raw_stop_reason, out)
    if finish is not None:
        candidate["finishReason"] = finish
    candidate.update(rest)
    return candidate


def _encode_output(part: ContentPart, at: str, ctx: Encoding, grounded: bool) -> dict[str, Any] | None:
    """A response part; citations come back from groundingMetadata when it was kept."""
    if isinstance(part, Text) and part.citations and grounded:
        part = part.model_copy(update={"citations": []})
    return encode_part(part, at, ctx)
