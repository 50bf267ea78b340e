"""Find codecs through the ``interlingua.codecs`` entry-point group; the core imports none itself."""

from __future__ import annotations

from functools import cache
from typing import Any

from ._codec import Codec
from ._errors import InterlinguaError

GROUP = "interlingua.codecs"


class UnknownCodecError(InterlinguaError, LookupError):
    """No installed codec has that name; the message lists the ones that are installed."""


@cache
def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=GROUP)}


NO_CODECS = "a codec is a package of its own: pip install ./codecs/<vendor> beside the core from a checkout"


def codecs() -> list[str]:
    """The names of every installed codec, sorted."""
    return sorted(_entry_points())


@cache
def _default(name: str) -> Codec:
    return _load(name)()  # type: ignore[no-any-return]  # entry points are typed Any


def _load(name: str) -> Any:
    entry = _entry_points().get(name)
    if entry is None:
        installed = ", ".join(codecs()) or f"none ({NO_CODECS})"
        raise UnknownCodecError(f"no codec named {name!r}; installed codecs: {installed}")
    return entry.load()


def get_codec(name: str, **options: Any) -> Codec:
    """The codec registered as ``name``, built with ``options`` (a dialect, a thinking-budget
    table, ...); without options the same instance is shared."""
    if not options:
        return _default(name)
    return _load(name)(**options)  # type: ignore[no-any-return]  # entry points are typed Any
