"""Find codecs through the ``interlingua.codecs`` entry-point group; the core imports none itself."""

from __future__ import annotations

import os
import re
import sys
from functools import cache
from importlib import import_module
from importlib.machinery import PathFinder
from typing import Any, NamedTuple

from ._codec import Codec, Serving
from ._errors import InterlinguaError

GROUP = "interlingua.codecs"


class UnknownCodecError(InterlinguaError, LookupError):
    """No installed codec has that name; the message lists the ones that are installed."""


class _Entry(NamedTuple):
    """An entry point as ``entry_points.txt`` declares it: ``name = module:attr.attr [extras]``."""

    name: str
    value: str

    def load(self) -> Any:
        # A loop, not functools.reduce: instruction counts toggle on reduce (docs/performance.md),
        # and a codec's lazy import here would land in them.
        module, _, attrs = self.value.partition("[")[0].partition(":")
        found = import_module(module.strip())
        for attr in filter(None, attrs.strip().split(".")):
            found = getattr(found, attr)
        return found


@cache
def _entry_points() -> dict[str, Any]:
    found = _scan(sys.path) if _path_finder_only() else None
    if found is None:
        from importlib.metadata import entry_points

        return {ep.name: ep for ep in entry_points(group=GROUP)}
    return found


def _scan(paths: list[str]) -> dict[str, _Entry] | None:
    """The group's entry points, read from the ``*.dist-info`` and ``*.egg-info`` folders on
    ``paths`` the way ``importlib.metadata.entry_points`` reads them (a distribution's first copy
    on the path wins, in the order the folders list them), without importing it: that
    module pulls in ``email``, ``zipfile`` and ``importlib.resources``, a third of the start-up of
    the four codecs. None where only the stdlib can answer: a zip file or an ``.egg`` folder on
    the path."""
    seen: set[str] = set()
    found: dict[str, _Entry] = {}
    for root in paths:
        try:
            children = os.listdir(root or ".")
        except NotADirectoryError:
            return None  # a zip or an egg file
        except OSError:
            continue  # a folder that does not exist, as the stdlib skips it
        if os.fspath(root).lower().endswith(".egg"):
            return None
        for child in children:
            if not child.lower().endswith((".dist-info", ".egg-info")):
                continue
            distribution = _normalize(child.rpartition(".")[0].partition("-")[0])
            if distribution in seen:
                continue
            seen.add(distribution)
            found.update((entry.name, entry) for entry in _group(os.path.join(root or ".", child, "entry_points.txt")))
    return found


_PATH_SEARCHERS = frozenset({("importlib_metadata", "MetadataPathFinder")})
"""Finders that list the distributions on ``sys.path`` just as the stdlib does: the backport,
which puts its finder on ``sys.meta_path`` in any process that imports it."""


def _path_finder_only() -> bool:
    """Whether distributions can come only from the path: no finder on ``sys.meta_path`` but the
    stdlib's (and the backport's) lists distributions of its own (``importlib.metadata`` would
    ask it)."""
    for finder in sys.meta_path:
        if finder is PathFinder or not hasattr(finder, "find_distributions"):
            continue
        kind = finder if isinstance(finder, type) else type(finder)
        if (kind.__module__, kind.__qualname__) not in _PATH_SEARCHERS:
            return False
    return True


def _normalize(name: str) -> str:
    """PEP 503 with underscores, as ``importlib.metadata`` keys distributions."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _group(path: str) -> list[_Entry]:
    """The entries of :data:`GROUP` in one ``entry_points.txt`` (an INI file: ``[group]`` headers,
    ``name = value`` lines, ``#`` comments)."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError:
        return []
    section = None
    entries = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section == GROUP:
            name, _, value = line.partition("=")
            entries.append(_Entry(name.strip(), value.strip()))
    return entries


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


class ServedWire(NamedTuple):
    """An installed codec that declares how it is served (``Codec.serving``)."""

    codec: str
    provider: str
    serving: Serving

    @property
    def path(self) -> str:
        return self.serving.path


def served() -> tuple[ServedWire, ...]:
    """Every installed codec that declares ``serving``, by name: the gateway's routes, the CLI's
    batch lines and logged paths.

    One route, one codec: where two installed codecs declare the same ``serving.path`` (a plug-in
    that re-declares a route), the one whose name sorts first serves it, and the others are
    reached as upstreams only; :func:`shadowed` lists them. Installing a plug-in never takes a
    route from a codec that sorts before it, and never stops the others from loading."""
    return _served()[0]


def shadowed() -> tuple[tuple[ServedWire, str], ...]:
    """The codecs whose route another codec serves (see :func:`served`): each with the name of
    the codec that serves it."""
    return _served()[1]


def _served() -> tuple[tuple[ServedWire, ...], tuple[tuple[ServedWire, str], ...]]:
    found: dict[str, ServedWire] = {}
    lost: list[tuple[ServedWire, str]] = []
    for name in codecs():
        codec = get_codec(name)
        serving = codec.serving
        if serving is None:
            continue
        wire = ServedWire(name, codec.provider, serving)
        if serving.path in found:
            lost.append((wire, found[serving.path].codec))
            continue
        found[serving.path] = wire
    return tuple(found.values()), tuple(lost)
