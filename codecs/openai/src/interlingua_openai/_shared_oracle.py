"""What the two OpenAI wires' oracles share, for tests: the error body and the effort reading."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interlingua.testing import RuleView, sdk_problems

# openai FunctionDefinition.name: a-z, A-Z, 0-9, underscores and dashes, at most 64
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def check_error(body: Mapping[str, Any]) -> list[str]:
    """An error body holds only ``error``, an ``openai.types.shared.ErrorObject``."""
    from openai.types.shared import ErrorObject

    if set(body) != {"error"}:
        return [f"{key}: unknown key (an OpenAI error body holds only 'error')" for key in body if key != "error"] or [
            "error: missing"
        ]
    return sdk_problems(ErrorObject, body["error"], "error")


_EFFORT_LEVELS = {"none": "off"}


def read_effort(view: RuleView, effort: Any) -> None:
    """A reasoning effort in the catalog's words (``none`` is the level ``off``)."""
    if isinstance(effort, str):
        view.level = _EFFORT_LEVELS.get(effort, effort)
        view.thinks = view.level != "off"
        view.forms = ["effort"]
