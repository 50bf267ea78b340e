"""The field-coverage contract (invariant 2): every key of each vendor SDK's request and response
types is declared by its codec, and every key a decode puts into the IR or provider_options
reaches every other codec's request (or a warning at its path), never nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

import interlingua as il
from interlingua.testing import coverage_problems, validate_wire

from . import _coverage_probes as probes
from .coverage_doc import (
    COVERAGE,
    WIRES,
    figures,
    found,
    markdown,
    older_sdk,
    probed_rows,
    request_outcomes,
    response_outcomes,
)

ROOT = Path(__file__).resolve().parents[2]

KNOWN_SILENT: set[tuple[str, str, str]] = set()
"""(source wire, declared row, target wire) that is dropped with no warning today."""

KNOWN_SILENT_IR: set[tuple[str, str, str]] = set()
"""Silent drops of IR fields (not provider options): real bugs, listed until fixed."""

UNPROBED = {
    ("gemini", "systemInstruction.parts[].thought"): "no valid request has a thought in a system instruction",
    ("gemini", "systemInstruction.parts[].functionCall.*"): "no valid request has a call in a system instruction",
    ("gemini", "systemInstruction.parts[].functionResponse.*"): "nor a function response",
}
"""Decoded rows with no probe, and why."""

RESPONSE_ROWS = {wire: coverage.response_rows for wire, coverage in COVERAGE.items()}
"""The response rows probed at least: stop reason, usage, citations (where the wire has them), thinking
(``Coverage.response_rows`` of each wire)."""


@pytest.mark.parametrize("kind", ["request", "response"])
@pytest.mark.parametrize("wire", WIRES)
def test_every_sdk_key_is_declared_and_no_row_is_stale(wire: str, kind: str) -> None:
    if reason := older_sdk(wire):
        pytest.skip(reason)
    problems = coverage_problems(COVERAGE[wire].declaration(kind), found(wire, kind))
    assert problems == [], f"{wire} {kind}: update _coverage.py of its codec\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("wire", WIRES)
def test_every_decoded_row_has_a_probe_and_every_probe_a_row(wire: str) -> None:
    rows = set(probed_rows(wire))
    probed = set(probes.PROBES[wire]())
    assert probed - rows == set(), "probes of rows not declared ir or provider_option"
    assert {(wire, row) for row in rows - probed} == {key for key in UNPROBED if key[0] == wire}


@pytest.mark.parametrize("wire", WIRES)
def test_probes_are_requests_and_answers_the_vendor_sdk_accepts(wire: str) -> None:
    if reason := older_sdk(wire):  # a probe of a key newer than the installed SDK's types
        pytest.skip(reason)
    for kind, table in (("request", probes.PROBES[wire]()), ("response", probes.RESPONSE_PROBES[wire]())):
        for row, probe in table.items():
            for body in (probe.body, probe.without):
                assert validate_wire(wire, kind, body) == [], (kind, row)


@pytest.mark.parametrize("wire", WIRES)
def test_no_decoded_request_key_is_dropped_silently(wire: str) -> None:
    silent = {
        (wire, row, target)
        for row, outcome in request_outcomes(wire).items()
        for target, verdict in outcome.items()
        if verdict == "silent"
    }
    expected = {key for key in KNOWN_SILENT | KNOWN_SILENT_IR if key[0] == wire}
    assert sorted(silent - expected) == [], "new silent drops"
    assert sorted(expected - silent) == [], "no longer silent: take them out of KNOWN_SILENT"


@pytest.mark.parametrize("wire", WIRES)
def test_stop_reason_usage_citations_and_thinking_reach_every_other_answer(wire: str) -> None:
    outcomes = response_outcomes(wire)
    assert RESPONSE_ROWS[wire] <= set(outcomes)
    silent = sorted(
        (row, target) for row, outcome in outcomes.items() for target, verdict in outcome.items() if verdict == "silent"
    )
    assert silent == []
    declared = COVERAGE[wire].declaration("response")
    assert all(declared[row][0] in ("ir", "meaning") for row in outcomes)


@pytest.mark.parametrize("wire", WIRES)
def test_every_meaning_row_of_a_response_has_a_probe(wire: str) -> None:
    """A ``meaning`` row reaches every other wire or is reported (issue 36 item 2): each one is
    probed, so docs/coverage.md shows its fate per target (requests: the test above)."""
    declared = COVERAGE[wire].declaration("response")
    rows = {row for row, (where, _) in declared.items() if where == "meaning"}
    assert sorted(rows - set(probes.RESPONSE_PROBES[wire]())) == []


def test_figures_count_every_probe_once_per_target() -> None:
    numbers = figures()
    for wire, n in numbers.items():
        assert n["request keys"] == len(found(wire, "request")) > 50
        for counts in n["targets"].values():
            assert sum(counts.values()) == n["probed"] == len(probes.PROBES[wire]())


def test_docs_coverage_page_is_current() -> None:
    if older := [reason for wire in WIRES if (reason := older_sdk(wire))]:
        pytest.skip("; ".join(older))  # the page counts the newest SDKs' keys
    committed = (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    assert committed == markdown(), "run: python -m tests.conformance.coverage_doc > docs/coverage.md"


@pytest.mark.parametrize("wire", WIRES)
def test_each_probed_key_lands_where_its_codec_declares(wire: str) -> None:
    """An ``ir`` row changes the decoded IR outside provider_options; a ``provider_option`` row
    changes only provider_options[provider] (so the declarations' destinations are checked too)."""
    codec = il.get_codec(wire)
    provider = codec.provider
    declared = COVERAGE[wire].declaration("request")
    wrong = []
    for row, probe in probes.PROBES[wire]().items():
        keyed, bare = codec.decode_request(probe.body), codec.decode_request(probe.without)
        ir_changed = keyed.model_copy(update={"provider_options": {}}) != bare.model_copy(
            update={"provider_options": {}}
        )
        options_changed = keyed.options(provider) != bare.options(provider)
        where = declared[row][0]
        mapped = where in ("ir", "meaning")
        if (mapped and not ir_changed) or (where == "provider_option" and (ir_changed or not options_changed)):
            wrong.append(f"{row}: declared {where}, ir changed {ir_changed}, options changed {options_changed}")
    assert wrong == []
