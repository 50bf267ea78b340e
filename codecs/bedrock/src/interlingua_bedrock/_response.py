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

from interlingua import DecodeError, Message, Response, WarningSink
from interlingua.kit import expect, optional

from ._parts import PROVIDER, Decoding, decode_blocks, echo, encode_parts
from ._stop_reason import STOP_REASONS, write_stop
from ._usage import decode_usage, encode_usage


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
