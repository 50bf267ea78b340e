"""usageMetadata <-> Usage, the arithmetic written out once.

- ``input_tokens`` = promptTokenCount (which already includes cachedContentTokenCount);
- ``output_tokens`` = candidatesTokenCount + thoughtsTokenCount; ``reasoning_tokens`` = thoughts;
- ``cache_read_tokens`` = cachedContentTokenCount; Gemini reports no cache writes;
- ``extra``: toolUsePromptTokenCount and totalTokenCount, by their wire names.
Non-counter fields (per-modality details, trafficType, serviceTier) ride in the response echo.

Gemini's own counters in ``extra`` are known by name: the two above, which the SDK's
``GenerateContentResponseUsageMetadata`` declares and the only ones this decoder reads into
``extra`` (an unknown key stays in the echo), so no record at decode is needed. ``encode`` writes
those two and leaves out every other counter, with a ``LossyEncode`` at ``usage.extra.<key>``: a
gateway answering in Gemini's format a Response another codec decoded must not send that
vendor's counters (``cache_creation.ephemeral_5m_input_tokens``), which google-genai rejects.
"""

from __future__ import annotations

from typing import Any

from interlingua import Usage, WarningSink
from interlingua.kit import construct, expect, join

EXTRA = ("toolUsePromptTokenCount", "totalTokenCount")
_ORDER = ("promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "cachedContentTokenCount", *EXTRA)
_COUNTERS = frozenset(_ORDER)


_COUNT_TYPES = frozenset({int, type(None)})


def decode(meta: dict[str, Any], at: str) -> tuple[Usage, dict[str, Any]]:
    """(Usage, the non-counter fields kept for the echo). A stream reads one per chunk, so the
    counters are read plainly and a path is formatted only for a bad one."""
    get = meta.get
    prompt, candidates, thoughts = get("promptTokenCount"), get("candidatesTokenCount"), get("thoughtsTokenCount")
    cached, tool, total = get("cachedContentTokenCount"), get("toolUsePromptTokenCount"), get("totalTokenCount")
    if not {type(prompt), type(candidates), type(thoughts), type(cached), type(tool), type(total)} <= _COUNT_TYPES:
        for key in _ORDER:
            if meta.get(key) is not None:
                expect(meta[key], int, join(at, key))  # raises for the counter that is not an integer
    extra: dict[str, Any] = {}
    if tool is not None:
        extra["toolUsePromptTokenCount"] = tool
    if total is not None:
        extra["totalTokenCount"] = total
    usage = construct(
        Usage,
        input_tokens=prompt or 0,
        output_tokens=(candidates or 0) + (thoughts or 0),
        cache_read_tokens=cached,
        reasoning_tokens=thoughts,
        extra=extra,
    )
    rest = {key: value for key, value in meta.items() if key not in _COUNTERS}
    return usage, rest


def encode(usage: Usage, rest: dict[str, Any] | None = None, out: WarningSink | None = None) -> dict[str, Any]:
    """The usageMetadata object; zero counters are left out, as the API leaves them out. Another
    vendor's counter in ``extra`` is reported to ``out`` (when given) and left out."""
    meta: dict[str, Any] = dict(rest or {})
    if out is not None:
        for key in usage.extra:
            if key not in EXTRA:
                out.lossy(f"usage.extra.{key}", "usage", f"Gemini's usageMetadata has no counter {key!r}")
    candidates = usage.output_tokens - (usage.reasoning_tokens or 0)
    for key, value in (
        ("promptTokenCount", usage.input_tokens),
        ("candidatesTokenCount", candidates),
        ("thoughtsTokenCount", usage.reasoning_tokens),
        ("cachedContentTokenCount", usage.cache_read_tokens),
    ):
        if value:
            meta[key] = value
    tool = usage.extra.get("toolUsePromptTokenCount")
    if tool:
        meta["toolUsePromptTokenCount"] = tool
    total = usage.extra.get("totalTokenCount", usage.input_tokens + usage.output_tokens + (tool or 0))
    if total or "totalTokenCount" in usage.extra:
        meta["totalTokenCount"] = total
    return meta
