"""SDK objects in, plain wire dicts out: the only place the google-genai types are named.

The codec works on JSON dicts. google-genai's pydantic models dump to the REST spelling
(camelCase aliases, bytes as base64) with ``by_alias=True``; the SDK is never imported here at
run time, only named for type checkers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from interlingua.kit import expect

if TYPE_CHECKING:
    from google.genai import types as genai  # noqa: F401  # names for readers and type checkers


# Fields google-genai adds on the client side: never on the wire, so never part of the answer.
_SDK_ONLY = frozenset({"sdkHttpResponse", "automaticFunctionCallingHistory", "parsed"})


def wire_object(value: Any, at: str = "") -> dict[str, Any]:
    """A request or response body as a dict: a Mapping as is, a google-genai model dumped the way
    the REST API spells it (None fields and the SDK's own client-side fields left out)."""
    if hasattr(value, "model_dump") and not isinstance(value, Mapping):
        dumped = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        value = (
            {key: item for key, item in dumped.items() if key not in _SDK_ONLY} if isinstance(dumped, dict) else dumped
        )
    return expect(value, dict, at)
