"""The generated model rules page (issue 26): current, and every rule on it names its page."""

from __future__ import annotations

from pathlib import Path

from interlingua import models

from .catalog_doc import PROVIDERS, markdown


def test_the_model_rules_page_is_current_and_every_rule_names_its_page() -> None:
    page = markdown()
    committed = (Path(__file__).parents[2] / "docs/guide/model-rules.md").read_text(encoding="utf-8")
    assert committed == page, "run: python -m tests.conformance.catalog_doc > docs/guide/model-rules.md"
    assert "no source recorded" not in page
    assert page.count("\n### `") == len([s for s in models.all_models() if s.provider in PROVIDERS])
