"""The only module that touches the openai SDK, and only inside functions: decode_* accept SDK
objects (anything with ``model_dump``) as well as plain dicts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import as_object


def plain(body: Any, at: str = "") -> Mapping[str, Any]:
    """A JSON object from a dict or an SDK model (``model_dump`` by alias, unset fields left out)."""
    if isinstance(body, dict):
        return body
    return as_object(body, at)
