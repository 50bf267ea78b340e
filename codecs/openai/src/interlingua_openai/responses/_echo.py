"""This codec's own provider_echoes entries: how wire fields with no IR home ride on IR values.

Conventions, the same everywhere in the package (all keys optional, each read only when it has
the expected JSON type, so another codec's or a hand-made entry never leaks onto the wire):

- ``extra`` (object): wire keys of a block or item with no IR field, written back verbatim.
- ``omit`` (array of strings): keys the encoder would add by default but the wire left out.
- ``item`` (object): on the first part decoded from an output item (message, reasoning,
  function_call, function_call_output), the item's own keys with no IR field (``id``,
  ``status``, ``encrypted_content``, ...). Its presence marks where a new item starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua import ProviderEcho
from interlingua.kit import construct, maker

from .._shared import PROVIDER


def own(value: Any) -> dict[str, Any]:
    """This provider's echo data on an IR value (part, message, citation, response); {} if none."""
    for entry in value.provider_echoes:
        if entry.provider == PROVIDER:
            data: dict[str, Any] = entry.data
            return data
    return {}


def own_model(value: Any) -> str | None:
    for entry in value.provider_echoes:
        if entry.provider == PROVIDER:
            model: str | None = entry.model
            return model
    return None


def object_at(data: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    value = data.get(key)
    return value if isinstance(value, dict) else None


def flag(data: Mapping[str, Any], key: str) -> bool:
    return data.get(key) is True


UNMAPPED = frozenset({"extra.prompt_cache_breakpoint.ttl", "item.content"})
"""Echo keys with a meaning no IR field holds yet, marked ``unmapped`` so every other wire reports
them dropped (openai types: a ``PromptCacheBreakpoint``'s ``ttl`` other than the 30m and 12h
``CacheControl`` holds (the breakpoint itself is the part's ``cache_control``); a
reasoning item's ``content`` of ``reasoning_text``, the reasoning itself, where ``summary`` is
what maps)."""


def make(data: dict[str, Any], model: str | None = None) -> list[ProviderEcho]:
    """The echo list for freshly decoded wire data: one entry, or none when there is nothing."""
    if not data:
        return []
    unmapped = _unmapped(data)
    if unmapped:
        return [_unmapped_of(provider=PROVIDER, data=data, model=model, unmapped=unmapped)]
    return [echo_of(provider=PROVIDER, data=data, model=model)]


def _unmapped(data: Mapping[str, Any]) -> list[str]:
    found = []
    extra = data.get("extra")
    if isinstance(extra, dict):
        mark = extra.get("prompt_cache_breakpoint")
        if isinstance(mark, dict) and "ttl" in mark and mark["ttl"] not in ("30m", "12h"):  # those: cache_control's
            found.append("extra.prompt_cache_breakpoint.ttl")
    item = data.get("item")
    if isinstance(item, dict) and isinstance(item.get("content"), list) and item["content"]:
        found.append("item.content")
    return found


def leftover(block: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """``block``'s keys outside ``known`` (usually none: one set comparison decides that)."""
    if block.keys() <= known:
        return {}
    return {k: v for k, v in block.items() if k not in known}


def apply(block: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """``block`` with the echo's ``omit`` keys removed and its ``extra`` keys written over it."""
    omit = data.get("omit")
    if isinstance(omit, list):
        for key in omit:
            if isinstance(key, str):
                block.pop(key, None)
    extra = data.get("extra")
    if isinstance(extra, dict):
        block.update(extra)
    return block


def with_extra(data: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    if extra:
        data["extra"] = extra
    return data


build = construct  # the kit's trusted constructor (PERF.md)
echo_of = maker(ProviderEcho, "provider", "data", "model")
_unmapped_of = maker(ProviderEcho, "provider", "data", "model", "unmapped")
