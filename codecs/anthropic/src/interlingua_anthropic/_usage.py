"""Usage, both directions: Anthropic's separate prompt counters <-> the IR's totals.

The wire reports ``input_tokens`` without cache reads and writes; the IR's ``input_tokens``
counts them all: ``input = input_tokens + cache_read_input_tokens + cache_creation_input_tokens``.
Nested integer counters (the cache TTL breakdown ``cache_creation.ephemeral_5m_input_tokens``,
``server_tool_use.web_search_requests``) ride in ``extra`` under dotted names; thinking tokens
(``output_tokens_details.thinking_tokens``) are ``reasoning_tokens``. Anything that is not an
integer (``service_tier``, ``iterations``) is returned apart, for the response's echo.

Which counters of ``extra`` are Anthropic's, so that ``encode_usage`` writes them and nothing
else: a gateway that answers in Anthropic's format a Response another codec decoded must not pass
that vendor's counters (``prompt_tokens_details.audio_tokens``, ``toolUsePromptTokenCount``) off as
Anthropic usage fields. Two sources, both from this wire only (the codecs know nothing of each
other):

- a name rule, ``cache_creation.*`` and ``server_tool_use.*``: the counter objects that the SDK's
  ``anthropic.types.Usage`` declares. A counter inside them is Anthropic's even when the SDK does
  not know it yet (``web_fetch_requests`` joined ``web_search_requests`` there);
- a record kept at decode: any other counter this decoder read (a top-level integer, another
  object of integers) is named in the response echo under ``_usage_counters`` (absent when there
  is none), so a same-vendor round trip stays exact and an answer from elsewhere never claims it.

Every other counter is left out with a ``LossyEncode`` at ``usage.extra.<key>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import Usage, WarningSink
from interlingua.kit import expect, join, maker, optional

_READ = "cache_read_input_tokens"
_WRITE = "cache_creation_input_tokens"
_THINKING = "output_tokens_details.thinking_tokens"
_FLAT = frozenset({"input_tokens", "output_tokens", _READ, _WRITE})
_OBJECTS = frozenset({"cache_creation", "server_tool_use"})
RECORDED = "_usage_counters"


def decode_usage(body: Mapping[str, Any], at: str) -> tuple[Usage, dict[str, Any]]:
    """(Usage, the non-integer fields kept verbatim for the echo)."""
    fresh = optional(body, "input_tokens", int, at, 0)
    read = optional(body, _READ, int, at)
    write = optional(body, _WRITE, int, at)
    extra: dict[str, int] = {}
    rest: dict[str, Any] = {}
    for key, value in body.items():
        if key in _FLAT or value is None:
            continue
        if type(value) is int or _is_int(value):  # the first test settles a JSON number
            extra[key] = value
        elif isinstance(value, Mapping) and value and all(type(v) is int or _is_int(v) for v in value.values()):
            for inner, count in value.items():
                extra[f"{key}.{inner}"] = count
        else:
            rest[key] = value
    reasoning = extra.pop(_THINKING, None)
    total = fresh + (read or 0) + (write or 0)
    return _usage_of(total, optional(body, "output_tokens", int, at, 0), read, write, reasoning, extra), rest


_usage_of = maker(  # the fields decode_usage sets, in this order, made once
    Usage, "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens", "extra"
)


def is_own(key: str) -> bool:
    """A counter by the name rule: inside one of the usage objects Anthropic's SDK declares."""
    outer, dot, inner = key.partition(".")
    return bool(dot and inner) and outer in _OBJECTS


def recorded_counters(usage: Usage) -> list[str]:
    """The counters a decode read that the name rule does not vouch for, for the echo."""
    return [key for key in usage.extra if not is_own(key)]


def encode_usage(
    usage: Usage, rest: Mapping[str, Any] | None = None, recorded: Any = None, out: WarningSink | None = None
) -> dict[str, Any]:
    """The wire usage object; ``rest`` (from the echo) is merged back as it came. ``recorded``
    (the echo's ``_usage_counters``) names counters this codec decoded beyond the name rule; any
    other foreign counter is left out, with a warning when ``out`` is given."""
    read, write = usage.cache_read_tokens, usage.cache_write_tokens
    body: dict[str, Any] = {"input_tokens": max(usage.input_tokens - (read or 0) - (write or 0), 0)}
    if write is not None:
        body[_WRITE] = write
    if read is not None:
        body[_READ] = read
    body["output_tokens"] = usage.output_tokens
    counters = own_counters(usage, recorded, out)
    if usage.reasoning_tokens is not None:
        counters[_THINKING] = usage.reasoning_tokens
    for key, count in counters.items():
        outer, dot, inner = key.partition(".")
        if dot:
            body.setdefault(outer, {})[inner] = count
        else:
            body[key] = count
    if rest:
        body.update(rest)
    return body


def own_counters(usage: Usage, recorded: Any, out: WarningSink | None) -> dict[str, int]:
    """``usage.extra`` without the counters that are not Anthropic's, each reported to ``out``."""
    mine = frozenset(key for key in recorded if isinstance(key, str)) if isinstance(recorded, list) else frozenset()
    counters: dict[str, int] = {}
    for key, count in usage.extra.items():
        if is_own(key) or key in mine:
            counters[key] = count
        elif out is not None:
            out.lossy(f"usage.extra.{key}", "usage", f"Anthropic's usage has no counter {key!r}")
    return counters


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def merge_usage(start: Mapping[str, Any], delta: Mapping[str, Any], at: str) -> dict[str, Any]:
    """A stream's usage: message_delta counters are cumulative and replace message_start's;
    a key the delta leaves out (or sends as null) keeps its start value."""
    merged = dict(start)
    for key, value in delta.items():
        if value is not None:
            merged[key] = value
    expect(merged, dict, join(at, "usage"))
    return merged
