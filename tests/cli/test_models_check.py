"""``interlingua models --check``: the catalog against a vendor's model list (a loopback vendor
serving it as the real one does) and against the models a dataset or a gateway log names."""

from __future__ import annotations

from pathlib import Path

import pytest

from interlingua import models
from interlingua.testing import FakeVendor

from .conftest import run_cli

FAMILY = "its family's defaults"


def test_check_against_a_vendors_list_names_the_unknown_the_unlisted_and_the_unpriced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The list served by a loopback OpenAI (the gateway's own page writer, read back through the
    transport with the key from the environment): every active catalog model but gpt-5.5, plus a
    new gpt-5.x and an id no family claims."""
    active = [s.id for s in models.all_models("openai") if s.status != "retired" and s.retired is None]
    served = [m for m in active if m != "gpt-5.5"] + ["gpt-5.7", "babbage-9"]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback")
    with FakeVendor("openai-chat", models=served) as fake:
        run = run_cli("models", "--check", "--vendor", "openai", "--base-url", fake.base_url, "--json")
        asked = [(r.method, r.path, r.headers.get("authorization")) for r in fake.received]
    assert run.code == 1, run.stderr
    assert asked == [("GET", "/v1/models", "Bearer sk-loopback")]
    found = {(f["model"], f["kind"]): f["detail"] for f in run.json()}
    assert found[("gpt-5.7", "unknown")] == "listed by the openai API; takes gpt-5.5's rules as its family's defaults"
    no_family = "no catalog entry or family: no model rule applied"
    assert found[("babbage-9", "unknown")] == f"listed by the openai API; {no_family}"
    assert found[("gpt-5.5", "unlisted")].startswith("not in the openai API's list")
    assert found[("gpt-5.6-sol", "unpriced")].startswith("its model page (developers.openai.com/api/docs/models/")
    assert {kind for _, kind in found} == {"unknown", "unlisted", "unpriced"}
    assert {f["provider"] for f in run.json()} == {"openai"}


def test_check_reads_the_models_a_dataset_and_a_gateway_log_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch file's bodies and a gateway access line (plain and JSON-quoted model fields):
    a retired model, a new Fable and a known model; the vendor is not asked without a key, and
    stderr says so in one line."""
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        '{"custom_id": "a", "params": {"model": "claude-fable-6", "max_tokens": 8, "messages": []}}\n'
        '{"custom_id": "b", "params": {"model": "claude-opus-4-7", "max_tokens": 8, "messages": []}}\n'
    )
    log = tmp_path / "gateway.log"
    log.write_text(
        "INFO POST /v1/messages model=claude-3-5-haiku-20241022 upstream=None status=200 latency_ms=3.1 tokens=12\n"
        'INFO POST /v1/messages model="acme model" upstream=None status=404 latency_ms=1.0 tokens=None\n'
    )
    run = run_cli("models", "--check", "--seen", batch, "--seen", log, "--json", "--vendor", "anthropic")
    assert (run.code, run.stderr) == (
        1,
        "interlingua: anthropic: not asked (no API key for anthropic-messages: pass api_key=... or set"
        " ANTHROPIC_API_KEY)\n",
    )
    found = [(f["model"], f["provider"], f["kind"], f["detail"]) for f in run.json()]
    assert found == [
        ("acme model", "?", "unknown", f"seen in {log}; no catalog entry or family: no model rule applied"),
        (
            "claude-3-5-haiku-20241022",
            "anthropic",
            "retired",
            f"retired (https://platform.claude.com/docs/en/about-claude/model-deprecations); seen in {log}",
        ),
        ("claude-fable-6", "anthropic", "unknown", f"seen in {batch}; takes claude-fable-5-2's rules as {FAMILY}"),
        ("claude-fable-5-2", "anthropic", "unpriced", found[3][3]),
        ("claude-mythos-5-2", "anthropic", "unpriced", found[4][3]),
    ]
    assert "has no Fable 5.2 row" in found[3][3]
