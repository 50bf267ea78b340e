"""``interlingua demo`` runs the main job on the bundled dataset, with no key and no network: the
dataset is the project's recorded golden requests, every one round-trips, the conversion report
is typed, and an official SDK reaches a fake vendor through the gateway."""

from __future__ import annotations

import json

from interlingua import models
from interlingua.cli import demo
from interlingua.testing import load_body

from .conftest import FIXTURES, run_cli


def test_the_bundled_dataset_is_the_recorded_golden_requests() -> None:
    recorded = [
        load_body(path)
        for path in sorted(FIXTURES.glob("*/request/*.json"))
        if not path.name.endswith(".ir.json")
    ]
    assert demo.dataset_lines() == recorded and len(recorded) >= 20
    assert json.dumps(recorded).count('"role"') > 40  # transcripts, not stubs


def test_the_demo_models_are_current_in_the_catalog() -> None:
    for model in (demo.TARGET_MODEL, demo.GATEWAY_MODEL):
        spec = models.find("anthropic", model)
        assert spec is not None and spec.status in (None, "active") and spec.retired is None, model


def test_demo_runs_the_main_job_offline() -> None:
    done = run_cli("demo")
    assert done.code == 0, done.stderr
    out = done.stdout
    assert "22 recorded requests of 6 wires" in out
    assert "22 of 22 unchanged" in out
    assert "converted 22 of 22 lines to anthropic-messages" in out
    assert "report.jsonl holds 18 lines' warnings" in out
    assert "line 4: lossy_encode at tools[0].input_schema.additionalProperties" in out
    assert "<- the SDK got: 'Paris. (Written by the fake vendor" in out and "finish_reason='stop'" in out
    assert done.stderr == ""
