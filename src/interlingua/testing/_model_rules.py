"""The model-rule checker: what the real API would refuse in a request body for its model,
judged from the model catalog (``interlingua.models``), the same facts the encoders follow.

Each wire's body is read into one neutral view (the IR's setting names, plus the wire words a
rule speaks of: ``logprobs``, ``logit_bias``, chat's legacy ``max_tokens``), and the core's judge
(``interlingua._model_check``, which ``interlingua inspect`` uses too) holds it to the model's entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._model_check import RuleView, refusals


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
    return refusals(spec, read(body), wire)


# --- reading each wire ----------------------------------------------------------------------------


def _pick(source: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    return {neutral: source[key] for key, neutral in names.items() if source.get(key) is not None}


def _anthropic(body: Mapping[str, Any]) -> RuleView:
    view = RuleView(_pick(body, {"temperature": "temperature", "top_p": "top_p", "top_k": "top_k"}))
    view.max_output = body.get("max_tokens")
    messages = body.get("messages")
    last = messages[-1] if isinstance(messages, list) and messages else None
    view.prefill = isinstance(last, Mapping) and last.get("role") == "assistant"
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


def _openai_effort(view: RuleView, effort: Any) -> None:
    if isinstance(effort, str):
        view.level = _EFFORT_LEVELS.get(effort, effort)
        view.thinks = view.level != "off"
        view.forms = ["effort"]


def _openai_chat(body: Mapping[str, Any]) -> RuleView:
    names = {key: key for key in ("temperature", "top_p", "presence_penalty", "frequency_penalty")}
    wire_words = {"logprobs": "logprobs", "logit_bias": "logit_bias", "max_tokens": "max_tokens"}
    view = RuleView(_pick(body, {**names, **wire_words}))
    view.max_output = body.get("max_completion_tokens", body.get("max_tokens"))
    _openai_effort(view, body.get("reasoning_effort"))
    return view


def _openai_responses(body: Mapping[str, Any]) -> RuleView:
    view = RuleView(_pick(body, {"temperature": "temperature", "top_p": "top_p"}))
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


def _gemini(body: Mapping[str, Any]) -> RuleView:
    config = body.get("generationConfig", body.get("generation_config"))
    config = config if isinstance(config, Mapping) else {}
    view = RuleView(_pick(config, _GEMINI))
    view.max_output = config.get("maxOutputTokens", config.get("max_output_tokens"))
    thinking = config.get("thinkingConfig", config.get("thinking_config"))
    if not isinstance(thinking, Mapping):
        return view
    budget = thinking.get("thinkingBudget", thinking.get("thinking_budget"))
    level = thinking.get("thinkingLevel", thinking.get("thinking_level"))
    if isinstance(budget, int):
        view.budget, view.forms = budget, ["budget"]
    if isinstance(level, str):  # both forms at once is refused (https://ai.google.dev/gemini-api/docs/thinking)
        view.level = level.lower()
        view.forms.append("level")
    return view


_READERS: dict[str, Callable[[Mapping[str, Any]], RuleView]] = {
    "anthropic-messages": _anthropic,
    "openai-chat": _openai_chat,
    "openai-responses": _openai_responses,
    "gemini": _gemini,
}
