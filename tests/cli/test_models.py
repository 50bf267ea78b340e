"""``interlingua models``: the catalog as a table, filtered by vendor, as JSON, with a user file."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import run_cli


def test_models_lists_every_vendor_s_catalog_as_a_table() -> None:
    run = run_cli("models")
    assert run.code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split() == ["model", "vendor", "status", "context", "max", "output", "thinking"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert {"claude-opus-4-7", "gpt-5.1", "gemini-2.5-pro"} <= rows.keys()
    assert rows["claude-opus-4-7"].split()[1:6] == ["anthropic", "-", "1,000,000", "128,000", "adaptive,"]
    assert rows["gemini-2.5-pro"].split()[5:] == ["budget", "128-32768,", "always", "on"]
    assert rows["claude-opus-5"].split()[2:5] == ["-", "1,000,000", "128,000"]  # its row on Sonnet 5's page
    assert rows["claude-3-5-sonnet"].split()[2:5] == ["retired", "?", "?"]  # limits not read from a vendor page
    assert rows["gemini-2.0-flash-lite"].split()[2:4] + rows["gemini-2.0-flash-lite"].split()[6:] == [
        "retired",
        "2026-06-01",
        "none",  # takes no thinking configuration
    ]


def test_models_shows_each_model_s_lifecycle_so_retired_ones_do_not_look_current() -> None:
    """The catalog's status word and retirement date (issue 40: without them retired models looked
    current). A date still ahead reads "retires", one past "retired"."""
    rows = {line.split()[0]: line for line in run_cli("models").stdout.splitlines()[2:]}
    assert re.search(r"deprecated, retire[sd] 2026-11-30", rows["claude-sonnet-4-5"])
    assert rows["claude-sonnet-5"].split()[2] == "legacy"
    assert rows["gpt-5-codex"].split()[2] == "retired"
    assert rows["gpt-5.1"].split()[2] == "-"  # no lifecycle word recorded: shown as unknown, not as current


def test_models_filters_by_vendor_and_speaks_json_with_sources() -> None:
    run = run_cli("models", "--vendor", "openai", "--json")
    assert run.code == 0, run.stderr
    found = {entry["id"]: entry for entry in run.json()}
    assert {entry["provider"] for entry in found.values()} == {"openai"}
    assert found["gpt-5-pro"]["wires"] == ["openai-responses"]
    assert found["gpt-5.1"]["thinking"]["levels"] == ["off", "low", "medium", "high"]
    assert found["gpt-5.1"]["sources"]["thinking"] == "https://platform.openai.com/docs/guides/latest-model"


def test_models_loads_a_user_file_beside_the_shipped_ones(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('provider = "acme"\n[[model]]\nid = "acme-1"\nmax_output_tokens = 4096\n', encoding="utf-8")
    run = run_cli("models", "--vendor", "acme", "--file", path)
    assert run.code == 0, run.stderr
    assert run.stdout.splitlines()[2].split() == ["acme-1", "acme", "-", "?", "4,096", "-"]


def test_an_unknown_vendor_or_a_bad_file_is_a_usage_error(tmp_path: Path) -> None:
    run = run_cli("models", "--vendor", "nobody")
    assert (run.code, run.stderr) == (2, "interlingua models: no models for vendor 'nobody'\n")
    bad = tmp_path / "bad.toml"
    bad.write_text('[[model]]\nid = "x"\n', encoding="utf-8")
    run = run_cli("models", "--file", bad)
    assert run.code == 2 and "names no provider" in run.stderr
