"""The model rules judged on a settled request: what a catalog entry says its model would refuse.

A wire-neutral view (the IR's setting names, plus the wire words a rule speaks of) is held to the
model's entry: request features and settings it refuses, exclusive groups, what it refuses (or
takes only in a range) while it reasons, its output limit, its thinking forms, levels and budget range, a prefilled
final assistant turn. One judge for every reader: the test kit's rule checker reads wire bodies
into a view, ``interlingua inspect`` reads a decoded Request (:func:`view_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._model_spec import ModelSpec
    from ._request import Request


@dataclass
class RuleView:
    """A body's model-ruled settings, wire-neutral."""

    settings: dict[str, Any] = field(default_factory=dict)
    max_output: int | None = None
    thinks: bool | None = None  # None: the body leaves it to the model's default
    forms: list[str] = field(default_factory=list)  # the thinking forms used, in the catalog's words
    level: str | None = None  # the level (effort) sent, in catalog words
    budget: int | None = None
    prefill: bool = False  # the last message is the assistant's
    features: list[str] = field(default_factory=list)  # the request features used, in the catalog's words


def refusals(spec: ModelSpec, view: RuleView, wire: str | None = None) -> list[str]:
    """What ``spec``'s model would refuse in ``view`` (``wire``: the API it is sent to), one line each."""
    served = not wire or not spec.wires or wire in spec.wires
    problems = [] if served else [f"model: {spec.id} is not served by {wire}"]
    problems += [f"{name}: {spec.id} does not take it" for name in view.features if spec.features.get(name) is False]
    problems += _sampling(spec, view)
    problems += _thinking(spec, view)
    limit = spec.max_output_tokens
    if limit is not None and view.max_output is not None and view.max_output > limit:
        problems.append(f"max tokens: {view.max_output} over {spec.id}'s limit {limit}")
    if view.prefill and spec.prefill is False:
        problems.append(f"messages: {spec.id} takes no prefilled final assistant turn")
    return problems


def view_of(request: Request) -> RuleView:
    """The view of a decoded Request: its IR settings (the thinking form is the wire's, so unknown)."""
    from ._catalog import SAMPLING

    settings = {name: getattr(request, name) for name in SAMPLING if getattr(request, name) is not None}
    choice = request.tool_choice
    if choice is not None and choice not in ("auto", "none"):
        settings["forced_tool_choice"] = choice if isinstance(choice, str) else "tool"
    view = RuleView(settings, max_output=request.max_tokens)
    thinking = request.thinking
    if thinking is not None:
        view.level, view.budget = thinking.level, thinking.budget_tokens
        view.thinks = thinking.level != "off" and thinking.budget_tokens != 0
    view.prefill = bool(request.messages) and request.messages[-1].role == "assistant"
    return view


def _sampling(spec: ModelSpec, view: RuleView) -> list[str]:
    present = view.settings
    problems = [f"{name}: {spec.id} does not take it" for name in present if name in spec.rejects]
    for group in spec.exclusive:
        both = sorted(name for name in present if name in group)
        if len(both) > 1:
            problems.append(f"{' and '.join(both)}: {spec.id} takes only one of them")
    thinks = spec.thinks(None) if view.thinks is None else view.thinks or spec.thinks("off")
    if not thinks:
        return problems
    refused = spec.refused_while_thinking(view.forms[0] if len(view.forms) == 1 else None)
    for name, value in present.items():
        if name in refused:
            problems.append(f"{name}: {spec.id} does not take it while thinking")
        bounds = spec.thinking_ranges.get(name)
        if bounds is not None and isinstance(value, int | float) and not bounds[0] <= value <= bounds[1]:
            problems.append(f"{name}: {spec.id} takes it in [{bounds[0]:g}, {bounds[1]:g}] while thinking, not {value}")
    return problems


def _thinking(spec: ModelSpec, view: RuleView) -> list[str]:
    rules = spec.thinking
    if rules is None:
        return []
    if rules.supported is False:
        return [f"thinking: {spec.id} takes no thinking configuration" for _ in view.forms[:1]]
    problems = [f"thinking: {spec.id} takes no {form!r} thinking" for form in view.forms if form not in rules.modes]
    if len(view.forms) > 1:  # a wire that takes a budget or a level takes one of them (the entry's thinking source)
        problems.append(f"thinking: {' and '.join(view.forms)} at once")
    if view.level is not None and rules.levels and view.level not in rules.levels:
        problems.append(f"thinking: {spec.id} takes no level (effort) {view.level!r}")
    if rules.can_off is False and (view.level == "off" or view.thinks is False):
        problems.append(f"thinking: {spec.id} cannot turn thinking off")
    budget = view.budget
    if budget is not None and rules.budget is not None and budget != -1:
        low, high = rules.budget
        if budget == 0 and rules.can_off is False:
            problems.append(f"thinking: {spec.id} cannot turn thinking off (budget 0)")
        elif budget != 0 and not low <= budget <= high:
            problems.append(f"thinking: budget {budget} outside {spec.id}'s [{low}, {high}]")
    return problems
