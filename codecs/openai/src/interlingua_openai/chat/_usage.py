"""The ``usage`` object <-> Usage, and the cost some servers report in it <-> Cost.

``prompt_tokens`` already counts cached tokens and ``completion_tokens`` reasoning tokens, so the
totals map one to one; ``prompt_tokens_details.cached_tokens`` / ``cache_write_tokens`` and
``completion_tokens_details.reasoning_tokens`` are the subsets. Other integer counters keep their
wire name in ``extra`` (``prompt_tokens_details.audio_tokens``, Mistral's ``num_cached_tokens``);
``total_tokens`` goes there only when it is not the sum (Gemini's endpoint adds thinking to it).
What is not an integer comes back in ``leftovers`` for the response echo.

Which counters of ``extra`` are Chat's, so that ``encode_usage`` writes them and nothing else: a
gateway that answers in Chat's format a Response another codec decoded must not turn that
vendor's counters (``cache_creation.ephemeral_5m_input_tokens``, ``toolUsePromptTokenCount``) into
top-level keys of a Chat ``usage``. Two sources, both from this wire only (the codecs know
nothing of each other):

- a name rule: ``total_tokens`` and any counter inside ``prompt_tokens_details`` /
  ``completion_tokens_details``, the objects ``CompletionUsage`` declares. Servers add counters
  there that the SDK does not list yet (OpenRouter's ``prompt_tokens_details.video_tokens``), and
  they are still Chat counters;
- a record kept at decode: a top-level integer a server adds (Mistral's ``num_cached_tokens``) is
  named in the response echo's ``_counters`` flag (absent when there is none). Such names are
  too plain for a name rule, and only this decode can vouch that the wire had them.

Every other counter is left out with a ``LossyEncode`` at ``usage.extra.<key>``.

Cost: OpenRouter's usage accounting adds ``usage.cost`` (what the request charged to the
account, in credits, which OpenRouter sells at one US dollar each) and ``usage.cost_details``
(``upstream_inference_cost``, what the upstream provider billed, set on BYOK requests;
``upstream_inference_prompt_cost`` / ``upstream_inference_completions_cost``, its split). Neither
is in OpenAI's ``CompletionUsage``. They are read on every dialect, not only ``openrouter``:
gateways that copy OpenRouter's shape (Vercel's AI Gateway) report ``usage.cost`` in US dollars
too, and a server that sends a key OpenAI does not define means it as the server that named it.
``cost`` becomes ``Cost.total`` in USD; each number in ``cost_details`` goes to ``Cost.extra`` under
its dotted wire name (``cost_details.upstream_inference_cost``): a breakdown the server reports,
not a further charge. Nulls and non-numbers stay in ``leftovers``, verbatim. The wire's ints and
floats come back as they were (``0`` stays ``0``, ``0.0`` stays ``0.0``): an amount read from an
int is a Decimal with exponent 0, one read from a float keeps the float's shortest repr.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from interlingua import Cost, Usage, WarningSink
from interlingua.kit import maker, require

from ._echo import build
from ._parts import Block

_SUBSETS = {
    ("prompt_tokens_details", "cached_tokens"): "cache_read_tokens",
    ("prompt_tokens_details", "cache_write_tokens"): "cache_write_tokens",
    ("completion_tokens_details", "reasoning_tokens"): "reasoning_tokens",
}
_DETAILS = ("prompt_tokens_details", "completion_tokens_details")
# Per details object, what decode_usage needs of it: its subset counters and its dotted prefix.
_INSIDE = {
    outer: ({inner: field for (o, inner), field in _SUBSETS.items() if o == outer}, outer + ".") for outer in _DETAILS
}
_TOTALS = ("prompt_tokens", "completion_tokens")
_COST, _COST_DETAILS = "cost", "cost_details"
_COSTS = (_COST, _COST_DETAILS)
COUNTERS = "_counters"  # the echo flag naming counters this decode read beyond the name rule
_COST_EXTRA = _COST_DETAILS + "."


def decode_usage(block: Block, at: str) -> tuple[Usage, Cost | None, Block]:
    """(Usage, the reported Cost or None, wire leftovers that are neither counters nor cost).
    One pass over the keys, each settled by its value's type first (counters are ints)."""
    prompt, completion = block.get("prompt_tokens"), block.get("completion_tokens")
    if type(prompt) is not int or type(completion) is not int:  # the readers name what is wrong
        prompt, completion = require(block, "prompt_tokens", int, at), require(block, "completion_tokens", int, at)
    total_tokens = prompt + completion
    fields: dict[str, Any] = {"input_tokens": prompt, "output_tokens": completion}
    extra: dict[str, int] = {}
    leftovers: Block = {}
    total = _amount(block.get(_COST))
    skipped = _TOTALS if total is None else (*_TOTALS, *_COSTS)
    for key, value in block.items():
        if key in skipped:
            continue
        kind = type(value)
        if kind is int:
            if key != "total_tokens" or value != total_tokens:
                extra[key] = value
        elif key == "total_tokens" and value == total_tokens:  # 152.0 says the sum too
            continue
        elif kind is dict and key in _DETAILS:
            if not value:
                leftovers[key] = value
            subsets, prefix = _INSIDE[key]
            for inner, count in value.items():
                if type(count) is not int:
                    leftovers.setdefault(key, {})[inner] = count
                elif (target := subsets.get(inner)) is not None:
                    fields[target] = count
                else:
                    extra[prefix + inner] = count
        else:
            leftovers[key] = value
    if extra:
        fields["extra"] = extra
    cost = None if total is None else _decode_cost(total, block, leftovers)
    if len(fields) == 5 and "cache_write_tokens" not in fields and extra:  # OpenAI's own answers
        usage = _usage_of(prompt, completion, fields["cache_read_tokens"], fields["reasoning_tokens"], extra)
        return usage, cost, leftovers
    return build(Usage, **fields), cost, leftovers


_usage_of = maker(Usage, "input_tokens", "output_tokens", "cache_read_tokens", "reasoning_tokens", "extra")


def _decode_cost(total: Decimal, block: Block, leftovers: Block) -> Cost:
    """Cost of ``usage.cost`` and the numbers in ``cost_details``; the rest of it to leftovers."""
    extra: dict[str, Decimal] = {}
    details = block.get(_COST_DETAILS)
    if type(details) is dict and details:
        for key, value in details.items():
            amount = _amount(value)
            if amount is None:
                leftovers.setdefault(_COST_DETAILS, {})[key] = value
            else:
                extra[_COST_EXTRA + key] = amount
    elif _COST_DETAILS in block:  # null, {} or not an object: verbatim
        leftovers[_COST_DETAILS] = details
    return build(Cost, total=total, currency="USD", extra=extra)


def _amount(value: Any) -> Decimal | None:
    """A JSON number as a Decimal (a float through its shortest repr), else None."""
    if type(value) is int:
        return Decimal(value)
    if type(value) is float and math.isfinite(value):
        return Decimal(repr(value))
    return None


def _number(amount: Decimal) -> int | float:
    """The JSON number an amount was read from: an int for exponent 0, else a float."""
    return int(amount) if amount.as_tuple().exponent == 0 else float(amount)


def is_own(key: str) -> bool:
    """A counter by the name rule: ``total_tokens`` or inside one of the two details objects."""
    outer, dot, inner = key.partition(".")
    return key == "total_tokens" if not dot else bool(inner) and outer in _DETAILS


def recorded_counters(usage: Usage) -> list[str]:
    """The counters a decode read that the name rule does not vouch for, for the ``_counters``
    flag: :func:`is_own` spelled as two string tests, as it runs on every decoded answer."""
    return [
        key
        for key in usage.extra
        if key != "total_tokens" and (not key.startswith(_OWN_PREFIXES) or key in _OWN_PREFIXES)
    ]


_OWN_PREFIXES = tuple(outer + "." for outer in _DETAILS)  # and something after the dot


def encode_usage(
    usage: Usage,
    leftovers: Block,
    cost: Cost | None = None,
    out: WarningSink | None = None,
    recorded: Any = None,
) -> Block:
    """The wire ``usage``; ``recorded`` is the echo's ``_counters`` flag. A counter neither the
    name rule nor the record vouches for is left out, reported to ``out`` when given."""
    mine = frozenset(key for key in recorded if isinstance(key, str)) if isinstance(recorded, list) else frozenset()
    block: Block = {
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.input_tokens + usage.output_tokens,
    }
    for (outer, inner), field in _SUBSETS.items():
        value = getattr(usage, field)
        if value is not None:
            block.setdefault(outer, {})[inner] = value
    for key, count in usage.extra.items():
        outer, dot, inner = key.partition(".")
        if dot and inner and outer in _DETAILS:
            block.setdefault(outer, {})[inner] = count
        elif key == "total_tokens" or key in mine:
            block[key] = count
        elif out is not None:
            out.lossy(f"usage.extra.{key}", "usage", f"Chat's usage has no counter {key!r}")
    if cost is not None:
        _encode_cost(cost, block, out)
    for key, value in leftovers.items():
        if key in (*_DETAILS, _COST_DETAILS) and isinstance(value, dict) and isinstance(block.get(key, {}), dict):
            block.setdefault(key, {}).update(value)
        else:
            block[key] = value
    return block


def _encode_cost(cost: Cost, block: Block, out: WarningSink | None) -> None:
    """``usage.cost`` and ``cost_details``, in US dollars (OpenRouter's credits); what the wire
    has no key for (a per-kind split, other charges) is reported, and so is another currency."""
    if cost.currency != "USD":
        if out is not None:
            why = f"usage.cost is in US dollars; a cost in {cost.currency} is left out"
            out.lossy("cost", "cost", why)
        return
    block[_COST] = _number(cost.total)
    details = {k[len(_COST_EXTRA) :]: _number(v) for k, v in cost.extra.items() if k.startswith(_COST_EXTRA)}
    if details:
        block[_COST_DETAILS] = details
    lost = [name for name in ("input", "output", "cache_read", "cache_write") if getattr(cost, name) is not None]
    lost += [key for key in cost.extra if not key.startswith(_COST_EXTRA)]
    if lost and out is not None:
        why = f"usage has no place for the cost's {', '.join(lost)} (sent: its total)"
        out.lossy("cost", "cost", why, action="converted")
