"""Chat responses, both directions (cohere's ``V2ChatResponse``).

``finish_reason`` maps to the IR's stop reasons (``raw_stop_reason`` keeps it);
``usage.tokens`` are the IR's counts and ``usage.cached_tokens`` its cache reads (prompt tokens
served from the cache, a part of ``input_tokens``); ``usage.billed_units`` and every other field
(``logprobs``, ...) ride in the response's ``cohere`` echo and are written back as they came.
An answer from a wire without an id gets one (``id`` is required), made from its message.
"""

from __future__ import annotations

from typing import Any

from interlingua import DecodeError, Response, StopReason, Usage, WarningSink
from interlingua.kit import expect, optional

from ._messages import PROVIDER, Decoding, decode_message, echo, encode_message, within

STOP_REASONS: dict[str, StopReason] = {
    "COMPLETE": "end_turn",
    "STOP_SEQUENCE": "stop_sequence",
    "MAX_TOKENS": "max_tokens",
    "TOOL_CALL": "tool_use",
    "ERROR": "error",
    "TIMEOUT": "error",
}
_WRITE: dict[StopReason, str] = {
    "end_turn": "COMPLETE",
    "stop_sequence": "STOP_SEQUENCE",
    "max_tokens": "MAX_TOKENS",
    "tool_use": "TOOL_CALL",
    "error": "ERROR",
    "content_filter": "ERROR",
    "pause": "COMPLETE",
    "cancelled": "COMPLETE",
    "other": "COMPLETE",
}


def decode_usage(usage: Any) -> tuple[Usage, dict[str, Any]]:
    """The IR's counts, and what of the wire's usage it has no field for (``billed_units``, ...,
    and which of ``tokens`` / ``cached_tokens`` were there), for the echo."""
    if not isinstance(usage, dict):
        return Usage(), {"_noUsage": True} if usage is None else {"_usage": usage}
    tokens = usage.get("tokens")
    if tokens is not None and not (isinstance(tokens, dict) and set(tokens) <= {"input_tokens", "output_tokens"}):
        return Usage(), {"_usage": usage}
    tokens = tokens or {}
    cached = usage.get("cached_tokens")
    counted = Usage(
        input_tokens=tokens.get("input_tokens") or 0,
        output_tokens=tokens.get("output_tokens") or 0,
        cache_read_tokens=cached if isinstance(cached, int) else None,
    )
    rest = {k: v for k, v in usage.items() if k not in ("tokens", "cached_tokens")}
    shape = {"tokens": sorted(tokens) if "tokens" in usage else None, "cached": "cached_tokens" in usage}
    return counted, {"_usageRest": rest, "_usageShape": shape}


def write_finish(reason: StopReason, out: WarningSink, at: str) -> str:
    """Another wire's stop reason as a ``finish_reason``; ChatFinishReason has six values, so one
    with no counterpart (content_filter, pause, ...) is converted, and reported."""
    finish = _WRITE[reason]
    if STOP_REASONS[finish] != reason:
        out.lossy(
            at, "stop_reason", f"finish_reason has no form for {reason!r}; sent as {finish!r}", action="converted"
        )
    return finish


def report_usage(usage: Usage, out: WarningSink, at: str) -> None:
    """What of a usage this wire's has no field for (Usage: tokens, cached_tokens, billed_units):
    a reasoning count and another wire's own counters (this wire's decode gives none)."""
    if usage.reasoning_tokens is not None:
        why = f"Cohere's usage has no reasoning token count ({usage.reasoning_tokens} of the output tokens)"
        out.lossy(f"{at}.reasoning_tokens", "usage", why)
    for key in usage.extra:
        out.lossy(f"{at}.extra.{key}", "usage", f"Cohere's usage has no {key} counter")


def encode_usage(usage: Usage, kept: dict[str, Any]) -> Any:
    if "_usage" in kept:
        return kept["_usage"]
    shape = kept.get("_usageShape", {"tokens": ["input_tokens", "output_tokens"], "cached": True})
    wire: dict[str, Any] = dict(kept.get("_usageRest", {}))
    if shape["tokens"] is not None:
        counts = {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
        wire["tokens"] = {key: counts[key] for key in shape["tokens"]} if "_usageShape" in kept else counts
    if usage.cache_read_tokens is not None and shape["cached"]:
        wire["cached_tokens"] = usage.cache_read_tokens
    return wire


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
