"""The only module that touches the ``openai`` SDK, and only inside functions: decode_* accept its
objects (anything with ``model_dump``) by dumping them to the wire's JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.kit import as_object


def wire_dict(value: Mapping[str, Any] | Any, at: str = "") -> dict[str, Any]:
    """A wire body as a plain dict; an SDK model is dumped as the JSON it came from (unset fields
    left out, so a round trip adds nothing)."""
    if isinstance(value, dict):
        return value
    return as_object(value, at)
