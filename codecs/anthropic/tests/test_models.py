"""Model-aware encoding (issue 26): the encoder reads the target model's rules from models.toml."""

from __future__ import annotations

import json

import pytest

from interlingua import (
    EncodeError,
    LossyEncode,
    LossyEncodeError,
    Message,
    Request,
    ResponseFormat,
    ThinkingConfig,
    Tool,
    ToolChoice,
    UnsupportedSetting,
    models,
)
from interlingua.testing import (
    assert_request_round_trip,
    check_model_rules,
    check_rules,
    real_fixtures_dir,
    skip_without_corpus,
    validate_wire,
)
from interlingua_anthropic import AnthropicMessagesCodec

WIRE = "anthropic-messages"
CODEC = AnthropicMessagesCodec()
MIGRATION_47 = "https://platform.claude.com/docs/en/about-claude/models/migration-guide#migrating-to-claude-opus-4-7"
MIGRATION = "https://platform.claude.com/docs/en/about-claude/models/migration-guide"
THINKING = "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"
SONNET_5 = "https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview"  # Opus 5 extends Sonnet 5


def _request(model: str, **settings: object) -> Request:
    settings.setdefault("max_tokens", 4096)
    return Request(model=model, messages=[Message.user("hi")], **settings)  # type: ignore[arg-type]  # settings are Request fields


def test_opus_4_7_drops_every_sampling_parameter_naming_the_model_and_the_rule() -> None:
    encoded = CODEC.encode_request(_request("claude-opus-4-7", temperature=0.2, top_p=0.9, top_k=40))
    assert encoded.body == {
        "model": "claude-opus-4-7",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        "max_tokens": 4096,
    }
    assert encoded.warnings == [
        UnsupportedSetting(
            codec=WIRE, path=name, message=f"claude-opus-4-7 does not take {name} ({MIGRATION_47})", setting=name
        )
        for name in ("temperature", "top_p", "top_k")
    ]
    assert encoded.notes == []
    assert check_rules(WIRE, encoded.body) == [] and validate_wire(WIRE, "request", encoded.body) == []


def test_the_same_request_passes_the_checker_only_after_encoding() -> None:
    raw = {"model": "claude-opus-4-7", "max_tokens": 10, "messages": [], "temperature": 0.2, "top_p": 0.9}
    assert check_model_rules(WIRE, raw) == [
        "temperature: claude-opus-4-7 does not take it",
        "top_p: claude-opus-4-7 does not take it",
    ]


def test_a_dated_sonnet_4_5_keeps_temperature_and_drops_top_p() -> None:
    encoded = CODEC.encode_request(_request("claude-sonnet-4-5-20250929", temperature=0.2, top_p=0.9))
    assert (encoded.body["temperature"], "top_p" in encoded.body) == (0.2, False)
    assert [w.message for w in encoded.warnings] == [
        f"claude-sonnet-4-5 takes only one of temperature and top_p: top_p dropped ({MIGRATION})"
    ]


def test_with_thinking_on_temperature_and_top_k_are_dropped_and_top_p_is_raised_into_its_range() -> None:
    thinking = ThinkingConfig(budget_tokens=2048)
    encoded = CODEC.encode_request(_request("claude-sonnet-4-0", thinking=thinking, temperature=0.5, top_k=5))
    assert ("temperature" in encoded.body, "top_k" in encoded.body) == (False, False)
    assert [(type(w), w.path) for w in encoded.warnings] == [
        (UnsupportedSetting, "temperature"),
        (UnsupportedSetting, "top_k"),
    ]
    encoded = CODEC.encode_request(_request("claude-sonnet-4-0", thinking=thinking, top_p=0.5))
    assert encoded.body["top_p"] == 0.95
    assert encoded.warnings == [
        LossyEncode(
            codec=WIRE,
            path="top_p",
            message=f"with thinking on, claude-sonnet-4-0 takes top_p in [0.95, 1]: sent as 0.95 ({THINKING})",
            part_type="top_p",
            action="converted",
        )
    ]


def test_with_thinking_off_sampling_passes_unchanged() -> None:
    encoded = CODEC.encode_request(_request("claude-sonnet-4-0", temperature=0.5, top_k=5, top_p=0.5))
    assert (encoded.body["temperature"], encoded.body["top_k"], encoded.body["top_p"], encoded.warnings) == (
        0.5,
        5,
        0.5,
        [],
    )


def test_an_adaptive_only_model_gets_adaptive_thinking_and_the_level_as_effort() -> None:
    encoded = CODEC.encode_request(_request("claude-opus-4-7", thinking=ThinkingConfig(level="xhigh")))
    assert (encoded.body["thinking"], encoded.body["output_config"], encoded.warnings) == (
        {"type": "adaptive"},
        {"effort": "xhigh"},
        [],
    )
    encoded = CODEC.encode_request(_request("claude-opus-4-7", thinking=ThinkingConfig(level="minimal")))
    assert encoded.body["output_config"] == {"effort": "low"}
    assert [w.message for w in encoded.warnings] == [
        f"claude-opus-4-7 takes no 'minimal' level: sent as 'low' ({MIGRATION_47})"
    ]


def test_a_budget_for_an_adaptive_only_model_is_sent_as_its_level_with_a_schema_kept_beside() -> None:
    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    request = _request(
        "claude-opus-4-7",
        thinking=ThinkingConfig(budget_tokens=16384),
        response_format=ResponseFormat(type="json_schema", json_schema=schema),
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body["thinking"] == {"type": "adaptive"}
    assert encoded.body["output_config"] == {"effort": "high", "format": {"type": "json_schema", "schema": schema}}
    assert [w.message for w in encoded.warnings] == [
        f"claude-opus-4-7 thinks only adaptively: budget sent as effort 'high' ({MIGRATION_47})"
    ]
    assert check_rules(WIRE, encoded.body) == [] and validate_wire(WIRE, "request", encoded.body) == []


def test_a_budget_for_a_model_of_unknown_levels_is_an_effort_the_wire_takes() -> None:
    encoded = CODEC.encode_request(_request("claude-opus-5", thinking=ThinkingConfig(budget_tokens=1024)))
    assert (encoded.body["thinking"], encoded.body["output_config"]) == ({"type": "adaptive"}, {"effort": "low"})
    assert [w.message for w in encoded.warnings] == [
        f"claude-opus-5 thinks only adaptively: budget sent as effort 'low' ({SONNET_5})"
    ]  # one warning: the budget's level (minimal) has no effort, so its nearest, low
    both = CODEC.encode_request(_request("claude-opus-4-7", thinking=ThinkingConfig(level="high", budget_tokens=9000)))
    assert both.body["output_config"] == {"effort": "high"}
    assert [(w.path, w.action) for w in both.warnings] == [("thinking.budget_tokens", "dropped")]
    assert validate_wire(WIRE, "request", both.body) == [] == check_rules(WIRE, both.body)


def test_4_6_keeps_budgets_which_it_still_takes() -> None:
    encoded = CODEC.encode_request(_request("claude-opus-4-6", thinking=ThinkingConfig(level="high")))
    assert (encoded.body["thinking"], encoded.warnings) == ({"type": "enabled", "budget_tokens": 4095}, [
        LossyEncode(
            codec=WIRE,
            path="thinking.budget_tokens",
            message="budget lowered below max_tokens",
            part_type="thinking",
            action="converted",
        )
    ])  # fmt: skip


def test_max_tokens_over_the_model_limit_is_lowered_and_our_own_default_quietly() -> None:
    encoded = CODEC.encode_request(_request("claude-opus-4-1").model_copy(update={"max_tokens": 50000}))
    assert encoded.body["max_tokens"] == 32000
    assert [w.message for w in encoded.warnings] == [
        "claude-opus-4-1 writes at most 32000 tokens (https://platform.claude.com/docs/en/about-claude/models/overview)"
    ]
    thinking = ThinkingConfig(budget_tokens=30000)  # default_max_tokens + budget would pass the limit
    encoded = CODEC.encode_request(Request(model="claude-opus-4-1", messages=[Message.user("hi")], thinking=thinking))
    assert encoded.body["max_tokens"] == 32000 and encoded.body["thinking"]["budget_tokens"] == 30000
    assert encoded.warnings == []


def test_a_forced_tool_choice_with_thinking_on_becomes_auto() -> None:
    tool = Tool(name="get_weather")
    for choice in ("required", ToolChoice(name="get_weather")):
        request = _request(
            "claude-haiku-4-5", tools=[tool], tool_choice=choice, thinking=ThinkingConfig(budget_tokens=2048)
        )
        encoded = CODEC.encode_request(request)
        assert encoded.body["tool_choice"] == {"type": "auto"}
        assert [w.message for w in encoded.warnings] == [
            f"with thinking on, claude-haiku-4-5 takes tool_choice auto or none: sent as auto ({THINKING})"
        ]
        assert check_model_rules(WIRE, encoded.body) == []
    encoded = CODEC.encode_request(_request("claude-haiku-4-5", tools=[tool], tool_choice="required"))
    assert (encoded.body["tool_choice"], encoded.warnings) == ({"type": "any"}, [])


def test_thinking_left_to_the_model_is_a_budget_where_the_model_has_no_adaptive_thinking() -> None:
    encoded = CODEC.encode_request(
        _request("claude-sonnet-4-5", max_tokens=20000, thinking=ThinkingConfig(summary=True))
    )
    assert encoded.body["thinking"] == {"type": "enabled", "budget_tokens": 8192, "display": "summarized"}
    assert [w.message for w in encoded.warnings] == [
        f"claude-sonnet-4-5 has no adaptive thinking: sent as the medium budget 8192 ({THINKING})"
    ]
    encoded = CODEC.encode_request(_request("claude-sonnet-4-6", thinking=ThinkingConfig()))
    assert (encoded.body["thinking"], encoded.warnings) == ({"type": "adaptive"}, [])


def test_strict_raises_on_a_model_rule() -> None:
    with pytest.raises(LossyEncodeError) as raised:
        CODEC.encode_request(_request("claude-opus-4-7", temperature=0.2), strict=True)
    assert [w.path for w in raised.value.warnings] == ["temperature"]


def test_an_unknown_model_is_sent_as_asked_with_one_note() -> None:
    encoded = CODEC.encode_request(_request("claude-next-9", temperature=0.2, top_p=0.9))
    assert (encoded.body["temperature"], encoded.body["top_p"], encoded.warnings) == (0.2, 0.9, [])
    assert [(n.model, n.path) for n in encoded.notes] == [("claude-next-9", "model")]
    assert CODEC.encode_request(_request("claude-next-9"), strict=True).notes[0].model == "claude-next-9"


# --- prefill: Claude Opus 4.6 and later refuse a final assistant turn -----------------------------

WHATS_NEW_46 = "https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-6#prefill-removal"


def _prefilled(model: str, *prefill: str) -> Request:
    messages = [Message.user("List three colours as JSON"), *(Message.assistant(text) for text in prefill)]
    return Request(model=model, max_tokens=1024, messages=messages)


def test_a_prefill_for_opus_4_7_is_dropped_naming_the_model_and_the_rule() -> None:
    encoded = CODEC.encode_request(_prefilled("claude-opus-4-7", "{"))
    assert encoded.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "List three colours as JSON"}]}
    ]
    why = f"claude-opus-4-7 takes no prefilled final assistant turn: dropped ({MIGRATION_47})"
    assert encoded.warnings == [
        LossyEncode(codec=WIRE, path="messages[1]", message=why, part_type="message", action="dropped")
    ]
    assert check_rules(WIRE, encoded.body) == [] and validate_wire(WIRE, "request", encoded.body) == []


def test_each_message_of_a_final_assistant_turn_is_dropped_with_its_own_warning() -> None:
    encoded = CODEC.encode_request(_prefilled("claude-sonnet-4-6-20260101", "{", '"colours":'))
    assert [m["role"] for m in encoded.body["messages"]] == ["user"]
    assert [(w.path, w.message) for w in encoded.warnings] == [
        (f"messages[{i}]", f"claude-sonnet-4-6 takes no prefilled final assistant turn: dropped ({WHATS_NEW_46})")
        for i in (1, 2)
    ]


def test_a_prefill_for_a_model_that_takes_it_passes_unchanged() -> None:
    encoded = CODEC.encode_request(_prefilled("claude-sonnet-4-5", "{"))
    assert encoded.body["messages"][-1] == {"role": "assistant", "content": [{"type": "text", "text": "{"}]}
    assert (encoded.warnings, check_model_rules(WIRE, encoded.body)) == ([], [])


def test_a_prefill_with_nothing_asked_before_it_is_refused() -> None:
    messages = [Message.system("Be brief."), Message.assistant("{")]
    request = Request(model="claude-opus-5", max_tokens=1024, messages=messages)
    with pytest.raises(EncodeError) as raised:
        CODEC.encode_request(request)
    assert (raised.value.codec, raised.value.path) == (WIRE, "messages[1]")
    assert raised.value.reason.startswith("claude-opus-5 takes no prefilled final assistant turn, and without it")


def test_strict_raises_on_a_dropped_prefill() -> None:
    with pytest.raises(LossyEncodeError) as raised:
        CODEC.encode_request(_prefilled("claude-opus-4-6", "{"), strict=True)
    assert [(w.path, w.part_type) for w in raised.value.warnings] == [("messages[1]", "message")]  # type: ignore[union-attr]  # LossyEncode


def test_the_checker_flags_a_prefill_only_for_a_model_that_refuses_it() -> None:
    body = {
        "model": "claude-opus-4-7",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "{"}],
    }
    assert check_model_rules(WIRE, body) == ["messages: claude-opus-4-7 takes no prefilled final assistant turn"]
    assert check_model_rules(WIRE, body, model="claude-opus-4-5") == []


SONNET_55 = "https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide"


def test_off_on_a_model_that_cannot_turn_thinking_off_sends_no_thinking_block() -> None:
    """Sonnet 5.5 answers thinking.disabled with 400: the block is left out (it thinks at its default)."""
    encoded = CODEC.encode_request(_request("claude-sonnet-5-5", thinking=ThinkingConfig(level="off")))
    assert "thinking" not in encoded.body
    assert [(type(w), w.path, w.message) for w in encoded.warnings] == [
        (
            LossyEncode,
            "thinking.level",
            f"claude-sonnet-5-5 cannot turn thinking off: sent without a thinking block, at its default ({SONNET_55})",
        )
    ]
    assert check_rules(WIRE, encoded.body) == []
    assert check_model_rules(WIRE, {**encoded.body, "thinking": {"type": "disabled"}}) == [
        "thinking: claude-sonnet-5-5 cannot turn thinking off"
    ]


def test_a_forced_tool_choice_is_refused_where_thinking_is_on_by_default_or_always() -> None:
    tool = Tool(name="lookup", input_schema={"type": "object"})
    for model, off in (("claude-sonnet-5-5", None), ("claude-sonnet-5-5", ThinkingConfig(level="off"))):
        encoded = CODEC.encode_request(
            _request(model, tools=[tool], tool_choice=ToolChoice(name="lookup"), thinking=off)
        )
        assert encoded.body["tool_choice"] == {"type": "auto"}
        assert check_rules(WIRE, encoded.body) == []
    kept = CODEC.encode_request(_request("claude-opus-4-5", tools=[tool], tool_choice=ToolChoice(name="lookup")))
    assert kept.body["tool_choice"] == {"type": "tool", "name": "lookup"}  # thinking off by default there


OPUS_46_ADAPTIVE_ANY = {  # the shape pydantic-ai recorded, answered 200 (see the next test)
    "model": "claude-opus-4-6",
    "max_tokens": 4096,
    "messages": [{"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]}],
    "thinking": {"type": "adaptive"},
    "tool_choice": {"type": "any"},
    "tools": [{"name": "final_result", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}],
}


def test_a_forced_tool_choice_with_adaptive_thinking_on_opus_4_6_passes_unchanged() -> None:
    """The extended-thinking page refuses forced tool use with a thinking budget; Opus 4.6 keeps
    that rule for its ``enabled`` mode only (``mode_rejects``), and with adaptive thinking takes
    ``tool_choice: any``: the API answered 200 to it in pydantic-ai's recorded calls."""
    encoded = CODEC.encode_request(CODEC.decode_request(OPUS_46_ADAPTIVE_ANY))
    assert encoded.body == OPUS_46_ADAPTIVE_ANY and encoded.warnings == []
    assert check_rules(WIRE, OPUS_46_ADAPTIVE_ANY) == []


def test_the_recorded_opus_4_6_adaptive_any_request_passes_unchanged() -> None:
    skip_without_corpus()
    root = real_fixtures_dir().parent / "pydantic-ai" / "anthropic-messages"
    (case,) = root.glob("*test_anthropic_opus_46_adaptive_thinking_accepts_tool_output*")
    body = json.loads((case / "request.json").read_text())
    assert (body["model"], body["thinking"], body["tool_choice"]) == (
        "claude-opus-4-6",
        {"type": "adaptive"},
        {"type": "any"},
    )
    assert json.loads((case / "meta.json").read_text())["status"] == 200
    assert_request_round_trip(CODEC, body)
    assert check_rules(WIRE, body) == []


def test_the_same_model_with_a_thinking_budget_still_gets_auto() -> None:
    tool = Tool(name="final_result")
    thinking = ThinkingConfig(budget_tokens=2048)
    request = _request("claude-opus-4-6", tools=[tool], tool_choice="required", thinking=thinking)
    encoded = CODEC.encode_request(request)
    assert encoded.body["thinking"]["type"] == "enabled" and encoded.body["tool_choice"] == {"type": "auto"}
    assert [w.message for w in encoded.warnings] == [
        f"with thinking on, claude-opus-4-6 takes tool_choice auto or none: sent as auto ({THINKING})"
    ]
    assert check_model_rules(WIRE, {**encoded.body, "tool_choice": {"type": "any"}}) == [
        "forced_tool_choice: claude-opus-4-6 does not take it while thinking"
    ]


# --- Claude Fable and Mythos: rules from peers' live-tested profiles, marked as such ----------------

PEER_PROFILE = (
    "a peer's live-tested profile: "
    "https://github.com/pydantic/pydantic-ai/blob/main/pydantic_ai_slim/pydantic_ai/profiles/anthropic.py"
)


@pytest.mark.parametrize("model", ["claude-fable-5", "claude-mythos-5-1", "claude-fable-5-2", "claude-mythos-5-2"])
def test_fable_and_mythos_get_no_forced_tool_choice_and_no_sampling_and_the_warning_says_a_peer_found_it(
    model: str,
) -> None:
    tool = Tool(name="lookup", input_schema={"type": "object"})
    request = _request(model, tools=[tool], tool_choice="required", temperature=0.2, top_p=0.9)
    encoded = CODEC.encode_request(request)
    assert encoded.body["tool_choice"] == {"type": "auto"}
    assert "temperature" not in encoded.body and "top_p" not in encoded.body
    assert [(w.path, w.message) for w in encoded.warnings] == [
        ("tool_choice", f"with thinking on, {model} takes tool_choice auto or none: sent as auto ({PEER_PROFILE})"),
        ("temperature", f"{model} does not take temperature ({PEER_PROFILE})"),
        ("top_p", f"{model} does not take top_p ({PEER_PROFILE})"),
    ]
    assert encoded.notes == [] and check_rules(WIRE, encoded.body) == []
    assert check_model_rules(WIRE, {**encoded.body, "temperature": 0.2}) == [f"temperature: {model} does not take it"]


def test_the_catalog_says_how_strong_each_fable_fact_is() -> None:
    spec = models.find("anthropic", "claude-fable-5-2")
    assert spec is not None
    kinds = spec.as_dict()["source_kinds"]
    assert (kinds["limits"], kinds["thinking"], kinds["thinking_rules"], kinds["sampling"]) == (
        "vendor_page",
        "vendor_page",
        "peer_profile",
        "peer_profile",
    )


def test_a_new_fable_id_takes_the_latest_fable_rules_as_family_defaults_with_a_note() -> None:
    encoded = CODEC.encode_request(_request("claude-fable-6", temperature=0.2))
    assert "temperature" not in encoded.body
    assert [(w.path, w.message) for w in encoded.warnings] == [
        ("temperature", f"claude-fable-5-2 does not take temperature ({PEER_PROFILE})")
    ]
    assert [(n.model, n.family, n.message) for n in encoded.notes] == [
        (
            "claude-fable-6",
            "claude-fable-5-2",
            "'claude-fable-6' is not in the model catalog: claude-fable-5-2's rules applied as its family's defaults",
        )
    ]
    unclaimed = CODEC.encode_request(_request("claude-next-9", temperature=0.2))
    assert unclaimed.body["temperature"] == 0.2 and [n.family for n in unclaimed.notes] == [None]
