"""ThinkingBudgets: a level -> token budget table, one direction or the other, for any codec.

A vendor takes either a thinking level or a token budget, and the IR holds either: each codec
maps one to the other through a documented table, and a caller passes a table of its own to
override it (``get_codec("acme-chat", budgets=ThinkingBudgets(low=2000, high=20000))``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from itertools import pairwise
from typing import Annotated, Any, get_args

from pydantic import Field, model_validator

from ._model import IRModel
from ._request import ThinkingLevel
from ._warnings import WarningSink

Tokens = Annotated[int, Field(gt=0, strict=True)]

LEVELS: tuple[ThinkingLevel, ...] = tuple(level for level in get_args(ThinkingLevel) if level != "off")
"""The levels a budget can stand for, least thinking first ("off" is no thinking: no budget)."""


class ThinkingBudgets(IRModel):
    """Thinking level -> token budget: ``ThinkingBudgets(low=2048, medium=8192, high=16384)``.

    Each level present gets a positive token count, never less than a lower level's; a level
    left out has no budget, so a codec that sends budgets sends its nearest level's (with a
    warning: ``encode_level``). ``budget`` reads the table, ``level`` reads it
    backwards (a budget -> the nearest level), ``nearest`` moves a level the table lacks to the
    closest one it has. Bad tables raise ``ValueError`` naming the level at fault.

    "Nearest" for budgets is by ratio, not difference: tables grow geometrically (1k, 2k, 8k,
    16k), so 4096 between low=2048 and medium=8192 is equally far from both. A budget exactly
    between two levels, and a level exactly between two others, goes to the higher one.
    """

    minimal: Tokens | None = None
    """The token budget for ``minimal``; None: no budget for the level."""
    low: Tokens | None = None
    """The token budget for ``low``."""
    medium: Tokens | None = None
    """The token budget for ``medium``."""
    high: Tokens | None = None
    """The token budget for ``high``."""
    xhigh: Tokens | None = None
    """The token budget for ``xhigh``."""

    @model_validator(mode="before")
    @classmethod
    def _known_levels(cls, data: Any) -> Any:
        if isinstance(data, dict):
            if "off" in data:
                raise ValueError("level 'off' takes no budget: it means no thinking at all")
            unknown = [key for key in data if key not in LEVELS]
            if unknown:
                raise ValueError(f"unknown thinking level {unknown[0]!r}; levels are {', '.join(LEVELS)}")
        return data

    @model_validator(mode="after")
    def _growing(self) -> ThinkingBudgets:
        table = self.items()
        if not table:
            raise ValueError(f"a ThinkingBudgets needs at least one level of {', '.join(LEVELS)}")
        for (lower, below), (level, tokens) in pairwise(table):
            if tokens < below:
                raise ValueError(f"level {level!r} ({tokens} tokens) is below level {lower!r} ({below} tokens)")
        return self

    def __repr_args__(self) -> list[tuple[str | None, Any]]:
        return list(self.items())  # only the levels present: ThinkingBudgets(low=2048, high=16384)

    def items(self) -> list[tuple[ThinkingLevel, int]]:
        """(level, tokens) for every level present, least thinking first."""
        return [(level, tokens) for level in LEVELS if (tokens := getattr(self, level)) is not None]

    @property
    def levels(self) -> tuple[ThinkingLevel, ...]:
        """The levels this table has a budget for, least thinking first."""
        return tuple(level for level, _ in self.items())

    def budget(self, level: ThinkingLevel) -> int:
        """The budget for ``level``; a level the table lacks is a ValueError (see ``nearest``)."""
        tokens: int | None = getattr(self, level, None) if level in LEVELS else None
        if tokens is None:
            raise ValueError(f"no budget for level {level!r}; this table has {', '.join(self.levels)}")
        return tokens

    def level(self, budget: int) -> ThinkingLevel:
        """The level whose budget is nearest ``budget`` (by ratio); a budget beyond either end of
        the table gets the level at that end."""
        table = self.items()
        above = bisect_right([tokens for _, tokens in table], budget)
        if above == len(table):
            return table[-1][0]
        if above == 0:
            return table[0][0]
        (low_level, low_tokens), (high_level, high_tokens) = table[above - 1], table[above]
        # budget / low < high / budget, in integers: no rounding at the midpoint
        return low_level if budget * budget < low_tokens * high_tokens else high_level

    def nearest(self, level: ThinkingLevel, supported: Iterable[ThinkingLevel] | None = None) -> ThinkingLevel:
        """``level`` itself when ``supported`` (by default this table's levels) has it, else the
        closest supported level in order, the higher on a tie."""
        if level == "off":
            raise ValueError("level 'off' has no nearest thinking level: it means no thinking at all")
        choices = self.levels if supported is None else tuple(s for s in LEVELS if s in set(supported))
        if not choices:
            raise ValueError("no supported thinking level to choose from")
        if level in choices:
            return level
        rank = LEVELS.index(level)
        return min(reversed(choices), key=lambda choice: abs(LEVELS.index(choice) - rank))

    def encode_level(self, level: ThinkingLevel, out: WarningSink) -> int:
        """For an encoder: the budget for ``level``, or for its nearest level when the table lacks
        it, reported as a LossyEncode at ``thinking.level`` (action "converted")."""
        used = self.nearest(level)
        tokens = self.budget(used)
        if used != level:
            why = f"no budget for level {level!r} in the table; sent as {used!r} ({tokens} tokens)"
            out.lossy("thinking.level", "thinking", why, action="converted")
        return tokens

    def replace(self, **levels: int | None) -> ThinkingBudgets:
        """A validated copy with these levels set (``None`` removes one):
        ``codec.budgets.replace(high=20000)`` keeps the codec's other levels."""
        merged = {**self.to_json_dict(), **levels}
        return ThinkingBudgets.model_validate({key: value for key, value in merged.items() if value is not None})
