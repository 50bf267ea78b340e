"""The catalog for hosted models (issue 30): a scoped name (a regional deployment's prefix) finds its
model, an entry may extend another provider's model (the same model served by a host), and an
entry names the request features its model takes or refuses, which the rule checker holds a body to."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator

import pytest

from interlingua import models
from interlingua._catalog import elsewhere
from interlingua._model_check import RuleView, refusals
from interlingua._model_spec import CatalogError, ModelSpec
from interlingua._model_spec import parse_file as parse_catalog_file


def parse_file(data: dict[str, object], where: str) -> list[ModelSpec]:
    """A catalog file read as the catalog reads it (another provider's models found through it)."""
    return parse_catalog_file(data, where, elsewhere=elsewhere)

HOST = """
provider = "acme-host"
scopes = ["eu.", "global."]

[[model]]
id = "acme.small-v1"
[model.features]
vision = false
tool_use = true
[model.sources]
features = "https://host.example/features"

[[model]]
id = "acme.large-v2"
aliases = ["acme.large-latest"]
"""


@pytest.fixture
def host() -> Iterator[None]:
    specs = parse_file(tomllib.loads(HOST), "host.toml")
    for spec in specs:
        models.register(spec)
    yield
    for spec in specs:
        models.forget("acme-host", spec.id)


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("acme.small-v1", "acme.small-v1"),
        ("eu.acme.small-v1", "acme.small-v1"),
        ("global.acme.large-latest", "acme.large-v2"),  # a scope ahead of an alias
        ("arn:host:eu-1:42:profile/eu.acme.large-v2", "acme.large-v2"),  # a path's last part, then the scope
        ("us.acme.small-v1", None),  # not one of the file's scopes
        ("eu.eu.acme.small-v1", None),  # one scope, once
    ],
)
def test_a_scoped_name_finds_its_model(host: None, name: str, found: str | None) -> None:
    spec = models.find("acme-host", name)
    assert (spec.id if spec else None) == found


def test_features_read_from_a_file_and_the_checker_holds_a_body_to_them(host: None) -> None:
    spec = models.find("acme-host", "acme.small-v1")
    assert spec is not None
    assert (dict(spec.features), spec.scopes, spec.cite("features")) == (
        {"vision": False, "tool_use": True},
        ("eu.", "global."),
        "https://host.example/features",
    )
    view = RuleView(features=["system_prompts", "tool_use", "vision"])
    assert refusals(spec, view) == [
        "vision: acme.small-v1 does not take it"
    ]  # a feature it takes or is silent on passes


def test_a_feature_that_is_not_true_or_false_is_refused() -> None:
    text = 'provider = "acme-host"\n[[model]]\nid = "x"\n[model.features]\nvision = "yes"'
    with pytest.raises(CatalogError, match=r"x\.features: each feature is true or false"):
        parse_file(tomllib.loads(text), "bad.toml")


def test_an_entry_extends_another_providers_model_and_keeps_its_rules_not_its_names() -> None:
    text = """
provider = "acme-host"
[[model]]
id = "anthropic.claude-opus-4-7"
extends = "anthropic/claude-opus-4-7"
[model.features]
vision = true
"""
    (spec,) = parse_file(tomllib.loads(text), "host.toml")
    claude = models.find("anthropic", "claude-opus-4-7")
    assert claude is not None
    assert (spec.provider, spec.aliases, spec.price, dict(spec.features)) == ("acme-host", (), None, {"vision": True})
    assert (spec.rejects, spec.thinking, spec.max_output_tokens) == (claude.rejects, claude.thinking, 128000)
    assert spec.cite("sampling") == claude.cite("sampling")


def test_extending_a_model_the_other_catalog_does_not_know_fails_and_a_missing_catalog_does_not() -> None:
    unknown = 'provider = "acme-host"\n[[model]]\nid = "x"\nextends = "anthropic/claude-none"'
    with pytest.raises(CatalogError, match="extends 'anthropic/claude-none', which no earlier entry defines"):
        parse_file(tomllib.loads(unknown), "host.toml")
    absent = 'provider = "acme-host"\n[[model]]\nid = "x"\nmax_output_tokens = 10\nextends = "nobody/model-1"'
    (spec,) = parse_file(tomllib.loads(absent), "host.toml")  # that codec is not installed: own facts only
    assert (spec.id, spec.max_output_tokens, spec.thinking) == ("x", 10, None)
    assert (models.has_catalog("anthropic"), models.has_catalog("nobody")) == (True, False)


def test_register_extends_another_providers_model_too_without_its_wires_or_scopes() -> None:
    spec = models.register({"id": "acme.pro", "extends": "openai/gpt-5-pro"}, provider="acme-host")
    try:
        base = models.find("openai", "gpt-5-pro")
        assert base is not None and base.wires and base.thinking is not None  # served by openai-responses only
        assert models.find("acme-host", "acme.pro") == spec
        assert (spec.wires, spec.scopes, spec.thinking) == ((), (), base.thinking)
    finally:
        models.forget("acme-host", "acme.pro")
