"""A caller's ThinkingBudgets turns a budget into the nearest effort (issue 11, item 5)."""

from __future__ import annotations

import pickle

import pytest

import interlingua as il
from interlingua import Request, ThinkingBudgets, ThinkingConfig, UnsupportedSetting
from interlingua.testing import check_rules, load_body, real_fixture, validate_wire
from interlingua_openai import OpenAIResponsesCodec

WIRE = "openai-responses"
_GPT5_EFFORTS = "https://platform.openai.com/docs/api-reference/responses/create#responses_create-reasoning-effort"
TABLE = ThinkingBudgets(minimal=256, low=1024, medium=4096, high=16384, xhigh=65536)


def _real_turn(thinking: ThinkingConfig) -> Request:
    """A real gpt-5 second turn (encrypted reasoning, function calls), asking for ``thinking``."""
    path = real_fixture(WIRE, "request", "reasoning-with-function-calls-turn2.json")
    request = OpenAIResponsesCodec().decode_request(load_body(path))
    return request.model_copy(update={"thinking": thinking})


@pytest.mark.parametrize(
    ("budget", "effort"),
    [(1, "low"), (4095, "low"), (4096, "medium"), (16383, "medium"), (16384, "high"), (10**6, "high")],
)
def test_the_default_table_keeps_the_documented_steps(budget: int, effort: str) -> None:
    assert OpenAIResponsesCodec().budgets == ThinkingBudgets(low=2048, medium=8192, high=32768)
    reasoning = (
        OpenAIResponsesCodec().encode_request(_real_turn(ThinkingConfig(budget_tokens=budget))).body["reasoning"]
    )
    assert reasoning["effort"] == effort


@pytest.mark.parametrize(("budget", "effort"), [(300, "minimal"), (3000, "medium"), (40000, "high")])
def test_a_custom_table_maps_a_real_request_s_budget_to_its_nearest_effort(budget: int, effort: str) -> None:
    thinking = ThinkingConfig(budget_tokens=budget, summary=True)
    encoded = OpenAIResponsesCodec(budgets=TABLE).encode_request(_real_turn(thinking))
    assert encoded.body["reasoning"] == {"effort": effort, "summary": "detailed"}  # the real turn's own summary kept
    catalog = [w for w in encoded.warnings if isinstance(w, il.LossyEncode)]  # 40000 is xhigh, which gpt-5 lacks
    assert [w.message for w in catalog] == (
        [] if budget < 40000 else ["gpt-5 takes no 'xhigh' level: sent as 'high' (" + _GPT5_EFFORTS + ")"]
    )
    assert [w for w in encoded.warnings if w not in catalog] == [
        UnsupportedSetting(
            codec=WIRE,
            path="thinking.budget_tokens",
            message=f"token budget sent as reasoning effort {effort!r}",
            setting="thinking",
        )
    ]
    assert validate_wire(WIRE, "request", encoded.body) == []
    assert check_rules(WIRE, encoded.body) == []


def test_a_codec_with_budgets_pickles_and_shows_them() -> None:
    codec = OpenAIResponsesCodec(budgets=TABLE)
    again = pickle.loads(pickle.dumps(codec))
    assert again.budgets == TABLE
    request = _real_turn(ThinkingConfig(budget_tokens=100))
    assert again.encode_request(request).body == codec.encode_request(request).body
    assert repr(again) == (
        "OpenAIResponsesCodec(budgets=ThinkingBudgets(minimal=256, low=1024, medium=4096, high=16384, xhigh=65536))"
    )
    assert repr(OpenAIResponsesCodec()) == "OpenAIResponsesCodec()"


def test_get_codec_and_client_pass_the_table_through() -> None:
    assert il.get_codec(WIRE, budgets=TABLE).budgets == TABLE  # type: ignore[attr-defined]  # Codec protocol
    with il.Client(WIRE, api_key="test-key", budgets=TABLE) as client:
        assert client.codec.budgets == TABLE  # type: ignore[attr-defined]  # Codec protocol has no budgets
        reasoning = client.codec.encode_request(_real_turn(ThinkingConfig(budget_tokens=200))).body["reasoning"]
        assert reasoning["effort"] == "minimal"
