"""Responses usage <-> Usage. OpenAI's input_tokens already include cached tokens and its
output_tokens include reasoning tokens, the IR's convention too, so the figures carry over."""

from __future__ import annotations

from typing import Any

from interlingua import Usage
from interlingua.kit import construct, expect, optional, require


def decode_usage(block: Any, at: str = "usage") -> Usage:
    block = expect(block, dict, at)
    inputs = optional(block, "input_tokens_details", dict, at) or {}
    outputs = optional(block, "output_tokens_details", dict, at) or {}
    where_in, where_out = f"{at}.input_tokens_details", f"{at}.output_tokens_details"
    extra: dict[str, int] = {}
    for key, value in {**inputs, **outputs}.items():
        if key not in ("cached_tokens", "cache_write_tokens", "reasoning_tokens") and type(value) is int:
            extra[key] = value
    return construct(
        Usage,
        input_tokens=require(block, "input_tokens", int, at),
        output_tokens=require(block, "output_tokens", int, at),
        cache_read_tokens=optional(inputs, "cached_tokens", int, where_in),
        cache_write_tokens=optional(inputs, "cache_write_tokens", int, where_in),
        reasoning_tokens=optional(outputs, "reasoning_tokens", int, where_out),
        extra=extra,
    )


def encode_usage(usage: Usage) -> dict[str, Any]:
    inputs: dict[str, Any] = {"cached_tokens": usage.cache_read_tokens or 0}
    if usage.cache_write_tokens is not None:
        inputs["cache_write_tokens"] = usage.cache_write_tokens
    return {
        "input_tokens": usage.input_tokens,
        "input_tokens_details": inputs,
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens or 0},
        "total_tokens": usage.input_tokens + usage.output_tokens,
    }


def encode_usage_like(usage: Usage, recorded: Any) -> dict[str, Any]:
    """The recorded wire usage when it still says exactly ``usage`` (exact re-encoding keeps its
    shape, e.g. details the vendor left out); else the canonical form."""
    if isinstance(recorded, dict):
        try:
            if decode_usage(recorded) == usage:
                return recorded
        except ValueError:
            pass
    return encode_usage(usage)
