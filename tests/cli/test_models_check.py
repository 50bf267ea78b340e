"""``interlingua models --check``: the catalog against a vendor's model list (a loopback vendor
serving it as the real one does) and against the models a dataset or a gateway log names."""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from interlingua import models
from interlingua.cli import catalog_check
from interlingua.pricing import default_prices
from interlingua.testing import FakeVendor

from .conftest import run_cli

FAMILY = "its family's defaults"
NOT_CHAT = [
    "text-embedding-3-small",
    "tts-1-hd",
    "gpt-4o-mini-tts",
    "whisper-1",
    "gpt-4o-transcribe",
    "dall-e-3",
    "gpt-image-1",
    "omni-moderation-latest",
    "sora-2",
    "gpt-realtime",
    "davinci-002",
]
"""What OpenAI's model list names beside its chat models (ids of its embeddings, speech, image,
moderation, video, realtime and legacy completions guides), each with no field saying so."""


def test_check_against_a_vendors_list_names_the_unknown_the_unlisted_and_the_unpriced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The list served by a loopback OpenAI (the gateway's own page writer, read back through the
    transport with the key from the environment): every active catalog model but gpt-5.5, plus a
    new gpt-5.x and an id no family claims."""
    active = [s.id for s in models.all_models("openai") if s.status != "retired" and s.retired is None]
    served = [m for m in active if m != "gpt-5.5"] + ["gpt-5.7", "babbage-9", "my-tuned-model", *NOT_CHAT]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback")
    with FakeVendor("openai-chat", models=served) as fake:
        run = run_cli(
            "models", "--check", "--vendor", "openai", "--base-url", fake.base_url, "--json", "--ignore", "my-*"
        )
        asked = [(r.method, r.path, r.headers.get("authorization")) for r in fake.received]
    assert run.code == 1, run.stderr
    assert run.stderr == (
        "interlingua: --ignore: 1 unknown id(s) left out, matched --ignore\n"
        f"interlingua: openai: {len(NOT_CHAT)} unknown id(s) left out, not served by its wires"
        " (--no-default-ignore lists them)\n"
    )
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


def test_the_vendors_ignore_sets_leave_out_what_their_wires_do_not_serve_and_nothing_the_catalog_knows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Gemini's list (a loopback Gemini serving it) names embedding, image, video, speech and Live
    models beside the generateContent ones: its set leaves those out, and a new generation model
    (gemma, an image-output Gemini) is still reported. Without the sets (--no-default-ignore) all
    are; a glob never hides a catalog model's finding."""
    not_served = ["gemini-embedding-001", "imagen-4.0-generate-001", "veo-3.0-generate-001",
                  "gemini-2.5-flash-preview-tts", "gemini-live-2.5-flash-preview", "aqa"]
    new = ["gemma-3-27b-it", "gemini-2.5-flash-image"]
    monkeypatch.setenv("GEMINI_API_KEY", "loopback")
    with FakeVendor("gemini", models=["gemini-2.5-flash", *not_served, *new]) as fake:
        listed, notes = catalog_check.listed_by_vendors("gemini", fake.base_url)
    assert notes == []
    findings = catalog_check.check(listed, {}, default_prices(), today="2026-11-28")
    unknown = sorted(f.model for f in findings if f.kind == "unknown")
    assert unknown == sorted(not_served + new)  # --no-default-ignore: every one
    ignores = catalog_check.default_ignores(["gemini", "openai", "anthropic"])
    kept, left = catalog_check.leave_out(findings, ignores)
    assert sorted(f.model for f in kept if f.kind == "unknown") == sorted(new)
    assert left == {"gemini": len(not_served)}
    assert [f for f in kept if f.kind != "unknown"] == [f for f in findings if f.kind != "unknown"]
    everything = [catalog_check.Ignore("*", "*", "--ignore")]
    assert catalog_check.leave_out(findings, everything)[0] == [f for f in findings if f.kind != "unknown"]


def test_every_ignore_names_why_and_the_page_of_the_api_serving_those_models() -> None:
    ignores = catalog_check.default_ignores(spec.provider for spec in models.all_models())
    assert {i.provider for i in ignores} == {"openai", "gemini"}  # Anthropic's list is Messages models only
    for ignore in ignores:
        assert ignore.why and ignore.source.startswith("https://"), ignore
    chat_models = [spec.id for spec in models.all_models()]
    matched = [(m, i.pattern) for m in chat_models for i in ignores if fnmatchcase(m, i.pattern)]
    assert matched == []  # no catalog model looks like one served elsewhere
