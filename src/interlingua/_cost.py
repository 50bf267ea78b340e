"""What a turn cost in money: the IR's Cost, beside Usage, and its arithmetic."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, TypeAlias

from pydantic import Field

from ._model import IRModel, empty_dict

Amount: TypeAlias = Annotated[Decimal, Field(allow_inf_nan=False)]
"""A sum of money in the cost's currency: a Decimal, never a float (see :class:`Cost`)."""

_ZERO = Decimal(0)
_ONE = Decimal(1)


def tidy(amount: Decimal) -> Decimal:
    """The same amount without trailing zeros (0.02, not 0.020) and never as 1E+1, so sums
    dump as short as the prices they came from."""
    short = amount.normalize()
    return short.quantize(_ONE) if short.as_tuple().exponent > 0 else short  # type: ignore[operator]  # int when finite


def _add(a: Decimal | None, b: Decimal | None) -> Decimal | None:
    if a is None:
        return b
    return a if b is None else tidy(a + b)


class Cost(IRModel):
    """What a response (or a whole conversation) cost, in one currency.

    - ``input`` is the uncached prompt, ``cache_read`` and ``cache_write`` the cached parts of
      it, ``output`` everything generated (reasoning included: it bills as output). Each is
      None when not known, as when a vendor reports only a total: absent is not zero.
    - ``total`` is what was charged: the sum of the parts for an estimate, the vendor's own
      figure when it reports one (its parts need not add up to it exactly).
    - ``extra`` keeps other charges by name (``"web_search"``, ``"storage"``), in ``total`` too.

    Amounts are ``Decimal``, deliberately: prices are decimal numbers (0.075 per million
    tokens), and a float cannot hold them, so a sum of float costs drifts (0.1 + 0.2 !=
    0.3) and depends on the order it is added in. Decimal sums of prices times token counts
    are exact, so ``+`` is associative, an estimate equals the same sum done by hand, and a
    conversation's total does not depend on how it was summed. ``model_dump(mode="json")``
    writes each amount as a string (``"0.00625"``), which keeps every digit through any JSON
    parser and validates back to an equal value; ints, floats (read through their shortest
    repr, so ``0.1`` is ``Decimal("0.1")``) and numeric strings are accepted on input.

    ``a + b`` adds field by field (None + x = x); costs in different currencies refuse to
    add. ``Cost()`` is zero, and ``sum(costs)`` works.
    """

    input: Amount | None = None
    """The uncached input tokens' cost."""
    output: Amount | None = None
    """The output tokens' cost (reasoning included)."""
    cache_read: Amount | None = None
    """The cost of input read from the cache."""
    cache_write: Amount | None = None
    """The cost of input written to the cache."""
    total: Amount = _ZERO
    """What was charged: the parts' sum for an estimate, the vendor's own figure where it gives one."""
    currency: str = Field(default="USD", pattern=r"^[A-Z]{3}$")
    """The ISO 4217 code of every amount."""
    extra: dict[str, Amount] = Field(default_factory=empty_dict)
    """Other charges by name (``"web_search"``, ``"storage"``), counted in ``total`` too."""

    def __add__(self, other: Cost) -> Cost:
        if not isinstance(other, Cost):
            return NotImplemented
        if other.currency != self.currency:
            raise ValueError(f"cannot add a cost in {other.currency} to a cost in {self.currency}: convert one first")
        extra = dict(self.extra)
        for key, amount in other.extra.items():
            extra[key] = tidy(extra.get(key, _ZERO) + amount)
        return Cost(
            input=_add(self.input, other.input),
            output=_add(self.output, other.output),
            cache_read=_add(self.cache_read, other.cache_read),
            cache_write=_add(self.cache_write, other.cache_write),
            total=tidy(self.total + other.total),
            currency=self.currency,
            extra=extra,
        )

    def __radd__(self, other: int) -> Cost:
        """Lets ``sum(costs)`` start from 0."""
        if other == 0:
            return self
        return NotImplemented
