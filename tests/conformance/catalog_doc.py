"""The model rules page, ``docs/guide/model-rules.md``, rendered from the shipped catalogs.

Every rule an encoder or the rule checker applies for a model, one line each with the page that
states it, so the page cannot drift from the data: ``python -m tests.conformance.catalog_doc >
docs/guide/model-rules.md`` (``tests/test_catalog.py`` checks it is current).
"""

from __future__ import annotations

from interlingua import models
from interlingua._model_spec import SOURCE_KINDS
from interlingua.models import ModelSpec

PROVIDERS = ("anthropic", "openai", "gemini", "bedrock")
_HEAD = """# Model rules

Generated from the shipped catalogs (each codec's `models.toml`) by
`python -m tests.conformance.catalog_doc > docs/guide/model-rules.md`; a test fails when it is out of date.
How the catalog is used and extended: [models.md](models.md). Each line is one rule an encoder
applies (or the rule checker holds a body to) for that model, with the page that states it. A
fact not listed is unknown, and nothing is changed on its account. Inherited facts (`extends`)
are listed on each model, with the page of the entry that stated them. A source that is not a
vendor page says what it is: a recorded response, or a peer's live-tested profile.
"""


def markdown() -> str:
    """The whole page."""
    out = [_HEAD]
    for provider in PROVIDERS:
        specs = models.all_models(provider)
        out.append(f"\n## {provider} ({len(specs)} models)\n")
        for spec in specs:
            out.append(_model(spec))
    return "".join(out)


def _model(spec: ModelSpec) -> str:
    names = ", ".join(f"`{name}`" for name in (*spec.aliases, *(f"{p}*" for p in spec.match)))
    lines = [f"\n### `{spec.id}`\n", f"Also found as {names}.\n" if names else ""]
    if spec.scopes:
        lines.append(f"Also found behind the prefixes {', '.join(f'`{scope}`' for scope in spec.scopes)}.\n")
    if spec.family:
        prefixes = ", ".join(f"`{prefix}*`" for prefix in spec.family)
        lines.append(f"Its rules are the family defaults of ids no entry names: {prefixes} (noted when applied).\n")
    lines += [f"- {rule} ({_link(spec, group)})\n" for rule, group in _rules(spec)]
    if spec.price is not None:
        lines.append(f"- prices: the `{spec.price}` row of the price table\n")
    if spec.note:
        lines.append(f"- note: {' '.join(spec.note.split())}\n")
    return "".join(lines)


def _link(spec: ModelSpec, group: str) -> str:
    cited = "thinking" if group == "thinking_rules" and group not in spec.sources else group
    url = spec.sources.get(cited)
    kind = SOURCE_KINDS.get(spec.kind_of(cited) or "", "")
    return f"[{group}{', ' + kind if kind else ''}]({url})" if url else "no source recorded"


def _rules(spec: ModelSpec) -> list[tuple[str, str]]:
    """(rule, source group) pairs, in the order a reader of the model's page meets them."""
    rules: list[tuple[str, str]] = []
    if spec.status is not None:
        rules.append(
            (
                f"lifecycle: {spec.status}" + (f", requests fail from {spec.retired}" if spec.retired else ""),
                "lifecycle",
            )
        )
    if spec.wires:
        rules.append((f"served only by {' and '.join(spec.wires)}", "wires"))
    if spec.context_window is not None:
        rules.append((f"context window: {spec.context_window:,} tokens", "limits"))
    if spec.max_output_tokens is not None:
        rules.append((f"output: at most {spec.max_output_tokens:,} tokens (a larger max_tokens is lowered)", "limits"))
    if spec.rejects:
        rules.append((f"never takes {_names(spec.rejects)} (dropped)", "sampling"))
    rules += [(f"takes one of {_names(group)}, not both (the later dropped)", "sampling") for group in spec.exclusive]
    if spec.prefill is False:
        rules.append(("takes no prefilled final assistant turn (dropped)", "prefill"))
    refused = tuple(name for name, taken in spec.features.items() if not taken)
    if refused:
        what = "what needs it is left out; a system prompt goes to the head of the first user turn"
        rules.append((f"has no {_names(refused, ordered=True)} ({what})", "features"))
    taken = tuple(name for name, taken in spec.features.items() if taken)
    if taken:
        rules.append((f"takes {_names(taken, ordered=True)}", "features"))
    rules += _thinking(spec)
    rules += _binding(spec)
    return rules


def _binding(spec: ModelSpec) -> list[tuple[str, str]]:
    """Preserved thinking: what a signed block is bound to (withheld, with a warning, where it would
    be refused or dropped)."""
    bound = spec.binding
    if bound is None:
        return []
    rules: list[tuple[str, str]] = []
    if bound.model_bound:
        rules.append(("reads signed thinking only of itself and of models whose blocks name it as a reader", "binding"))
    if bound.prefix_bound:
        what = "withheld, with every later block, when the system prompt or tools changed since"
        rules.append((f"refuses a thinking block made under another prefix ({what})", "binding"))
    elif bound.model_bound:
        rules.append(("records a block's prefix but does not check it", "binding"))
    if bound.readable_by:
        readers = "any model" if "*" in bound.readable_by else _names(bound.readable_by, ordered=True)
        rules.append((f"its thinking blocks are read by {readers} too", "binding"))
    if bound.host_bound and spec.thinking is not None:  # a model that makes no signed reasoning: no line
        shared = f", or one of {_names(bound.shared_hosts, ordered=True)}" if bound.shared_hosts else ""
        what = f"takes a signed block only through the host that made it{shared} (withheld, with a warning)"
        rules.append((what, "hosts"))
    return rules


def _thinking(spec: ModelSpec) -> list[tuple[str, str]]:
    rules = spec.thinking
    if rules is None:
        return []
    if rules.supported is False:
        return [("takes no thinking configuration (dropped)", "thinking")]
    found: list[tuple[str, str]] = []
    if rules.modes:
        found.append((f"thinking forms: {_names(rules.modes, ordered=True)}", "thinking"))
    if rules.levels:
        found.append(
            (f"thinking levels (efforts): {_names(rules.levels, ordered=True)}; others go to the nearest", "thinking")
        )
    if rules.budget is not None:
        found.append(
            (f"thinking budget: {rules.budget[0]:,} to {rules.budget[1]:,} tokens (held to the range)", "thinking")
        )
    if rules.can_off is False:
        found.append(("thinking cannot be turned off (off: its lowest level or budget, or no setting)", "thinking"))
    elif rules.can_off is True:
        found.append(("thinking can be turned off", "thinking"))
    if rules.default is not None:
        found.append((f"thinking when a request says nothing: {rules.default}", "thinking"))
    if spec.thinking_rejects:
        found.append((f"while thinking, never takes {_names(spec.thinking_rejects)} (dropped)", "thinking_rules"))
    for mode, names in sorted(spec.mode_rejects.items()):
        found.append((f"while thinking in mode `{mode}`, never takes {_names(names)} (dropped)", "thinking_rules"))
    for name, (low, high) in sorted(spec.thinking_ranges.items()):
        taken = f"only {low:g}" if low == high else f"{low:g} to {high:g}"
        found.append((f"while thinking, takes {name} {taken} (moved into the range, or dropped)", "thinking_rules"))
    if rules.signatures is not None:
        verdict = "refuses" if rules.signatures else "takes"
        found.append((f"{verdict} a current-turn tool call without its reasoning signature", "signatures"))
    return found


def _names(names: frozenset[str] | tuple[str, ...], *, ordered: bool = False) -> str:
    return ", ".join(f"`{name}`" for name in (names if ordered else sorted(names)))


if __name__ == "__main__":
    import sys

    sys.stdout.write(markdown())
