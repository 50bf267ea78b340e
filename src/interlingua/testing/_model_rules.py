"""The model-rule checker: what the real API would refuse in a request body for its model,
judged from the model catalog (``interlingua.models``), the same facts the encoders follow.

The wire's oracle (its ``rule_view``) reads the body into one neutral view (the IR's setting
names, plus the wire words a rule speaks of, such as ``logprobs``), and the core's judge
(``interlingua._model_check``, which ``interlingua inspect`` uses too) holds it to the model's entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._model_check import RuleView, refusals


def model_refusals(
    view: Callable[[Mapping[str, Any]], RuleView], provider: str, wire: str, body: Mapping[str, Any], model: str | None
) -> list[str]:
    """What ``model`` (default: the body's own ``model``) of ``provider``'s catalog would refuse in
    ``body``, read through its wire oracle's ``view``; ``[]`` when the catalog does not know the model.
    The oracle (``check_model_rules``) passes its own view: this module stands below it."""
    from ..models import find

    model = model if model is not None else body.get("model") if isinstance(body.get("model"), str) else None
    if model is None:
        return []
    spec = find(provider, model)
    if spec is None:
        return []
    return refusals(spec, view(body), wire)
