"""Model-aware encoding (issue 26): budgets held to each Gemini model's range, levels to its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from interlingua import LossyEncode, Message, Request, ThinkingConfig, ToolUse, UnsupportedSetting
from interlingua.testing import check_model_rules, check_rules, validate_wire
from interlingua_gemini import GeminiCodec

WIRE = "gemini"
CODEC = GeminiCodec()
BUDGETS = "https://ai.google.dev/gemini-api/docs/thinking#set-budget"
LEVELS = "https://ai.google.dev/gemini-api/docs/thinking#thinking-levels"


def _config(model: str, thinking: ThinkingConfig, **settings: object) -> tuple[dict[str, object], list[str]]:
    request = Request(model=model, messages=[Message.user("hi")], thinking=thinking, **settings)  # type: ignore[arg-type]  # Request fields
    encoded = CODEC.encode_request(request)
    assert validate_wire(WIRE, "request", encoded.body) == []
    assert check_rules(WIRE, encoded.body, model=model) == []
    return encoded.body["generationConfig"], [w.message for w in encoded.warnings]


def test_off_on_gemini_2_5_pro_is_its_lowest_budget_not_zero() -> None:
    config, warned = _config("gemini-2.5-pro", ThinkingConfig(level="off"))
    assert (config, warned) == (
        {"thinkingConfig": {"thinkingBudget": 128}},
        [f"gemini-2.5-pro cannot turn thinking off: sent as 128 ({BUDGETS})"],
    )


@pytest.mark.parametrize(
    ("model", "budget", "sent"),
    [
        ("gemini-2.5-flash", 0, 0),
        ("gemini-2.5-flash", 30000, 24576),
        ("gemini-2.5-flash-lite", 100, 512),
        ("gemini-2.5-flash-lite", 0, 0),
        ("gemini-2.5-pro", 64, 128),
        ("models/gemini-2.5-pro", -1, -1),  # dynamic, the API's own "let the model decide"
        ("gemini-2.5-pro-preview-05-06", 40000, 32768),
    ],
)
def test_a_budget_is_held_to_the_model_s_range(model: str, budget: int, sent: int) -> None:
    config, warned = _config(model, ThinkingConfig(budget_tokens=budget))
    assert config == {"thinkingConfig": {"thinkingBudget": sent}}
    assert len(warned) == (budget != sent)


def test_a_level_for_a_2_5_model_is_a_budget_inside_its_range() -> None:
    config, warned = _config("gemini-2.5-flash-lite", ThinkingConfig(level="minimal"))
    assert (config, warned) == ({"thinkingConfig": {"thinkingBudget": 512}}, [])


@pytest.mark.parametrize(
    ("model", "level", "sent"),
    [
        ("gemini-3-pro-preview", "medium", "HIGH"),  # Pro takes low and high; a tie goes up
        ("gemini-3-pro-preview", "minimal", "LOW"),
        ("gemini-3-pro-preview", "off", "LOW"),  # cannot turn thinking off: its lowest level
        ("gemini-3-flash-preview", "off", "MINIMAL"),
        ("gemini-3-flash-preview", "medium", "MEDIUM"),
    ],
)
def test_a_gemini_3_level_goes_to_the_nearest_the_model_takes(model: str, level: str, sent: str) -> None:
    config, warned = _config(model, ThinkingConfig(level=level))  # type: ignore[arg-type]  # a ThinkingLevel
    assert config == {"thinkingConfig": {"thinkingLevel": sent}}
    assert len(warned) == (level.upper() != sent)


def test_max_output_tokens_is_held_to_the_model_limit() -> None:
    request = Request(model="gemini-2.5-flash", messages=[Message.user("hi")], max_tokens=100000)
    encoded = CODEC.encode_request(request)
    assert encoded.body["generationConfig"] == {"maxOutputTokens": 65536}
    assert encoded.warnings == [
        LossyEncode(
            codec=WIRE,
            path="max_tokens",
            message="gemini-2.5-flash writes at most 65536 tokens (https://ai.google.dev/gemini-api/docs/models/gemini-2.5-flash)",
            part_type="max_tokens",
            action="converted",
        )
    ]


def test_the_checker_refuses_a_budget_and_a_level_together_and_levels_a_model_lacks() -> None:
    body = {"contents": [], "generationConfig": {"thinkingConfig": {"thinkingBudget": 1024, "thinkingLevel": "MEDIUM"}}}
    assert check_model_rules(WIRE, body, model="gemini-3-pro-preview") == [
        "thinking: budget and level at once",
        "thinking: gemini-3-pro-preview takes no level (effort) 'medium'",
    ]
    assert check_model_rules(
        WIRE, {"generationConfig": {"thinkingConfig": {"thinkingBudget": 0}}}, "gemini-2.5-pro"
    ) == ["thinking: gemini-2.5-pro cannot turn thinking off (budget 0)"]


def test_a_request_without_a_model_is_encoded_as_asked_with_no_note() -> None:
    encoded = CODEC.encode_request(Request(messages=[Message.user("hi")], thinking=ThinkingConfig(level="off")))
    assert (encoded.body["generationConfig"], encoded.notes) == ({"thinkingConfig": {"thinkingBudget": 0}}, [])


# --- the thinking form and the signature rule come from the catalog, the name only as fallback ---------


@pytest.fixture
def renamed() -> Iterator[None]:
    """Two entries whose names say the opposite of their data: the data must win."""
    from interlingua import models

    models.register({"id": "gemini-3-budget-only", "extends": "gemini-2.5-flash"}, provider="gemini")
    models.register({"id": "gemini-2.9-levels", "extends": "gemini-3-flash-preview"}, provider="gemini")
    yield
    models.forget("gemini", "gemini-3-budget-only")
    models.forget("gemini", "gemini-2.9-levels")


def test_the_thinking_form_is_the_catalog_entry_s_not_the_name_s(renamed: None) -> None:
    budget_only, _ = _config("gemini-3-budget-only", ThinkingConfig(level="high"))
    levels, _ = _config("gemini-2.9-levels", ThinkingConfig(level="high"))
    by_name, _ = _config("gemini-2.9-unlisted", ThinkingConfig(level="high"))  # unknown: its name decides
    assert (budget_only, levels, by_name) == (
        {"thinkingConfig": {"thinkingBudget": 24576}},
        {"thinkingConfig": {"thinkingLevel": "HIGH"}},
        {"thinkingConfig": {"thinkingBudget": 24576}},
    )


@pytest.mark.parametrize(
    ("model", "signed"),
    [
        ("gemini-3-budget-only", False),  # its entry (from gemini-2.5-flash): signatures = false
        ("gemini-2.9-levels", True),  # its entry (from gemini-3-flash-preview): signatures = true
        ("gemini-3.9-unlisted", True),  # unknown: Gemini 3 and later by name
        ("gemini-2.0-flash", False),  # known, no signature fact: by name
    ],
)
def test_the_signature_rule_is_the_catalog_entry_s_not_the_name_s(renamed: None, model: str, signed: bool) -> None:
    call = ToolUse(id="c1", name="lookup", input={})
    request = Request(model=model, messages=[Message.user("go"), Message(role="assistant", parts=[call])])
    first = CODEC.encode_request(request).body["contents"][1]["parts"][0]
    assert first.get("thoughtSignature") == ("skip_thought_signature_validator" if signed else None)


def test_a_model_that_takes_no_thinking_gets_no_thinking_config() -> None:
    request = Request(
        model="gemini-2.0-flash-lite", messages=[Message.user("hi")], thinking=ThinkingConfig(level="low")
    )
    encoded = CODEC.encode_request(request)
    assert "generationConfig" not in encoded.body
    assert [(type(w), w.path, w.message) for w in encoded.warnings] == [
        (
            UnsupportedSetting,
            "thinking",
            "gemini-2.0-flash-lite takes no thinking configuration"
            " (https://ai.google.dev/gemini-api/docs/models/gemini-2.0-flash-lite)",
        )
    ]
    body = {**encoded.body, "generationConfig": {"thinkingConfig": {"thinkingBudget": 512}}}
    assert check_model_rules(WIRE, body, "gemini-2.0-flash-lite") == [
        "thinking: gemini-2.0-flash-lite takes no thinking configuration"
    ]
