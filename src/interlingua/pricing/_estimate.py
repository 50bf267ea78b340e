"""Usage -> Cost: a turn's token counts priced from a table, the arithmetic written out once."""

from __future__ import annotations

import warnings
from decimal import Decimal

from .._cost import Cost, tidy
from .._response import Usage
from ._table import ModelPrice, PriceTable, Rates, default_prices


class UnknownPriceWarning(UserWarning):
    """:func:`estimate` had no price to use, so it gave None; ``model`` names the model asked for.

    Raised as a warning, not an error, because a missing price is normal for a new or private
    model: the caller gets None (no cost known) and this message, never a cost guessed from a
    similar name. ``warnings.simplefilter("error", UnknownPriceWarning)`` makes it strict.
    """

    def __init__(self, message: str, model: str | None) -> None:
        super().__init__(message)
        self.model = model


def estimate(usage: Usage, model: str | None, prices: PriceTable | None = None) -> Cost | None:
    """What ``usage`` cost on ``model``, from ``prices`` (the bundled table by default).

    The IR's counts are split into what each bills as (Usage's convention: ``input_tokens``
    counts the whole prompt, ``output_tokens`` all generated tokens):

    - uncached input = input - cache reads - cache writes, at the input rate;
    - cache reads at the cache-read rate;
    - cache writes at the default-retention write rate, except those a provider's usage
      reports as written with a longer retention (``ModelPrice.write_ttl_keys``), at that
      retention's rate;
    - output at the output rate, reasoning included: reasoning bills as output.

    A long-context tier is chosen by this turn's prompt size, so estimate each response and
    add the costs; a summed Usage of many turns would cross a tier no single turn crossed.

    None, with an :class:`UnknownPriceWarning` naming the model, when the table has no price
    for the model (exact ids and listed aliases only) or for a cache retention the usage
    reports. Counts that contradict each other (more cache tokens than prompt tokens) are a
    ValueError: they are a bug upstream, not a price to guess.
    """
    table = default_prices() if prices is None else prices
    price = None if model is None else table.get(model)
    if price is None:
        why = "no model named, so no price to look up" if model is None else _UNKNOWN.format(model=model)
        if model is not None and model in table.unpriced:
            why = f"{why} ({table.unpriced[model]})"
        warnings.warn(UnknownPriceWarning(why, model), stacklevel=2)
        return None
    priced = _priced(usage, price, price.rates_for(usage.input_tokens), table.currency)
    if isinstance(priced, str):
        warnings.warn(UnknownPriceWarning(priced, model), stacklevel=2)
        return None
    return priced


_UNKNOWN = (
    "no price for model {model!r} in the price table; add it with PriceTable.merged() "
    "(prices are never guessed from a similar name)"
)


def _priced(usage: Usage, price: ModelPrice, rates: Rates, currency: str) -> Cost | str:
    """The cost, or why there is no price for it."""
    read = usage.cache_read_tokens or 0
    write = usage.cache_write_tokens or 0
    fresh = usage.input_tokens - read - write
    if fresh < 0:
        raise ValueError(
            f"usage counts {read} cache reads and {write} cache writes in a prompt of {usage.input_tokens} "
            "tokens; input_tokens must include both"
        )
    write_cost = Decimal(0)
    default_writes = write
    for ttl, key in price.write_ttl_keys.items():
        tokens = usage.extra.get(key, 0)
        if not tokens:
            continue
        rate = rates.cache_write_ttl.get(ttl)
        if rate is None:
            return f"no {ttl} cache-write price for model {price.model!r} in the price table"
        write_cost += _per_million(tokens, rate)
        default_writes -= tokens
    if default_writes < 0:
        raise ValueError(f"usage counts more cache writes by retention than its {write} cache writes in all")
    write_cost += _per_million(default_writes, rates.cache_write)
    parts = {
        "input": _per_million(fresh, rates.input),
        "output": _per_million(usage.output_tokens, rates.output),
        "cache_read": None if usage.cache_read_tokens is None else _per_million(read, rates.cache_read),
        "cache_write": None if usage.cache_write_tokens is None else tidy(write_cost),
    }
    total = sum((amount for amount in parts.values() if amount is not None), Decimal(0))
    return Cost(**parts, total=tidy(total), currency=currency)


def _per_million(tokens: int, rate: Decimal) -> Decimal:
    # Exact while tokens x rate fits Decimal's 28 significant digits, far beyond any real bill.
    return tidy((tokens * rate).scaleb(-6))
