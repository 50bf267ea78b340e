"""Cohere error answers: ``{"message": ...}`` (and ``{"id", "message"}`` on some), by HTTP status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ProviderError
from interlingua.kit import error_body, retry_after

from ._parts import NAME


def decode_error(status: int, body: bytes | str, headers: Mapping[str, str]) -> ProviderError:
    raw: Any = error_body(body)
    message = raw.get("message") if isinstance(raw, Mapping) else (raw if isinstance(raw, str) else None)
    return ProviderError.for_status(
        status, str(message) if message else f"HTTP {status}", codec=NAME, retry_after=retry_after(headers), raw=raw
    )
