"""The model catalog (issue 26): reading data files, finding a model, user entries, the generic
rules, and the shipped files' own hygiene (a source per fact, prices that exist)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest

from interlingua import LossyEncode, UnsupportedSetting, WarningSink, models
from interlingua._catalog import Catalog, cap_max_tokens, clamp_budget, keep_sampling, lookup, nearest_level
from interlingua._model_spec import CatalogError, ModelSpec, ThinkingRules, parse_file

ACME = """
provider = "acme"

[[model]]
id = "acme-1"
aliases = ["acme-latest"]
match = ["acme-1-preview-"]
context_window = 100000
max_output_tokens = 8000
[model.sampling]
exclusive = [["temperature", "top_p"]]
[model.thinking]
modes = ["budget"]
levels = ["low", "high"]
budget = [128, 4096]
can_off = false
default = "off"
rejects = ["top_k"]
ranges = { temperature = [1.0, 1.0], top_p = [0.9, 1.0] }
[model.sources]
sampling = "https://acme.example/sampling"
thinking = "https://acme.example/thinking"
limits = "https://acme.example/models"

[[model]]
id = "acme-2"
extends = "acme-1"
max_output_tokens = 16000
[model.sampling]
rejects = ["seed"]
"""


@pytest.fixture
def acme(tmp_path: Path) -> Iterator[list[ModelSpec]]:
    path = tmp_path / "acme.toml"
    path.write_text(ACME, encoding="utf-8")
    added = models.load(path)
    yield added
    for spec in added:
        models.forget("acme", spec.id)


def test_a_file_reads_into_specs_and_extends_inherits_what_it_does_not_set(acme: list[ModelSpec]) -> None:
    one, two = acme
    assert (one.id, one.aliases, one.context_window, one.max_output_tokens) == (
        "acme-1",
        ("acme-latest",),
        100000,
        8000,
    )
    assert one.thinking == ThinkingRules(
        modes=("budget",), levels=("low", "high"), budget=(128, 4096), can_off=False, default="off"
    )
    assert (two.max_output_tokens, two.context_window, two.thinking) == (16000, 100000, one.thinking)
    assert (two.rejects, two.exclusive, two.aliases) == (frozenset({"seed"}), one.exclusive, ())
    assert two.sources["thinking"] == "https://acme.example/thinking"


def test_a_model_is_found_by_id_alias_dated_snapshot_prefix_and_path(acme: list[ModelSpec]) -> None:
    one, two = acme
    assert models.find("acme", "acme-1") is one
    assert models.find("acme", "acme-latest") is one
    assert models.find("acme", "acme-2-20270101") is two
    assert models.find("acme", "acme-2-2027-01-01") is two
    assert models.find("acme", "acme-1-preview-0612") is one
    assert models.find("acme", "models/acme-2") is two
    assert models.find("acme", "acme-3") is None
    assert models.find("acme", "acme-10") is None  # no prefix guessing beyond ``match``


def test_register_adds_and_overrides_and_forget_restores(acme: list[ModelSpec]) -> None:
    spec = models.register({"id": "acme-1", "extends": "acme-2", "max_output_tokens": 500}, provider="acme")
    try:
        assert models.find("acme", "acme-latest") is None  # the override has no alias of its own
        assert models.find("acme", "acme-1") is spec
        assert (spec.max_output_tokens, spec.rejects) == (500, frozenset({"seed"}))
    finally:
        models.forget("acme", "acme-1")
    assert models.find("acme", "acme-1") is None  # forgotten: the file's entry was replaced, not kept


def test_a_shipped_model_can_be_overridden_at_runtime() -> None:
    shipped = models.find("anthropic", "claude-opus-4-7")
    assert shipped is not None and shipped.max_output_tokens == 128000
    models.register({"id": "claude-opus-4-7", "extends": "claude-opus-4-7", "max_output_tokens": 100}, "anthropic")
    try:
        found = models.find("anthropic", "claude-opus-4-7")
        assert found is not None and (found.max_output_tokens, found.rejects) == (100, shipped.rejects)
    finally:
        models.forget("anthropic", "claude-opus-4-7")
    assert models.find("anthropic", "claude-opus-4-7") == shipped


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[model]]\nid = "x"\nprovider = "acme"\ncolour = 1', "unknown keys ['colour']"),
        ('[[model]]\nprovider = "acme"', "needs an id"),
        ('[[model]]\nid = "x"', "names no provider"),
        ('provider = "acme"\n[[model]]\nid = "x"\nextends = "y"', "extends 'y'"),
        ('provider = "acme"\n[[model]]\nid = "x"\n[model.thinking]\nlevels = ["huge"]', "unknown levels ['huge']"),
    ],
)
def test_a_bad_entry_fails_naming_the_model_and_the_key(text: str, message: str) -> None:
    import tomllib

    with pytest.raises(CatalogError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_file(tomllib.loads(text), "bad.toml")


def test_nearest_level_prefers_the_closer_and_on_a_tie_the_higher() -> None:
    rules = ThinkingRules(levels=("off", "low", "medium", "high"))
    assert [rules.nearest(level) for level in ("minimal", "xhigh", "max", "medium")] == [
        "low",
        "high",
        "high",
        "medium",
    ]
    assert ThinkingRules(levels=("high",)).nearest("minimal") == "high"
    assert ThinkingRules().nearest("xhigh") == "xhigh"  # levels unknown: as asked


def test_keep_sampling_drops_refused_keeps_one_of_a_group_and_clamps_while_thinking(acme: list[ModelSpec]) -> None:
    _, two = acme
    out = WarningSink("acme-chat")
    values = {"temperature": 0.2, "top_p": 0.5, "top_k": 5, "seed": 7}
    assert keep_sampling(two, values, False, out) == {"temperature": 0.2, "top_k": 5}
    assert [(type(w), w.path) for w in out.warnings] == [(UnsupportedSetting, "seed"), (UnsupportedSetting, "top_p")]
    assert out.warnings[1].message == (
        "acme-2 takes only one of temperature and top_p: top_p dropped (https://acme.example/sampling)"
    )
    out = WarningSink("acme-chat")
    assert keep_sampling(two, {"top_p": 0.5, "top_k": 5}, True, out) == {"top_p": 0.9}
    assert [(type(w).__name__, w.path, w.message) for w in out.warnings] == [
        ("LossyEncode", "top_p", "with thinking on, acme-2 takes top_p in [0.9, 1]: sent as 0.9 (https://acme.example/thinking)"),
        ("UnsupportedSetting", "top_k", "with thinking on, acme-2 does not take top_k (https://acme.example/thinking)"),
    ]  # fmt: skip
    out = WarningSink("acme-chat")
    assert keep_sampling(two, {"temperature": 0.3}, True, out) == {}
    assert out.warnings[0].message == (
        "with thinking on, acme-2 takes temperature only at its default 1 (https://acme.example/thinking)"
    )


def test_budgets_levels_and_max_tokens_map_to_the_nearest_accepted_value(acme: list[ModelSpec]) -> None:
    one, _ = acme
    out = WarningSink("acme-chat")
    assert [clamp_budget(one, b, out) for b in (0, 1, 500, 99999, -1)] == [128, 128, 500, 4096, -1]
    assert [w.message for w in out.warnings] == [
        "acme-1 cannot turn thinking off: sent as 128 (https://acme.example/thinking)",
        "acme-1 takes budgets in [128, 4096]: sent as 128 (https://acme.example/thinking)",
        "acme-1 takes budgets in [128, 4096]: sent as 4096 (https://acme.example/thinking)",
    ]
    out = WarningSink("acme-chat")
    assert [nearest_level(one, lv, out) for lv in ("off", "medium", "high")] == ["low", "high", "high"]
    assert [w.message for w in out.warnings] == [
        "acme-1 cannot turn thinking off: sent as 'low' (https://acme.example/thinking)",
        "acme-1 takes no 'medium' level: sent as 'high' (https://acme.example/thinking)",
    ]
    out = WarningSink("acme-chat")
    assert (cap_max_tokens(one, 9000, out), cap_max_tokens(one, 8000, out), cap_max_tokens(None, 10**9, out)) == (
        8000,
        8000,
        10**9,
    )
    assert out.warnings == [
        LossyEncode(
            codec="acme-chat",
            path="max_tokens",
            message="acme-1 writes at most 8000 tokens (https://acme.example/models)",
            part_type="max_tokens",
            action="converted",
        )
    ]


def test_an_unknown_model_is_noted_once_per_encode_and_never_fails_strict(acme: list[ModelSpec]) -> None:
    out = WarningSink("acme-chat")
    assert lookup("acme", "no_such_package", "acme-9", out) is None
    assert lookup("acme", "no_such_package", "acme-9", out) is None
    assert [(n.model, n.path, n.message) for n in out.notes] == [
        ("acme-9", "model", "'acme-9' is not in the model catalog: sent as asked, no model rule applied")
    ]
    encoded = out.finish({"model": "acme-9"}, strict=True)
    assert (encoded.warnings, [n.model for n in encoded.notes]) == ([], ["acme-9"])


def test_a_provider_without_a_catalog_notes_nothing() -> None:
    out = WarningSink("plain-chat")
    assert lookup("nobody", "no_such_package", "some-model", out) is None
    assert out.notes == []


def test_the_catalog_is_read_on_first_use_not_at_import() -> None:
    code = (
        "import sys, interlingua, interlingua_anthropic, interlingua_openai, interlingua_gemini\n"
        "from interlingua import _catalog\n"
        "assert 'tomllib' not in sys.modules, 'tomllib imported'\n"
        "assert 'interlingua._model_spec' not in sys.modules, 'the record types were built'\n"
        "assert not _catalog._PACKAGE_DATA, 'a catalog was read'\n"
        "from interlingua import Message, Request, get_codec\n"
        "request = Request(model='claude-opus-4-7', messages=[Message.user('hi')])\n"
        "get_codec('anthropic-messages').encode_request(request)\n"
        "assert list(_catalog._PACKAGE_DATA) == [('interlingua_anthropic', 'anthropic')], _catalog._PACKAGE_DATA\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def _shipped() -> list[ModelSpec]:
    return [spec for spec in models.all_models() if spec.provider in ("anthropic", "openai", "gemini", "bedrock")]


def test_every_shipped_fact_names_its_source() -> None:
    missing = []
    for spec in _shipped():
        groups = {
            "limits": spec.context_window is not None or spec.max_output_tokens is not None,
            "sampling": bool(spec.rejects or spec.exclusive),
            "thinking": spec.thinking is not None,
            "features": bool(spec.features),
        }
        missing += [f"{spec.id}: {group}" for group, used in groups.items() if used and group not in spec.sources]
        missing += [
            f"{spec.id}: {url}"
            for group, url in spec.sources.items()
            if not url.startswith("https://") and spec.kind_of(group) != "recorded_response"
        ]
    assert missing == []


def test_a_recorded_response_cited_as_a_source_is_in_the_corpus_and_names_its_model() -> None:
    """A fact whose kind is ``recorded_response`` cites a file of the shared corpus
    (``fixtures/<corpus>/...``) whose answer names the model (a dated snapshot of it counts)."""
    cited = [
        (spec, url) for spec in _shipped() for g, url in spec.sources.items() if spec.kind_of(g) == "recorded_response"
    ]
    assert cited, "the shipped catalog cites recorded responses (gpt-5.6-terra among them)"
    from interlingua.testing import real_fixtures_dir, skip_without_corpus

    for corpus in ("real", "lingua", "pydantic-ai"):
        skip_without_corpus(corpus)
    root = real_fixtures_dir().parent
    for spec, url in cited:
        assert url.startswith("fixtures/"), url
        text = (root / url.removeprefix("fixtures/")).read_text(encoding="utf-8")
        assert re.search(rf'"model":\s*"{re.escape(spec.id)}(-\d{{4}}-\d{{2}}-\d{{2}})?"', text), (spec.id, url)


def test_every_price_link_names_a_row_of_the_price_table() -> None:
    table = json.loads((Path(__file__).parents[1] / "src/interlingua/pricing/prices.json").read_text())
    rows = {provider: set(entry["models"]) for provider, entry in table["providers"].items()}
    linked = [(spec.provider, spec.price) for spec in _shipped() if spec.price is not None]
    assert linked and [link for link in linked if link[1] not in rows.get(link[0], set())] == []


def test_every_catalog_model_has_a_price_but_the_named_gaps() -> None:
    """A first-party model without a price is named in its provider's ``unpriced`` (prices.json),
    saying which vendor page was missing (issue 45 item 4); a row that lands removes it there."""
    from interlingua.pricing import default_prices

    table = default_prices()
    unpriced = {s.id for s in _shipped() if s.provider in ("anthropic", "openai", "gemini") and s.price is None}
    assert unpriced == set(table.unpriced)
    assert all("page" in why for why in table.unpriced.values())
    for spec in _shipped():
        row = table.get(spec.price) if spec.price else None
        # the ids a response names find the row too; a Bedrock model id (anthropic.claude-...) is
        # AWS's to price, and a response from Bedrock names the Claude id anyway
        names = [name for name in (spec.id, *spec.aliases) if not name.startswith("anthropic.")]
        found = [table.get(name) for name in names]
        assert row is None or found == [row] * len(found), spec.id


def test_a_catalog_model_without_a_price_warns_once_and_prices_nothing() -> None:
    from interlingua import Usage
    from interlingua.pricing import UnknownPriceWarning, estimate

    with pytest.warns(UnknownPriceWarning) as caught:
        cost = estimate(Usage(input_tokens=1000, output_tokens=10), "gpt-4o")
    assert (cost, [w.message.model for w in caught]) == (None, ["gpt-4o"])  # type: ignore[union-attr]  # UnknownPriceWarning
    priced = estimate(Usage(input_tokens=1_000_000, output_tokens=1_000_000), "claude-opus-4-1-20250805")
    assert priced is not None and str(priced.total) == "90"


def test_the_shipped_catalogs_know_the_models_the_real_corpus_uses() -> None:
    assert {s.provider for s in _shipped()} == {"anthropic", "openai", "gemini", "bedrock"}
    for provider, model in [
        ("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
        ("bedrock", "us.anthropic.claude-3-7-sonnet-20250219-v1:0"),
        ("bedrock", "us.amazon.nova-micro-v1:0"),
        ("bedrock", "us.amazon.nova-2-lite-v1:0"),
        ("bedrock", "us.deepseek.r1-v1:0"),
        ("anthropic", "claude-sonnet-4-5-20250929"),
        ("anthropic", "claude-haiku-4-5-20251001"),
        ("openai", "gpt-5-nano-2025-08-07"),
        ("openai", "gpt-4o-mini-2024-07-18"),
        ("gemini", "gemini-2.5-pro-preview-05-06"),
    ]:
        assert models.find(provider, model) is not None, model


def test_one_package_can_hold_several_providers_data() -> None:
    found = Catalog("someone-else", "interlingua_openai")
    assert found.models() == []  # the openai file's entries are the openai provider's only


_PROVIDERS = {
    "anthropic-messages": "anthropic",
    "openai-chat": "openai",
    "openai-responses": "openai",
    "gemini": "gemini",
    "bedrock-converse": "bedrock",
}
_LINGUA_WIRES = {"anthropic": "anthropic-messages", "chat-completions": "openai-chat", "responses": "openai-responses"}


def _accepted_requests() -> list[tuple[str, str, dict[str, object], str | None]]:
    """(id, wire, body, model) for every request body the vendors accepted in the shared corpora."""
    from interlingua.testing import lingua_fixtures_dir, real_fixtures

    found: list[tuple[str, str, dict[str, object], str | None]] = []
    for wire in ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse"):
        for path in real_fixtures(wire, "request"):
            if path.stem.startswith("invalid-"):
                continue  # recorded with the 400 the API answered
            document = json.loads(path.read_text(encoding="utf-8"))
            route = document.get("path", "") if isinstance(document, dict) else ""
            model = route.split("/models/", 1)[1].split(":", 1)[0] if "/models/" in route else None
            if "/model/" in route:  # Converse: /model/{modelId}/converse, the id URL-quoted
                model = unquote(route.split("/model/", 1)[1].rsplit("/", 1)[0])
            found.append((f"{wire}/{path.stem}", wire, load_body_of(path), model))
    lingua = lingua_fixtures_dir()
    for path in sorted(lingua.glob("*/*/*request*.json")):
        wire = _LINGUA_WIRES.get(path.parent.name)
        if wire is not None:
            found.append(
                (f"lingua/{path.parent.parent.name}/{path.parent.name}/{path.stem}", wire, load_body_of(path), None)
            )
    return found


def load_body_of(path: Path) -> dict[str, object]:
    from interlingua.testing import load_body

    body = load_body(path)
    return body if isinstance(body, dict) else {}


def test_every_accepted_request_in_the_real_corpora_keeps_the_catalog_rules() -> None:
    """Invariant 8: the catalog's rules hold on what the vendors accepted (a failure means the
    data, or the rule, is wrong: check the docs again)."""
    from interlingua.testing import check_model_rules, skip_without_corpus

    skip_without_corpus("real")
    skip_without_corpus("lingua")
    cases = _accepted_requests()
    problems = {name: found for name, wire, body, model in cases if (found := check_model_rules(wire, body, model))}
    assert problems == {}
    known = [
        name for name, wire, body, model in cases if models.find(_PROVIDERS[wire], str(model or body.get("model")))
    ]
    assert len(known) > 50  # the rules were exercised, not skipped


def test_the_core_judge_reads_a_decoded_request_as_inspect_does() -> None:
    from interlingua import Message, Request
    from interlingua._model_check import refusals, view_of

    spec = models.find("openai", "gpt-5-pro")
    assert spec is not None
    messages = [Message.user("hi"), Message.assistant("{")]
    request = Request(model="gpt-5-pro", messages=messages, temperature=0.2, tool_choice="required")
    assert refusals(spec, view_of(request), "openai-chat") == [
        "model: gpt-5-pro is not served by openai-chat",
        "temperature: gpt-5-pro takes it in [1, 1] while thinking, not 0.2",
    ]
    opus = models.find("anthropic", "claude-opus-4-7")
    assert opus is not None
    assert refusals(opus, view_of(request.model_copy(update={"model": "claude-opus-4-7"}))) == [
        "temperature: claude-opus-4-7 does not take it",
        "messages: claude-opus-4-7 takes no prefilled final assistant turn",
    ]


def test_lifecycle_notes_and_thinking_facts_read_from_a_file_and_reset_on_extends() -> None:
    import tomllib

    text = """
provider = "acme"
[[model]]
id = "acme-old"
status = "retired"
retired = "2026-01-01"
note = "kept for logged usage"
[model.thinking]
supported = false
signatures = true
[[model]]
id = "acme-new"
extends = "acme-old"
"""
    old, new = parse_file(tomllib.loads(text), "lifecycle.toml")
    assert (old.status, old.retired, old.note, old.thinking) == (
        "retired",
        "2026-01-01",
        "kept for logged usage",
        ThinkingRules(supported=False, signatures=True),
    )
    assert (new.status, new.retired, new.note, new.thinking) == (None, None, None, old.thinking)
    with pytest.raises(CatalogError, match="'gone' is not one of active, legacy, deprecated, retired"):
        parse_file(tomllib.loads('provider = "acme"\n[[model]]\nid = "x"\nstatus = "gone"'), "bad.toml")


def test_a_model_that_cannot_turn_thinking_off_thinks_whatever_it_is_sent() -> None:
    always = ModelSpec(id="acme-deep", provider="acme", thinking=ThinkingRules(modes=("adaptive",), can_off=False))
    optional = ModelSpec(id="acme-light", provider="acme", thinking=ThinkingRules(default="off"))
    assert [always.thinks(level) for level in (None, "off", "low")] == [True, True, True]
    assert [optional.thinks(level) for level in (None, "off", "low")] == [False, False, True]
