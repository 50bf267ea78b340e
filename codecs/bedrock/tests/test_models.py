"""Model-aware encoding on Converse (issue 30): the bedrock catalog (models.toml) names what the model
behind a Bedrock model id takes, and Claude on Bedrock keeps Claude's own rules (its entries extend
the anthropic catalog's)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import unquote

import pytest

from interlingua import (
    Document,
    Image,
    LossyEncode,
    LossyEncodeError,
    Message,
    Request,
    Text,
    ThinkingConfig,
    Tool,
    UnsupportedSetting,
    models,
)
from interlingua.testing import check_rules, load_body, real_fixtures, skip_without_corpus, validate_wire
from interlingua_bedrock import BedrockConverseCodec

WIRE = "bedrock-converse"
CODEC = BedrockConverseCodec()
FEATURES = "https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html"
DEEPSEEK = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-deepseek.html"
NOVA_2 = "https://docs.aws.amazon.com/nova/latest/nova2-userguide/reasoning-capabilities.html"
MIGRATION_47 = "https://platform.claude.com/docs/en/about-claude/models/migration-guide#migrating-to-claude-opus-4-7"
THINKING = "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"
LIMITS = "https://platform.claude.com/docs/en/about-claude/models/overview"
FABLE = "https://platform.claude.com/docs/en/models/fable-5/migration-guide"
TOOL = Tool(name="lookup", input_schema={"type": "object"})
_PNG = Image(source={"type": "base64", "media_type": "image/png", "data": "aGk="})


def _request(model: str, *messages: Message, **settings: object) -> Request:
    return Request(model=model, messages=list(messages) or [Message.user("hi")], **settings)  # type: ignore[arg-type]  # settings are Request fields


def _hi() -> list[dict[str, object]]:
    return [{"role": "user", "content": [{"text": "hi"}]}]


# --- finding the model ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "entry"),
    [
        ("us.amazon.nova-micro-v1:0", "amazon.nova-micro-v1:0"),
        ("global.anthropic.claude-opus-4-7", "anthropic.claude-opus-4-7"),
        ("arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.deepseek.r1-v1:0", "deepseek.r1-v1:0"),
        (
            "arn:aws:bedrock:us-east-1::foundation-model/mistral.mistral-large-2402-v1:0",
            "mistral.mistral-large-2402-v1:0",
        ),
    ],
)
def test_an_id_a_profile_or_an_arn_finds_its_entry(model: str, entry: str) -> None:
    found = models.find("bedrock", model)
    assert found is not None and (found.id, found.provider) == (entry, "bedrock")


def test_claude_on_bedrock_is_the_anthropic_catalogs_claude_under_its_bedrock_id() -> None:
    """The two catalogs agree: every Claude entry here extends the anthropic entry that knows the
    same Bedrock id as an alias (the InvokeModel door finds it there), so its rules are one fact."""
    claude = [spec for spec in models.all_models("bedrock") if spec.id.startswith("anthropic.")]
    assert len(claude) == 13
    for spec in claude:
        same = models.find("anthropic", spec.id)
        assert same is not None and spec.id in same.aliases, spec.id
        mine = (spec.thinking, spec.rejects, spec.exclusive, spec.thinking_rejects, spec.max_output_tokens)
        assert mine == (same.thinking, same.rejects, same.exclusive, same.thinking_rejects, same.max_output_tokens)
        assert spec.mode_rejects == same.mode_rejects
        assert (spec.prefill, dict(spec.thinking_ranges)) == (same.prefill, dict(same.thinking_ranges))


# --- what a real request carried passes unchanged (invariant 8) ------------------------------------


def _corpus() -> Iterator[tuple[str, dict[str, object], str]]:
    for path in real_fixtures("bedrock-converse", "request"):
        route = json.loads(path.read_text(encoding="utf-8"))["path"]
        yield path.stem, load_body(path), unquote(route.split("/model/", 1)[1].rsplit("/", 1)[0])


@pytest.mark.parametrize(("name", "body", "model"), list(_corpus()), ids=lambda v: v if isinstance(v, str) else "")
def test_a_recorded_request_for_its_own_model_round_trips_with_no_warning(
    name: str, body: dict[str, object], model: str
) -> None:
    encoded = CODEC.encode_request(CODEC.decode_request(body, model=model))
    assert (encoded.body, encoded.warnings) == (body, [])
    known = models.find("bedrock", model) is not None
    assert [note.model for note in encoded.notes] == ([] if known else [model])
    assert check_rules(WIRE, body, model=model) == []


def test_every_model_of_the_recorded_corpus_is_in_the_catalog_but_the_invalid_one() -> None:
    skip_without_corpus()
    unknown = {model for name, _, model in _corpus() if models.find("bedrock", model) is None}
    assert unknown == {"us.does-not-exist-model-v1:0"}


# --- Converse features (AWS's table) -------------------------------------------------------------


def test_nova_micro_gets_no_image_and_no_document_each_with_a_warning() -> None:
    parts = [
        Text(text="see"),
        _PNG,
        Document(source={"type": "base64", "media_type": "application/pdf", "data": "aGk="}, name="d"),
    ]
    encoded = CODEC.encode_request(_request("us.amazon.nova-micro-v1:0", Message(role="user", parts=parts)))
    assert encoded.body == {"messages": [{"role": "user", "content": [{"text": "see"}]}]}
    assert encoded.warnings == [
        LossyEncode(
            codec=WIRE,
            path=f"messages[0].parts[{index}]",
            message=f"amazon.nova-micro-v1:0 has no {feature} on Converse: the {kind} is not sent ({FEATURES})",
            part_type=kind,
            action="dropped",
        )
        for index, feature, kind in [(1, "vision", "image"), (2, "document chat", "document")]
    ]
    assert check_rules(WIRE, encoded.body, model="us.amazon.nova-micro-v1:0") == []


def test_the_same_parts_go_to_nova_pro_which_has_vision_and_document_chat() -> None:
    parts = [Text(text="see"), _PNG]
    encoded = CODEC.encode_request(_request("us.amazon.nova-pro-v1:0", Message(role="user", parts=parts)))
    assert [list(block) for block in encoded.body["messages"][0]["content"]] == [["text"], ["image"]]
    assert encoded.warnings == []


def test_llama_3_gets_no_tools_and_keeps_its_system_prompt() -> None:
    request = _request(
        "meta.llama3-70b-instruct-v1:0",
        Message.system("be brief"),
        Message.user("hi"),
        tools=[TOOL],
        tool_choice="auto",
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body == {"system": [{"text": "be brief"}], "messages": _hi()}
    why = f"meta.llama3-70b-instruct-v1:0 has no tool use on Converse: not sent ({FEATURES})"
    assert encoded.warnings == [
        UnsupportedSetting(codec=WIRE, path=name, message=why, setting=name) for name in ("tools", "tool_choice")
    ]
    with pytest.raises(LossyEncodeError):
        CODEC.encode_request(request, strict=True)


@pytest.fixture
def no_system() -> Iterator[str]:
    models.register(
        {"id": "acme.plain-v1:0", "features": {"system_prompts": False}, "sources": {"features": FEATURES}},
        provider="bedrock",
    )
    yield "us.acme.plain-v1:0"
    models.forget("bedrock", "acme.plain-v1:0")


def test_a_model_without_system_prompts_reads_them_at_the_head_of_the_first_user_turn(no_system: str) -> None:
    request = _request(no_system, Message.system("be brief"), Message.developer("in French"), Message.user("hi"))
    encoded = CODEC.encode_request(request)
    assert encoded.body == {
        "messages": [{"role": "user", "content": [{"text": "be brief"}, {"text": "in French"}, {"text": "hi"}]}]
    }
    why = f"acme.plain-v1:0 has no system prompts on Converse: sent at the head of the first user turn ({FEATURES})"
    lossy = [
        LossyEncode(codec=WIRE, path=f"messages[{i}]", message=why, part_type="text", action="converted")
        for i in (0, 1)
    ]
    assert [w for w in encoded.warnings if isinstance(w, LossyEncode)] == lossy
    assert check_rules(WIRE, encoded.body, model=no_system) == []


# --- settings: sampling, limits, thinking ---------------------------------------------------------


def test_claude_opus_4_7_on_converse_keeps_claudes_rules_and_thinks_adaptively() -> None:
    model = "us.anthropic.claude-opus-4-7"
    encoded = CODEC.encode_request(
        _request(model, temperature=0.2, max_tokens=200_000, thinking=ThinkingConfig(level="high"))
    )
    assert encoded.body == {
        "messages": _hi(),
        "inferenceConfig": {"maxTokens": 128000},
        "additionalModelRequestFields": {"thinking": {"type": "adaptive"}, "output_config": {"effort": "high"}},
    }
    assert encoded.warnings == [
        UnsupportedSetting(
            codec=WIRE,
            path="temperature",
            message=f"anthropic.claude-opus-4-7 does not take temperature ({MIGRATION_47})",
            setting="temperature",
        ),
        LossyEncode(
            codec=WIRE,
            path="max_tokens",
            message=f"anthropic.claude-opus-4-7 writes at most 128000 tokens ({LIMITS})",
            part_type="max_tokens",
            action="converted",
        ),
    ]
    assert check_rules(WIRE, encoded.body, model=model) == []
    assert validate_wire(WIRE, "request", encoded.body) == []


def test_a_budget_to_a_model_that_thinks_only_adaptively_is_sent_as_the_level_within_it() -> None:
    encoded = CODEC.encode_request(_request("anthropic.claude-opus-4-7", thinking=ThinkingConfig(budget_tokens=10000)))
    assert encoded.body["additionalModelRequestFields"] == {
        "thinking": {"type": "adaptive"},
        "output_config": {"effort": "medium"},
    }
    why = f"anthropic.claude-opus-4-7 thinks only adaptively: budget sent as effort 'medium' ({MIGRATION_47})"
    assert encoded.warnings == [
        LossyEncode(codec=WIRE, path="thinking.budget_tokens", message=why, part_type="thinking", action="converted")
    ]


def test_claude_sonnet_4_while_thinking_takes_no_top_k_temperature_only_at_1_and_no_forced_tool() -> None:
    model = "us.anthropic.claude-sonnet-4-20250514-v1:0"
    request = _request(
        model, temperature=0.5, top_k=5, thinking=ThinkingConfig(level="low"), tools=[TOOL], tool_choice="required"
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body["additionalModelRequestFields"] == {"thinking": {"type": "enabled", "budget_tokens": 2048}}
    assert (encoded.body["toolConfig"]["toolChoice"], "inferenceConfig" in encoded.body) == ({"auto": {}}, False)
    entry = "anthropic.claude-sonnet-4-20250514-v1:0"
    assert [(w.path, w.message) for w in encoded.warnings] == [
        ("temperature", f"with thinking on, {entry} takes temperature only at its default 1 ({THINKING})"),
        ("top_k", f"with thinking on, {entry} does not take top_k ({THINKING})"),
        ("tool_choice", f"with thinking on, {entry} takes tool_choice auto or none: sent as auto ({THINKING})"),
    ]
    assert check_rules(WIRE, encoded.body, model=model) == []


def test_the_same_settings_without_thinking_pass_unchanged_to_claude_sonnet_4() -> None:
    request = _request("us.anthropic.claude-sonnet-4-20250514-v1:0", temperature=0.5, top_k=5)
    encoded = CODEC.encode_request(request)
    assert (encoded.body["inferenceConfig"], encoded.body["additionalModelRequestFields"]) == (
        {"temperature": 0.5},
        {"top_k": 5},
    )
    assert encoded.warnings == []


def test_a_model_that_cannot_turn_thinking_off_gets_no_disabled_block() -> None:
    encoded = CODEC.encode_request(_request("global.anthropic.claude-fable-5", thinking=ThinkingConfig(level="off")))
    assert encoded.body == {"messages": _hi()}
    why = f"anthropic.claude-fable-5 cannot turn thinking off: sent without a thinking block ({FABLE})"
    assert encoded.warnings == [
        LossyEncode(codec=WIRE, path="thinking.level", message=why, part_type="thinking", action="converted")
    ]


def test_deepseek_r1_takes_no_top_k_no_thinking_setting_and_at_most_32768_tokens() -> None:
    request = _request("us.deepseek.r1-v1:0", top_k=3, max_tokens=50_000, thinking=ThinkingConfig(level="high"))
    encoded = CODEC.encode_request(request)
    assert encoded.body == {"messages": _hi(), "inferenceConfig": {"maxTokens": 32768}}
    assert [(w.path, w.message) for w in encoded.warnings] == [
        ("top_k", f"deepseek.r1-v1:0 does not take top_k ({DEEPSEEK})"),
        ("max_tokens", f"deepseek.r1-v1:0 writes at most 32768 tokens ({DEEPSEEK})"),
        ("thinking", f"deepseek.r1-v1:0 takes no thinking setting: not sent ({DEEPSEEK})"),
    ]


def test_nova_2_lite_gets_no_claude_thinking_field() -> None:
    encoded = CODEC.encode_request(_request("us.amazon.nova-2-lite-v1:0", thinking=ThinkingConfig(level="high")))
    assert encoded.body == {"messages": _hi()}
    why = (
        f"amazon.nova-2-lite-v1:0 reasons through reasoningConfig, which this codec does not write: not sent ({NOVA_2})"
    )
    assert encoded.warnings == [UnsupportedSetting(codec=WIRE, path="thinking", message=why, setting="thinking")]


def test_a_prefill_to_a_model_that_takes_none_is_dropped() -> None:
    request = _request("anthropic.claude-opus-4-7", Message.user("hi"), Message.assistant("{"))
    encoded = CODEC.encode_request(request)
    assert encoded.body == {"messages": _hi()}
    why = f"anthropic.claude-opus-4-7 takes no prefilled final assistant turn: dropped ({MIGRATION_47})"
    assert encoded.warnings == [
        LossyEncode(codec=WIRE, path="messages[1]", message=why, part_type="message", action="dropped")
    ]


def test_an_unknown_model_is_sent_as_asked_with_one_note() -> None:
    encoded = CODEC.encode_request(_request("us.acme.unknown-v1:0", top_k=3, thinking=ThinkingConfig(level="low")))
    assert encoded.body["additionalModelRequestFields"] == {
        "top_k": 3,
        "thinking": {"type": "enabled", "budget_tokens": 2048},
    }
    assert (encoded.warnings, [note.model for note in encoded.notes]) == ([], ["us.acme.unknown-v1:0"])


def test_the_rule_checker_finds_what_a_model_refuses_in_a_raw_body() -> None:
    body = {
        "system": [{"text": "x"}],
        "messages": [
            {"role": "user", "content": [{"text": "hi"}, {"image": {"format": "png", "source": {"bytes": "aGk="}}}]}
        ],
        "toolConfig": {"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {}}}}], "toolChoice": {"any": {}}},
        "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 2048}},
    }
    assert check_rules(WIRE, body, model="meta.llama3-70b-instruct-v1:0") == [
        "tool_use: meta.llama3-70b-instruct-v1:0 does not take it",
        "vision: meta.llama3-70b-instruct-v1:0 does not take it",
        "thinking: meta.llama3-70b-instruct-v1:0 takes no thinking configuration",
    ]
    assert check_rules(WIRE, body, model="anthropic.claude-opus-4-7") == [
        "forced_tool_choice: anthropic.claude-opus-4-7 does not take it while thinking",
        "thinking: anthropic.claude-opus-4-7 takes no 'enabled' thinking",
    ]


def test_the_effort_joins_what_output_config_already_holds() -> None:
    fields = {"additionalModelRequestFields": {"output_config": {"format": {"type": "json_schema", "schema": {}}}}}
    request = _request(
        "anthropic.claude-opus-4-7", thinking=ThinkingConfig(level="low"), provider_options={"bedrock": fields}
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body["additionalModelRequestFields"] == {
        "output_config": {"format": {"type": "json_schema", "schema": {}}, "effort": "low"},
        "thinking": {"type": "adaptive"},
    }
    assert encoded.warnings == []
