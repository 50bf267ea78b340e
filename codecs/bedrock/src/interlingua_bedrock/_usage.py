"""Usage, both directions (botocore's ``TokenUsage``): ``inputTokens`` on this wire excludes the
prompt-cache reads and writes (``totalTokens`` = input + cache read + cache write + output, as
recorded answers show), so the IR's ``input_tokens`` adds them. Integer fields botocore does not
name (``cacheReadInputTokenCount``, ...) ride in ``usage.extra``; a total that is not the sum, and
counts the wire left out, are kept there too so the body comes back as it came."""

from __future__ import annotations

from typing import Any

from interlingua import Usage, WarningSink

_USAGE = ("inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokens", "cacheWriteInputTokens")


def decode_usage(usage: dict[str, Any] | None) -> tuple[Usage, dict[str, Any]]:
    """The IR's Usage, and what of the wire's usage object it has no field for (non-integers)."""
    if usage is None:
        return Usage(), {"absent": True}
    ints = {k: v for k, v in usage.items() if isinstance(v, int) and not isinstance(v, bool)}
    kept = {k: v for k, v in usage.items() if k not in ints}
    read, write = ints.get("cacheReadInputTokens"), ints.get("cacheWriteInputTokens")
    prompt = ints.get("inputTokens", 0) + (read or 0) + (write or 0)
    output = ints.get("outputTokens", 0)
    extra = {k: v for k, v in ints.items() if k not in _USAGE}
    if ints.get("totalTokens") != prompt + output:
        extra["totalTokens"] = ints.get("totalTokens", -1)
    for key in ("inputTokens", "outputTokens"):
        if key not in ints:
            extra[f"{key}Absent"] = 1
    return Usage(
        input_tokens=prompt, output_tokens=output, cache_read_tokens=read, cache_write_tokens=write, extra=extra
    ), kept


def encode_usage(
    usage: Usage, kept: dict[str, Any], *, own: bool, out: WarningSink, at: str = "usage"
) -> dict[str, Any] | None:
    """``own``: the usage came from this wire (its counters in ``extra`` are Bedrock's); another
    vendor's counters have no field here and are reported, each at ``<at>.extra.<key>``."""
    if kept.get("absent"):
        return None
    extra = dict(usage.extra)
    if not own:
        for key in extra:
            out.lossy(f"{at}.extra.{key}", "usage", f"Converse usage has no {key} counter")
        extra = {}
    if usage.reasoning_tokens is not None:  # TokenUsage counts no reasoning tokens apart
        why = f"Converse usage has no reasoning token count ({usage.reasoning_tokens} of the output tokens)"
        out.lossy(f"{at}.reasoning_tokens", "usage", why)
    read, write = usage.cache_read_tokens, usage.cache_write_tokens
    wire: dict[str, Any] = {}
    if not extra.pop("inputTokensAbsent", 0):
        wire["inputTokens"] = usage.input_tokens - (read or 0) - (write or 0)
    if not extra.pop("outputTokensAbsent", 0):
        wire["outputTokens"] = usage.output_tokens
    total = extra.pop("totalTokens", None)
    if total != -1:
        wire["totalTokens"] = total if total is not None else usage.input_tokens + usage.output_tokens
    if read is not None:
        wire["cacheReadInputTokens"] = read
    if write is not None:
        wire["cacheWriteInputTokens"] = write
    wire.update(extra)
    wire.update({k: v for k, v in kept.items() if k != "absent"})
    return wire
