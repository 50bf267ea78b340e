"""``interlingua models --check``: the catalog against what the vendors list and what was used.

Three sources are compared with the catalog (every installed codec's ``models.toml``) and the
bundled price table: each vendor's model-list endpoint (``Client.list_models``, the key from the
environment as for any request; a vendor without a key is skipped with a line saying so), and the
models named in files (``--seen``: JSONL datasets, transcripts, batch files, gateway access logs).
Each finding is one row: ``unknown`` (listed or used, but no entry names it; a family prefix
that claims it is named), ``retired`` (used, or in the catalog, past its retirement), ``unlisted``
(in the catalog as active, absent from the vendor's own list) and ``unpriced`` (no price row;
the price table's ``unpriced`` note says which page was missing).
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..pricing import PriceTable

_LOGGED_MODEL = re.compile(r' model=("(?:[^"\\]|\\.)*"|\S+)')
"""The gateway access line's model field: plain, or JSON-quoted where it needed escaping."""
_MODEL_KEYS = ("model", "modelId", "model_id")
"""Keys that name the model in the files read: request, batch and fine-tuning lines, transcripts'
usage entries (``model``); Bedrock records (``modelId``); OpenTelemetry-style exports."""


@dataclass(frozen=True)
class Finding:
    """One row of the check: the model, its provider (``?``: no catalog claims it), what is wrong
    and where it was found."""

    model: str
    provider: str
    kind: str
    detail: str


# --- what was seen -------------------------------------------------------------------------------


def models_in_files(paths: Iterable[Path]) -> dict[str, set[str]]:
    """Model name -> the files naming it: each line read as JSON (a JSONL dataset), else as a
    gateway access line (``model=...``); a file that is one JSON document is read whole."""
    seen: dict[str, set[str]] = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        try:
            documents: Iterable[Any] = [json.loads(text)]
        except ValueError:
            documents = _lines(text)
        for name in {model for document in documents for model in _models(document)}:
            seen.setdefault(name, set()).add(str(path))
    return seen


def _lines(text: str) -> Iterator[Any]:
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except ValueError:
            found = _LOGGED_MODEL.search(line)
            if found is not None:
                value = found.group(1)
                yield {"model": json.loads(value) if value.startswith('"') else value}


def _models(value: Any) -> Iterator[str]:
    """Every string under a model key, at any depth (a batch line's body, a transcript's entries)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in _MODEL_KEYS and isinstance(item, str) and item not in ("", "-", "None"):
                yield item
            else:
                yield from _models(item)
    elif isinstance(value, list):
        for item in value:
            yield from _models(item)


# --- the comparison ------------------------------------------------------------------------------


def check(
    listed: Mapping[str, list[str]],
    seen: Mapping[str, set[str]],
    prices: PriceTable,
    today: str | None = None,
) -> list[Finding]:
    """The findings: ``listed``, provider -> the ids its model-list endpoint gave (providers not
    asked are left out); ``seen``, model -> the files naming it. The catalog's own entries are
    checked for a price and a passed retirement date."""
    from .. import models

    today = today or datetime.date.today().isoformat()
    findings: list[Finding] = []
    for provider, ids in listed.items():
        findings += _against_list(provider, ids, today)
    for name, files in sorted(seen.items()):
        findings += _used(name, f"seen in {', '.join(sorted(files))}", today)
    priced_here = {price.provider for price in map(prices.get, prices.models) if price is not None}
    for spec in models.all_models():
        # a cloud host's own entries (bedrock) are priced by the host, not by this table
        if spec.price is None and spec.provider in priced_here:
            why = prices.unpriced.get(spec.id, "no price row, and no note saying which page was missing")
            findings.append(Finding(spec.id, spec.provider, "unpriced", why))
    return findings


def _against_list(provider: str, ids: list[str], today: str) -> list[Finding]:
    from .. import models

    findings: list[Finding] = []
    for name in sorted(set(ids)):
        findings += _used(name, f"listed by the {provider} API", today, provider)
    found = {spec.id for name in ids if (spec := models.find(provider, name)) is not None}
    for spec in models.all_models(provider):
        if spec.id in found or spec.status == "retired" or (spec.retired is not None and spec.retired <= today):
            continue
        why = f"not in the {provider} API's list (retired, or not offered to this key)"
        findings.append(Finding(spec.id, provider, "unlisted", why))
    return findings


def _used(name: str, where: str, today: str, provider: str | None = None) -> list[Finding]:
    """A model listed or used: unknown to the catalog (with the family whose rules it would
    take), or retired by its entry's date or status."""
    from .. import models

    owners = [provider] if provider is not None else sorted({spec.provider for spec in models.all_models()})
    for owner in owners:
        spec = models.find(owner, name)
        if spec is not None:
            if spec.status == "retired" or (spec.retired is not None and spec.retired <= today):
                when = f" on {spec.retired}" if spec.retired else ""
                return [Finding(name, owner, "retired", f"retired{when} ({spec.cite('lifecycle')}); {where}")]
            return []
    for owner in owners:
        family = models.family(owner, name)
        if family is not None:
            return [Finding(name, owner, "unknown", f"{where}; takes {family.id}'s rules as its family's defaults")]
    return [Finding(name, provider or "?", "unknown", f"{where}; no catalog entry or family: no model rule applied")]


# --- what the check leaves out ---------------------------------------------------------------------


@dataclass(frozen=True)
class Ignore:
    """A glob of model ids not to report as unknown: a vendor's (its data file's
    ``[[listed_not_served]]``: an embedding, speech or image model its wires do not serve; ``why``
    and ``source`` from there) or the user's (``--ignore``; provider ``*``, matching any)."""

    provider: str
    pattern: str
    why: str
    source: str = ""


def default_ignores(providers: Iterable[str]) -> list[Ignore]:
    """The vendors' own ignore sets, from each provider's catalog data file."""
    from .._catalog import listed_not_served

    return [
        Ignore(provider, table["pattern"], table["why"], table["source"])
        for provider in sorted(set(providers))
        for table in listed_not_served(provider)
    ]


def leave_out(findings: list[Finding], ignores: Iterable[Ignore]) -> tuple[list[Finding], dict[str, int]]:
    """``findings`` less the unknown ids an ignore matches (its provider's, the user's, or any
    vendor's for an id no catalog claims); and how many each source left out (``--ignore`` or the
    provider). A catalog entry always wins: only ``unknown`` findings are left out."""
    rules = list(ignores)
    kept: list[Finding] = []
    counts: dict[str, int] = {}
    for finding in findings:
        rule = _ignored(finding, rules)
        if rule is None:
            kept.append(finding)
        else:
            key = "--ignore" if rule.provider == "*" else rule.provider
            counts[key] = counts.get(key, 0) + 1
    return kept, counts


def _ignored(finding: Finding, rules: list[Ignore]) -> Ignore | None:
    from fnmatch import fnmatchcase

    if finding.kind != "unknown":
        return None
    for rule in rules:
        mine = rule.provider in ("*", finding.provider) or finding.provider == "?"
        if mine and fnmatchcase(finding.model, rule.pattern):
            return rule
    return None


# --- asking the vendors --------------------------------------------------------------------------


def listed_by_vendors(vendor: str | None, base_url: str | None) -> tuple[dict[str, list[str]], list[str]]:
    """Provider -> the ids its model-list endpoint gave, through the first installed codec of that
    provider that has one (``Codec.models_request``); and one line per provider not asked (no
    key in the environment) or whose list failed. ``base_url``: ask that host instead (a proxy,
    a loopback server), for ``vendor`` only."""
    from .. import Client, Endpoint, InterlinguaError, MissingAPIKeyError, codecs, get_codec

    serving: dict[str, str] = {}
    for name in codecs():
        codec = get_codec(name)
        if codec.provider in serving or (vendor is not None and codec.provider != vendor):
            continue
        if codec.models_request(endpoint=Endpoint(api_key="probe")) is not None:
            serving[codec.provider] = name
    listed: dict[str, list[str]] = {}
    notes: list[str] = []
    for provider, name in sorted(serving.items()):
        try:
            with Client(name, base_url=base_url, max_retries=1, timeout=30.0) as client:
                listed[provider] = client.list_models()
        except MissingAPIKeyError as err:
            notes.append(f"{provider}: not asked ({err})")
        except InterlinguaError as err:
            notes.append(f"{provider}: its model list failed ({type(err).__name__}: {err})")
    return listed, notes
