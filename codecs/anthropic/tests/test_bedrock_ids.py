"""Claude on Bedrock (issue 30): a Bedrock model id, an inference profile or an ARN finds its Claude
catalog entry, so the InvokeModel door sends a body the model accepts, as the Claude API door does."""

from __future__ import annotations

import pytest

from interlingua import Endpoint, LossyEncode, Message, Request, ThinkingConfig, UnsupportedSetting, models
from interlingua.testing import check_rules, validate_wire
from interlingua_anthropic import AnthropicMessagesCodec

WIRE = "anthropic-messages"
CODEC = AnthropicMessagesCodec()
MIGRATION_47 = "https://platform.claude.com/docs/en/about-claude/models/migration-guide#migrating-to-claude-opus-4-7"
FABLE = "https://platform.claude.com/docs/en/models/fable-5/migration-guide"
LIMITS = "https://platform.claude.com/docs/en/about-claude/models/overview"


@pytest.mark.parametrize(
    ("model", "entry"),
    [
        ("anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"),  # the base model id
        ("us.anthropic.claude-sonnet-4-20250514-v1:0", "claude-sonnet-4-0"),  # a geographic profile
        ("global.anthropic.claude-opus-4-6-v1", "claude-opus-4-6"),  # the global profile
        ("apac.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5"),
        (
            "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-6",
            "claude-sonnet-4-6",
        ),
        ("arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-opus-4-7", "claude-opus-4-7"),
    ],
)
def test_a_bedrock_id_finds_its_claude_entry(model: str, entry: str) -> None:
    found = models.find("anthropic", model)
    assert found is not None and found.id == entry


@pytest.mark.parametrize(
    "model",
    [
        "anthropic.claude-sonnet-4-5",  # not an id Bedrock serves: the snapshot and version are part of it
        "xx.anthropic.claude-opus-4-7",  # not a profile's geography
        "us.meta.llama3-1-70b-instruct-v1:0",
        "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3",  # opaque
    ],
)
def test_a_name_that_is_no_claude_bedrock_id_stays_unknown(model: str) -> None:
    assert models.find("anthropic", model) is None


def _door(model: str, **settings: object) -> Request:
    settings.setdefault("max_tokens", 4096)
    return Request(model=model, messages=[Message.user("hi")], **settings)  # type: ignore[arg-type]  # settings are Request fields


def test_the_bedrock_door_drops_what_opus_4_7_refuses_as_the_claude_api_door_does() -> None:
    model = "us.anthropic.claude-opus-4-7"
    request = _door(model, temperature=0.2, top_k=40, max_tokens=200_000)
    sent = CODEC.http_request(request, stream=False, endpoint=Endpoint(api_key="k", settings=_BEDROCK))
    assert sent.url == "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-opus-4-7/invoke"
    assert sent.json == {
        "anthropic_version": "bedrock-2023-05-31",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        "max_tokens": 128000,
    }
    encoded = CODEC.encode_request(request)
    assert encoded.warnings == [
        UnsupportedSetting(
            codec=WIRE, path=name, message=f"claude-opus-4-7 does not take {name} ({MIGRATION_47})", setting=name
        )
        for name in ("temperature", "top_k")
    ] + [
        LossyEncode(
            codec=WIRE,
            path="max_tokens",
            message=f"claude-opus-4-7 writes at most 128000 tokens ({LIMITS})",
            part_type="max_tokens",
            action="converted",
        )
    ]
    assert encoded.notes == []  # the Bedrock id is known
    assert check_rules(WIRE, encoded.body, model="claude-opus-4-7") == []


def test_thinking_off_is_left_out_for_a_model_that_cannot_turn_it_off_on_bedrock() -> None:
    encoded = CODEC.encode_request(_door("global.anthropic.claude-fable-5", thinking=ThinkingConfig(level="off")))
    assert "thinking" not in encoded.body
    assert encoded.warnings == [
        LossyEncode(
            codec=WIRE,
            path="thinking.level",
            message=f"claude-fable-5 cannot turn thinking off: sent without a thinking block, at its default ({FABLE})",
            part_type="thinking",
            action="converted",
        )
    ]
    assert validate_wire(WIRE, "request", encoded.body) == []


def test_an_unknown_bedrock_id_is_sent_as_asked_with_one_note() -> None:
    encoded = CODEC.encode_request(_door("us.anthropic.claude-opus-9", temperature=0.2))
    assert (encoded.body["temperature"], encoded.warnings) == (0.2, [])
    assert [note.model for note in encoded.notes] == ["us.anthropic.claude-opus-9"]


_BEDROCK = {"door": "bedrock", "aws_region": "us-east-1"}
