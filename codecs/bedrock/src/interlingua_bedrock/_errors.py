"""Converse error answers: ``{"message": ...}``, the error's name in the ``x-amzn-errortype``
header (``ValidationException:http://internal.amazon.com/...``), as botocore reads them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ProviderError
from interlingua.kit import error_body, retry_after

from ._parts import NAME


def decode_error(status: int, body: bytes | str, headers: Mapping[str, str]) -> ProviderError:
    raw: Any = error_body(body)
    lowered = {k.lower(): v for k, v in headers.items()}
    kind = (lowered.get("x-amzn-errortype") or "").partition(":")[0] or None
    message = None
    if isinstance(raw, Mapping):
        for key in ("message", "Message"):
            if isinstance(raw.get(key), str):
                message = raw[key]
                break
        if kind is None and isinstance(raw.get("__type"), str):
            kind = raw["__type"].rpartition("#")[2]
    elif isinstance(raw, str) and raw:
        message = raw
    return ProviderError.for_status(
        status,
        message or f"HTTP {status}",
        type=kind,
        codec=NAME,
        retry_after=retry_after(headers),
        request_id=lowered.get("x-amzn-requestid"),
        raw=raw,
    )
