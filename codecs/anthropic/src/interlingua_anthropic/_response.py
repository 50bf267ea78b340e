"""Responses, both directions: a Message body <-> Response.

Response-level fields with no IR home (``stop_sequence``, ``container``, ``context_management``,
the usage's ``service_tier``) ride in the response's ``anthropic`` echo, so re-encoding is exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import Encoded, Response, WarningSink
from interlingua.kit import each, maker, optional, require

from ._parts import PROVIDER, Block, Context, Encoder, decode_block, make_echo, make_message
from ._stop_reason import decode_stop_reason, encode_stop_reason
from ._usage import RECORDED, decode_usage, encode_usage, recorded_counters

_MAPPED = frozenset({"id", "type", "role", "model", "content", "stop_reason", "usage"})


def decode_response(body: Mapping[str, Any]) -> Response:
    model = optional(body, "model", str, "")
    for key, only in (("role", "assistant"), ("type", "message")):  # an answer is the model's message
        if body.get(key) not in (None, only):
            from interlingua import DecodeError

            raise DecodeError("", key, f"unknown {key} {optional(body, key, str, '')!r}")
    ctx = Context(model)
    parts = [decode_block(block, at, ctx) for at, block in each(body, "content", "")]
    require(body, "content", list, "")
    raw_stop = optional(body, "stop_reason", str, "")
    echo = response_echo(body)
    usage, usage_rest = decode_usage(optional(body, "usage", dict, "", {}), "usage")
    if usage_rest:
        echo["usage"] = usage_rest
    if recorded := recorded_counters(usage):
        echo[RECORDED] = recorded
    answer_id = body.get("id")
    if answer_id is not None and type(answer_id) is not str:
        answer_id = optional(body, "id", str, "")  # it names the fault
    message = make_message("assistant", parts, None, None, [])
    echoes = [make_echo(PROVIDER, echo, None)] if echo else []
    return _response_of(answer_id, model, message, decode_stop_reason(raw_stop), raw_stop, usage, echoes, [])


# The answer's shape, made once (a maker costs about two thirds of ``construct``): the same
# fields, in the same order, as the keyword call it replaces.
_response_of = maker(
    Response, "id", "model", "message", "stop_reason", "raw_stop_reason", "usage", "provider_echoes", "warnings"
)


def response_echo(body: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a message (or a stream's message_start/message_delta) the IR has no home
    for, null ones aside."""
    return {k: v for k, v in body.items() if k not in _MAPPED and v is not None}


def encode_response(response: Response, codec: str, *, strict: bool) -> Encoded:
    out = WarningSink(codec)
    out.unsent_message_fields(response.message, "message")
    encoder = Encoder(out, response=True)
    content: list[Block] = []
    for i, part in enumerate(response.message.parts):
        block = encoder.part(part, f"message.parts[{i}]")
        if block is not None:
            content.append(block)
    echo = response.echo(PROVIDER)
    extra = dict(echo.data) if echo else {}
    stop = encode_stop_reason(response.stop_reason, response.raw_stop_reason)
    if stop is None and response.stop_reason is not None:
        out.unsupported("stop_reason", "stop_reason", f"no Anthropic stop reason means {response.stop_reason}")
        stop = "end_turn"
    body: dict[str, Any] = {
        "id": response.id or "",
        "type": "message",
        "role": "assistant",
        "model": response.model or "",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": extra.pop("stop_sequence", None),
        "usage": encode_usage(response.usage, extra.pop("usage", None), extra.pop(RECORDED, None), out),
    }
    body.update(extra)
    return out.finish(body, strict=strict)
