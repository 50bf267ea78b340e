"""This codec's own provider echoes: wire keys with no IR field, carried verbatim, and a few flags.

Echo data keys that start with ``_`` are flags for this codec (``_list``: content was an array
where a string would do; ``_omit``: keys the wire left out that the encoder writes by default);
every other key is a wire key merged back into the block as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from interlingua import ProviderEcho, WarningSink
from interlingua.kit import construct, maker

from .._shared import BREAKPOINT, BREAKPOINT_TTLS
from ._dialect import Dialect, ToolIds

OMIT = "_omit"
REASONING_AS = "_reasoning_as"  # a message's reasoning key when it is not the dialect's own (``reasoning_also``)
build = construct  # the kit's trusted constructor (PERF.md)
_echo_of = maker(ProviderEcho, "provider", "data", "model")  # the shape echo_list builds
_unmapped_of = maker(ProviderEcho, "provider", "data", "model", "unmapped")
# A part's explicit cache breakpoint (openai ``PromptCacheBreakpoint``: ``mode`` explicit, ``ttl``
# 30m or 12h; "marks the exact end of a reusable prompt prefix", gpt-5.6 and later:
# https://developers.openai.com/api/docs/guides/prompt-caching): the part's ``cache_control`` (its
# ttl the mark's), its spelling kept in the echo and written back while the part keeps the mark.
UNMAPPED = frozenset({"function_call"})
"""Wire keys with a meaning no IR field holds yet, marked ``unmapped`` in the echo so every other
wire reports them dropped: an assistant message's deprecated ``function_call`` (one call, no id),
and (``echo_list``) a breakpoint's ``ttl`` other than the 30m and 12h ``CacheControl`` holds."""
WRITES_UNMAPPED = frozenset({"wire.function_call", f"wire.{BREAKPOINT}.ttl"})


@dataclass(slots=True)
class Ctx:
    """One encode or decode: the dialect, whose echoes are ours, ids, warnings, tool names."""

    dialect: Dialect
    provider: str
    ids: ToolIds
    out: WarningSink
    names: dict[str, str] = field(default_factory=dict)


def extras(block: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The keys of ``block`` this codec does not map, verbatim."""
    return {k: v for k, v in block.items() if k not in known}


def present(block: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Like :func:`extras`, nulls left out: in answers a null and an absent key say the same, and
    streams send either."""
    return {k: v for k, v in block.items() if k not in known and v is not None}


def echo_list(provider: str, data: dict[str, Any], model: str | None = None) -> list[ProviderEcho]:
    """``[ProviderEcho]`` for ``data`` (wire keys, and ``_`` flags), or none when it is empty.

    Wire keys are stored under ``"wire"``, so flags and wire keys never mix in the stored echo.
    """
    if not data:
        return []
    wire = {key: value for key, value in data.items() if key[:1] != "_"}
    if len(wire) == len(data):  # no flags (an answer's top level, most blocks' unknown keys)
        stored = {"wire": wire}
    else:
        stored = {key: value for key, value in data.items() if key[:1] == "_"}
        if wire:
            stored["wire"] = wire
    unmapped = [f"wire.{key}" for key in sorted(wire.keys() & UNMAPPED)] if wire.keys() & UNMAPPED else []
    mark = wire.get(BREAKPOINT)
    if type(mark) is dict and "ttl" in mark and mark["ttl"] not in BREAKPOINT_TTLS:  # 30m, 12h: cache_control's
        unmapped.append(f"wire.{BREAKPOINT}.ttl")
    if unmapped:
        return [_unmapped_of(provider, stored, model, unmapped)]
    return [_echo_of(provider, stored, model)]


def own(echoes: list[ProviderEcho], provider: str) -> dict[str, Any]:
    """This provider's echo data in ``echoes``, flat (wire keys and flags); empty when none.
    Echoes are input like any other: a value of the wrong shape is ignored, never trusted."""
    for entry in echoes:
        if entry.provider == provider:
            data = entry.data
            flat = {k: v for k, v in data.items() if k.startswith("_")}
            wire = data.get("wire")
            if isinstance(wire, dict):
                flat.update(wire)
            return flat
    return {}


def part_of(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    """``data[key]`` when it is an object, else empty."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def merge_into(block: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """Put an echo's wire keys back on ``block`` and drop the keys it says the wire left out."""
    for key, value in data.items():
        if key == OMIT:
            if isinstance(value, list):
                for gone in value:
                    if isinstance(gone, str):
                        block.pop(gone, None)
        elif not key.startswith("_"):
            block[key] = value
    return block
