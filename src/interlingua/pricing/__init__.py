"""Cost estimates from a dated price table: ``estimate(usage, model)`` -> Cost or None.

Not imported by ``import interlingua``; the bundled table (``prices.json``, per provider the
date it was read and its source) is read on the first estimate. Extend or correct it with
``default_prices().merged({...})`` or replace it with ``load_prices(path)``, and pass the
result as ``prices=``. A model the table does not name gets None and an
:class:`UnknownPriceWarning`, never a price guessed from a similar name.
"""

from ._estimate import UnknownPriceWarning, estimate
from ._table import ModelPrice, PriceTable, PriceTableError, Rates, Tier, default_prices, load_prices

__all__ = [
    "ModelPrice",
    "PriceTable",
    "PriceTableError",
    "Rates",
    "Tier",
    "UnknownPriceWarning",
    "default_prices",
    "estimate",
    "load_prices",
]
