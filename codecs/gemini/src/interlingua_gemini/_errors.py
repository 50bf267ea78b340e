"""decode_error: a google.rpc.Status body (``{"error": {code, message, status, details}}``) and
the status and headers -> the ProviderError subclass for the status.

``served_error`` is the other way: the body a gateway serving this wire answers with.

Retry-After comes from the headers, else from a ``google.rpc.RetryInfo`` detail
(``"retryDelay": "37s"``), which the Gemini API sends with 429s. A 503 that says the model is
overloaded is an OverloadedError. Bodies that are not JSON (a proxy's HTML) keep their text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import OverloadedError, ProviderError
from interlingua.kit import error_body, retry_after

from ._parts import NAME


def decode_error(status: int | None, body: bytes | str, headers: Mapping[str, str]) -> ProviderError:
    return decode_status(status, error_body(body), headers)


def decode_status(status: int | None, raw: Any, headers: Mapping[str, str]) -> ProviderError:
    """The error for an already-parsed body (also used for an error inside a stream)."""
    detail = raw[0] if isinstance(raw, list) and raw else raw
    error = detail.get("error") if isinstance(detail, dict) else None
    if not isinstance(error, dict):
        # a gateway's ``{"error": "text"}`` keeps its text, as a body that is not JSON does
        said = error if isinstance(error, str) and error else raw
        text = said if isinstance(said, str) and said else f"HTTP {status}"
        return ProviderError.for_status(status, text, codec=NAME, retry_after=retry_after(headers), raw=raw)
    message = error.get("message")
    kind = error.get("status")
    code = error.get("code")
    if status is None and isinstance(code, int):
        status = code
    text = str(message) if message is not None else f"HTTP {status}"
    wait = retry_after(headers)
    if wait is None:
        wait = _retry_delay(error.get("details"))
    fields: dict[str, Any] = {
        "type": str(kind) if kind is not None else None,
        "codec": NAME,
        "retry_after": wait,
        "raw": raw,
    }
    if status == 503 and "overload" in text.lower():
        return OverloadedError(text, status=status, **fields)
    return ProviderError.for_status(status, text, **fields)


def _retry_delay(details: Any) -> float | None:
    for detail in details if isinstance(details, list) else []:
        delay = detail.get("retryDelay") if isinstance(detail, dict) else None
        if isinstance(delay, str) and delay.endswith("s"):
            try:
                return max(float(delay[:-1]), 0.0)
            except ValueError:
                return None
    return None


def served_error(status: int, message: str, kind: str | None) -> dict[str, Any]:
    """A google.rpc.Status body, ``{"error": {"code", "message", "status"}}``, its status by HTTP
    status (``kind`` is another wire's error type, not a gRPC status, so it is not used).
    https://ai.google.dev/gemini-api/docs/troubleshooting"""
    return {"error": {"code": status, "message": message, "status": _SERVED_STATUS.get(status, "INTERNAL")}}


_SERVED_STATUS = {  # https://ai.google.dev/gemini-api/docs/troubleshooting: HTTP status -> status
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    413: "INVALID_ARGUMENT",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
