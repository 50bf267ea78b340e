"""Model-aware encoding (issue 26) on both OpenAI wires: one effort table, the model's efforts and
sampling rules from models.toml."""

from __future__ import annotations

import pytest

from interlingua import LossyEncode, Message, Request, ThinkingConfig, UnsupportedSetting, models
from interlingua.testing import check_model_rules, check_rules, validate_wire
from interlingua_openai import OpenAIChatCodec, OpenAIResponsesCodec
from interlingua_openai._shared import EFFORTS, LEVELS

CHAT, RESPONSES = OpenAIChatCodec(), OpenAIResponsesCodec()
REASONING = "https://platform.openai.com/docs/guides/reasoning"
EFFORT_DOC = "https://platform.openai.com/docs/api-reference/responses/create#responses_create-reasoning-effort"


def _request(model: str, **settings: object) -> Request:
    return Request(model=model, messages=[Message.user("hi")], **settings)  # type: ignore[arg-type]  # settings are Request fields


def _effort(codec: OpenAIChatCodec | OpenAIResponsesCodec, request: Request) -> str | None:
    body = codec.encode_request(request).body
    return body.get("reasoning_effort") or body.get("reasoning", {}).get("effort")  # type: ignore[no-any-return]  # a wire string


def test_both_wires_share_one_effort_table() -> None:
    from interlingua_openai.chat import _request as chat
    from interlingua_openai.responses import _request as responses

    assert chat.EFFORTS is EFFORTS and responses._LEVEL is EFFORTS
    assert LEVELS == {
        "off": "none",
        "minimal": "minimal",
        "low": "low",
        "medium": "medium",
        "high": "high",
        "xhigh": "xhigh",
    }


@pytest.mark.parametrize(
    ("model", "level", "effort"),
    [
        ("gpt-5", "off", "minimal"),  # gpt-5 cannot turn reasoning off: its lowest
        ("gpt-5", "xhigh", "high"),
        ("gpt-5.1", "minimal", "low"),  # gpt-5.1 refuses minimal; none and low are as near, the higher wins
        ("gpt-5.1", "off", "none"),
        ("gpt-5.1-codex-max", "xhigh", "xhigh"),
        ("gpt-5-pro", "low", "high"),  # takes high only
        ("o4-mini-2025-04-16", "minimal", "low"),
        ("gpt-5.2", "xhigh", "xhigh"),
    ],
)
def test_an_effort_the_model_lacks_goes_to_its_nearest_on_both_wires(model: str, level: str, effort: str) -> None:
    request = _request(model, thinking=ThinkingConfig(level=level))  # type: ignore[arg-type]  # a ThinkingLevel
    assert (_effort(CHAT, request), _effort(RESPONSES, request)) == (effort, effort)


def test_the_nearest_effort_is_warned_with_the_model_and_its_source() -> None:
    encoded = RESPONSES.encode_request(_request("gpt-5-2025-08-07", thinking=ThinkingConfig(level="xhigh")))
    assert encoded.warnings == [
        LossyEncode(
            codec="openai-responses",
            path="thinking.level",
            message=f"gpt-5 takes no 'xhigh' level: sent as 'high' ({EFFORT_DOC})",
            part_type="thinking",
            action="converted",
        )
    ]


def test_while_reasoning_sampling_and_penalties_are_dropped() -> None:
    request = _request("gpt-5-mini", temperature=0.2, top_p=1.0, presence_penalty=0.5, frequency_penalty=0.1)
    encoded = CHAT.encode_request(request)
    assert {k: encoded.body.get(k) for k in ("temperature", "top_p", "presence_penalty", "frequency_penalty")} == {
        "temperature": None,
        "top_p": 1.0,  # its default: taken
        "presence_penalty": None,
        "frequency_penalty": None,
    }
    assert [(type(w), w.path) for w in encoded.warnings] == [
        (UnsupportedSetting, "temperature"),
        (UnsupportedSetting, "presence_penalty"),
        (UnsupportedSetting, "frequency_penalty"),
    ]
    assert (
        encoded.warnings[0].message
        == f"with thinking on, gpt-5-mini takes temperature only at its default 1 ({REASONING})"
    )
    assert (
        check_rules("openai-chat", encoded.body) == [] and validate_wire("openai-chat", "request", encoded.body) == []
    )
    encoded = RESPONSES.encode_request(request)
    assert "temperature" not in encoded.body and encoded.body["top_p"] == 1.0


def test_gpt_5_1_takes_sampling_again_with_effort_none_its_default() -> None:
    for thinking in (None, ThinkingConfig(level="off")):
        encoded = RESPONSES.encode_request(_request("gpt-5.1", temperature=0.2, thinking=thinking))
        assert (encoded.body["temperature"], encoded.warnings) == (0.2, [])
    encoded = RESPONSES.encode_request(_request("gpt-5.1", temperature=0.2, thinking=ThinkingConfig(level="low")))
    assert ("temperature" in encoded.body, [w.path for w in encoded.warnings]) == (False, ["temperature"])


def test_a_model_without_reasoning_keeps_sampling_and_max_tokens_is_held_to_its_limit() -> None:
    encoded = CHAT.encode_request(_request("gpt-4o-mini-2024-07-18", temperature=0.2, max_tokens=20000))
    assert (encoded.body["temperature"], encoded.body["max_completion_tokens"]) == (0.2, 16384)
    assert [w.message for w in encoded.warnings] == [
        "gpt-4o-mini writes at most 16384 tokens (https://platform.openai.com/docs/models/gpt-4o-mini)"
    ]


def test_another_dialect_reads_no_openai_catalog() -> None:
    codec = OpenAIChatCodec(dialect="deepseek")
    encoded = codec.encode_request(_request("gpt-5", temperature=0.2))
    assert (encoded.body["temperature"], encoded.warnings, encoded.notes) == (0.2, [], [])


def test_the_checker_names_what_a_reasoning_model_refuses() -> None:
    body = {
        "model": "o3",
        "messages": [],
        "temperature": 0.2,
        "logprobs": True,
        "max_tokens": 10,
        "reasoning_effort": "minimal",
    }
    assert check_model_rules("openai-chat", body) == [
        "temperature: o3 takes it in [1, 1] while thinking, not 0.2",
        "logprobs: o3 does not take it while thinking",
        "max_tokens: o3 does not take it while thinking",
        "thinking: o3 takes no level (effort) 'minimal'",
    ]
    assert check_model_rules("openai-chat", {"model": "gpt-5-pro", "messages": []}) == [
        "model: gpt-5-pro is not served by openai-chat"
    ]


def test_an_unknown_model_is_noted_once() -> None:
    encoded = RESPONSES.encode_request(_request("gpt-9", temperature=0.2, thinking=ThinkingConfig(level="xhigh")))
    assert (encoded.body["temperature"], encoded.body["reasoning"], encoded.warnings) == (0.2, {"effort": "xhigh"}, [])
    assert [n.model for n in encoded.notes] == ["gpt-9"]


def test_a_responses_only_model_is_sent_by_chat_as_asked_with_a_warning_at_model() -> None:
    encoded = CHAT.encode_request(_request("gpt-5-pro-2025-10-06"))
    why = (
        "gpt-5-pro is served only by openai-responses, not openai-chat"
        " (https://platform.openai.com/docs/models/gpt-5-pro)"
    )
    assert encoded.body["model"] == "gpt-5-pro-2025-10-06"
    assert encoded.warnings == [UnsupportedSetting(codec="openai-chat", path="model", message=why, setting="model")]
    assert check_model_rules("openai-chat", encoded.body) == ["model: gpt-5-pro is not served by openai-chat"]
    responses = RESPONSES.encode_request(_request("gpt-5-pro"))
    assert (responses.warnings, check_model_rules("openai-responses", responses.body)) == ([], [])


def test_a_model_both_wires_serve_gets_no_wire_warning_on_chat() -> None:
    assert CHAT.encode_request(_request("gpt-5")).warnings == []
    assert [w.path for w in CHAT.encode_request(_request("o3-pro")).warnings] == ["model"]


def test_a_new_gpt_5_id_takes_the_gpt_5_family_rules_as_defaults_with_a_note() -> None:
    """An id no entry names yet (gpt-5.7) takes gpt-5.5's rules (``family = ["gpt-5."]``): while
    it reasons, temperature other than 1 is not sent, as to every gpt-5 model; the note says the
    rules are the family's defaults. gpt-5.6-x takes gpt-5.6-luna's (the longer prefix)."""
    request = _request("gpt-5.7", temperature=0.2, thinking=ThinkingConfig(level="high"))
    encoded = RESPONSES.encode_request(request)
    assert "temperature" not in encoded.body and encoded.body["reasoning"] == {"effort": "high"}
    assert [w.path for w in encoded.warnings] == ["temperature"]
    assert "gpt-5.5 takes temperature only at its default 1" in encoded.warnings[0].message
    assert [(n.model, n.family) for n in encoded.notes] == [("gpt-5.7", "gpt-5.5")]
    assert [(n.model, n.family) for n in CHAT.encode_request(_request("gpt-5.6-nova")).notes] == [
        ("gpt-5.6-nova", "gpt-5.6-luna")
    ]
    assert [n.family for n in RESPONSES.encode_request(_request("gpt-9")).notes] == [None]


def test_gpt_5_6_is_gpt_5_6_sol_on_a_recorded_answer_and_says_so() -> None:
    """A request naming ``gpt-5.6`` was answered by ``gpt-5.6-sol`` (pydantic-ai's recorded call):
    the alias is a catalog fact whose kind says it rests on a recorded response, not a page."""
    spec = models.find("openai", "gpt-5.6")
    assert spec is not None and spec.id == "gpt-5.6-sol"
    assert spec.kind_of("aliases") == "recorded_response" and spec.cite("aliases").startswith("a recorded response: ")
    assert RESPONSES.encode_request(_request("gpt-5.6")).notes == []


def test_gpt_5_6_luna_takes_its_page_efforts_and_is_priced_from_its_page() -> None:
    from decimal import Decimal

    from interlingua import Usage
    from interlingua.pricing import estimate

    encoded = RESPONSES.encode_request(_request("gpt-5.6-luna", thinking=ThinkingConfig(level="xhigh")))
    assert (encoded.body["reasoning"], encoded.warnings, encoded.notes) == ({"effort": "xhigh"}, [], [])
    # $0.20 input, $0.02 cached, $1.20 output; over 272K prompt tokens 2x input (cache too), 1.5x output
    small = estimate(Usage(input_tokens=200_000, output_tokens=1_000_000, cache_read_tokens=100_000), "gpt-5.6-luna")
    large = estimate(Usage(input_tokens=300_000, output_tokens=1_000_000, cache_read_tokens=100_000), "gpt-5.6-luna")
    assert small is not None and small.total == Decimal("0.02") + Decimal("0.002") + Decimal("1.2")
    assert large is not None and large.total == Decimal("0.08") + Decimal("0.004") + Decimal("1.8")
