"""Converse responses, both directions (botocore's ``ConverseResponse``).

``output.message`` is the answer; ``stopReason`` maps to the IR's stop reasons (the wire's
string kept in ``raw_stop_reason``); ``usage`` converts as the IR counts: ``inputTokens`` on
this wire excludes the prompt-cache reads and writes (``totalTokens`` = input + cache read +
cache write + output, as recorded answers show), so the IR's ``input_tokens`` adds them.
Integer usage fields botocore does not name (``cacheReadInputTokenCount``, ...) ride in
``usage.extra``; everything else beside the message (``metrics``, ``trace``,
``additionalModelResponseFields``, ``performanceConfig``, ...) rides in the response's
``bedrock`` echo and is written back as it came. An answer from another wire gets the two
fields the shape requires and it cannot give: ``stopReason`` ``end_turn`` when it named no stop
reason, and ``metrics: {"latencyMs": 0}`` (not measured by this codec).
"""

from __future__ import annotations

from typing import Any

from interlingua import DecodeError, Message, Response, StopReason, Usage, WarningSink
from interlingua.kit import expect, optional

from ._parts import PROVIDER, Decoding, decode_blocks, echo, encode_parts

STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
    "model_context_window_exceeded": "max_tokens",
}
"""botocore's ``StopReason`` enum -> the IR's."""

_WRITE: dict[StopReason, str] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "content_filter": "content_filtered",
    "pause": "end_turn",
    "cancelled": "end_turn",
    "error": "malformed_model_output",
    "other": "end_turn",
}

_USAGE = ("inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokens", "cacheWriteInputTokens")


def decode_response(body: dict[str, Any]) -> Response:
    output = expect(body.get("output"), dict, "output")
    message = expect(output.get("message"), dict, "output.message")
    if message.get("role") not in (None, "assistant"):  # an answer is the model's: another role is refused
        role = optional(message, "role", str, "output.message")
        raise DecodeError("", "output.message.role", f"unknown role {role!r}")
    parts = decode_blocks(message.get("content", []), "output.message.content", Decoding(), role="assistant")
    raw_stop = optional(body, "stopReason", str, "")
    rest = {key: value for key, value in body.items() if key not in ("output", "stopReason", "usage")}
    if set(output) != {"message"} or set(message) - {"role", "content"} or message.get("role") != "assistant":
        rest["_output"] = {k: v for k, v in output.items() if k != "message"}
        rest["_message"] = {k: v for k, v in message.items() if k != "content"}
    usage, kept = decode_usage(optional(body, "usage", dict, ""))
    if kept:
        rest["_usage"] = kept
    return Response(
        message=Message(role="assistant", parts=parts),
        stop_reason=STOP_REASONS.get(raw_stop, "other") if raw_stop is not None else None,
        raw_stop_reason=raw_stop,
        usage=usage,
        provider_echoes=echo(rest) if rest else [],
    )


def decode_usage(usage: dict[str, Any] | None) -> tuple[Usage, dict[str, Any]]:
    """The IR's Usage, and what of the wire's usage object it has no field for (non-integers)."""
    if usage is None:
        return Usage(), {"absent": True}
    ints = {k: v for k, v in usage.items() if isinstance(v, int) and not isinstance(v, bool)}
    kept = {k: v for k, v in usage.items() if k not in ints}
    read, write = ints.get("cacheReadInputTokens"), ints.get("cacheWriteInputTokens")
    prompt = ints.get("inputTokens", 0) + (read or 0) + (write or 0)
    output = ints.get("outputTokens", 0)
    extra = {k: v for k, v in ints.items() if k not in _USAGE}
    if ints.get("totalTokens") != prompt + output:
        extra["totalTokens"] = ints.get("totalTokens", -1)
    for key in ("inputTokens", "outputTokens"):
        if key not in ints:
            extra[f"{key}Absent"] = 1
    return Usage(
        input_tokens=prompt, output_tokens=output, cache_read_tokens=read, cache_write_tokens=write, extra=extra
    ), kept


def write_stop(reason: StopReason, out: WarningSink, at: str) -> str:
    """Another wire's stop reason as botocore's ``StopReason``; one with no counterpart (pause,
    cancelled, other) is converted, and reported."""
    stop = _WRITE[reason]
    if STOP_REASONS[stop] != reason:
        out.lossy(at, "stop_reason", f"stopReason has no form for {reason!r}; sent as {stop!r}", action="converted")
    return stop


def encode_usage(
    usage: Usage, kept: dict[str, Any], *, own: bool, out: WarningSink, at: str = "usage"
) -> dict[str, Any] | None:
    """``own``: the usage came from this wire (its counters in ``extra`` are Bedrock's); another
    vendor's counters have no field here and are reported, each at ``<at>.extra.<key>``."""
    if kept.get("absent"):
        return None
    extra = dict(usage.extra)
    if not own:
        for key in extra:
            out.lossy(f"{at}.extra.{key}", "usage", f"Converse usage has no {key} counter")
        extra = {}
    if usage.reasoning_tokens is not None:  # TokenUsage counts no reasoning tokens apart
        why = f"Converse usage has no reasoning token count ({usage.reasoning_tokens} of the output tokens)"
        out.lossy(f"{at}.reasoning_tokens", "usage", why)
    read, write = usage.cache_read_tokens, usage.cache_write_tokens
    wire: dict[str, Any] = {}
    if not extra.pop("inputTokensAbsent", 0):
        wire["inputTokens"] = usage.input_tokens - (read or 0) - (write or 0)
    if not extra.pop("outputTokensAbsent", 0):
        wire["outputTokens"] = usage.output_tokens
    total = extra.pop("totalTokens", None)
    if total != -1:
        wire["totalTokens"] = total if total is not None else usage.input_tokens + usage.output_tokens
    if read is not None:
        wire["cacheReadInputTokens"] = read
    if write is not None:
        wire["cacheWriteInputTokens"] = write
    wire.update(extra)
    wire.update({k: v for k, v in kept.items() if k != "absent"})
    return wire


def encode_response(response: Response, out: WarningSink) -> dict[str, Any]:
    found = response.echo(PROVIDER)
    rest = dict(found.data) if found is not None else {}
    output_extra, message_extra = rest.pop("_output", {}), rest.pop("_message", {"role": "assistant"})
    kept_usage = rest.pop("_usage", {})
    content = encode_parts(response.message.parts, "message.parts", out, answer=True)
    body: dict[str, Any] = {"output": {"message": {**message_extra, "content": content}, **output_extra}}
    if (
        response.raw_stop_reason is not None
        and STOP_REASONS.get(response.raw_stop_reason, "other") == response.stop_reason
    ):
        body["stopReason"] = response.raw_stop_reason
    elif response.stop_reason is not None:
        body["stopReason"] = write_stop(response.stop_reason, out, "stop_reason")
    elif found is None:  # stopReason is required: an answer that names none ended its turn
        body["stopReason"] = "end_turn"
    usage = encode_usage(response.usage, kept_usage, own=found is not None, out=out)
    if usage is not None:
        body["usage"] = usage
    if found is None:
        # metrics (latencyMs) is required and no other wire reports it: 0 says "not measured here"
        body["metrics"] = {"latencyMs": 0}
    body.update(rest)
    return body
