"""decode_error: the shared OpenAI error body, which compatible servers send too (more or less)."""

from __future__ import annotations

from collections.abc import Mapping

from interlingua import ProviderError

from .._shared import decode_openai_error


def decode_error(codec: str, status: int, body: bytes, headers: Mapping[str, str]) -> ProviderError:
    return decode_openai_error(codec, status, body, headers)
