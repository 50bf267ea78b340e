"""decode_error: status + body + headers -> ProviderError (the OpenAI error body is shared with
openai-chat), and the error event a 200 stream can carry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ProviderError

from .._shared import decode_openai_error

NAME = "openai-responses"


def decode_error(status: int, body: bytes | str, headers: Mapping[str, str]) -> ProviderError:
    return decode_openai_error(NAME, status, body, headers)


def decode_stream_error(event: Mapping[str, Any]) -> ProviderError:
    """``{"type": "error", "code", "message", "param"}`` inside a 200 stream (recorded servers nest
    it in ``error`` with its own ``type``); there is no HTTP status, so the base class is used."""
    nested = event.get("error")
    detail: Mapping[str, Any] = nested if isinstance(nested, Mapping) else event
    kind = (detail.get("type") if detail is not event else None) or detail.get("code")
    message = detail.get("message")
    return ProviderError(
        str(message) if message is not None else "error event in the stream",
        type=str(kind) if kind is not None else None,
        codec=NAME,
        raw=dict(event),
    )
