"""Every vendor rule an encoder keeps beyond types has a source, and no request a vendor accepted
breaks one (DESIGN.md invariants 3 and 8).

Each codec declares its wire's rules in one table (``<package>/_rules.py``, reached as its turn
rules' ``table``; an openai-chat dialect holds its host's own id rule). A row's source is a vendor
page, or a refusal recorded in a corpus (``corpus:<path>`` under ``shared/fixtures``), and a row
with a check must flag the refused request recorded beside that refusal. Then every request the
three corpora (real, lingua, pydantic-ai) recorded as accepted is judged by the rows of its own
wire and host: a recorded accepted request outranks a rule, so a row it breaks is a defect. This
checks the tables only; that accepted requests also round-trip unchanged is each corpus's own test.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pytest

import interlingua as il
from interlingua.kit import CORPUS, Rule, RuleTable, TurnRules, broken_rules
from interlingua.testing import corpus_missing, load_body, real_fixtures_dir, skip_without_corpus

from .conftest import REAL_SOURCES, TARGETS, _url_model

DIALECTS = ("openai", "deepseek", "vllm", "openrouter", "mistral", "ollama")
LINGUA = {  # corpus provider folder -> wire
    "anthropic": "anthropic-messages",
    "bedrock-anthropic": "anthropic-messages",
    "vertex-anthropic": "anthropic-messages",
    "chat-completions": "openai-chat",
    "responses": "openai-responses",
    "google": "gemini",
    "bedrock": "bedrock-converse",
}


def _table(wire: str, dialect: str | None = None) -> RuleTable:
    codec = il.get_codec(wire, dialect=dialect) if dialect else il.get_codec(wire)
    rules = getattr(codec, "rules", None)  # not in the Codec protocol; every codec here has them
    assert isinstance(rules, TurnRules), wire
    return rules.table


TABLES = {name: _table(name) for name in il.codecs()} | {
    f"openai-chat[{dialect}]": _table("openai-chat", dialect) for dialect in DIALECTS
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_row_has_a_name_a_rule_and_a_source(name: str) -> None:
    table = TABLES[name]
    assert table, f"{name} declares no rule table"
    names = [rule.name for rule in table]
    assert len(set(names)) == len(names), names
    for rule in table:
        assert rule.says and rule.name, rule
        assert rule.source.startswith(("https://", CORPUS)), f"{name}: {rule.name} has no source ({rule.source!r})"


def _corpus_rows() -> list[tuple[str, Rule]]:
    return [(name, rule) for name, table in sorted(TABLES.items()) for rule in table if rule.source.startswith(CORPUS)]


def test_a_recorded_refusal_backs_some_row() -> None:
    assert _corpus_rows(), "no row cites a recorded refusal"


@pytest.mark.parametrize(("name", "rule"), _corpus_rows(), ids=lambda x: x if isinstance(x, str) else x.name)
def test_a_row_citing_a_recorded_refusal_flags_the_refused_request(name: str, rule: Rule) -> None:
    """The error answer is in the corpus with a 4xx status, and the request it answered, recorded
    beside it (``error/`` -> ``request/``), breaks the row."""
    skip_without_corpus()
    error = real_fixtures_dir().parent / rule.source.removeprefix(CORPUS)
    assert error.is_file(), f"{rule.source} is not in the corpus"
    document = json.loads(error.read_text())
    assert 400 <= document["status"] < 500, document
    request = error.parent.parent / "request" / error.name
    assert rule.check is not None and rule.check(load_body(request)), f"{rule.name} does not flag {request}"


# --- the accepted requests of the three corpora ---------------------------------------------------


def _real() -> Iterator[tuple[str, str, str | None, Mapping[str, Any], str | None]]:
    root = real_fixtures_dir()
    for folder, target in REAL_SOURCES.items():
        wire, dialect = ("openai-chat", "mistral") if target == "mistral" else (target, None)
        for path in sorted((root / folder / "request").glob("*.json")):
            if (root / folder / "error" / path.name).exists():
                continue  # refused: the error answer sits beside it
            body = load_body(path)
            yield f"real/{folder}/{path.stem}", wire, dialect, body, body.get("model") or _url_model(path)


def _lingua() -> Iterator[tuple[str, str, str | None, Mapping[str, Any], str | None]]:
    root = real_fixtures_dir().parent / "lingua"
    for provider, wire in LINGUA.items():
        for path in sorted(root.glob(f"*/{provider}/*request.json")):
            body = load_body(path)
            yield f"lingua/{path.parent.parent.name}/{provider}/{path.stem}", wire, None, body, body.get("model")


def _pydantic_ai() -> Iterator[tuple[str, str, str | None, Mapping[str, Any], str | None]]:
    root = real_fixtures_dir().parent / "pydantic-ai"
    for meta_path in sorted(root.glob("*/*/meta.json")):
        meta = json.loads(meta_path.read_text())
        if not 200 <= meta["status"] < 300 or not (meta_path.parent / "request.json").exists():
            continue
        body = json.loads((meta_path.parent / "request.json").read_text())
        wire = meta_path.parent.parent.name
        dialect = meta.get("dialect") if wire == "openai-chat" else None
        name = f"pydantic-ai/{wire}/{meta_path.parent.name}"
        yield name, wire, dialect, body, body.get("model") or meta.get("model")


@cache
def _accepted() -> tuple[tuple[str, str, str | None, Mapping[str, Any], str | None], ...]:
    if corpus_missing("real") is not None:
        return ()
    return (*_real(), *_lingua(), *_pydantic_ai())


RECORDED = sorted({target.name for target in TARGETS if target.real_folder is not None})
"""The wires with recorded traffic in the real corpus (``Target.real_folder``): a wire without
any (a new one, a test codec) has no accepted request to judge its rows by."""


def test_the_three_corpora_hold_accepted_requests_of_every_wire() -> None:
    skip_without_corpus()
    found = {(name.split("/")[0], wire) for name, wire, *_ in _accepted()}
    assert {corpus for corpus, _ in found} == {"real", "lingua", "pydantic-ai"}
    assert {wire for _, wire in found} >= set(RECORDED)
    assert len(_accepted()) > 1000


@pytest.mark.parametrize("wire", RECORDED)
def test_no_accepted_request_breaks_a_rule_of_its_own_wire(wire: str) -> None:
    """Judged by its host's table (a dialect's for openai-chat), for the model it addressed; a
    row bound to some models is left out where the recording does not say which model it was."""
    skip_without_corpus()
    broken: list[str] = []
    judged = 0
    for name, source, dialect, body, model in _accepted():
        if source != wire or not isinstance(body, Mapping):
            continue
        table = _table(wire, dialect) if dialect and dialect in DIALECTS else _table(wire)
        rows = tuple(rule for rule in table if rule.models is None or model is not None)
        broken += [f"{name}: {problem}" for problem in broken_rules(rows, body, model)]
        judged += 1
    assert judged >= 5
    assert broken == []


def test_a_row_bound_to_models_still_judges_the_models_it_names() -> None:
    """The Gemini 3 signature row: left out for a recording of unknown model, kept for one."""
    (rule,) = [rule for rule in _table("gemini") if rule.models is not None]
    call = {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}
    unsigned = {"contents": [{"role": "user", "parts": [{"text": "go"}]}, call]}
    assert broken_rules((rule,), unsigned, "gemini-3-pro-preview") != []
    assert broken_rules((rule,), unsigned, "gemini-2.5-flash") == []
