"""What the two OpenAI wire formats truly share: the error body and the Bearer header."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ProviderError
from interlingua.kit import error_body, retry_after

PROVIDER = "openai"
API_KEY_ENV = ("OPENAI_API_KEY",)
DEFAULT_BASE_URL = "https://api.openai.com/v1"


def decode_openai_error(codec: str, status: int | None, body: bytes | str, headers: Mapping[str, str]) -> ProviderError:
    """``{"error": {"message", "type", "param", "code"}}`` -> the ProviderError subclass for the
    status. OpenAI-compatible servers sometimes send a bare string or a list; those are kept in
    ``raw`` and their text becomes the message."""
    raw = error_body(body)
    detail: Any = raw.get("error", raw) if isinstance(raw, dict) else raw
    if isinstance(detail, list) and detail and isinstance(detail[0], dict):
        detail = detail[0].get("error", detail[0])
    if isinstance(detail, dict):
        message = detail.get("message")
        kind = detail.get("type") or detail.get("code")
    else:
        message, kind = detail, None
    lowered = {k.lower(): v for k, v in headers.items()}
    return ProviderError.for_status(
        status,
        str(message) if message is not None else f"HTTP {status}",
        type=str(kind) if kind is not None else None,
        codec=codec,
        retry_after=retry_after(headers),
        request_id=lowered.get("x-request-id"),
        raw=raw,
    )


def bearer_headers(api_key: str | None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Content type, Bearer auth (when a key is given; local servers take none) and caller headers."""
    headers = {"content-type": "application/json"}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    headers.update(extra or {})
    return headers
