"""The ``usage`` object <-> Usage.

``prompt_tokens`` already counts cached tokens and ``completion_tokens`` reasoning tokens, so the
totals map one to one; ``prompt_tokens_details.cached_tokens`` / ``cache_write_tokens`` and
``completion_tokens_details.reasoning_tokens`` are the subsets. Other integer counters keep their
wire name in ``extra`` (``prompt_tokens_details.audio_tokens``, Mistral's ``num_cached_tokens``);
``total_tokens`` goes there only when it is not the sum (Gemini's endpoint adds thinking to it).
What is not an integer comes back in ``leftovers`` for the response echo.
"""

from __future__ import annotations

from typing import Any

from interlingua import Usage
from interlingua.kit import require

from ._echo import build
from ._parts import Block

_SUBSETS = {
    ("prompt_tokens_details", "cached_tokens"): "cache_read_tokens",
    ("prompt_tokens_details", "cache_write_tokens"): "cache_write_tokens",
    ("completion_tokens_details", "reasoning_tokens"): "reasoning_tokens",
}
_DETAILS = ("prompt_tokens_details", "completion_tokens_details")


def _is_int(value: Any) -> bool:
    return type(value) is int


def decode_usage(block: Block, at: str) -> tuple[Usage, Block]:
    """(Usage, wire leftovers that are not integer counters)."""
    fields: dict[str, Any] = {
        "input_tokens": require(block, "prompt_tokens", int, at),
        "output_tokens": require(block, "completion_tokens", int, at),
    }
    extra: dict[str, int] = {}
    leftovers: Block = {}
    for key, value in block.items():
        if key in ("prompt_tokens", "completion_tokens"):
            continue
        if key == "total_tokens" and value == fields["input_tokens"] + fields["output_tokens"]:
            continue
        if key in _DETAILS and isinstance(value, dict):
            if not value:
                leftovers[key] = value
            for inner, count in value.items():
                target = _SUBSETS.get((key, inner))
                if not _is_int(count):
                    leftovers.setdefault(key, {})[inner] = count
                elif target is not None:
                    fields[target] = count
                else:
                    extra[f"{key}.{inner}"] = count
        elif _is_int(value):
            extra[key] = value
        else:
            leftovers[key] = value
    if extra:
        fields["extra"] = extra
    return build(Usage, **fields), leftovers


def encode_usage(usage: Usage, leftovers: Block) -> Block:
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
        if dot and outer in _DETAILS:
            block.setdefault(outer, {})[inner] = count
        else:
            block[key] = count
    for key, value in leftovers.items():
        if key in _DETAILS and isinstance(value, dict):
            block.setdefault(key, {}).update(value)
        else:
            block[key] = value
    return block
