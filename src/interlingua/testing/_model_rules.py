"""The model-rule checker: what the real API would refuse in a request body for its model,
judged from the model catalog (``interlingua.models``), the same facts the encoders follow.

Each wire's body is read into one neutral view (the IR's setting names, plus the wire words a
rule speaks of: ``logprobs``, ``logit_bias``, chat's legacy ``max_tokens``), and the view is held
to the model's entry: settings it refuses, exclusive groups, what it refuses (or takes only in a
range) while it reasons, its output limit, its thinking forms, levels and budget range.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._model_spec import ModelSpec


@dataclass
class _View:
    """A body's model-ruled settings, wire-neutral."""

    settings: dict[str, Any] = field(default_factory=dict)
    max_output: int | None = None
    thinks: bool | None = None  # None: the body leaves it to the model's default
    forms: list[str] = field(default_factory=list)  # the thinking forms used, in the catalog's words
    level: str | None = None  # the level (effort) sent, in catalog words
    budget: int | None = None


def check_model_rules(wire: str, body: Mapping[str, Any], model: str | None = None) -> list[str]:
    """What ``model`` (default: the body's own ``model``) would refuse in ``body``; ``[]`` when the
    catalog does not know the model."""
    from .._registry import get_codec
    from ..models import find

    model = model if model is not None else body.get("model") if isinstance(body.get("model"), str) else None
    read = _READERS.get(wire)
    if model is None or read is None:
        return []
    spec = find(get_codec(wire).provider, model)
    if spec is None:
        return []
    view = read(body)
    problems = [f"model: {spec.id} is not served by {wire}" for _ in [0] if spec.wires and wire not in spec.wires]
    problems += _sampling(spec, view)
    problems += _thinking(spec, view)
    limit = spec.max_output_tokens
    if limit is not None and view.max_output is not None and view.max_output > limit:
        problems.append(f"max tokens: {view.max_output} over {spec.id}'s limit {limit}")
    return problems


def _sampling(spec: ModelSpec, view: _View) -> list[str]:
    present = view.settings
    problems = [f"{name}: {spec.id} does not take it" for name in present if name in spec.rejects]
    for group in spec.exclusive:
        both = sorted(name for name in present if name in group)
        if len(both) > 1:
            problems.append(f"{' and '.join(both)}: {spec.id} takes only one of them")
    thinks = spec.thinks(None) if view.thinks is None else view.thinks
    if not thinks:
        return problems
    for name, value in present.items():
        if name in spec.thinking_rejects:
            problems.append(f"{name}: {spec.id} does not take it while thinking")
        bounds = spec.thinking_ranges.get(name)
        if bounds is not None and isinstance(value, int | float) and not bounds[0] <= value <= bounds[1]:
            problems.append(f"{name}: {spec.id} takes it in [{bounds[0]:g}, {bounds[1]:g}] while thinking, not {value}")
    return problems


def _thinking(spec: ModelSpec, view: _View) -> list[str]:
    rules = spec.thinking
    if rules is None:
        return []
    problems = [f"thinking: {spec.id} takes no {form!r} thinking" for form in view.forms if form not in rules.modes]
    if len(view.forms) > 1:  # e.g. https://ai.google.dev/gemini-api/docs/thinking: a budget or a level, not both
        problems.append(f"thinking: {' and '.join(view.forms)} at once")
    if view.level is not None and rules.levels and view.level not in rules.levels:
        problems.append(f"thinking: {spec.id} takes no level (effort) {view.level!r}")
    if view.level == "off" and rules.can_off is False:
        problems.append(f"thinking: {spec.id} cannot turn thinking off")
    budget = view.budget
    if budget is not None and rules.budget is not None and budget != -1:
        low, high = rules.budget
        if budget == 0 and rules.can_off is False:
            problems.append(f"thinking: {spec.id} cannot turn thinking off (budget 0)")
        elif budget != 0 and not low <= budget <= high:
            problems.append(f"thinking: budget {budget} outside {spec.id}'s [{low}, {high}]")
    return problems


# --- reading each wire ----------------------------------------------------------------------------


def _pick(source: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    return {neutral: source[key] for key, neutral in names.items() if source.get(key) is not None}


def _anthropic(body: Mapping[str, Any]) -> _View:
    view = _View(_pick(body, {"temperature": "temperature", "top_p": "top_p", "top_k": "top_k"}))
    view.max_output = body.get("max_tokens")
    thinking = body.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, Mapping) else None
    if kind is not None:
        view.thinks = kind != "disabled"
        view.forms = [kind] if kind != "disabled" else []
        view.budget = thinking.get("budget_tokens") if isinstance(thinking, Mapping) else None
    config = body.get("output_config")
    if isinstance(config, Mapping) and isinstance(config.get("effort"), str) and kind == "adaptive":
        view.level = config["effort"]
    choice = body.get("tool_choice")
    if isinstance(choice, Mapping) and choice.get("type") in ("any", "tool"):
        view.settings["forced_tool_choice"] = choice["type"]
    return view


_EFFORT_LEVELS = {"none": "off"}


def _openai_effort(view: _View, effort: Any) -> None:
    if isinstance(effort, str):
        view.level = _EFFORT_LEVELS.get(effort, effort)
        view.thinks = view.level != "off"
        view.forms = ["effort"]


def _openai_chat(body: Mapping[str, Any]) -> _View:
    names = {key: key for key in ("temperature", "top_p", "presence_penalty", "frequency_penalty")}
    view = _View(_pick(body, {**names, "logprobs": "logprobs", "logit_bias": "logit_bias", "max_tokens": "max_tokens"}))
    view.max_output = body.get("max_completion_tokens", body.get("max_tokens"))
    _openai_effort(view, body.get("reasoning_effort"))
    return view


def _openai_responses(body: Mapping[str, Any]) -> _View:
    view = _View(_pick(body, {"temperature": "temperature", "top_p": "top_p"}))
    view.max_output = body.get("max_output_tokens")
    reasoning = body.get("reasoning")
    _openai_effort(view, reasoning.get("effort") if isinstance(reasoning, Mapping) else None)
    return view


_GEMINI = {
    "temperature": "temperature",
    "topP": "top_p",
    "top_p": "top_p",
    "topK": "top_k",
    "top_k": "top_k",
    "presencePenalty": "presence_penalty",
    "presence_penalty": "presence_penalty",
    "frequencyPenalty": "frequency_penalty",
    "frequency_penalty": "frequency_penalty",
}


def _gemini(body: Mapping[str, Any]) -> _View:
    config = body.get("generationConfig", body.get("generation_config"))
    config = config if isinstance(config, Mapping) else {}
    view = _View(_pick(config, _GEMINI))
    view.max_output = config.get("maxOutputTokens", config.get("max_output_tokens"))
    thinking = config.get("thinkingConfig", config.get("thinking_config"))
    if not isinstance(thinking, Mapping):
        return view
    budget = thinking.get("thinkingBudget", thinking.get("thinking_budget"))
    level = thinking.get("thinkingLevel", thinking.get("thinking_level"))
    if isinstance(budget, int):
        view.budget, view.forms = budget, ["budget"]
    if isinstance(level, str):
        view.level = level.lower()
        view.forms.append("level")
    return view


_READERS: dict[str, Callable[[Mapping[str, Any]], _View]] = {
    "anthropic-messages": _anthropic,
    "openai-chat": _openai_chat,
    "openai-responses": _openai_responses,
    "gemini": _gemini,
}
