"""Wire detection: which wire format and which kind (request, response, stream) a body is.

Every installed codec is asked (its ``sniff`` and ``sniff_stream``: the signs of its own wire live
in the codec, so a third-party codec's wire is detected too) and the strongest claim wins. The
reason names the evidence; where another wire's claim came within one sign of it, the reason says
that wire fits too and that ``--from`` settles it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import codecs, get_codec
from .._sniff import DISTINCTIVE, Sniffed
from .._sniff import Kind as Kind  # re-exported: the CLI modules spell a kind with it

TRANSCRIPT = "transcript"
"""The pseudo-wire name of interlingua's own transcript format (``--from/--to transcript``)."""


class DetectError(ValueError):
    """The body matches no known shape; the message says what was looked for."""


@dataclass(frozen=True, slots=True)
class Detected:
    """``certain``: the claim rested on a sign only that wire has (not on signs several share)."""

    wire: str
    kind: Kind
    reason: str
    certain: bool = True


def detect_body(body: Any) -> Detected:
    """The wire and kind of one parsed JSON body (a request, a response, a transcript, or a log:
    a GenAI span, or an array of a framework's messages)."""
    if isinstance(body, list):
        found = _strongest(lambda sniffer: None, _log_claims(body))
        if found is None:
            known = ", ".join(_log_formats())
            raise DetectError(f"expected a JSON object, got an array of no known log format ({known})")
        return found
    if not isinstance(body, Mapping):
        raise DetectError(f"expected a JSON object, got {_type_name(body)}")
    if body.get("format") == "interlingua.transcript":
        return Detected(TRANSCRIPT, "request", "'format' is 'interlingua.transcript'")
    found = _strongest(lambda sniffer: sniffer.sniff(body), _log_claims(body))
    if found is None:
        raise DetectError(f"no known request or response shape: no installed codec ({_installed()}) claims it")
    return found


def detect_stream(first_events: Sequence[tuple[str, Any]]) -> Detected:
    """The wire of a recorded SSE stream, from its first events as (event name, parsed data)."""
    found = _strongest(lambda sniffer: sniffer.sniff_stream(first_events))
    if found is None:
        raise DetectError(f"a stream of no known wire: no installed codec ({_installed()}) claims its events")
    return found


def _strongest(ask: Callable[[Any], Sniffed | None], logs: Sequence[tuple[str, Sniffed]] = ()) -> Detected | None:
    """The strongest claim of the codecs' (``ask``) and the log formats' (``logs``)."""
    found = [(claim, name) for name in codecs() if (claim := _claim(ask, name)) is not None]
    found.extend((claim, name) for name, claim in logs)
    return strongest(found)


def strongest(found: Sequence[tuple[Sniffed, str]]) -> Detected | None:
    """The strongest of (claim, format name) pairs, the reason naming any format within one sign
    of it (``--from`` settles it); None for no claim. Wires, logs and tuning formats rank alike."""
    claims = sorted(found, key=lambda pair: -pair[0].score)
    if not claims:
        return None
    best, wire = claims[0]
    close = [name for claim, name in claims[1:] if best.score - claim.score < 1]
    also = f"; {', '.join(close)} fits too: pass --from to choose" if close else ""
    return Detected(wire, best.kind, best.reason + also, certain=best.score >= DISTINCTIVE)


def _claim(ask: Callable[[Any], Sniffed | None], name: str) -> Sniffed | None:
    """One codec's claim. A sniffer that fails on an odd body (a third party's bug) makes no claim
    rather than ending detection with an untyped error: detection raises DetectError or nothing."""
    try:
        return ask(get_codec(name))
    except Exception:
        return None


def _installed() -> str:
    return ", ".join(codecs()) or "none"


def _type_name(value: Any) -> str:
    return {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}.get(
        type(value), "null" if value is None else type(value).__name__
    )


# -- logs (interlingua.logs): a GenAI span, a framework's messages -----------------------------


def is_log(name: str | None) -> bool:
    """Whether ``name`` is a log format's (``--from NAME``) rather than a wire's."""
    return name is not None and name in _log_formats()


def _log_formats() -> list[str]:
    from ..logs import formats

    return formats()


def _log_claims(body: Any) -> list[tuple[str, Sniffed]]:
    from ..logs import sniff

    return sniff(body)
