"""decode_error: status + body + headers -> ProviderError, for HTTP errors and stream error events;
and the other way, ``served_error``: the body a gateway serving this wire answers with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
)
from interlingua.kit import error_body, retry_after

CODEC = "anthropic-messages"

# The error ``type`` decides the class when there is no HTTP status (an ``error`` event inside a
# 200 stream carries only the body).
_BY_TYPE: dict[str, type[ProviderError]] = {
    "invalid_request_error": BadRequestError,
    "authentication_error": AuthenticationError,
    "permission_error": PermissionDeniedError,
    "not_found_error": NotFoundError,
    "rate_limit_error": RateLimitError,
    "overloaded_error": OverloadedError,
    "api_error": ServerError,
}


def decode_error(status: int | None, body: bytes | str, headers: Mapping[str, str]) -> ProviderError:
    """``{"type": "error", "error": {"type", "message"}, "request_id"}`` -> a ProviderError.

    Proxies answer with HTML or plain text at times; that text becomes the message, ``raw`` keeps it.
    """
    return error_from_json(status, error_body(body), headers)


def error_from_json(status: int | None, raw: Any, headers: Mapping[str, str]) -> ProviderError:
    detail = raw.get("error") if isinstance(raw, Mapping) else None
    lowered = {k.lower(): v for k, v in headers.items()}
    if isinstance(detail, Mapping):
        message, kind = detail.get("message"), detail.get("type")
    elif isinstance(raw, Mapping) and isinstance(raw.get("message"), str):
        # Claude on Bedrock: {"message": ...}, the error's name in x-amzn-errortype ("Name:namespace")
        message, kind = raw["message"], (lowered.get("x-amzn-errortype") or "").partition(":")[0] or None
    else:
        message, kind = (raw if isinstance(raw, str) and raw else None), None
    request_id = lowered.get("request-id")
    if request_id is None and isinstance(raw, Mapping) and isinstance(raw.get("request_id"), str):
        request_id = raw["request_id"]
    text = str(message) if message is not None else f"HTTP {status}"
    kw: dict[str, Any] = {
        "type": str(kind) if kind is not None else None,
        "codec": CODEC,
        "retry_after": retry_after(headers),
        "request_id": request_id,
        "raw": raw,
    }
    if status is None and isinstance(kind, str) and kind in _BY_TYPE:
        return _BY_TYPE[kind](text, status=None, **kw)
    return ProviderError.for_status(status, text, **kw)


def served_error(status: int, message: str, kind: str | None) -> dict[str, Any]:
    """The wire's error body, ``{"type": "error", "error": {"type", "message"}}``, the type by status
    unless the upstream's is known. https://docs.anthropic.com/en/api/errors"""
    return {"type": "error", "error": {"type": kind or _SERVED_TYPES.get(status, "api_error"), "message": message}}


_SERVED_TYPES = {  # https://docs.anthropic.com/en/api/errors: the HTTP status of each error type
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
