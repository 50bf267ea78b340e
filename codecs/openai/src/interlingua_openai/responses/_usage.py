"""Responses usage <-> Usage. OpenAI's input_tokens already include cached tokens and its
output_tokens include reasoning tokens, the IR's convention too, so the figures carry over.

Every other integer counter in the details goes to ``Usage.extra``, so nothing a host prices or
sums is left in an echo: ``input_tokens_details`` counters under their own name, one nested level
dotted (``cache_write_tokens_details.ttl_12h_tokens``, the key the price table reads for
12-hour cache writes), ``output_tokens_details`` counters with that prefix
(``output_tokens_details.audio_tokens``) so the two sides never collide. The encoder writes back
what the SDK's ``ResponseUsage`` declares (``cache_write_tokens_details``); any other counter
is written only from the recorded usage of this codec's own decode (``encode_usage_like``), so
another vendor's counters never land in a Responses body. The record is the wire usage itself,
kept in the response echo when the canonical form would differ: Responses counters have plain
names (``audio_tokens`` from ``input_tokens_details``) that no name rule could tell from another
vendor's, and the recorded usage is needed anyway for details the vendor left out. A counter left
out is reported with a ``LossyEncode`` at ``usage.extra.<key>`` when a sink is given.
"""

from __future__ import annotations

from typing import Any

from interlingua import Usage, WarningSink
from interlingua.kit import construct, expect, optional, require

_INPUT_MAPPED = frozenset({"cached_tokens", "cache_write_tokens"})
_OUTPUT_MAPPED = frozenset({"reasoning_tokens"})
_OUTPUT = "output_tokens_details."
_WRITE_DETAILS = "cache_write_tokens_details"


def _counters(details: dict[str, Any], prefix: str, mapped: frozenset[str], extra: dict[str, int]) -> None:
    """The integer counters of ``details`` the Usage fields do not hold, into ``extra``."""
    for key, value in details.items():
        if type(value) is int:
            if key not in mapped:
                extra[prefix + key] = value
        elif type(value) is dict:
            for inner, count in value.items():
                if type(count) is int:
                    extra[f"{prefix}{key}.{inner}"] = count


def decode_usage(block: Any, at: str = "usage") -> Usage:
    block = expect(block, dict, at)
    inputs = optional(block, "input_tokens_details", dict, at) or {}
    outputs = optional(block, "output_tokens_details", dict, at) or {}
    where_in, where_out = f"{at}.input_tokens_details", f"{at}.output_tokens_details"
    extra: dict[str, int] = {}
    _counters(inputs, "", _INPUT_MAPPED, extra)
    _counters(outputs, _OUTPUT, _OUTPUT_MAPPED, extra)
    return construct(
        Usage,
        input_tokens=require(block, "input_tokens", int, at),
        output_tokens=require(block, "output_tokens", int, at),
        cache_read_tokens=optional(inputs, "cached_tokens", int, where_in),
        cache_write_tokens=optional(inputs, "cache_write_tokens", int, where_in),
        reasoning_tokens=optional(outputs, "reasoning_tokens", int, where_out),
        extra=extra,
    )


def encode_usage(usage: Usage, out: WarningSink | None = None) -> dict[str, Any]:
    """The canonical usage: the Usage fields and the counters ``ResponseUsage`` declares; any
    other counter is reported to ``out`` (when given) and left out."""
    if out is not None:
        for key in usage.extra:
            if not key.startswith(_WRITE_DETAILS + "."):
                out.lossy(f"usage.extra.{key}", "usage", f"Responses usage has no counter {key!r}")
    # Both required by the SDK's InputTokensDetails (so its Response parses what a gateway
    # writes); an unknown count is 0, as the API reports one.
    inputs: dict[str, Any] = {
        "cached_tokens": usage.cache_read_tokens or 0,
        "cache_write_tokens": usage.cache_write_tokens or 0,
    }
    written = {
        key[len(_WRITE_DETAILS) + 1 :]: count
        for key, count in usage.extra.items()
        if key.startswith(_WRITE_DETAILS + ".")
    }
    if written:
        inputs[_WRITE_DETAILS] = written
    return {
        "input_tokens": usage.input_tokens,
        "input_tokens_details": inputs,
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens or 0},
        "total_tokens": usage.input_tokens + usage.output_tokens,
    }


def encode_usage_like(usage: Usage, recorded: Any, out: WarningSink | None = None) -> dict[str, Any]:
    """The recorded wire usage when it still says exactly ``usage`` (exact re-encoding keeps its
    shape, e.g. details the vendor left out or counters the SDK does not declare); else the
    canonical form."""
    if isinstance(recorded, dict):
        try:
            if decode_usage(recorded) == usage:
                return recorded
        except ValueError:
            pass
    return encode_usage(usage, out)
