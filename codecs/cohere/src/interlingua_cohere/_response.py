"""Chat responses, both directions (cohere's ``V2ChatResponse``).

``finish_reason`` maps to the IR's stop reasons (``raw_stop_reason`` keeps it);
``usage.tokens`` are the IR's counts and ``usage.cached_tokens`` its cache reads (prompt tokens
served from the cache, a part of ``input_tokens``); ``usage.billed_units`` and every other field
(``logprobs``, ...) ride in the response's ``cohere`` echo and are written back as they came.
An answer from a wire without an id gets one (``id`` is required), made from its message.
"""

from __future__ import annotations

from typing import Any

from interlingua import DecodeError, Response, WarningSink
from interlingua.kit import expect, optional

from ._messages import decode_message, encode_message
from ._parts import PROVIDER, Decoding, echo, within
from ._stop_reason import STOP_REASONS, write_finish
from ._usage import decode_usage, encode_usage, report_usage


def decode_response(body: dict[str, Any]) -> Response:
    wire_message = expect(body.get("message"), dict, "message")
    if wire_message.get("role") not in (None, "assistant"):  # an answer is the model's: another role is refused
        raise DecodeError("", "message.role", f"unknown role {optional(wire_message, 'role', str, 'message')!r}")
    try:
        message, rest = decode_message(wire_message, Decoding())
    except DecodeError as err:
        raise within("message", err) from None
    raw = optional(body, "finish_reason", str, "")
    usage, kept = decode_usage(body.get("usage"))
    extra = {k: v for k, v in body.items() if k not in ("id", "message", "finish_reason", "usage")}
    data = {**extra, **kept}
    if rest:
        data["_message"] = rest
    return Response(
        id=optional(body, "id", str, ""),
        message=message,
        stop_reason=STOP_REASONS.get(raw, "other") if raw is not None else None,
        raw_stop_reason=raw,
        usage=usage,
        provider_echoes=echo(data),
    )


def _made_id(message: dict[str, Any]) -> str:
    import hashlib

    from interlingua.kit import dumps

    return "interlingua-" + hashlib.sha256(dumps(message).encode("utf-8", "surrogatepass")).hexdigest()[:24]


def encode_response(response: Response, out: WarningSink) -> dict[str, Any]:
    found = response.echo(PROVIDER)
    data = dict(found.data) if found is not None else {}
    rest = data.pop("_message", {})
    body: dict[str, Any] = {}
    message = encode_message(response.message, "message", out, dict(rest), answer=True)
    # id is required (V2ChatResponse); an answer from a wire without one gets one made from it
    body["id"] = response.id if response.id is not None else _made_id(message)
    body["message"] = message
    raw = response.raw_stop_reason
    if raw is not None and STOP_REASONS.get(raw, "other") == response.stop_reason:
        body["finish_reason"] = raw
    elif response.stop_reason is not None:
        body["finish_reason"] = write_finish(response.stop_reason, out, "stop_reason")
    if not data.pop("_noUsage", False):
        body["usage"] = encode_usage(response.usage, data)
    report_usage(response.usage, out, "usage")
    for key in ("_usage", "_usageRest", "_usageShape"):
        data.pop(key, None)
    body.update(data)
    return body
