"""A caller's ThinkingBudgets replaces the level -> budget_tokens table (issue 11, item 5)."""

from __future__ import annotations

import pickle

import pytest

import interlingua as il
from interlingua import LossyEncode, Request, ThinkingBudgets, ThinkingConfig, ThinkingLevel
from interlingua.testing import check_rules, load_body, real_fixture, validate_wire
from interlingua_anthropic import AnthropicMessagesCodec

WIRE = "anthropic-messages"
TABLE = ThinkingBudgets(low=2000, high=12000)


def _real_turn(level: ThinkingLevel) -> Request:
    """A real second turn with signed thinking (so thinking stays on), asking for ``level``."""
    path = real_fixture(WIRE, "request", "thinking-with-tool-use-turn2.json")
    request = il.get_codec(WIRE).decode_request(load_body(path))
    return request.model_copy(update={"thinking": ThinkingConfig(level=level), "max_tokens": None})


def test_the_default_table_is_the_documented_one() -> None:
    codec = AnthropicMessagesCodec()
    assert codec.budgets == ThinkingBudgets(minimal=1024, low=2048, medium=8192, high=16384, xhigh=32768)
    assert codec.encode_request(_real_turn("xhigh")).body["thinking"] == {"type": "enabled", "budget_tokens": 32768}


def test_a_custom_table_sets_the_budget_of_a_real_request() -> None:
    encoded = AnthropicMessagesCodec(budgets=TABLE).encode_request(_real_turn("high"))
    assert encoded.body["thinking"] == {"type": "enabled", "budget_tokens": 12000}
    assert encoded.body["max_tokens"] == 4096 + 12000  # the default room for the answer, plus the budget
    assert encoded.warnings == []
    assert validate_wire(WIRE, "request", encoded.body) == []
    assert check_rules(WIRE, encoded.body) == []


@pytest.mark.parametrize(("level", "sent", "tokens"), [("xhigh", "high", 12000), ("minimal", "low", 2000)])
def test_a_level_the_table_lacks_goes_to_the_nearest_with_a_warning(
    level: ThinkingLevel, sent: str, tokens: int
) -> None:
    encoded = AnthropicMessagesCodec(budgets=TABLE).encode_request(_real_turn(level))
    assert encoded.body["thinking"] == {"type": "enabled", "budget_tokens": tokens}
    assert encoded.warnings == [
        LossyEncode(
            codec=WIRE,
            path="thinking.level",
            message=f"no budget for level {level!r} in the table; sent as {sent!r} ({tokens} tokens)",
            part_type="thinking",
            action="converted",
        )
    ]
    assert validate_wire(WIRE, "request", encoded.body) == []
    with pytest.raises(il.LossyEncodeError):
        AnthropicMessagesCodec(budgets=TABLE).encode_request(_real_turn(level), strict=True)


def test_a_budget_in_the_request_wins_over_the_table() -> None:
    request = _real_turn("high").model_copy(update={"thinking": ThinkingConfig(level="high", budget_tokens=3000)})
    body = AnthropicMessagesCodec(budgets=TABLE).encode_request(request).body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 3000}


def test_a_table_below_the_minimum_budget_is_refused_naming_the_level() -> None:
    with pytest.raises(ValueError, match="level 'low': 512 tokens is below Anthropic's minimum budget 1024"):
        AnthropicMessagesCodec(budgets=ThinkingBudgets(low=512, high=4096))


def test_a_codec_with_budgets_pickles_and_shows_them() -> None:
    codec = AnthropicMessagesCodec(default_max_tokens=1000, budgets=TABLE)
    again = pickle.loads(pickle.dumps(codec))
    assert again.budgets == TABLE
    assert again.encode_request(_real_turn("high")).body == codec.encode_request(_real_turn("high")).body
    assert (
        repr(again) == "AnthropicMessagesCodec(default_max_tokens=1000, budgets=ThinkingBudgets(low=2000, high=12000))"
    )
    assert repr(AnthropicMessagesCodec()) == "AnthropicMessagesCodec(default_max_tokens=4096)"


def test_get_codec_and_client_pass_the_table_through() -> None:
    assert il.get_codec(WIRE, budgets=TABLE).budgets == TABLE  # type: ignore[attr-defined]  # Codec protocol
    client = il.Client(WIRE, api_key="test-key", budgets=TABLE)
    try:
        assert client.codec.budgets == TABLE  # type: ignore[attr-defined]  # Codec protocol has no budgets
        body = client.codec.encode_request(_real_turn("medium")).body
        assert body["thinking"] == {"type": "enabled", "budget_tokens": 12000}  # medium -> high: a tie goes up
    finally:
        client.close()
