"""The wires the gateway serves: every registered codec that declares ``serving``
(``interlingua.kit.Serving``: its route, its error body, where it asks for a stream).

The codecs know how to send (``http_request``) and how they are served (``serving``); this module
only gathers them, so a third-party codec that declares ``serving`` is served with no change here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._codec import Serving
from .._registry import codecs, get_codec


@dataclass(frozen=True)
class ServedWire:
    """One served wire: the codec's registered name and its ``Serving``."""

    codec: str
    serving: Serving

    @property
    def path(self) -> str:
        return self.serving.path


def served() -> tuple[ServedWire, ...]:
    """Every registered codec that declares how it is served, in the registry's order; two that
    claim one route are refused, naming both."""
    found: dict[str, ServedWire] = {}
    for name in codecs():
        serving = getattr(get_codec(name), "serving", None)
        if not isinstance(serving, Serving):
            continue
        if serving.path in found:
            raise ValueError(f"codecs {found[serving.path].codec!r} and {name!r} both serve {serving.path}")
        found[serving.path] = ServedWire(name, serving)
    return tuple(found.values())
