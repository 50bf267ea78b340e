"""Usage, both directions: ``usage.tokens`` are the IR's counts and ``usage.cached_tokens`` its cache
reads (prompt tokens served from the cache, a part of ``input_tokens``); ``usage.billed_units`` and
the shape the counts came in ride in the echo and are written back as they came."""

from __future__ import annotations

from typing import Any

from interlingua import Usage, WarningSink


def decode_usage(usage: Any) -> tuple[Usage, dict[str, Any]]:
    """The IR's counts, and what of the wire's usage it has no field for (``billed_units``, ...,
    and which of ``tokens`` / ``cached_tokens`` were there), for the echo."""
    if not isinstance(usage, dict):
        return Usage(), {"_noUsage": True} if usage is None else {"_usage": usage}
    tokens = usage.get("tokens")
    if tokens is not None and not (isinstance(tokens, dict) and set(tokens) <= {"input_tokens", "output_tokens"}):
        return Usage(), {"_usage": usage}
    tokens = tokens or {}
    cached = usage.get("cached_tokens")
    counted = Usage(
        input_tokens=tokens.get("input_tokens") or 0,
        output_tokens=tokens.get("output_tokens") or 0,
        cache_read_tokens=cached if isinstance(cached, int) else None,
    )
    rest = {k: v for k, v in usage.items() if k not in ("tokens", "cached_tokens")}
    shape = {"tokens": sorted(tokens) if "tokens" in usage else None, "cached": "cached_tokens" in usage}
    return counted, {"_usageRest": rest, "_usageShape": shape}


def report_usage(usage: Usage, out: WarningSink, at: str) -> None:
    """What of a usage this wire's has no field for (Usage: tokens, cached_tokens, billed_units):
    a reasoning count and another wire's own counters (this wire's decode gives none)."""
    if usage.reasoning_tokens is not None:
        why = f"Cohere's usage has no reasoning token count ({usage.reasoning_tokens} of the output tokens)"
        out.lossy(f"{at}.reasoning_tokens", "usage", why)
    for key in usage.extra:
        out.lossy(f"{at}.extra.{key}", "usage", f"Cohere's usage has no {key} counter")


def encode_usage(usage: Usage, kept: dict[str, Any]) -> Any:
    if "_usage" in kept:
        return kept["_usage"]
    shape = kept.get("_usageShape", {"tokens": ["input_tokens", "output_tokens"], "cached": True})
    wire: dict[str, Any] = dict(kept.get("_usageRest", {}))
    if shape["tokens"] is not None:
        counts = {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
        wire["tokens"] = {key: counts[key] for key in shape["tokens"]} if "_usageShape" in kept else counts
    if usage.cache_read_tokens is not None and shape["cached"]:
        wire["cached_tokens"] = usage.cache_read_tokens
    return wire
