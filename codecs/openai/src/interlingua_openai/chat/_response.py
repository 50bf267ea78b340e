"""Responses, both directions: ``chat.completion`` <-> Response.

The first choice is the message. Response-level fields with no IR home (``created``,
``system_fingerprint``, ``service_tier``, choice ``logprobs``, extra choices) ride in the
response's echo; url_citation annotations become Text citations. A cost the server reports in
``usage`` (OpenRouter's ``usage.cost``) is the Response's ``cost`` (see ``_usage.py``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from gc import is_tracked
from typing import Any

from interlingua import Citation, CitationSource, ContentPart, DecodeError, LossyDecode, Message, Response, Text, Usage
from interlingua.kit import check_depth, expect, join, maker, optional, require

from ._echo import OMIT, Ctx, build, echo_list, merge_into, own, part_of, present
from ._messages import decode_assistant_parts, encode_assistant
from ._parts import Block
from ._stop_reason import decode_finish_reason, encode_finish_reason, report_finish_reason
from ._usage import COUNTERS, decode_usage, encode_usage, recorded_counters

_TOP = frozenset({"id", "object", "model", "choices", "usage"})
_CHOICE = frozenset({"index", "message", "finish_reason"})
_CHOICE_LOGPROBS = _CHOICE | {"logprobs"}
_MESSAGE = frozenset({"role", "content", "refusal", "audio", "tool_calls", "annotations"})

# The shapes built on every answer, each a constructor made once (``maker``).
_answer_of = maker(Message, "role", "parts", "provider_echoes")
_response_of = maker(Response, "provider_echoes", "id", "model", "message", "stop_reason", "raw_stop_reason", "usage")


def message_known(ctx: Ctx) -> frozenset[str]:
    keys = _MESSAGE | {"reasoning_details"}  # read on every host that sends them (``_messages``)
    if ctx.dialect.reasoning_field:
        keys = keys | {ctx.dialect.reasoning_field, *ctx.dialect.reasoning_also}
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
    role = item.get("role")
    if role is not None and role != "assistant":  # an answer is the model's: another role is refused
        raise DecodeError("", join(at, "role"), f"unknown role {expect(role, str, join(at, 'role'))!r}")
    known = message_known(ctx)
    data = {} if item.keys() <= known else present(item, known)  # most answers: only mapped keys
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
    return _answer_of("assistant", parts, echo_list(ctx.provider, data) if data else [])


def _annotate(parts: list[ContentPart], annotations: list[Any], data: dict[str, Any]) -> None:
    for i, part in enumerate(parts):
        if isinstance(part, Text) and not part.provider_echoes:
            citations = _citations(annotations, part.text)
            if citations is not None:
                parts[i] = part.model_copy(update={"citations": citations})
                return
    data["annotations"] = annotations


def decode_response(body: Mapping[str, Any], ctx: Ctx) -> Response:
    """The first choice's message, finish reason and usage; the rest rides in the echo.

    The readers walk a fixed skeleton a few levels deep, so the depth limit can only be passed
    inside a value kept without reading (an unknown key, content blocks, logprobs, ...): the
    body's depth is checked (``check_depth``, as ``decoding`` does for requests) only when the
    answer holds one that nests, and most answers hold none."""
    data = present(body, _TOP)
    kind = body.get("object")
    if kind is not None and kind != "chat.completion":
        data["object"] = kind
    choices = body.get("choices")
    if type(choices) is not list:
        choices = require(body, "choices", list, "")
    model_id, model = body.get("id"), body.get("model")
    if (model_id is not None and type(model_id) is not str) or (model is not None and type(model) is not str):
        model_id, model = optional(body, "id", str, ""), optional(body, "model", str, "")  # they name the fault
    fields: dict[str, Any] = {}
    nests = False
    if choices:
        choice = choices[0]
        if type(choice) is not dict:
            choice = expect(choice, dict, "choices[0]")
        plain = choice.keys() <= _CHOICE_LOGPROBS and choice.get("logprobs") is None  # OpenAI's own: null
        if not plain and (more := present(choice, _CHOICE)):
            data["_choice"] = more
        raw = choice.get("finish_reason")
        if raw is not None:
            fields["stop_reason"] = decode_finish_reason(
                raw if type(raw) is str else optional(choice, "finish_reason", str, "choices[0]")
            )
            fields["raw_stop_reason"] = raw
        item = choice.get("message")
        if type(item) is not dict:
            item = require(choice, "message", dict, "choices[0]")
        fields["message"] = decode_answer(item, "choices[0].message", ctx)
        nests = _nests(item)
    if len(choices) != 1:
        data["_choices"] = choices[1:]
    usage = body.get("usage")
    if usage is None:
        data[OMIT] = ["usage"]
    else:
        fields["usage"], cost, leftovers = decode_usage(expect(usage, dict, "usage"), "usage")
        if cost is not None:
            fields["cost"] = cost
        if leftovers:
            data["_usage"] = leftovers
        if fields["usage"].extra and (recorded := recorded_counters(fields["usage"])):
            data[COUNTERS] = recorded
    if len(choices) > 1:
        why = f"{len(choices) - 1} more choice(s) kept only in provider_echoes"
        fields["warnings"] = [LossyDecode(codec="openai-chat", path="choices[1]", message=why)]
    if nests or is_tracked(data):
        check_depth(body if type(body) is dict else dict(body))
    echoes = echo_list(ctx.provider, data) if data else []
    if len(fields) == 4 and "usage" in fields and "stop_reason" in fields and None not in (model_id, model):
        return _response_of(echoes, model_id, model, fields["message"], fields["stop_reason"], raw, fields["usage"])
    if model_id is not None:
        fields["id"] = model_id
    if model is not None:
        fields["model"] = model
    return build(Response, provider_echoes=echoes, **fields)


def _nests(item: Block) -> bool:
    """Whether the message holds a non-empty container decode keeps without reading it whole
    (content blocks, annotations, audio, reasoning details, a call's unknown keys). A value
    ``gc.is_tracked`` calls untracked holds no container (strings, numbers, objects of those)."""
    for key, value in item.items():
        if not value or not is_tracked(value):
            continue
        if key != "tool_calls" or type(value) is not list:
            return True
        for call in value:  # a call's function object is read whole: untracked unless it nests
            if type(call) is not dict:
                return True
            for field in call.values():
                if field and is_tracked(field):
                    return True
    return False


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
