"""encode_response / decode_response: output items <-> one assistant message, status <->
StopReason, usage; response-level fields with no IR home ride in the response's echo."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from interlingua import ContentPart, DecodeError, Encoded, Message, Response, ToolUse, Usage, WarningSink
from interlingua.kit import each, join, optional

from . import _echo
from ._items import ItemWriter, decode_output_item
from ._stop_reason import STATUSES, decode_stop_reason, encode_stop_reason
from ._usage import decode_usage, encode_usage, encode_usage_like

NAME = "openai-responses"

_MAPPED = frozenset({"id", "model", "output", "status", "incomplete_details", "usage"})
# Keys the Response object requires; a response made elsewhere gets these values.
_DEFAULTS: dict[str, Any] = {"object": "response", "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}


def decode_response(body: Mapping[str, Any]) -> Response:
    """A Response object (``POST /responses`` answer, or the one a stream completes with) -> IR."""
    model = optional(body, "model", str, "")
    parts: list[ContentPart] = []
    for where, item in each(body, "output", ""):
        parts.extend(decode_output_item(item, where, model))
    usage = decode_usage(body["usage"]) if body.get("usage") is not None else _echo.build(Usage)
    stop, raw = decode_status(body, called=any(isinstance(p, ToolUse) for p in parts))
    echo = response_echo(body, usage)
    return _echo.build(
        Response,
        id=optional(body, "id", str, ""),
        model=model,
        message=_echo.build(Message, role="assistant", parts=parts),
        stop_reason=stop,
        raw_stop_reason=raw,
        usage=usage,
        provider_echoes=_echo.make(echo),
    )


def decode_status(body: Mapping[str, Any], *, called: bool, at: str = "") -> tuple[Any, str | None]:
    details = optional(body, "incomplete_details", dict, at)
    reason = optional(details, "reason", str, join(at, "incomplete_details")) if details else None
    status = optional(body, "status", str, at)
    if status is not None and status not in STATUSES:  # ``ResponseStatus``: a state, never guessed at
        raise DecodeError("", join(at, "status"), f"unknown status {status!r}")
    return decode_stop_reason(status, reason, called=called)


def response_echo(body: Mapping[str, Any], usage: Usage) -> dict[str, Any]:
    """The response's own fields the IR has no place for, and what its usage looked like."""
    data = _echo.with_extra({}, _echo.leftover(body, _MAPPED))
    omit = [key for key in (*_DEFAULTS, "created_at", "status") if key not in body]
    if omit:
        data["omit"] = omit
    recorded = body.get("usage")
    if recorded is None:
        data["usage"] = None
    elif recorded != encode_usage(usage):
        data["usage"] = recorded
    details = body.get("incomplete_details")
    if isinstance(details, dict) and set(details) != {"reason"}:
        data["incomplete_details"] = details
    return data


def encode_response(response: Response, *, strict: bool = False) -> Encoded:
    """IR -> a Response object; items OpenAI did not make get ids from their part's index."""
    out = WarningSink(NAME)
    out.unsent_message_fields(response.message, "message")
    writer = ItemWriter(out, response.model, synthesize=True)
    for j, part in enumerate(response.message.parts):
        writer.assistant_part(part, "message.parts", j)
    body = response_shell(response, writer.items, out=out)
    return out.finish(body, strict=strict)


def response_shell(
    response: Response, output: list[dict[str, Any]], *, status: str | None = None, out: WarningSink | None = None
) -> dict[str, Any]:
    """The Response object around ``output`` (``status`` overrides, for a stream's first event);
    ``out`` hears of usage counters left out."""
    data = _echo.own(response)
    state, reason = encode_stop_reason(response.stop_reason, response.raw_stop_reason, out if status is None else None)
    body: dict[str, Any] = {
        "id": response.id or "resp_interlingua",
        "created_at": int(time.time()),
        "model": response.model or "",
        **{key: (list(value) if isinstance(value, list) else value) for key, value in _DEFAULTS.items()},
        "output": output,
        "status": status or state,
    }
    if status is None:
        if reason is not None:
            details = data.get("incomplete_details")
            body["incomplete_details"] = details if isinstance(details, dict) else {"reason": reason}
        if "usage" not in data or data["usage"] is not None:
            body["usage"] = encode_usage_like(response.usage, data.get("usage"), out)
    return _echo.apply(body, data)
