"""Cache lifetimes across wires: a ``CacheControl.ttl`` mapped onto the lifetimes a wire takes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._warnings import WarningSink

_MINUTES = {"5m": 5, "30m": 30, "1h": 60, "12h": 720}
"""Every lifetime the IR holds, in minutes (``CacheControl.ttl``)."""


def cache_ttl(ttl: str | None, taken: tuple[str, ...], out: WarningSink, path: str, wire: str) -> str | None:
    """``ttl`` when the wire takes it (None, the wire's default, always), else the shortest
    lifetime it takes that is at least as long (a vendor's lifetime is a minimum: the prefix is
    kept at least that long), else its longest; a changed one is a LossyEncode (converted)."""
    if ttl is None or ttl in taken:
        return ttl
    asked = _MINUTES[ttl]
    longer = [t for t in taken if _MINUTES[t] >= asked]
    chosen = min(longer, key=_MINUTES.__getitem__) if longer else max(taken, key=_MINUTES.__getitem__)
    why = f"{wire} keeps a cached prefix {' or '.join(taken)}: a {ttl} lifetime is sent as {chosen}"
    out.lossy(path, "cache_control", why, action="converted")
    return chosen
