"""Vendor-reported cost: OpenRouter's ``usage.cost`` / ``cost_details`` <-> Response.cost on
openai-chat, responses and streams; and every Responses usage counter kept in Usage."""

from __future__ import annotations

import copy
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson
import pytest

from interlingua import Cost, LossyEncode, MessageEnd, Response, Transcript, Usage, accumulate
from interlingua.kit import loads
from interlingua.pricing import estimate
from interlingua.testing import (
    assert_response_round_trip,
    assert_same_json,
    load_body,
    read_stream_file,
    strip_none,
    validate_wire,
)
from interlingua_openai.chat import OpenAIChatCodec
from interlingua_openai.responses import OpenAIResponsesCodec

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
ANSWER = FIXTURES / "openai-chat" / "response" / "usage-cost-and-cost-details.json"
STREAM = FIXTURES / "openai-chat" / "stream" / "usage-cost-in-final-chunk.sse"
OPENROUTER = OpenAIChatCodec(dialect="openrouter")

# What the openai SDK's types do not declare in OpenRouter's answer: exactly these, nothing else.
OPENROUTER_EXTRAS = [
    "choices[0].message.reasoning: unknown key (not in ChatCompletionMessage)",
    "choices[0].native_finish_reason: unknown key (not in Choice)",
    "provider: unknown key (not in ChatCompletion)",
    "usage.completion_tokens_details.image_tokens: unknown key (not in CompletionTokensDetails)",
    "usage.cost: unknown key (not in CompletionUsage)",
    "usage.cost_details: unknown key (not in CompletionUsage)",
    "usage.is_byok: unknown key (not in CompletionUsage)",
    "usage.prompt_tokens_details.video_tokens: unknown key (not in PromptTokensDetails)",
]


def _with_usage(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = copy.deepcopy(load_body(ANSWER))
    body["usage"].update(changes)
    return body


def _sorted_bytes(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _same_bytes(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """Byte-equal with sorted keys: the usage object exactly (its nulls included), the rest with
    null-valued keys left out (this codec writes an absent key for a null one, see strip_none)."""
    usage_same = _sorted_bytes(expected["usage"]) == _sorted_bytes(actual["usage"])
    return usage_same and _sorted_bytes(strip_none(expected)) == _sorted_bytes(strip_none(actual))


@pytest.mark.parametrize("dialect", ["openrouter", "openai"])
def test_usage_cost_decodes_to_the_response_cost_on_any_dialect(dialect: str) -> None:
    response = OpenAIChatCodec(dialect=dialect).decode_response(load_body(ANSWER))
    assert response.cost == Cost(
        total=Decimal("0.000192"),
        extra={
            "cost_details.upstream_inference_prompt_cost": Decimal("0.000042"),
            "cost_details.upstream_inference_completions_cost": Decimal("0.00015"),
        },
    )
    assert response.cost.currency == "USD"
    assert "cost" not in str(response.usage.extra)  # money is not a token counter


def test_the_cost_answer_encodes_back_to_the_same_bytes_and_the_oracle_names_only_openrouter_keys() -> None:
    body = load_body(ANSWER)
    assert_response_round_trip(OPENROUTER, body)
    encoded = OPENROUTER.encode_response(OPENROUTER.decode_response(body))
    assert encoded.warnings == []
    assert _same_bytes(body, encoded.body)
    assert sorted(validate_wire("openai-chat", "response", body)) == OPENROUTER_EXTRAS
    unannounced_null = "choices[0].message.reasoning: unknown key (not in ChatCompletionMessage)"
    assert sorted(validate_wire("openai-chat", "response", encoded.body)) == [
        line for line in OPENROUTER_EXTRAS if line != unannounced_null
    ]  # the re-encode leaves the null reasoning out


@pytest.mark.parametrize(
    ("cost", "details", "total", "extra"),
    [
        (0, {"upstream_inference_cost": None}, Decimal(0), {}),
        (0.0, {"upstream_inference_cost": 0.0}, Decimal("0.0"), {"cost_details.upstream_inference_cost": Decimal("0")}),
        (
            9.6e-06,
            {"upstream_inference_cost": 0.000192},
            Decimal("0.0000096"),
            {"cost_details.upstream_inference_cost": Decimal("0.000192")},
        ),
        (3, {}, Decimal(3), {}),
    ],
    ids=["int-zero", "float-zero", "byok-fee-and-upstream", "empty-details"],
)
def test_ints_floats_and_nulls_in_the_cost_come_back_as_they_were(
    cost: float, details: dict[str, Any], total: Decimal, extra: dict[str, Decimal]
) -> None:
    body = _with_usage(cost=cost, cost_details=details, is_byok=True)
    response = OPENROUTER.decode_response(body)
    assert response.cost is not None and (response.cost.total, response.cost.extra) == (total, extra)
    again = OPENROUTER.encode_response(response).body
    assert _same_bytes(body, again)
    assert type(again["usage"]["cost"]) is type(cost)


@pytest.mark.parametrize("cost", [None, "0.01", True])
def test_a_cost_that_is_not_a_number_is_no_cost_and_is_kept_verbatim(cost: object) -> None:
    body = _with_usage(cost=cost)
    response = OPENROUTER.decode_response(body)
    assert response.cost is None
    assert _same_bytes(body, OPENROUTER.encode_response(response).body)


def test_cost_details_without_a_cost_stay_raw() -> None:
    body = _with_usage()
    del body["usage"]["cost"]
    response = OPENROUTER.decode_response(body)
    assert response.cost is None
    assert _same_bytes(body, OPENROUTER.encode_response(response).body)


def test_a_cost_from_elsewhere_encodes_its_total_and_reports_what_has_no_key() -> None:
    cost = Cost(input=Decimal("0.1"), output=Decimal("0.2"), total=Decimal("0.3"))
    encoded = OPENROUTER.encode_response(
        Response(stop_reason="end_turn", usage=Usage(input_tokens=1, output_tokens=2), cost=cost)
    )
    assert encoded.body["usage"]["cost"] == 0.3 and "cost_details" not in encoded.body["usage"]
    assert [(w.path, w.action) for w in encoded.warnings if isinstance(w, LossyEncode)] == [("cost", "converted")]
    assert len(encoded.warnings) == 1
    assert "input, output" in encoded.warnings[0].message


def test_a_cost_in_another_currency_is_left_out_with_a_warning() -> None:
    encoded = OPENROUTER.encode_response(Response(stop_reason="end_turn", cost=Cost(total=Decimal(2), currency="EUR")))
    assert "cost" not in encoded.body["usage"]
    assert [(w.path, w.action) for w in encoded.warnings if isinstance(w, LossyEncode)] == [("cost", "dropped")]
    assert len(encoded.warnings) == 1


def test_a_response_without_cost_writes_none() -> None:
    body = OpenAIChatCodec().encode_response(Response(usage=Usage(input_tokens=3, output_tokens=4))).body
    assert set(body["usage"]) == {"prompt_tokens", "completion_tokens", "total_tokens"}


# --- streams -------------------------------------------------------------------------------------


def _chunks(events: Any) -> list[Any]:
    return [loads(e.data) for e in events if e.data != "[DONE]"]


def test_the_final_usage_chunk_with_cost_streams_back_exactly() -> None:
    recorded = read_stream_file(STREAM)
    events = list(OPENROUTER.decode_stream(recorded))
    end = events[-1]
    assert isinstance(end, MessageEnd) and end.usage is not None and end.usage.input_tokens == 14
    usage_chunk = _chunks(OPENROUTER.encode_stream(events))[-1]
    assert _sorted_bytes(usage_chunk["usage"]) == _sorted_bytes(_chunks(recorded)[-1]["usage"])


def test_a_streamed_answer_has_the_cost_decode_response_gives() -> None:
    streamed = accumulate(OPENROUTER.decode_stream(read_stream_file(STREAM)))
    assert streamed.cost == OPENROUTER.decode_response(load_body(ANSWER)).cost
    assert streamed.cost is not None and streamed.cost.total == Decimal("0.000192")
    # not kept twice: the usage echo holds only what Cost and Usage have no field for
    assert streamed.provider_echoes[0].data["_usage"] == {
        "is_byok": False,
        "cost_details": {"upstream_inference_cost": None},
    }


# --- a host's transcript -------------------------------------------------------------------------


def test_add_response_keeps_the_reported_cost_over_an_estimate() -> None:
    # the model is one the bundled table prices, so an estimate exists and differs from the fee
    body = _with_usage(cost=9.6e-06, is_byok=True, cost_details={"upstream_inference_cost": 0.000192})
    body["model"] = "claude-sonnet-4-6"
    response = OPENROUTER.decode_response(body)
    estimated = estimate(response.usage, "claude-sonnet-4-6")
    assert estimated is not None and estimated.total == Decimal("0.000192")
    second = OPENROUTER.decode_response(load_body(ANSWER))
    transcript = Transcript().add_response(response).add_response(second)
    total = transcript.total_cost()
    assert total is not None and total.total == Decimal("0.0002016")  # 0.0000096 + 0.000192
    assert total.extra["cost_details.upstream_inference_cost"] == Decimal("0.000192")
    loaded = Transcript.model_validate_json(transcript.model_dump_json())
    assert loaded.total_cost() == total


# --- openai-responses usage ----------------------------------------------------------------------

RESPONSES = OpenAIResponsesCodec()
RESPONSES_ANSWER = FIXTURES / "openai-responses" / "response" / "refusal.json"
WRITES = {"ttl_12h_tokens": 1024, "ttl_30m_tokens": 256}


def _responses_body(**inputs: Any) -> dict[str, Any]:
    body: dict[str, Any] = copy.deepcopy(load_body(RESPONSES_ANSWER))
    body["usage"] = {
        "input_tokens": 3000,
        "input_tokens_details": {"cached_tokens": 1000, "cache_write_tokens": 1280, **inputs},
        "output_tokens": 40,
        "output_tokens_details": {"reasoning_tokens": 8},
        "total_tokens": 3040,
    }
    return body


def test_responses_cache_write_retentions_are_usage_counters_and_encode_back() -> None:
    body = _responses_body(cache_write_tokens_details=WRITES)
    response = RESPONSES.decode_response(body)
    assert response.usage.extra == {
        "cache_write_tokens_details.ttl_12h_tokens": 1024,
        "cache_write_tokens_details.ttl_30m_tokens": 256,
    }
    assert "usage" not in str(response.provider_echoes)  # held by Usage, not by a copy in an echo
    encoded = RESPONSES.encode_response(response).body
    assert encoded["usage"] == body["usage"]
    assert_same_json(body, encoded)
    assert validate_wire("openai-responses", "response", encoded) == []


def test_responses_counters_the_sdk_lacks_are_usage_extra_and_round_trip() -> None:
    body = _responses_body(audio_tokens=7)
    body["usage"]["output_tokens_details"]["audio_tokens"] = 9
    response = RESPONSES.decode_response(body)
    assert response.usage.extra == {"audio_tokens": 7, "output_tokens_details.audio_tokens": 9}
    assert_same_json(body, RESPONSES.encode_response(response).body)


def test_another_vendors_counters_never_reach_a_responses_body() -> None:
    usage = Usage(
        input_tokens=10,
        output_tokens=2,
        extra={"cache_creation.ephemeral_1h_input_tokens": 4, "toolUsePromptTokenCount": 3},
    )
    body = RESPONSES.encode_response(Response(usage=usage)).body
    assert body["usage"]["input_tokens_details"] == {"cached_tokens": 0, "cache_write_tokens": 0}
    assert validate_wire("openai-responses", "response", body) == []  # the SDK requires both counts


def test_the_price_table_bills_twelve_hour_writes_read_from_a_decoded_responses_usage() -> None:
    plain = RESPONSES.decode_response(_responses_body()).usage
    held = RESPONSES.decode_response(_responses_body(cache_write_tokens_details=WRITES)).usage
    # gpt-6.2-sol per million: input 2, cache read 0.1, output 10, cache write 2.5 (30m) / 5 (12h)
    base, longer = estimate(plain, "gpt-6.2-sol"), estimate(held, "gpt-6.2-sol")
    assert base is not None and base.total == Decimal("0.00514")  # 720*2 + 1000*0.1 + 1280*2.5 + 40*10
    assert longer is not None and longer.total == Decimal("0.0077")  # 1024 of the writes at 5, 256 at 2.5
