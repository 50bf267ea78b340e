"""Wire detection's common currency: a codec's claim that a body, or a stream's first events, are
of its wire. The CLI asks every installed codec and takes the strongest claim, so a third-party
codec's wire is detected the same way as the bundled ones."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Kind = Literal["request", "response", "stream"]

DISTINCTIVE = 10.0
"""The score of a key or event that only this wire has; weaker signs count one each."""


@dataclass(frozen=True, slots=True)
class Sniffed:
    """What a codec makes of a body: its ``kind``, how sure it is (``score``: ``DISTINCTIVE`` for a
    key only its wire has, otherwise the signs it counted, with fractions to break ties the way its
    docstring says), and the evidence, in words, for the user (``"has 'contents'"``)."""

    kind: Kind
    score: float
    reason: str


def quoted(keys: Sequence[str]) -> str:
    """``'a', 'b', tools with 'function' (+2 more)``: evidence keys as the reason shows them."""
    shown = ", ".join(key if " " in key else repr(key) for key in keys[:4])
    return shown + (f" (+{len(keys) - 4} more)" if len(keys) > 4 else "")


def stream_score(index: int) -> float:
    """The score of a stream recognised at its ``index``-th event: the earliest recognition wins."""
    return DISTINCTIVE - index / 100
