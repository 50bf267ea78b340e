"""Responses, both directions: ``chat.completion`` <-> Response.

The first choice is the message. Response-level fields with no IR home (``created``,
``system_fingerprint``, ``service_tier``, choice ``logprobs``, extra choices) ride in the
response's echo; url_citation annotations become Text citations. A cost the server reports in
``usage`` (OpenRouter's ``usage.cost``) is the Response's ``cost`` (see ``_usage.py``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from interlingua import Citation, CitationSource, ContentPart, LossyDecode, Message, Response, Text, Usage
from interlingua.kit import expect, join, optional, require

from ._echo import OMIT, Ctx, build, echo_list, merge_into, own, part_of, present
from ._messages import decode_assistant_parts, encode_assistant
from ._parts import Block
from ._stop_reason import decode_finish_reason, encode_finish_reason, report_finish_reason
from ._usage import COUNTERS, decode_usage, encode_usage, recorded_counters

_TOP = frozenset({"id", "object", "model", "choices", "usage"})
_CHOICE = frozenset({"index", "message", "finish_reason"})
_MESSAGE = frozenset({"role", "content", "refusal", "audio", "tool_calls", "annotations"})


def message_known(ctx: Ctx) -> frozenset[str]:
    keys = _MESSAGE
    if ctx.dialect.reasoning_field:
        keys = keys | {ctx.dialect.reasoning_field}
    if ctx.dialect.reasoning_details:
        keys = keys | {"reasoning_details"}
    return keys


def _citations(annotations: list[Any], text: str) -> list[Citation] | None:
    """url_citation annotations -> Citations; None when any is of another kind (kept raw then)."""
    out = []
    for item in annotations:
        cite = item.get("url_citation") if isinstance(item, dict) and item.keys() == {"type", "url_citation"} else None
        if (
            not isinstance(cite, dict)
            or item["type"] != "url_citation"
            or cite.keys() != {"start_index", "end_index", "title", "url"}
        ):
            return None
        start, end = cite["start_index"], cite["end_index"]
        source = build(CitationSource, type="url", url=cite["url"], title=cite["title"])
        out.append(build(Citation, cited_text=text[start:end], source=source, start=start, end=end))
    return out


def decode_answer(item: Block, at: str, ctx: Ctx) -> Message:
    data = present(item, message_known(ctx))
    parts = decode_assistant_parts(item, at, ctx, data)
    annotations = item.get("annotations")
    if annotations is None:
        if ctx.dialect.annotations:
            data[OMIT] = [*data.get(OMIT, []), "annotations"]
    elif annotations == []:
        if not ctx.dialect.annotations:
            data["annotations"] = []
    else:
        _annotate(parts, expect(annotations, list, join(at, "annotations")), data)
    return build(Message, role="assistant", parts=parts, provider_echoes=echo_list(ctx.provider, data))


def _annotate(parts: list[ContentPart], annotations: list[Any], data: dict[str, Any]) -> None:
    for i, part in enumerate(parts):
        if isinstance(part, Text) and not part.provider_echoes:
            citations = _citations(annotations, part.text)
            if citations is not None:
                parts[i] = part.model_copy(update={"citations": citations})
                return
    data["annotations"] = annotations


def decode_response(body: Mapping[str, Any], ctx: Ctx) -> Response:
    data = present(body, _TOP)
    if body.get("object") not in (None, "chat.completion"):
        data["object"] = body["object"]
    choices = require(body, "choices", list, "")
    warnings = []
    fields: dict[str, Any] = {"id": optional(body, "id", str, ""), "model": optional(body, "model", str, "")}
    if choices:
        choice = expect(choices[0], dict, "choices[0]")
        if more := present(choice, _CHOICE):
            data["_choice"] = more
        raw = optional(choice, "finish_reason", str, "choices[0]")
        fields.update(stop_reason=decode_finish_reason(raw), raw_stop_reason=raw)
        fields["message"] = decode_answer(require(choice, "message", dict, "choices[0]"), "choices[0].message", ctx)
    if len(choices) != 1:
        data["_choices"] = choices[1:]
    if len(choices) > 1:
        why = f"{len(choices) - 1} more choice(s) kept only in provider_echoes"
        warnings.append(LossyDecode(codec="openai-chat", path="choices[1]", message=why))
    usage = body.get("usage")
    if usage is None:
        data[OMIT] = ["usage"]
    else:
        fields["usage"], fields["cost"], leftovers = decode_usage(expect(usage, dict, "usage"), "usage")
        if leftovers:
            data["_usage"] = leftovers
        if recorded := recorded_counters(fields["usage"]):
            data[COUNTERS] = recorded
    if warnings:
        fields["warnings"] = warnings
    return build(
        Response, provider_echoes=echo_list(ctx.provider, data), **{k: v for k, v in fields.items() if v is not None}
    )


def encode_response(response: Response, ctx: Ctx) -> Block:
    data = own(response.provider_echoes, ctx.provider)
    ctx.out.unsent_message_fields(response.message, "message")  # a choice's message has neither
    message = encode_assistant(response.message, "message", ctx, response=True)
    finish = encode_finish_reason(response.stop_reason, response.raw_stop_reason)
    finish = report_finish_reason(response.stop_reason, finish, ctx.out, "stop_reason")
    choice: Block = {"index": 0, "message": message, "finish_reason": finish, **part_of(data, "_choice")}
    body: Block = {
        "id": response.id or "",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": response.model or "",
        "choices": [choice],
        "usage": encode_usage(
            response.usage or Usage(), part_of(data, "_usage"), response.cost, ctx.out, data.get(COUNTERS)
        ),
    }
    more = data.get("_choices")
    if isinstance(more, list):
        body["choices"] = [choice, *more] if more else []
    return merge_into(body, data)
