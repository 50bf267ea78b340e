"""The model catalog's records and its file format: a ``[[model]]`` table -> a ModelSpec.

Loaded only when a catalog is first read (or a user registers a model): building these classes
costs more than the rest of the catalog, and most imports of a codec never read one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final, TypeAlias

LEVELS: Final = ("off", "minimal", "low", "medium", "high", "xhigh", "max")
"""Thinking levels (efforts) from least to most; ``max`` has no IR level, only vendors take it."""

_EMPTY: Mapping[str, Any] = MappingProxyType({})

SOURCE_KINDS: Final = {
    "vendor_page": "",
    "recorded_response": "a recorded response",
    "peer_profile": "a peer's live-tested profile",
}
"""How strong a fact's source is (``[model.source_kinds]``, fact group -> kind): the vendor's own
page (the default, said of no source), a response recorded from the API (no page states it), or
another project's profile kept by running the real API (neither a page nor our recording)."""


class CatalogError(ValueError):
    """A catalog file or entry that cannot be read; the message names the file and the model."""


@dataclass(frozen=True, slots=True)
class ThinkingRules:
    """How a model reasons: the wire forms it takes (``modes``, in its codec's words), the levels
    (efforts) it accepts, the budget range, whether it can be turned off (None: not known), and the
    level in force when a request says nothing. ``supported`` False: the model takes no thinking
    configuration at all. ``signatures`` True: it refuses a current-turn tool call that does not
    carry the reasoning signature its own answer gave (None: not known)."""

    modes: tuple[str, ...] = ()
    levels: tuple[str, ...] = ()
    budget: tuple[int, int] | None = None
    can_off: bool | None = None
    default: str | None = None
    supported: bool | None = None
    signatures: bool | None = None

    def nearest(self, level: str) -> str:
        """The accepted level closest to ``level`` (a tie goes to the higher one); ``level`` itself
        when it is accepted or no levels are known."""
        if not self.levels or level in self.levels:
            return level
        rank = LEVELS.index(level)
        return min(self.levels, key=lambda accepted: (abs(LEVELS.index(accepted) - rank), -LEVELS.index(accepted)))


@dataclass(frozen=True, slots=True)
class BindingRules:
    """What the model's signed reasoning is bound to (``[model.binding]``). ``model_bound``: as a
    reader, it takes only its own blocks and those of models whose ``readable_by`` names it (a
    block from any other model is dropped by the vendor, unseen). ``prefix_bound``: a block made
    under another system prompt or toolset is refused, and with it every later block.
    ``readable_by``: as a producer, the other models that read its blocks (``"*"``: any).
    ``host_bound``: a block signed through one host (a codec's door: ``ProviderEcho.host``) is
    refused through another, unless ``shared_hosts`` names both: the hosts the vendor says take
    each other's signatures (a catalog file's ``[hosts]`` table, sources group ``hosts``)."""

    model_bound: bool = False
    prefix_bound: bool = False
    readable_by: tuple[str, ...] = ()
    host_bound: bool = False
    shared_hosts: tuple[str, ...] = ()

    def refuses_host(self, made: str | None, target: str | None) -> bool:
        """Whether a block signed through host ``made`` is refused through ``target``; a host
        not recorded (None) is not known, and nothing is withheld on its account."""
        if made is None or target is None or made == target:
            return False
        if made in self.shared_hosts and target in self.shared_hosts:
            return False
        return self.host_bound


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """One model's facts. ``rejects``: settings it never takes; ``exclusive``: groups of which it
    takes one; ``thinking_rejects`` / ``thinking_ranges``: what it refuses, or takes only inside a
    range, while it reasons; ``mode_rejects``: what it refuses only while it reasons in one mode
    (``enabled``, ``adaptive``: its codec's words), beside ``thinking_rejects`` (see
    :meth:`refused_while_thinking`). ``wires``: the codecs that serve it (empty: all of its provider's).
    ``price``: its row in the core price table. ``prefill``: whether it takes a final assistant turn
    to continue (None: not known). ``status``: the vendor's lifecycle word (``active``, ``legacy``,
    ``deprecated``, ``retired``), ``retired``: the date requests began to fail, both informational
    (the rule checker judges settings; a retired model is still encoded as asked). ``note``: what
    a reader should know that is not a rule, such as a claim the vendor's pages do not state.
    ``features``: request features (in its codec's words) the model takes (True) or refuses
    (False); one left out is not known. ``scopes``: prefixes a name may carry ahead of the id or an
    alias (a regional deployment's), the name without one finds the model. ``family``: prefixes of
    ids no entry names that take this model's rules as the family's defaults (a new ``acme-5.x``),
    each such use noted. ``sources``: fact group -> the page that states it; ``source_kinds``:
    fact group -> how strong that source is (:data:`SOURCE_KINDS`; left out: a vendor page).
    ``binding``: what its signed reasoning is bound to (None: nothing known, so blocks are replayed
    as they are; see ``BindingRules``)."""

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
    mode_rejects: Mapping[str, frozenset[str]] = field(default_factory=lambda: _EMPTY)
    thinking: ThinkingRules | None = None
    wires: tuple[str, ...] = ()
    price: str | None = None
    prefill: bool | None = None
    status: str | None = None
    retired: str | None = None
    note: str | None = None
    features: Mapping[str, bool] = field(default_factory=lambda: _EMPTY)
    scopes: tuple[str, ...] = ()
    family: tuple[str, ...] = ()
    sources: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    source_kinds: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    binding: BindingRules | None = None

    def thinks(self, level: str | None) -> bool:
        """Whether the model reasons when sent ``level`` ("off": thinking off; any other word:
        on), or, for None (the request leaves it to the model), by default. A model that cannot
        turn thinking off reasons whatever it is sent."""
        rules = self.thinking
        if rules is not None and rules.can_off is False:
            return True
        if level is None:
            level = rules.default if rules else None
            return level is not None and level != "off"
        return level != "off"

    def refused_while_thinking(self, mode: str | None) -> frozenset[str]:
        """What the model refuses while it reasons in ``mode``: ``thinking_rejects`` in every
        mode, and that mode's ``mode_rejects``. None (no mode known, such as a model thinking
        by default): a model with one mode reasons in it; of a model with several, no rule bound
        to one mode applies (it is not known to hold, and nothing is changed on its account)."""
        if not self.mode_rejects:
            return self.thinking_rejects
        if mode is None and self.thinking is not None and len(self.thinking.modes) == 1:
            mode = self.thinking.modes[0]
        return self.thinking_rejects | self.mode_rejects.get(mode or "", frozenset())

    def cite(self, group: str, *fallbacks: str) -> str:
        """The source of a fact group (else of the first of ``fallbacks`` that has one), for a
        warning, with its kind where it is not a vendor page."""
        group = next((name for name in (group, *fallbacks) if name in self.sources), group)
        source = self.sources.get(group)
        if source is None:
            return "no source recorded"
        label = SOURCE_KINDS.get(self.source_kinds.get(group, "vendor_page"), "")
        return f"{label}: {source}" if label else source

    def kind_of(self, group: str) -> str | None:
        """How strong a fact group's source is (a key of :data:`SOURCE_KINDS`); None: no source."""
        return self.source_kinds.get(group, "vendor_page") if group in self.sources else None

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
                "supported": thinking.supported,
                "signatures": thinking.signatures,
                "rejects": sorted(self.thinking_rejects),
                "mode_rejects": {mode: sorted(names) for mode, names in self.mode_rejects.items()},
                "ranges": {k: list(v) for k, v in self.thinking_ranges.items()},
            },
            "wires": list(self.wires),
            "price": self.price,
            "prefill": self.prefill,
            "status": self.status,
            "retired": self.retired,
            "note": self.note,
            "features": dict(self.features),
            "scopes": list(self.scopes),
            "family": list(self.family),
            "sources": dict(self.sources),
            "source_kinds": {group: self.kind_of(group) for group in self.sources},
            "binding": None
            if self.binding is None
            else {
                "model_bound": self.binding.model_bound,
                "prefix_bound": self.binding.prefix_bound,
                "readable_by": list(self.binding.readable_by),
                "host_bound": self.binding.host_bound,
                "shared_hosts": list(self.binding.shared_hosts),
            },
        }


# --- reading -------------------------------------------------------------------------------------

_TOP = frozenset(
    {"id", "aliases", "match", "context_window", "max_output_tokens", "wires", "price", "prefill", "extends"}
    | {"status", "retired", "note", "scopes", "family"}
)
STATUSES = ("active", "legacy", "deprecated", "retired")
"""The lifecycle words a ``status`` may take, the vendors' own (a model "shut down" is retired)."""
_TABLES = frozenset({"sampling", "thinking", "features", "sources", "source_kinds", "binding"})


def parse_entry(table: Mapping[str, Any], provider: str, base: ModelSpec | None = None, where: str = "") -> ModelSpec:
    """One ``[[model]]`` table -> a ModelSpec; keys left out keep ``base``'s value (``extends``)."""
    model = table.get("id")
    if not isinstance(model, str):
        raise CatalogError(f"{where}: a model entry needs an id")
    unknown = set(table) - _TOP - _TABLES - {"provider"}
    if unknown:
        raise CatalogError(f"{where}: {model}: unknown keys {sorted(unknown)}")
    spec = (
        replace(base, id=model, aliases=(), match=(), family=(), price=None, status=None, retired=None, note=None)
        if base
        else ModelSpec(id=model, provider=provider)
    )
    if spec.binding is not None and spec.binding.readable_by:  # who reads a model's blocks is its own fact
        spec = replace(spec, binding=replace(spec.binding, readable_by=()))
    if base is not None and base.provider != table.get("provider", provider):
        # another provider's model served here: its facts hold, its wires, scopes and features
        # (words of its own codecs) do not
        spec = replace(spec, wires=(), scopes=(), features=_EMPTY)
    fields: dict[str, Any] = {"provider": table.get("provider", provider)}
    for key in ("aliases", "match", "wires", "scopes", "family"):
        if key in table:
            fields[key] = tuple(_strings(table[key], f"{where}: {model}.{key}"))
    for key in ("context_window", "max_output_tokens", "price", "prefill", "status", "retired", "note"):
        if key in table:
            fields[key] = table[key]
    if fields.get("status", STATUSES[0]) not in STATUSES:
        raise CatalogError(f"{where}: {model}.status: {fields['status']!r} is not one of {', '.join(STATUSES)}")
    sampling = table.get("sampling", {})
    if "rejects" in sampling:
        fields["rejects"] = frozenset(_strings(sampling["rejects"], f"{where}: {model}.sampling.rejects"))
    if "exclusive" in sampling:
        fields["exclusive"] = tuple(frozenset(_strings(g, f"{where}: {model}.sampling")) for g in sampling["exclusive"])
    if "thinking" in table:
        fields.update(_parse_thinking(table["thinking"], spec.thinking, f"{where}: {model}.thinking"))
    if "features" in table:
        features = table["features"]
        if not all(isinstance(value, bool) for value in features.values()):
            raise CatalogError(f"{where}: {model}.features: each feature is true or false")
        fields["features"] = MappingProxyType({**spec.features, **features})
    if "sources" in table:
        fields["sources"] = MappingProxyType({**spec.sources, **table["sources"]})
    if "sources" in table or "source_kinds" in table:
        # a group sourced afresh here loses the kind its base gave it: the new source is a page
        # unless this entry says otherwise
        kept = {group: kind for group, kind in spec.source_kinds.items() if group not in table.get("sources", {})}
        fields["source_kinds"] = _source_kinds(table.get("source_kinds", {}), kept, f"{where}: {model}")
    if "binding" in table:
        fields["binding"] = _parse_binding(table["binding"], spec.binding, f"{where}: {model}.binding")
    return replace(spec, **fields)


def _parse_binding(table: Any, base: BindingRules | None, where: str) -> BindingRules:
    known = {"model_bound", "prefix_bound", "readable_by", "host_bound", "shared_hosts"}
    if not isinstance(table, Mapping) or set(table) - known:
        raise CatalogError(f"{where}: expected a table of {', '.join(sorted(known))}")
    changes: dict[str, Any] = {}
    for key in ("model_bound", "prefix_bound", "host_bound"):
        if key in table:
            if not isinstance(table[key], bool):
                raise CatalogError(f"{where}.{key}: true or false")
            changes[key] = table[key]
    for key in ("readable_by", "shared_hosts"):
        if key in table:
            changes[key] = tuple(_strings(table[key], f"{where}.{key}"))
    return replace(base or BindingRules(), **changes)


def _source_kinds(table: Any, base: Mapping[str, str], where: str) -> Mapping[str, str]:
    """``[model.source_kinds]``: fact group -> one of :data:`SOURCE_KINDS`."""
    if not isinstance(table, Mapping) or any(kind not in SOURCE_KINDS for kind in table.values()):
        raise CatalogError(f"{where}.source_kinds: each kind is one of {', '.join(SOURCE_KINDS)}")
    return MappingProxyType({**base, **table})


def _parse_thinking(table: Mapping[str, Any], base: ThinkingRules | None, where: str) -> dict[str, Any]:
    known = {"modes", "levels", "budget", "can_off", "default", "supported", "signatures", "rejects", "ranges"}
    known |= {"mode_rejects"}
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
    for key in ("can_off", "default", "supported", "signatures"):
        if key in table:
            changes[key] = table[key]
    out: dict[str, Any] = {"thinking": replace(rules, **changes)}
    if "rejects" in table:
        out["thinking_rejects"] = frozenset(_strings(table["rejects"], f"{where}.rejects"))
    if "mode_rejects" in table:
        modes = table["mode_rejects"]
        if not isinstance(modes, Mapping):
            raise CatalogError(f"{where}.mode_rejects: expected a table of mode -> list")
        out["mode_rejects"] = MappingProxyType(
            {mode: frozenset(_strings(names, f"{where}.mode_rejects.{mode}")) for mode, names in modes.items()}
        )
    if "ranges" in table:
        out["thinking_ranges"] = MappingProxyType({k: (float(v[0]), float(v[1])) for k, v in table["ranges"].items()})
    return out


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise CatalogError(f"{where}: expected a list of strings")
    return value


Elsewhere: TypeAlias = Callable[[str, str], "tuple[ModelSpec | None, bool]"]
"""How a catalog finds another provider's model (``extends = "<provider>/<id>"``): its entry (None:
unknown) and whether that provider has a catalog. The catalog passes its own, so this module
stands below the catalog it feeds."""


def parse_file(
    data: Mapping[str, Any], where: str, provider: str | None = None, elsewhere: Elsewhere | None = None
) -> list[ModelSpec]:
    """A catalog file: a top-level ``provider`` (or one per entry), ``scopes`` (each entry's
    default) and ``[[model]]`` tables, each possibly ``extends = "<an earlier id>"`` or
    ``"<provider>/<id>"`` (a model of another provider's catalog, found by ``elsewhere``: the
    same model served here)."""
    default = data.get("provider", provider)
    scopes = data.get("scopes")
    hosts = _file_hosts(data.get("hosts"), where)
    specs: dict[str, ModelSpec] = {}
    for i, table in enumerate(data.get("model", [])):
        owner = table.get("provider", default)
        if not isinstance(owner, str):
            raise CatalogError(f"{where}: model[{i}] names no provider")
        if scopes is not None and "scopes" not in table:
            table = {**table, "scopes": scopes}
        if hosts is not None and "hosts" not in table.get("sources", {}):
            table = _hosted_entry(table, *hosts)
        base = base_of(table.get("extends"), specs, f"{where}: model[{i}]", elsewhere)
        spec = parse_entry(table, owner, base, f"{where}: model[{i}]")
        specs[spec.id] = spec
    return list(specs.values())


_HOSTS = frozenset({"bound", "shared", "source", "kind"})


def _file_hosts(table: Any, where: str) -> tuple[dict[str, Any], str, str | None] | None:
    """A catalog file's ``[hosts]`` table (every entry's default, as ``scopes``): ``bound`` (a
    signature is refused through another host), ``shared`` (hosts that take each other's),
    ``source`` and its ``kind`` -> the entry's binding keys, its source and the source's kind."""
    if table is None:
        return None
    if not isinstance(table, Mapping) or set(table) - _HOSTS or not isinstance(table.get("source"), str):
        raise CatalogError(f"{where}: hosts: a table of {', '.join(sorted(_HOSTS))}, with a source")
    binding = {"host_bound": table.get("bound", False), "shared_hosts": table.get("shared", [])}
    return binding, table["source"], table.get("kind")


def _hosted_entry(table: Mapping[str, Any], binding: dict[str, Any], source: str, kind: str | None) -> dict[str, Any]:
    """``table`` with the file's host facts where it states none of its own."""
    out = {**table, "binding": {**binding, **table.get("binding", {})}, "sources": {**table.get("sources", {})}}
    out["sources"]["hosts"] = source
    if kind is not None:
        out["source_kinds"] = {"hosts": kind, **table.get("source_kinds", {})}
    return out


def base_of(
    base_id: Any, known: Mapping[str, ModelSpec], where: str, elsewhere: Elsewhere | None = None
) -> ModelSpec | None:
    """The entry ``extends`` names: one of ``known``, or ``"<provider>/<id>"`` in that provider's
    catalog (``elsewhere``). None when nothing is extended, or the other provider has no catalog
    installed (the entry then stands on its own facts); a name neither finds is a CatalogError."""
    if base_id is None:
        return None
    if not isinstance(base_id, str):
        raise CatalogError(f"{where}: extends takes a model id")
    if base_id in known:
        return known[base_id]
    if "/" in base_id and elsewhere is not None:
        owner, _, model = base_id.partition("/")
        found, has_catalog = elsewhere(owner, model)
        if found is not None or not has_catalog:
            return found
    raise CatalogError(f"{where}: extends {base_id!r}, which no earlier entry defines")
