"""The target model's rules on a Converse request, IR -> wire: what the bedrock catalog
(``models.toml``) says the model behind the Bedrock model id takes.

Converse takes one body shape for every model, but the models behind it do not take every field:
AWS's table of supported models and model features (system prompts, document chat, vision, tool
use) says which one refuses what, and Claude on Bedrock keeps Claude's own rules (its entries
extend the anthropic catalog's). An unknown model is sent as asked, with one note; a known one
loses, or has changed, what it would refuse, each with a warning naming the model and the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from interlingua import ContentPart, Document, Image, Message, Request, ToolChoice, ToolChoiceMode, Video, WarningSink
from interlingua.kit import cap_max_tokens, drop_prefill, keep_sampling, lookup, nearest_level

from ._parts import PROVIDER, add_part, encode_parts

if TYPE_CHECKING:
    from interlingua.kit import ModelSpec

_PACKAGE = __name__.rsplit(".", 1)[0]  # where models.toml lives
_PARTS: dict[type, str] = {Image: "vision", Video: "vision", Document: "document_chat"}
"""A part type -> the Converse feature (AWS's table column) a model must have to take it."""
_EFFORTS = ("low", "medium", "high", "xhigh", "max")
"""Claude's ``output_config.effort`` values (anthropic/types/output_config_param.py)."""

PartEncoder = Callable[[list[ContentPart], str, WarningSink], list[dict[str, Any]]]


def entry(request: Request, out: WarningSink) -> ModelSpec | None:
    """The target model's entry; None (and one note) for a model the catalog does not know."""
    return lookup(PROVIDER, _PACKAGE, request.model, out) if request.model else None


def refuses(spec: ModelSpec | None, feature: str) -> bool:
    return spec is not None and spec.features.get(feature) is False


def part_encoder(spec: ModelSpec | None) -> PartEncoder:
    """``encode_parts``, or, for a model without vision or document chat, one that leaves those
    parts out (LossyEncode each): the model answers a request carrying them with a 400."""
    if spec is None or not spec.features:
        return encode_parts
    refused = {kind: name for kind, name in _PARTS.items() if spec.features.get(name) is False}
    if not refused:
        return encode_parts

    def encode(parts: list[ContentPart], at: str, out: WarningSink) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        for index, part in enumerate(parts):
            feature = refused.get(type(part))
            if feature is None:
                add_part(blocks, part, at, index, out)
            else:
                why = f"{spec.id} has no {feature.replace('_', ' ')} on Converse: the {part.type} is not sent"
                out.lossy(f"{at}[{index}]", part.type, f"{why} ({spec.cite('features')})")
        return blocks

    return encode


def move_system(
    spec: ModelSpec, system: list[dict[str, Any]], messages: list[dict[str, Any]], request: Request, out: WarningSink
) -> None:
    """A model without system prompts gets the system blocks at the head of the first user turn
    (LossyEncode, converted, per system message): the instructions still reach it, as a user's."""
    why = f"{spec.id} has no system prompts on Converse: sent at the head of the first user turn"
    why += f" ({spec.cite('features')})"
    for index, message in enumerate(request.messages):
        if message.role not in ("system", "developer"):
            break
        out.lossy(f"messages[{index}]", "text", why, action="converted")
    first = next((m for m in messages if m["role"] == "user"), None)
    if first is None:
        messages.insert(0, {"role": "user", "content": list(system)})
    else:
        first["content"] = [*system, *first["content"]]


def refuses_tools(spec: ModelSpec | None, request: Request, out: WarningSink) -> bool:
    """Whether the model takes no tools: then none is sent (one UnsupportedSetting for the tools,
    one for a tool choice)."""
    if spec is None or spec.features.get("tool_use") is not False:
        return False
    if not request.tools and request.tool_choice is None:
        return False
    why = f"{spec.id} has no tool use on Converse: not sent ({spec.cite('features')})"
    if request.tools:
        out.unsupported("tools", "tools", why)
    if request.tool_choice is not None:
        out.unsupported("tool_choice", "tool_choice", why)
    return True


def tool_choice(spec: ModelSpec | None, request: Request, out: WarningSink) -> ToolChoiceMode | ToolChoice | None:
    """The tool choice to send: a forced one (``required``, a named tool) becomes ``auto`` for a
    model that refuses it while it thinks (Claude's rule, ``thinking.rejects``)."""
    choice = request.tool_choice
    if spec is None or choice in (None, "auto", "none"):
        return choice
    if "forced_tool_choice" not in spec.refused_while_thinking(_mode(spec)):
        return choice
    if not spec.thinks(_level(request)):
        return choice
    source = spec.cite("thinking_rules", "thinking")  # the rule's page, kept through extends
    why = f"with thinking on, {spec.id} takes tool_choice auto or none: sent as auto ({source})"
    out.unsupported("tool_choice", "tool_choice", why)
    return "auto"


def settings(spec: ModelSpec | None, request: Request, out: WarningSink) -> Mapping[str, Any]:
    """The inference settings (IR names) to send: the request's, less what the model refuses and
    with ``max_tokens`` held to its output limit."""
    found = {
        "max_tokens": request.max_tokens,
        "stop": request.stop,
        "temperature": request.temperature,
        "top_p": request.top_p,
        "top_k": request.top_k,
    }
    if spec is None:
        return found
    sampling = {name: found[name] for name in ("temperature", "top_p", "top_k")}
    if any(value is not None for value in sampling.values()):
        kept = keep_sampling(spec, sampling, spec.thinks(_level(request)), out, mode=_mode(spec))
        found.update((name, kept.get(name)) for name in sampling)
    if request.max_tokens is not None:
        found["max_tokens"] = cap_max_tokens(spec, request.max_tokens, out)
    return found


def write_thinking(
    spec: ModelSpec, request: Request, budgets: Mapping[str, int], extra: dict[str, Any], out: WarningSink
) -> None:
    """Thinking, into ``extra`` (``additionalModelRequestFields``), for a model whose entry knows
    how it reasons: Claude's ``thinking`` (``enabled`` with a budget, or ``adaptive`` with
    ``output_config.effort``, beside what ``output_config`` already holds), nothing where the model
    takes no thinking setting or takes it in a form this codec does not write (UnsupportedSetting)."""
    fields = _thinking(spec, request, budgets, out)
    if "output_config" in fields and isinstance(extra.get("output_config"), dict):
        fields["output_config"] = {**extra["output_config"], **fields["output_config"]}
    extra.update(fields)


def _mode(spec: ModelSpec) -> str | None:
    """The thinking mode this codec writes for the model: ``enabled`` (a budget) where it takes
    one, else ``adaptive``; None for a model whose entry knows neither."""
    modes = spec.thinking.modes if spec.thinking is not None else ()
    return "enabled" if "enabled" in modes else "adaptive" if "adaptive" in modes else None


def _thinking(spec: ModelSpec, request: Request, budgets: Mapping[str, int], out: WarningSink) -> dict[str, Any]:
    asked, rules = request.thinking, spec.thinking
    if asked is None or rules is None:
        return {}
    forms = [form for form in rules.modes if form in ("enabled", "adaptive")]
    if rules.supported is False or not forms:
        why = f"{spec.id} takes no thinking setting" if rules.supported is False else ""
        why = why or f"{spec.id} reasons through {' or '.join(rules.modes)}, which this codec does not write"
        out.unsupported("thinking", "thinking", f"{why}: not sent ({spec.cite('thinking')})")
        return {}
    if asked.level == "off" or asked.budget_tokens == 0:
        if rules.can_off is False:
            why = f"{spec.id} cannot turn thinking off: sent without a thinking block ({spec.cite('thinking')})"
            out.lossy("thinking.level", "thinking", why, action="converted")
            return {}
        return {"thinking": {"type": "disabled"}}
    if _mode(spec) == "enabled":
        budget = asked.budget_tokens
        if budget is None and asked.level is not None:
            budget = budgets[asked.level]
        return {} if budget is None else {"thinking": {"type": "enabled", "budget_tokens": budget}}
    level: str | None = asked.level
    if level is None:  # a budget, to a model that thinks only adaptively: the largest level within it
        fitting = [name for name, size in budgets.items() if size <= (asked.budget_tokens or 0)]
        level = fitting[-1] if fitting else "minimal"
        why = f"{spec.id} thinks only adaptively: budget sent as effort {level!r} ({spec.cite('thinking')})"
        out.lossy("thinking.budget_tokens", "thinking", why, action="converted")
    effort = nearest_level(spec, level, out)
    return {"thinking": {"type": "adaptive"}, "output_config": {"effort": effort if effort in _EFFORTS else "low"}}


def _level(request: Request) -> str | None:
    thinking = request.thinking
    return None if thinking is None else ("off" if thinking.level == "off" else "on")


def without_prefill(spec: ModelSpec | None, request: Request, out: WarningSink) -> list[Message]:
    messages = request.messages
    if spec is None or not messages or messages[-1].role != "assistant":
        return messages
    return drop_prefill(spec, messages, out)
