"""The model-rule checker: what the real API would refuse in a request body for its model,
judged from the model catalog (``interlingua.models``), the same facts the encoders follow.

The wire's oracle (its ``rule_view``) reads the body into one neutral view (the IR's setting
names, plus the wire words a rule speaks of, such as ``logprobs``), and the core's judge
(``interlingua._model_check``, which ``interlingua inspect`` uses too) holds it to the model's entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._model_check import refusals


def check_model_rules(wire: str, body: Mapping[str, Any], model: str | None = None) -> list[str]:
    """What ``model`` (default: the body's own ``model``) would refuse in ``body``; ``[]`` when the
    catalog does not know the model."""
    from .._registry import get_codec
    from ..models import find
    from ._oracle import oracle_for

    oracle = oracle_for(wire)
    model = model if model is not None else body.get("model") if isinstance(body.get("model"), str) else None
    if model is None:
        return []
    spec = find(get_codec(wire).provider, model)
    if spec is None:
        return []
    return refusals(spec, oracle.rule_view(body), wire)
