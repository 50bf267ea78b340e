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
_TOTALS = ("prompt_tokens", "completion_tokens")


def decode_usage(block: Block, at: str) -> tuple[Usage, Block]:
    """(Usage, wire leftovers that are not integer counters)."""
    prompt, completion = block.get("prompt_tokens"), block.get("completion_tokens")
    if type(prompt) is not int or type(completion) is not int:  # the readers name what is wrong
        prompt, completion = require(block, "prompt_tokens", int, at), require(block, "completion_tokens", int, at)
    fields: dict[str, Any] = {"input_tokens": prompt, "output_tokens": completion}
    extra: dict[str, int] = {}
    leftovers: Block = {}
    for key, value in block.items():
        if key in _TOTALS or (key == "total_tokens" and value == prompt + completion):
            continue
        if key in _DETAILS and type(value) is dict:
            if not value:
                leftovers[key] = value
            for inner, count in value.items():
                if type(count) is not int:
                    leftovers.setdefault(key, {})[inner] = count
                elif (target := _SUBSETS.get((key, inner))) is not None:
                    fields[target] = count
                else:
                    extra[f"{key}.{inner}"] = count
        elif type(value) is int:
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
