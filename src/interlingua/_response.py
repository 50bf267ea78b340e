"""A model's answer: the assistant message, why it stopped, and what it cost in tokens."""

from __future__ import annotations

from typing import Literal, TypeAlias

from pydantic import Field

from ._cost import Cost
from ._message import Message
from ._model import IRModel, empty_dict, empty_list, stated
from ._parts import _Echoing
from ._warnings import AnyWarning

StopReason: TypeAlias = Literal[
    "end_turn",
    "tool_use",
    "max_tokens",
    "stop_sequence",
    "content_filter",
    "pause",
    "cancelled",
    "error",
    "other",
]
STOP_REASONS: tuple[StopReason, ...] = (
    "end_turn",
    "tool_use",
    "max_tokens",
    "stop_sequence",
    "content_filter",
    "pause",
    "cancelled",
    "error",
    "other",
)


def _add(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else a + b


class Usage(IRModel):
    """Token counts, one convention for every vendor.

    - ``input_tokens`` counts ALL prompt tokens, cache reads and cache writes included (a wire
      that reports them apart, such as input + cache_read + cache_creation, is summed here).
    - ``output_tokens`` counts ALL generated tokens, reasoning included (a wire that reports
      candidates and thoughts apart is summed here).
    - ``cache_read_tokens``, ``cache_write_tokens`` and ``reasoning_tokens`` are subsets of the
      two totals, None when the vendor did not report them (not zero: absent is not nothing).
    - ``extra`` keeps other integer counters by their wire name (cache TTL breakdowns, tool-use
      prompt tokens, ...).

    ``a + b`` adds field by field (None + n = n), so a conversation's usage is a sum.
    """

    input_tokens: int = 0
    """Every prompt token, cache reads and writes included."""
    output_tokens: int = 0
    """Every generated token, reasoning included."""
    cache_read_tokens: int | None = None
    """Of ``input_tokens``, those read from the prompt cache; None: not reported."""
    cache_write_tokens: int | None = None
    """Of ``input_tokens``, those written to the prompt cache; None: not reported."""
    reasoning_tokens: int | None = None
    """Of ``output_tokens``, those spent reasoning; None: not reported."""
    extra: dict[str, int] = Field(default_factory=empty_dict)
    """Other integer counters, by their wire name."""

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        extra = dict(self.extra)
        for key, value in other.extra.items():
            extra[key] = extra.get(key, 0) + value
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_tokens=_add(self.cache_read_tokens, other.cache_read_tokens),
            cache_write_tokens=_add(self.cache_write_tokens, other.cache_write_tokens),
            reasoning_tokens=_add(self.reasoning_tokens, other.reasoning_tokens),
            extra=extra,
        )

    def __radd__(self, other: int) -> Usage:
        """Lets ``sum(usages)`` start from 0."""
        if other == 0:
            return self
        return NotImplemented


class Response(_Echoing):
    """The answer to one request.

    ``raw_stop_reason`` keeps the vendor's own string, so encoding back to the same vendor is
    exact; ``provider_echoes`` holds response-level vendor fields with no IR home. ``cost`` is
    what the vendor reported the answer cost, where it does; otherwise None, and
    ``interlingua.pricing.estimate(usage, model)`` estimates it from a dated price table.
    """

    id: str | None = None
    """The vendor's id of the answer."""
    model: str | None = None
    """The model that answered, as the vendor names it (often a dated snapshot)."""
    message: Message = Field(default_factory=stated(lambda: Message(role="assistant")))
    """The answer: an ``assistant`` message of text, thinking and tool-call parts."""
    stop_reason: StopReason | None = None
    """Why generation stopped, in the IR's words (``"end_turn"``, ``"tool_use"``, ``"max_tokens"``, ...)."""
    raw_stop_reason: str | None = None
    """The vendor's own stop string, so that encoding back to that vendor is exact."""
    usage: Usage = Field(default_factory=stated(lambda: Usage()))
    """Token counts, in the one convention ``Usage`` describes."""
    cost: Cost | None = None
    """What the vendor reported the answer cost, where it does; None otherwise."""
    warnings: list[AnyWarning] = Field(default_factory=empty_list)
    """What the decode could keep only in part (``LossyDecode``); empty when nothing was lost."""
