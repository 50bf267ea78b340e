"""A caller's ThinkingBudgets sends levels as thinkingBudget (issue 11, item 5)."""

from __future__ import annotations

import pickle

import pytest

import interlingua as il
from interlingua import LossyEncode, Request, ThinkingBudgets, ThinkingConfig, ThinkingLevel
from interlingua.testing import check_rules, load_body, real_fixture, validate_wire
from interlingua_gemini import GeminiCodec

WIRE = "gemini"
MODEL = "gemini-3-pro-preview"
# Gemini 2.5 Flash takes a budget from 0 to 24576 and no thinkingLevel.
TABLE = ThinkingBudgets(low=1024, medium=8192, high=24576)


def _real_turn(level: ThinkingLevel) -> Request:
    """A real Gemini 3 second turn with thought signatures, asking for ``level``. It spelled
    ``include_thoughts`` snake_case, and the codec writes it back as it came."""
    path = real_fixture(WIRE, "request", "thinking-thought-signature-turn2.json")
    request = GeminiCodec().decode_request(load_body(path), model=MODEL)
    assert request.thinking is not None
    return request.model_copy(update={"thinking": request.thinking.model_copy(update={"level": level})})


def test_by_default_a_level_goes_by_name() -> None:
    codec = GeminiCodec()
    assert codec.budgets is None
    config = codec.encode_request(_real_turn("low")).body["generationConfig"]["thinkingConfig"]
    assert config == {"thinkingLevel": "LOW", "include_thoughts": True}
    # a level Gemini 3 Pro lacks goes to its nearest (models.toml): xhigh is HIGH
    config = codec.encode_request(_real_turn("xhigh")).body["generationConfig"]["thinkingConfig"]
    assert config == {"thinkingLevel": "HIGH", "include_thoughts": True}


def test_a_table_sends_a_real_request_s_level_as_its_budget() -> None:
    encoded = GeminiCodec(budgets=TABLE).encode_request(_real_turn("medium"))
    assert encoded.body["generationConfig"] == {
        "responseModalities": ["TEXT"],  # the real request's own setting, kept
        "thinkingConfig": {"thinkingBudget": 8192, "include_thoughts": True},
    }
    assert encoded.warnings == []
    assert validate_wire(WIRE, "request", encoded.body) == []
    assert check_rules(WIRE, encoded.body, model=MODEL) == []


@pytest.mark.parametrize(("level", "sent", "tokens"), [("xhigh", "high", 24576), ("minimal", "low", 1024)])
def test_a_level_the_table_lacks_goes_to_the_nearest_with_a_warning(
    level: ThinkingLevel, sent: str, tokens: int
) -> None:
    encoded = GeminiCodec(budgets=TABLE).encode_request(_real_turn(level))
    assert encoded.body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": tokens, "include_thoughts": True}
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


@pytest.mark.parametrize(
    ("thinking", "config"),
    [
        (ThinkingConfig(level="off"), {"thinkingBudget": 0}),
        (ThinkingConfig(level="high", budget_tokens=300), {"thinkingBudget": 300}),
    ],
    ids=["off", "budget-wins"],
)
def test_off_and_an_explicit_budget_ignore_the_table(thinking: ThinkingConfig, config: dict[str, int]) -> None:
    request = Request(messages=[il.Message.user("q")], thinking=thinking)
    assert GeminiCodec(budgets=TABLE).encode_request(request).body["generationConfig"]["thinkingConfig"] == config


def test_a_codec_with_budgets_pickles_and_shows_them() -> None:
    codec = GeminiCodec(budgets=TABLE)
    again = pickle.loads(pickle.dumps(codec))
    assert again.budgets == TABLE
    assert again.encode_request(_real_turn("high")).body == codec.encode_request(_real_turn("high")).body
    assert repr(again) == "GeminiCodec(budgets=ThinkingBudgets(low=1024, medium=8192, high=24576))"
    assert repr(GeminiCodec()) == "GeminiCodec()"


def test_get_codec_and_client_pass_the_table_through() -> None:
    assert il.get_codec(WIRE, budgets=TABLE).budgets == TABLE  # type: ignore[attr-defined]  # Codec protocol
    with il.Client(WIRE, api_key="test-key", budgets=TABLE) as client:
        assert client.codec.budgets == TABLE  # type: ignore[attr-defined]  # Codec protocol has no budgets
        config = client.codec.encode_request(_real_turn("low")).body["generationConfig"]["thinkingConfig"]
        assert config == {"thinkingBudget": 1024, "include_thoughts": True}


@pytest.mark.parametrize("model", ["gemini-2.5-flash", "models/gemini-2.5-pro", "gemini-2.5-flash-lite"])
def test_a_gemini_2_model_gets_a_budget_because_it_rejects_thinking_levels(model: str) -> None:
    request = _real_turn("medium").model_copy(update={"model": model})
    encoded = GeminiCodec().encode_request(request)
    assert encoded.body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 8192, "include_thoughts": True}
    assert not [w for w in encoded.warnings if w.path.startswith("thinking")]  # (the signatures are 3's: warned)
    assert validate_wire(WIRE, "request", encoded.body) == []
    xhigh = GeminiCodec().encode_request(_real_turn("xhigh").model_copy(update={"model": model}))
    assert xhigh.body["generationConfig"]["thinkingConfig"]["thinkingBudget"] == 24576
    assert [(w.path, w.action) for w in xhigh.warnings if w.path.startswith("thinking")] == [
        ("thinking.level", "converted")
    ]
    mine = GeminiCodec(budgets=ThinkingBudgets(medium=3000)).encode_request(request)  # the caller's table wins
    assert mine.body["generationConfig"]["thinkingConfig"]["thinkingBudget"] == 3000
