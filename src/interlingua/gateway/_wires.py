"""The vendor endpoints the gateway serves and each vendor's error shape: the one vendor table.

The codecs know how to *send* (``http_request``) but declare nothing about how their API is
*served* (the path, where the model and the stream flag sit, the error body a client's SDK
parses). Adding that to the codec protocol would touch every codec package, so it is kept here,
in one module of data, keyed by codec name; a third-party codec is served by adding a row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ErrorBody = Callable[[int, str, str | None], dict[str, Any]]


def _anthropic_error(status: int, message: str, kind: str | None) -> dict[str, Any]:
    # https://docs.anthropic.com/en/api/errors: {"type": "error", "error": {"type", "message"}}
    return {"type": "error", "error": {"type": kind or _ANTHROPIC_TYPES.get(status, "api_error"), "message": message}}


_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def _openai_error(status: int, message: str, kind: str | None) -> dict[str, Any]:
    # https://platform.openai.com/docs/guides/error-codes: {"error": {"message", "type", "param", "code"}}
    default_type, code = _OPENAI_TYPES.get(status, ("server_error" if status >= 500 else "invalid_request_error", None))
    return {"error": {"message": message, "type": kind or default_type, "param": None, "code": code}}


_OPENAI_TYPES: dict[int, tuple[str, str | None]] = {
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", "unsupported_country_region_territory"),
    404: ("invalid_request_error", "model_not_found"),
    413: ("invalid_request_error", "request_too_large"),
    429: ("requests", "rate_limit_exceeded"),
}


def _gemini_error(status: int, message: str, kind: str | None) -> dict[str, Any]:
    # https://ai.google.dev/gemini-api/docs/troubleshooting: {"error": {"code", "message", "status"}}
    return {"error": {"code": status, "message": message, "status": _GOOGLE_STATUS.get(status, "INTERNAL")}}


_GOOGLE_STATUS = {
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


@dataclass(frozen=True)
class ServedWire:
    """How one wire is served: ``path`` (Starlette syntax), the body keys that only ask for a
    stream (removed before decoding, so they are not reported as lost), the error body, and for
    a wire that names the model in its path, the methods after the model's ``:``."""

    codec: str
    path: str
    error: ErrorBody
    stream_keys: tuple[str, ...] = ("stream",)
    model_in_path: bool = False
    methods: tuple[str, ...] = ()


SERVED: tuple[ServedWire, ...] = (
    ServedWire("anthropic-messages", "/v1/messages", _anthropic_error),
    ServedWire("openai-chat", "/v1/chat/completions", _openai_error, ("stream", "stream_options")),
    ServedWire("openai-responses", "/v1/responses", _openai_error),
    # generateContent and streamGenerateContent?alt=sse: the method follows the model after ':'.
    ServedWire(
        "gemini",
        "/v1beta/models/{target}",
        _gemini_error,
        (),
        model_in_path=True,
        methods=("generateContent", "streamGenerateContent"),
    ),
)
"""Every wire the gateway answers, in the order its routes are mounted."""

STREAM_METHOD = "streamGenerateContent"
"""The path method (after the model's ``:``) that asks a model-in-path wire for a stream."""
