"""The price table: reading and checking it, and finding a model's rates in it.

A table is JSON (the bundled ``prices.json`` is one): per provider a date, a source and the
models' rates in the table's currency per million tokens. Every rate is checked when the table
is read, so a bad table fails at once, naming the model and the field, and never prices a turn
at zero.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

FORMAT: Final = "interlingua.prices"
VERSION: Final = 1
_RATES: Final = ("input", "output", "cache_read", "cache_write")
_MODEL_KEYS: Final = frozenset({*_RATES, "cache_write_ttl", "tiers"})
_TIER_KEYS: Final = frozenset({*_RATES, "cache_write_ttl", "above"})
_PROVIDER_KEYS: Final = frozenset({"as_of", "source", "notes", "write_ttl_keys", "models", "aliases", "unpriced"})
_TOP_KEYS: Final = frozenset({"format", "version", "currency", "unit", "notes", "providers"})
_CURRENCY: Final = re.compile(r"[A-Z]{3}")


class PriceTableError(ValueError):
    """A price table that cannot be used; ``model`` and ``field`` say where, when it is one model."""

    def __init__(self, message: str, *, model: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.model = model
        self.field = field


@dataclass(frozen=True, slots=True)
class Rates:
    """Prices per million tokens. ``cache_write`` is the default (shortest) cache retention;
    ``cache_write_ttl`` holds the longer retentions a provider sells, by its own name ("1h")."""

    input: Decimal
    output: Decimal
    cache_read: Decimal
    cache_write: Decimal
    cache_write_ttl: Mapping[str, Decimal] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Tier:
    """Rates for a request whose prompt (all its input tokens) is above ``above`` tokens."""

    above: int
    rates: Rates


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """One model's prices, with where and when they were read.

    ``write_ttl_keys`` maps a longer cache retention to the ``Usage.extra`` counter that reports
    the tokens written with it; cache writes not counted there bill at the default retention.
    """

    model: str
    provider: str
    as_of: date
    source: str
    rates: Rates
    tiers: tuple[Tier, ...] = ()
    write_ttl_keys: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def rates_for(self, prompt_tokens: int) -> Rates:
        """The rates of the highest tier the prompt is above, else the base rates: the tiers
        of every provider in the table bill the whole request at the tier's rates."""
        chosen = self.rates
        for tier in self.tiers:
            if prompt_tokens > tier.above:
                chosen = tier.rates
        return chosen


class PriceTable:
    """Model ids (exact, plus the aliases and dated snapshots a table lists) to their prices.

    Lookup is exact: a model the table does not name has no price, however close its name is
    to one that does. Tables are immutable; :meth:`merged` makes a new one.
    """

    __slots__ = ("_aliases", "_models", "currency", "unpriced")

    def __init__(
        self,
        models: Mapping[str, ModelPrice],
        aliases: Mapping[str, str],
        currency: str = "USD",
        unpriced: Mapping[str, str] | None = None,
    ) -> None:
        for alias, target in aliases.items():
            if target not in models:
                raise PriceTableError(f"price table: alias {alias!r} names {target!r}, which has no price", model=alias)
        self._models = dict(models)
        self._aliases = {alias: target for alias, target in aliases.items() if alias not in models}
        self.currency = currency
        self.unpriced = {model: why for model, why in (unpriced or {}).items() if model not in self}
        """Models known to have no price here, each with why (the vendor page that was missing):
        a provider's ``unpriced`` object in ``prices.json``."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PriceTable:
        """Read and check a table in the JSON shape of ``prices.json``."""
        return _read_table(data)

    def get(self, model: str) -> ModelPrice | None:
        """The model's prices, or None when the table does not name it (or an alias of it)."""
        found = self._models.get(model)
        if found is None and model in self._aliases:
            found = self._models[self._aliases[model]]
        return found

    def __contains__(self, model: object) -> bool:
        return isinstance(model, str) and self.get(model) is not None

    @property
    def models(self) -> list[str]:
        """The priced model ids, aliases left out, sorted."""
        return sorted(self._models)

    @property
    def aliases(self) -> dict[str, str]:
        return dict(self._aliases)

    def merged(self, other: PriceTable | Mapping[str, Any]) -> PriceTable:
        """A table with ``other``'s models added; where both price a model, ``other`` wins.

        ``other`` is a table or a mapping in the ``prices.json`` shape, so a caller can add a
        model, or correct a price, without copying the whole table.
        """
        extra = other if isinstance(other, PriceTable) else _read_table(other, default_currency=self.currency)
        if extra.currency != self.currency:
            raise PriceTableError(f"cannot merge a price table in {extra.currency} into one in {self.currency}")
        models = {k: v for k, v in self._models.items() if k not in extra._aliases} | extra._models
        aliases = {k: v for k, v in self._aliases.items() if k not in extra._models} | extra._aliases
        return PriceTable(models, aliases, self.currency, self.unpriced | extra.unpriced)

    def __repr__(self) -> str:
        return f"<PriceTable {len(self._models)} models, {len(self._aliases)} aliases, {self.currency}>"


def load_prices(source: str | os.PathLike[str] | Mapping[str, Any]) -> PriceTable:
    """A price table from a JSON file (path) or an already parsed mapping, checked in full."""
    if isinstance(source, Mapping):
        return _read_table(source)
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise PriceTableError(f"price table {str(path)!r}: cannot read it ({error.strerror})") from error
    return _read_table(_parse(text, str(path)))


@cache
def default_prices() -> PriceTable:
    """The bundled table, read on first use (never at ``import interlingua``) and kept."""
    text = resources.files("interlingua.pricing").joinpath("prices.json").read_text(encoding="utf-8")
    return _read_table(_parse(text, "prices.json"))


# -- reading ------------------------------------------------------------------------------------


def _parse(text: str, where: str) -> Any:
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise PriceTableError(f"price table {where!r} is not JSON: {error}") from error


def _read_table(data: Mapping[str, Any], default_currency: str = "USD") -> PriceTable:
    if not isinstance(data, Mapping):
        raise PriceTableError(f"price table: expected an object, got {type(data).__name__}")
    _no_unknown_keys(data, _TOP_KEYS, "price table")
    if data.get("format", FORMAT) != FORMAT or data.get("version", VERSION) != VERSION:
        raise PriceTableError(
            f"price table: format {data.get('format')!r} version {data.get('version')!r} is not {FORMAT!r} {VERSION}"
        )
    currency = data.get("currency", default_currency)
    if not isinstance(currency, str) or not _CURRENCY.fullmatch(currency):
        raise PriceTableError(f"price table: currency {currency!r} is not a three-letter code such as 'USD'")
    providers = data.get("providers")
    if not isinstance(providers, Mapping):
        raise PriceTableError("price table: 'providers' is missing or not an object")
    models: dict[str, ModelPrice] = {}
    aliases: dict[str, str] = {}
    unpriced: dict[str, str] = {}
    for provider, block in providers.items():
        found, named = _read_provider(str(provider), block)
        if isinstance(block, Mapping):
            unpriced |= _strings(block.get("unpriced", {}), f"price table, provider {provider!r}, 'unpriced'")
        for model in found:
            if model in models:
                raise PriceTableError(
                    f"price table: model {model!r} is priced by both {models[model].provider!r} and {provider!r}",
                    model=model,
                )
        models |= found
        aliases |= named
    for alias in aliases:
        if alias in models:
            raise PriceTableError(f"price table: {alias!r} is both a model and an alias", model=alias)
    return PriceTable(models, aliases, currency, unpriced)


def _read_provider(provider: str, block: Any) -> tuple[dict[str, ModelPrice], dict[str, str]]:
    where = f"price table, provider {provider!r}"
    if not isinstance(block, Mapping):
        raise PriceTableError(f"{where}: expected an object, got {type(block).__name__}")
    _no_unknown_keys(block, _PROVIDER_KEYS, where)
    as_of = _date(block.get("as_of"), where)
    source = block.get("source")
    if not isinstance(source, str) or not source:
        raise PriceTableError(f"{where}: 'source' (where the prices were read) is missing")
    ttl_keys = _strings(block.get("write_ttl_keys", {}), f"{where}, 'write_ttl_keys'")
    entries = block.get("models")
    if not isinstance(entries, Mapping) or not entries:
        raise PriceTableError(f"{where}: 'models' is missing or empty")
    models = {
        str(model): _read_model(str(model), provider, entry, as_of, source, MappingProxyType(ttl_keys))
        for model, entry in entries.items()
    }
    return models, _strings(block.get("aliases", {}), f"{where}, 'aliases'")


def _read_model(
    model: str, provider: str, entry: Any, as_of: date, source: str, ttl_keys: Mapping[str, str]
) -> ModelPrice:
    if not isinstance(entry, Mapping):
        raise PriceTableError(f"price for model {model!r}: expected an object, got {type(entry).__name__}", model=model)
    _no_unknown_keys(entry, _MODEL_KEYS, f"price for model {model!r}", model)
    rates = _read_rates(model, entry, "")
    raw_tiers = entry.get("tiers", [])
    if not isinstance(raw_tiers, list):
        raise PriceTableError(f"price for model {model!r}: 'tiers' is not a list", model=model, field="tiers")
    tiers: list[Tier] = []
    for index, raw in enumerate(raw_tiers):
        at = f"tiers[{index}]."
        if not isinstance(raw, Mapping):
            raise PriceTableError(
                f"price for model {model!r}: '{at[:-1]}' is not an object", model=model, field=at[:-1]
            )
        _no_unknown_keys(raw, _TIER_KEYS, f"price for model {model!r}, {at[:-1]}", model)
        above = raw.get("above")
        if type(above) is not int or above <= 0:
            raise PriceTableError(
                f"price for model {model!r}: '{at}above' must be a positive whole number of tokens, not {above!r}",
                model=model,
                field=f"{at}above",
            )
        if tiers and above <= tiers[-1].above:
            raise PriceTableError(
                f"price for model {model!r}: tiers must rise, but '{at}above' ({above}) follows {tiers[-1].above}",
                model=model,
                field=f"{at}above",
            )
        tier_rates = _read_rates(model, raw, at)
        for ttl in rates.cache_write_ttl.keys() - tier_rates.cache_write_ttl.keys():
            raise PriceTableError(
                f"price for model {model!r}: '{at}cache_write_ttl.{ttl}' is missing (the base rates have one)",
                model=model,
                field=f"{at}cache_write_ttl.{ttl}",
            )
        tiers.append(Tier(above, tier_rates))
    return ModelPrice(model, provider, as_of, source, rates, tuple(tiers), ttl_keys)


def _read_rates(model: str, entry: Mapping[str, Any], at: str) -> Rates:
    values = {name: _amount(model, entry, name, at) for name in _RATES}
    ttl = entry.get("cache_write_ttl", {})
    if not isinstance(ttl, Mapping):
        raise PriceTableError(
            f"price for model {model!r}: '{at}cache_write_ttl' is not an object",
            model=model,
            field=f"{at}cache_write_ttl",
        )
    by_ttl = {str(name): _amount(model, ttl, str(name), f"{at}cache_write_ttl.") for name in ttl}
    return Rates(**values, cache_write_ttl=MappingProxyType(by_ttl))


def _amount(model: str, entry: Mapping[str, Any], name: str, at: str) -> Decimal:
    where = f"{at}{name}"
    if name not in entry or entry[name] is None:
        raise PriceTableError(f"price for model {model!r}: '{where}' is missing", model=model, field=where)
    value = entry[name]
    try:
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal | str):
            raise TypeError
        if isinstance(value, float) and not math.isfinite(value):
            raise TypeError
        amount = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except (TypeError, InvalidOperation):
        raise PriceTableError(
            f"price for model {model!r}: '{where}' is not a number ({value!r})", model=model, field=where
        ) from None
    if not amount.is_finite():
        raise PriceTableError(
            f"price for model {model!r}: '{where}' is not a number ({value!r})", model=model, field=where
        )
    if amount < 0:
        raise PriceTableError(f"price for model {model!r}: '{where}' is negative ({value})", model=model, field=where)
    return amount


def _date(value: Any, where: str) -> date:
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise PriceTableError(f"{where}: 'as_of' must be the date the prices were read (YYYY-MM-DD), got {value!r}")


def _strings(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
        raise PriceTableError(f"{where}: expected an object of strings")
    return {str(k): v for k, v in value.items()}


def _no_unknown_keys(entry: Mapping[str, Any], known: frozenset[str], where: str, model: str | None = None) -> None:
    unknown = sorted(str(key) for key in entry.keys() - known)
    if unknown:
        raise PriceTableError(
            f"{where}: unknown field {unknown[0]!r} (known: {', '.join(sorted(known))})", model=model, field=unknown[0]
        )
