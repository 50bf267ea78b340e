"""The model catalog: what each model takes (limits, sampling, thinking), read from data files.

A codec ships its vendor's facts as ``models.toml`` in its package; that file is read on the first
lookup for its provider (never at import) and each model found is cached by id. A model is found by
its id or an alias, then with a dated snapshot suffix removed (``-20250929``, ``-2025-08-07``), then
by the longest ``match`` prefix. Users add or override entries at runtime (``interlingua.models``).

The rules here are generic; the data names the models, and each codec maps a rule onto its wire.
An encoder that knows the target model drops what the model refuses and maps what it must change
to the nearest accepted value, each with a warning naming the model and the rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from ._warnings import WarningSink

DATA_FILE: Final = "models.toml"
LEVELS: Final = ("off", "minimal", "low", "medium", "high", "xhigh", "max")
"""Thinking levels (efforts) from least to most; ``max`` has no IR level, only vendors take it."""
SAMPLING: Final = ("temperature", "top_p", "top_k", "presence_penalty", "frequency_penalty", "seed", "stop")
"""The IR settings sampling rules speak of, in the order an exclusive group keeps them."""
_DATE = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8})$")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


class CatalogError(ValueError):
    """A catalog file or entry that cannot be read; the message names the file and the model."""


@dataclass(frozen=True, slots=True)
class ThinkingRules:
    """How a model reasons: the wire forms it takes (``modes``, in its codec's words), the levels
    (efforts) it accepts, the budget range, whether it can be turned off (None: not known), and the
    level in force when a request says nothing."""

    modes: tuple[str, ...] = ()
    levels: tuple[str, ...] = ()
    budget: tuple[int, int] | None = None
    can_off: bool | None = None
    default: str | None = None

    def nearest(self, level: str) -> str:
        """The accepted level closest to ``level`` (a tie goes to the higher one); ``level`` itself
        when it is accepted or no levels are known."""
        if not self.levels or level in self.levels:
            return level
        rank = LEVELS.index(level)
        return min(self.levels, key=lambda accepted: (abs(LEVELS.index(accepted) - rank), -LEVELS.index(accepted)))


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """One model's facts. ``rejects``: settings it never takes; ``exclusive``: groups of which it
    takes one; ``thinking_rejects`` / ``thinking_ranges``: what it refuses, or takes only inside a
    range, while it reasons. ``wires``: the codecs that serve it (empty: all of its provider's).
    ``price``: its row in the core price table. ``sources``: fact group -> the page that states it."""

    id: str
    provider: str
    aliases: tuple[str, ...] = ()
    match: tuple[str, ...] = ()
    context_window: int | None = None
    max_output_tokens: int | None = None
    rejects: frozenset[str] = frozenset()
    exclusive: tuple[frozenset[str], ...] = ()
    thinking_rejects: frozenset[str] = frozenset()
    thinking_ranges: Mapping[str, tuple[float, float]] = field(default_factory=lambda: _EMPTY)
    thinking: ThinkingRules | None = None
    wires: tuple[str, ...] = ()
    price: str | None = None
    sources: Mapping[str, str] = field(default_factory=lambda: _EMPTY)

    def thinks(self, level: str | None) -> bool:
        """Whether the model reasons when sent ``level`` ("off": thinking off; any other word:
        on), or, for None (the request leaves it to the model), by default."""
        if level is None:
            level = self.thinking.default if self.thinking else None
            return level is not None and level != "off"
        return level != "off"

    def cite(self, group: str) -> str:
        """The source of a fact group, for a warning."""
        return self.sources.get(group, "no source recorded")

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready view (the CLI's ``--json``)."""
        thinking = self.thinking
        return {
            "id": self.id,
            "provider": self.provider,
            "aliases": list(self.aliases),
            "context_window": self.context_window,
            "max_output_tokens": self.max_output_tokens,
            "rejects": sorted(self.rejects),
            "exclusive": [sorted(group) for group in self.exclusive],
            "thinking": None
            if thinking is None
            else {
                "modes": list(thinking.modes),
                "levels": list(thinking.levels),
                "budget": list(thinking.budget) if thinking.budget else None,
                "can_off": thinking.can_off,
                "default": thinking.default,
                "rejects": sorted(self.thinking_rejects),
                "ranges": {k: list(v) for k, v in self.thinking_ranges.items()},
            },
            "wires": list(self.wires),
            "price": self.price,
            "sources": dict(self.sources),
        }


# --- reading -------------------------------------------------------------------------------------

_TOP = frozenset({"id", "aliases", "match", "context_window", "max_output_tokens", "wires", "price", "extends"})
_TABLES = frozenset({"sampling", "thinking", "sources"})


def parse_entry(table: Mapping[str, Any], provider: str, base: ModelSpec | None = None, where: str = "") -> ModelSpec:
    """One ``[[model]]`` table -> a ModelSpec; keys left out keep ``base``'s value (``extends``)."""
    model = table.get("id")
    if not isinstance(model, str):
        raise CatalogError(f"{where}: a model entry needs an id")
    unknown = set(table) - _TOP - _TABLES - {"provider"}
    if unknown:
        raise CatalogError(f"{where}: {model}: unknown keys {sorted(unknown)}")
    spec = replace(base, id=model, aliases=(), match=(), price=None) if base else ModelSpec(id=model, provider=provider)
    fields: dict[str, Any] = {"provider": table.get("provider", provider)}
    for key in ("aliases", "match", "wires"):
        if key in table:
            fields[key] = tuple(_strings(table[key], f"{where}: {model}.{key}"))
    for key in ("context_window", "max_output_tokens", "price"):
        if key in table:
            fields[key] = table[key]
    sampling = table.get("sampling", {})
    if "rejects" in sampling:
        fields["rejects"] = frozenset(_strings(sampling["rejects"], f"{where}: {model}.sampling.rejects"))
    if "exclusive" in sampling:
        fields["exclusive"] = tuple(frozenset(_strings(g, f"{where}: {model}.sampling")) for g in sampling["exclusive"])
    if "thinking" in table:
        fields.update(_parse_thinking(table["thinking"], spec.thinking, f"{where}: {model}.thinking"))
    if "sources" in table:
        fields["sources"] = MappingProxyType({**spec.sources, **table["sources"]})
    return replace(spec, **fields)


def _parse_thinking(table: Mapping[str, Any], base: ThinkingRules | None, where: str) -> dict[str, Any]:
    known = {"modes", "levels", "budget", "can_off", "default", "rejects", "ranges"}
    if set(table) - known:
        raise CatalogError(f"{where}: unknown keys {sorted(set(table) - known)}")
    rules = base or ThinkingRules()
    changes: dict[str, Any] = {}
    for key in ("modes", "levels"):
        if key in table:
            changes[key] = tuple(_strings(table[key], f"{where}.{key}"))
    bad = [level for level in changes.get("levels", ()) if level not in LEVELS]
    if bad:
        raise CatalogError(f"{where}.levels: unknown levels {bad}; known: {', '.join(LEVELS)}")
    if "budget" in table:
        low, high = table["budget"]
        changes["budget"] = (int(low), int(high))
    for key in ("can_off", "default"):
        if key in table:
            changes[key] = table[key]
    out: dict[str, Any] = {"thinking": replace(rules, **changes)}
    if "rejects" in table:
        out["thinking_rejects"] = frozenset(_strings(table["rejects"], f"{where}.rejects"))
    if "ranges" in table:
        out["thinking_ranges"] = MappingProxyType({k: (float(v[0]), float(v[1])) for k, v in table["ranges"].items()})
    return out


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise CatalogError(f"{where}: expected a list of strings")
    return value


def parse_file(data: Mapping[str, Any], where: str, provider: str | None = None) -> list[ModelSpec]:
    """A catalog file: a top-level ``provider`` (or one per entry) and ``[[model]]`` tables, each
    possibly ``extends = "<an earlier id>"``."""
    default = data.get("provider", provider)
    specs: dict[str, ModelSpec] = {}
    for i, table in enumerate(data.get("model", [])):
        owner = table.get("provider", default)
        if not isinstance(owner, str):
            raise CatalogError(f"{where}: model[{i}] names no provider")
        base_id = table.get("extends")
        base = specs.get(base_id) if isinstance(base_id, str) else None
        if base_id is not None and base is None:
            raise CatalogError(f"{where}: model[{i}] extends {base_id!r}, which no earlier entry defines")
        spec = parse_entry(table, owner, base, f"{where}: model[{i}]")
        specs[spec.id] = spec
    return list(specs.values())


# --- finding -------------------------------------------------------------------------------------


class Catalog:
    """One provider's models: its codec's data file (read on first use) and the user's entries."""

    __slots__ = ("_by_name", "_cache", "_prefixes", "added", "package", "provider")

    def __init__(self, provider: str, package: str | None) -> None:
        self.provider = provider
        self.package = package
        self.added: dict[str, ModelSpec] = {}
        self._by_name: dict[str, ModelSpec] | None = None
        self._prefixes: list[tuple[str, ModelSpec]] = []
        self._cache: dict[str, ModelSpec | None] = {}

    def models(self) -> list[ModelSpec]:
        """Every model, shipped ones first, the user's after (replacing a shipped one by id)."""
        shipped = {spec.id: spec for spec in self._shipped()}
        shipped.update(self.added)
        return list(shipped.values())

    def has_data(self) -> bool:
        if self._by_name is None:
            self._index()
        return bool(self._by_name)

    def find(self, model: str | None) -> ModelSpec | None:
        """The entry for ``model``, or None when the catalog does not know it."""
        if model is None:
            return None
        try:
            return self._cache[model]
        except KeyError:
            pass
        found = self._cache[model] = self._find(model)
        return found

    def _find(self, model: str) -> ModelSpec | None:
        if self._by_name is None:
            self._index()
        by_name = self._by_name or {}
        name = model.rsplit("/", 1)[-1]  # "models/acme-2", "publishers/acme/models/acme-2"
        for candidate in (name, _DATE.sub("", name)):
            if candidate in by_name:
                return by_name[candidate]
        for prefix, spec in self._prefixes:
            if name.startswith(prefix):
                return spec
        return None

    def _index(self) -> None:
        by_name: dict[str, ModelSpec] = {}
        prefixes: list[tuple[str, ModelSpec]] = []
        for spec in self.models():
            for name in (spec.id, *spec.aliases):
                by_name[name] = spec
            prefixes += [(prefix, spec) for prefix in spec.match]
        self._by_name = by_name
        self._prefixes = sorted(prefixes, key=lambda item: -len(item[0]))

    def add(self, spec: ModelSpec) -> None:
        self.added[spec.id] = spec
        self._by_name = None
        self._cache.clear()

    def _shipped(self) -> list[ModelSpec]:
        return list(_read_package(self.package, self.provider)) if self.package else []


def _read_package(package: str, provider: str) -> tuple[ModelSpec, ...]:
    return _PACKAGE_DATA.get((package, provider)) or _load_package(package, provider)


_PACKAGE_DATA: dict[tuple[str, str], tuple[ModelSpec, ...]] = {}


def _load_package(package: str, provider: str) -> tuple[ModelSpec, ...]:
    try:
        text = resources.files(package).joinpath(DATA_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        text = ""
    found = parse_file(_toml(text), f"{package}/{DATA_FILE}", provider) if text else []
    specs = tuple(spec for spec in found if spec.provider == provider)  # one package, several providers
    _PACKAGE_DATA[(package, provider)] = specs
    return specs


def _toml(text: str) -> dict[str, Any]:
    import tomllib  # only when a catalog is first read

    return tomllib.loads(text)


_CATALOGS: dict[str, Catalog] = {}


def catalog(provider: str, package: str | None = None) -> Catalog:
    """The catalog of ``provider``; ``package``: the codec package holding its data file (a codec
    passes its own; the first caller that names one sets it)."""
    found = _CATALOGS.get(provider)
    if found is None:
        found = _CATALOGS[provider] = Catalog(provider, package)
    elif found.package is None and package is not None:
        found.package = package
        found._by_name = None
        found._cache.clear()
    return found


def lookup(provider: str, package: str, model: str | None, out: WarningSink) -> ModelSpec | None:
    """What an encoder asks: the target model's entry. A model the catalog does not know (of a
    provider that has a catalog) is noted once per encode as ``UnknownModel``: it is encoded as
    asked, nothing dropped, so the note is informational and never fails ``strict``."""
    found = catalog(provider, package)
    spec = found.find(model)
    if spec is None and model is not None and found.has_data():
        out.note_unknown_model(model)
    return spec


def load(path: str | Path, provider: str | None = None) -> list[ModelSpec]:
    """Add (or override) the models of a catalog file of the shipped format; returns them."""
    source = Path(path)
    specs = parse_file(_toml(source.read_text(encoding="utf-8")), str(source), provider)
    for spec in specs:
        catalog(spec.provider).add(spec)
    return specs


def register(entry: ModelSpec | Mapping[str, Any], provider: str | None = None) -> ModelSpec:
    """Add (or override) one model: a ModelSpec, or a mapping shaped like a ``[[model]]`` table
    (``extends`` may name any model the provider's catalog knows)."""
    if isinstance(entry, ModelSpec):
        spec = entry
    else:
        owner = entry.get("provider", provider)
        if not isinstance(owner, str):
            raise CatalogError(f"{entry.get('id')!r}: name its provider")
        base_id = entry.get("extends")
        base = catalog(owner).find(base_id) if isinstance(base_id, str) else None
        if base_id is not None and base is None:
            raise CatalogError(f"{entry.get('id')!r} extends {base_id!r}, which the {owner} catalog does not know")
        spec = parse_entry(entry, owner, base, "register")
    catalog(spec.provider).add(spec)
    return spec


def forget(provider: str, model: str) -> None:
    """Remove a model added at runtime (tests restore the shipped catalog with it)."""
    found = _CATALOGS.get(provider)
    if found is not None and found.added.pop(model, None) is not None:
        found._by_name = None
        found._cache.clear()


def catalogs() -> dict[str, Catalog]:
    """Every catalog asked for so far, by provider."""
    return dict(_CATALOGS)


# --- applying rules (encoders) -------------------------------------------------------------------


def keep_sampling(spec: ModelSpec, values: Mapping[str, Any], thinking: bool, out: WarningSink) -> dict[str, Any]:
    """The sampling settings (IR name -> value, None: unset) ``spec`` takes, in ``values``' order.

    A refused setting is dropped (UnsupportedSetting); a value outside the range the model takes
    while reasoning is moved to the nearest end of it (LossyEncode, converted), or dropped when the
    range is one value (the default the API uses anyway)."""
    kept = {name: value for name, value in values.items() if value is not None}
    if not kept:
        return kept
    for name in [n for n in kept if n in spec.rejects]:
        del kept[name]
        out.unsupported(name, name, f"{spec.id} does not take {name} ({spec.cite('sampling')})")
    for group in spec.exclusive:
        present = [name for name in kept if name in group]
        for name in present[1:]:
            del kept[name]
            why = f"{spec.id} takes only one of {' and '.join(sorted(group))}: {name} dropped ({spec.cite('sampling')})"
            out.unsupported(name, name, why)
    if thinking:
        _keep_while_thinking(spec, kept, out)
    return kept


def _keep_while_thinking(spec: ModelSpec, kept: dict[str, Any], out: WarningSink) -> None:
    source = spec.sources.get("thinking_rules") or spec.cite("thinking")
    for name in list(kept):
        value = kept[name]
        if name in spec.thinking_rejects:
            del kept[name]
            out.unsupported(name, name, f"with thinking on, {spec.id} does not take {name} ({source})")
            continue
        bounds = spec.thinking_ranges.get(name)
        if bounds is None or not isinstance(value, int | float) or bounds[0] <= value <= bounds[1]:
            continue
        low, high = bounds
        if low == high:
            del kept[name]
            why = f"with thinking on, {spec.id} takes {name} only at its default {low:g} ({source})"
            out.unsupported(name, name, why)
        else:
            kept[name] = min(max(value, low), high)
            why = f"with thinking on, {spec.id} takes {name} in [{low:g}, {high:g}]: sent as {kept[name]:g} ({source})"
            out.lossy(name, name, why, action="converted")


def cap_max_tokens(spec: ModelSpec | None, value: int, out: WarningSink, path: str = "max_tokens") -> int:
    """``value``, or the model's output limit when it is over it (LossyEncode, converted)."""
    limit = spec.max_output_tokens if spec else None
    if spec is None or limit is None or value <= limit:
        return value
    out.lossy(
        path, "max_tokens", f"{spec.id} writes at most {limit} tokens ({spec.cite('limits')})", action="converted"
    )
    return limit


def nearest_level(spec: ModelSpec, level: str, out: WarningSink, path: str = "thinking.level") -> str:
    """``level``, or the nearest one the model takes (LossyEncode, converted)."""
    rules = spec.thinking
    if rules is None:
        return level
    if level == "off" and rules.can_off is False:
        accepted = [lv for lv in rules.levels if lv != "off"] or [lv for lv in LEVELS if lv != "off"]
        chosen = accepted[0]
        why = f"{spec.id} cannot turn thinking off: sent as {chosen!r} ({spec.cite('thinking')})"
        out.lossy(path, "thinking", why, action="converted")
        return chosen
    chosen = rules.nearest(level)
    if chosen != level:
        why = f"{spec.id} takes no {level!r} level: sent as {chosen!r} ({spec.cite('thinking')})"
        out.lossy(path, "thinking", why, action="converted")
    return chosen


def clamp_budget(spec: ModelSpec, budget: int, out: WarningSink, path: str = "thinking.budget_tokens") -> int:
    """``budget`` inside the model's range; 0 (off) only where it can turn thinking off, -1
    (dynamic) kept where the model has a range (a wire's own "let the model decide")."""
    rules = spec.thinking
    if rules is None or rules.budget is None or budget == -1:
        return budget
    low, high = rules.budget
    if budget == 0 and rules.can_off is not False:
        return 0
    chosen = min(max(budget, low), high)
    if chosen != budget:
        why = "cannot turn thinking off" if budget == 0 else f"takes budgets in [{low}, {high}]"
        out.lossy(path, "thinking", f"{spec.id} {why}: sent as {chosen} ({spec.cite('thinking')})", action="converted")
    return chosen


def ordered(levels: Iterable[str]) -> list[str]:
    """``levels`` in LEVELS order (for display)."""
    return sorted(levels, key=LEVELS.index)
