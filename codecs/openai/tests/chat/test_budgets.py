"""A caller's ThinkingBudgets turns a budget into the nearest effort (issue 11, item 5)."""

from __future__ import annotations

import pickle

import pytest

import interlingua as il
from interlingua import Request, ThinkingBudgets, ThinkingConfig, UnsupportedSetting
from interlingua.testing import check_rules, load_body, real_fixture, validate_wire
from interlingua_openai import OpenAIChatCodec

WIRE = "openai-chat"
TABLE = ThinkingBudgets(low=500, medium=2000, high=8000)  # a model without minimal or xhigh


def _real_request(thinking: ThinkingConfig) -> Request:
    """A real o3-mini request, asking for ``thinking``."""
    path = real_fixture(WIRE, "request", "reasoning-model-max-completion-tokens.json")
    return OpenAIChatCodec().decode_request(load_body(path)).model_copy(update={"thinking": thinking})


@pytest.mark.parametrize(
    ("budget", "effort"),
    [(1, "low"), (2047, "low"), (2048, "medium"), (8191, "medium"), (8192, "high"), (32767, "high"), (32768, "high")],
)  # 32768 is xhigh by the table, which o3-mini lacks (models.toml): its nearest effort, high
def test_the_default_table_keeps_the_documented_steps(budget: int, effort: str) -> None:
    assert OpenAIChatCodec().budgets == ThinkingBudgets(low=1024, medium=4096, high=16384, xhigh=65536)
    body = OpenAIChatCodec().encode_request(_real_request(ThinkingConfig(budget_tokens=budget))).body
    assert body["reasoning_effort"] == effort


def test_a_custom_table_maps_a_real_request_s_budget_to_its_nearest_effort() -> None:
    encoded = OpenAIChatCodec(budgets=TABLE).encode_request(_real_request(ThinkingConfig(budget_tokens=3000)))
    assert encoded.body == {
        "max_completion_tokens": 100,
        "messages": [{"content": "hello", "role": "user"}],
        "model": "o3-mini",
        "reasoning_effort": "medium",  # 3000 is nearer 2000 than 8000 by ratio
        "stream": False,
    }
    assert encoded.warnings == [
        UnsupportedSetting(
            codec=WIRE,
            path="thinking.budget_tokens",
            message="no token budget on the wire; sent as effort 'medium'",
            setting="thinking",
        )
    ]
    assert validate_wire(WIRE, "request", encoded.body) == []
    assert check_rules(WIRE, encoded.body) == []


@pytest.mark.parametrize(("budget", "effort"), [(10, "low"), (4000, "high"), (10**6, "high")])
def test_a_budget_maps_only_to_the_table_s_levels(budget: int, effort: str) -> None:
    body = OpenAIChatCodec(budgets=TABLE).encode_request(_real_request(ThinkingConfig(budget_tokens=budget))).body
    assert body["reasoning_effort"] == effort  # 4000 is the ratio midpoint of 2000 and 8000: the higher


def test_a_level_still_goes_by_name() -> None:
    request = _real_request(ThinkingConfig(level="xhigh")).model_copy(update={"model": "reasoner-x"})  # unknown
    body = OpenAIChatCodec(budgets=TABLE).encode_request(request).body
    assert body["reasoning_effort"] == "xhigh"


def test_a_dialect_codec_with_budgets_pickles_and_shows_them() -> None:
    codec = OpenAIChatCodec(dialect="deepseek", budgets=TABLE)
    again = pickle.loads(pickle.dumps(codec))
    assert (again.budgets, again.dialect.name) == (TABLE, "deepseek")
    request = _real_request(ThinkingConfig(budget_tokens=600))
    assert again.encode_request(request).body == codec.encode_request(request).body
    assert (
        repr(again) == "OpenAIChatCodec(dialect='deepseek', budgets=ThinkingBudgets(low=500, medium=2000, high=8000))"
    )
    assert repr(OpenAIChatCodec()) == "OpenAIChatCodec(dialect='openai')"


def test_get_codec_and_client_pass_the_table_through() -> None:
    assert il.get_codec(WIRE, budgets=TABLE).budgets == TABLE  # type: ignore[attr-defined]  # Codec protocol
    with il.Client(WIRE, api_key="test-key", dialect="openrouter", budgets=TABLE) as client:
        assert client.codec.budgets == TABLE  # type: ignore[attr-defined]  # Codec protocol has no budgets
        body = client.codec.encode_request(_real_request(ThinkingConfig(budget_tokens=1500))).body
        assert body["reasoning_effort"] == "medium"
