"""The model catalog: what each model takes (limits, sampling, thinking), read from data files.

A codec ships its vendor's facts as ``models.toml`` in its package; that file is read on the first
lookup for its provider (never at import) and each model found is cached by id. A model is found by
its id or an alias, then with a dated snapshot suffix removed (``-20250929``, ``-2025-08-07``), then
by the longest ``match`` prefix; a name that starts with one of the catalog's ``scopes`` (a
regional deployment's prefix, ``acme-eu.``) is found the same way without it. Users add or
override entries at runtime (``interlingua.models``).

The rules here are generic; the data names the models, and each codec maps a rule onto its wire.
An encoder that knows the target model drops what the model refuses and maps what it must change
to the nearest accepted value, each with a warning naming the model and the rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from ._errors import EncodeError
from ._warnings import WarningSink

if TYPE_CHECKING:
    from pathlib import Path

    from ._binding import Binding
    from ._message import Message
    from ._model_spec import ModelSpec
    from ._request import Request

DATA_FILE: Final = "models.toml"
SAMPLING: Final = ("temperature", "top_p", "top_k", "presence_penalty", "frequency_penalty", "seed", "stop")
"""The IR settings sampling rules speak of, in the order an exclusive group keeps them."""
_DATE = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8})$")


# --- finding -------------------------------------------------------------------------------------


class Catalog:
    """One provider's models: its codec's data file (read on first use) and the user's entries."""

    __slots__ = ("_by_name", "_cache", "_families", "_prefixes", "_scopes", "added", "package", "provider")

    def __init__(self, provider: str, package: str | None) -> None:
        self.provider = provider
        self.package = package
        self.added: dict[str, ModelSpec] = {}
        self._by_name: dict[str, ModelSpec] | None = None
        self._prefixes: list[tuple[str, ModelSpec]] = []
        self._families: list[tuple[str, ModelSpec]] = []
        self._scopes: tuple[str, ...] = ()
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
        name = model.rsplit("/", 1)[-1]  # "models/acme-2", "publishers/acme/models/acme-2"
        found = self._match(name)
        if found is None:
            scope = next((scope for scope in self._scopes if name.startswith(scope)), None)
            found = None if scope is None else self._match(name[len(scope) :])
        return found

    def _match(self, name: str) -> ModelSpec | None:
        by_name = self._by_name or {}
        for candidate in (name, _DATE.sub("", name)):
            if candidate in by_name:
                return by_name[candidate]
        for prefix, spec in self._prefixes:
            if name.startswith(prefix):
                return spec
        return None

    def family(self, model: str | None) -> ModelSpec | None:
        """The entry whose rules stand in, as its family's defaults, for ``model`` that no entry
        names (its longest ``family`` prefix); None where no family claims it. The caller notes
        each use: these are defaults, not facts about the model."""
        if model is None or self.find(model) is not None:
            return None
        name = model.rsplit("/", 1)[-1]
        scope = next((scope for scope in self._scopes if name.startswith(scope)), "")
        name = name[len(scope) :]
        return next((spec for prefix, spec in self._families if name.startswith(prefix)), None)

    def _index(self) -> None:
        by_name: dict[str, ModelSpec] = {}
        prefixes: list[tuple[str, ModelSpec]] = []
        families: list[tuple[str, ModelSpec]] = []
        scopes: set[str] = set()
        for spec in self.models():
            for name in (spec.id, *spec.aliases):
                by_name[name] = spec
            prefixes += [(prefix, spec) for prefix in spec.match]
            families += [(prefix, spec) for prefix in spec.family]
            scopes.update(spec.scopes)
        self._by_name = by_name
        self._prefixes = sorted(prefixes, key=lambda item: -len(item[0]))
        self._families = sorted(families, key=lambda item: -len(item[0]))
        self._scopes = tuple(sorted(scopes, key=lambda scope: -len(scope)))  # the longest first

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
    from importlib import resources  # heavy to import: only when a catalog is first read

    try:
        text = resources.files(package).joinpath(DATA_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        text = ""
    from ._model_spec import parse_file

    found = parse_file(_toml(text), f"{package}/{DATA_FILE}", provider, elsewhere) if text else []
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


def discover() -> None:
    """Name each installed codec's package as its provider's data package (loading no file)."""
    from ._registry import codecs, get_codec

    for name in codecs():
        codec = get_codec(name)
        catalog(codec.provider, type(codec).__module__.split(".", 1)[0])


def elsewhere(provider: str, model: str) -> tuple[ModelSpec | None, bool]:
    """Another provider's model, for an entry that extends it (``"<provider>/<id>"``): its entry
    (None: unknown) and whether that provider has a catalog (the installed codecs' included)."""
    discover()
    found = catalog(provider)
    return found.find(model), found.has_data()


def lookup(
    provider: str, package: str, model: str | None, out: WarningSink, wire: str | None = None
) -> ModelSpec | None:
    """What an encoder asks: the target model's entry. A model the catalog does not know (of a
    provider that has a catalog) is noted once per encode as ``UnknownModel``: it is encoded as
    asked, nothing dropped, so the note is informational and never fails ``strict``. One a
    ``family`` prefix claims (a new ``acme-5.x``) takes that entry's rules as the family's defaults,
    and the note names the entry (``UnknownModel.family``): its warnings then speak of defaults,
    not of facts about the model. ``wire``: the
    encoding wire; a model its entry says another wire serves (``wires``) is sent as asked, with an
    UnsupportedSetting at ``model``, since the API would refuse it."""
    found = catalog(provider, package)
    spec = found.find(model)
    if spec is None and model is not None and found.has_data():
        spec = found.family(model)
        out.note_unknown_model(model, None if spec is None else spec.id)
    if spec is not None and wire is not None and spec.wires and wire not in spec.wires:
        why = f"{spec.id} is served only by {' and '.join(spec.wires)}, not {wire} ({spec.cite('wires')})"
        out.unsupported("model", "model", why)
    return spec


def known_model(provider: str, package: str, model: str | None) -> ModelSpec | None:
    """The entry for ``model``, an unknown one not noted: for a fact sought (a feature the model
    may take), not a rule asked for."""
    return catalog(provider, package).find(model)


def binding_of(provider: str, package: str, request: Request, host: str | None = None) -> Binding:
    """What the target model of ``request`` takes of earlier turns' signed reasoning (its entry's
    ``[binding]`` facts, the producing models' ``readable_by``); an encoder asks it per block.
    ``host``: the host the request goes through (``Codec.host_for``), None where not known. An
    unknown model is not noted here: binding facts are sought, not asked for."""
    from ._binding import Binding

    found = catalog(provider, package)
    return Binding(found.find(request.model), request, found.find, host)


def load(path: str | Path, provider: str | None = None) -> list[ModelSpec]:
    """Add (or override) the models of a catalog file of the shipped format; returns them."""
    from pathlib import Path

    source = Path(path)
    from ._model_spec import parse_file

    specs = parse_file(_toml(source.read_text(encoding="utf-8")), str(source), provider, elsewhere)
    for spec in specs:
        catalog(spec.provider).add(spec)
    return specs


def register(entry: ModelSpec | Mapping[str, Any], provider: str | None = None) -> ModelSpec:
    """Add (or override) one model: a ModelSpec, or a mapping shaped like a ``[[model]]`` table
    (``extends`` may name any model the provider's catalog knows, or ``"<provider>/<id>"``)."""
    from ._model_spec import CatalogError, ModelSpec, base_of, parse_entry

    if isinstance(entry, ModelSpec):
        spec = entry
    else:
        owner = entry.get("provider", provider)
        if not isinstance(owner, str):
            raise CatalogError(f"{entry.get('id')!r}: name its provider")
        base_id = entry.get("extends")
        if isinstance(base_id, str) and "/" in base_id:  # None: that provider's catalog is not installed
            base = base_of(base_id, {}, f"register: {entry.get('id')!r}", elsewhere)
        else:
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


def listed_not_served(provider: str) -> list[dict[str, str]]:
    """The ``[[listed_not_served]]`` tables of ``provider``'s data file (``pattern``, a glob; ``why``;
    ``source``): ids the vendor's model list names that no wire of its codecs serves (embeddings,
    speech, images), which ``interlingua models --check`` leaves out. Empty without a data file."""
    discover()
    package = catalog(provider).package
    if package is None:
        return []
    from importlib import resources

    try:
        text = resources.files(package).joinpath(DATA_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return []
    from ._model_spec import CatalogError

    tables = _toml(text).get("listed_not_served", [])
    where = f"{package}/{DATA_FILE}"
    for i, table in enumerate(tables):
        if not (isinstance(table, dict) and all(isinstance(table.get(k), str) for k in ("pattern", "why", "source"))):
            raise CatalogError(f"{where}: listed_not_served[{i}] needs a pattern, a why and a source")
    return [{k: table[k] for k in ("pattern", "why", "source")} for table in tables]


# --- applying rules (encoders) -------------------------------------------------------------------


def keep_sampling(
    spec: ModelSpec, values: Mapping[str, Any], thinking: bool, out: WarningSink, *, mode: str | None = None
) -> dict[str, Any]:
    """The sampling settings (IR name -> value, None: unset) ``spec`` takes, in ``values``' order;
    ``mode``: the thinking mode sent, where the model's rules differ by mode.

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
        _keep_while_thinking(spec, kept, out, mode)
    return kept


def _keep_while_thinking(spec: ModelSpec, kept: dict[str, Any], out: WarningSink, mode: str | None) -> None:
    source = spec.cite("thinking_rules", "thinking")
    refused = spec.refused_while_thinking(mode)
    for name in list(kept):
        value = kept[name]
        if name in refused:
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
        from ._model_spec import LEVELS

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


def drop_prefill(spec: ModelSpec, messages: list[Message], out: WarningSink) -> list[Message]:
    """``messages`` less the final assistant turn (its trailing assistant messages) when ``spec``'s
    model takes no prefill: the API answers such a body with 400, and its own advice is to remove
    the prefill and steer the answer by instructions or structured output instead (``sources.prefill``).
    The user's turn before it is still answered, so each dropped message is a LossyEncode; a body
    that would be left with no message at all is refused (EncodeError): nothing would be asked."""
    if spec.prefill is not False or not messages or messages[-1].role != "assistant":
        return messages
    end = len(messages)
    while end and messages[end - 1].role == "assistant":
        end -= 1
    if not any(message.role in ("user", "tool") for message in messages[:end]):
        why = f"{spec.id} takes no prefilled final assistant turn, and without it nothing is asked"
        why += f" ({spec.cite('prefill')})"
        raise EncodeError(out.codec, f"messages[{len(messages) - 1}]", why)
    for i in range(end, len(messages)):
        why = f"{spec.id} takes no prefilled final assistant turn: dropped ({spec.cite('prefill')})"
        out.lossy(f"messages[{i}]", "message", why)
    return messages[:end]
