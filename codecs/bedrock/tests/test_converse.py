"""bedrock-converse: the real recorded Converse traffic round-trips exactly, our goldens decode to
their recorded IR, and bodies crossing from and to the other wires pass each wire's oracle
(botocore's service model here, the vendor SDK types there)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import (
    assert_request_round_trip,
    assert_response_round_trip,
    load_body,
    real_fixture,
    real_fixtures,
    validate_wire,
)
from interlingua_bedrock import BedrockConverseCodec
from interlingua_bedrock._oracle import validate

CODEC = BedrockConverseCodec()
GOLDEN = Path(__file__).resolve().parents[3] / "fixtures" / "bedrock-converse"
OTHERS = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")


def _own(kind: str) -> list[Path]:
    return sorted(p for p in (GOLDEN / kind).glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", real_fixtures("bedrock-converse", "request"), ids=lambda p: p.stem)
def test_real_request_round_trips_exactly_and_passes_botocore(path: Path) -> None:
    body = load_body(path)
    assert_request_round_trip(CODEC, body)
    assert validate("request", body) == []


@pytest.mark.parametrize("path", real_fixtures("bedrock-converse", "response"), ids=lambda p: p.stem)
def test_real_response_round_trips_exactly(path: Path) -> None:
    assert_response_round_trip(CODEC, load_body(path))


@pytest.mark.parametrize("path", _own("request"), ids=lambda p: p.stem)
def test_golden_request_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = load_body(path)
    assert CODEC.decode_request(body).to_json_dict() == json.loads(path.with_name(path.stem + ".ir.json").read_text())
    assert_request_round_trip(CODEC, body)
    assert validate("request", body) == []


@pytest.mark.parametrize("path", _own("response"), ids=lambda p: p.stem)
def test_golden_response_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = load_body(path)
    assert CODEC.decode_response(body).to_json_dict() == json.loads(path.with_name(path.stem + ".ir.json").read_text())
    assert_response_round_trip(CODEC, body)
    assert validate("response", body) == []


def _crossing(kind: str) -> list[tuple[str, Path]]:
    return [(wire, path) for wire in OTHERS for path in real_fixtures(wire, kind)]


@pytest.mark.parametrize(("wire", "path"), _crossing("request"), ids=lambda v: v if isinstance(v, str) else v.stem)
def test_every_real_request_of_another_wire_encodes_to_a_body_botocore_accepts(wire: str, path: Path) -> None:
    request = il.get_codec(wire).decode_request(load_body(path))
    assert validate("request", CODEC.encode_request(request).body) == []


@pytest.mark.parametrize(("wire", "path"), _crossing("response"), ids=lambda v: v if isinstance(v, str) else v.stem)
def test_every_real_answer_of_another_wire_encodes_to_a_body_botocore_accepts(wire: str, path: Path) -> None:
    response = il.get_codec(wire).decode_response(load_body(path))
    assert validate("response", CODEC.encode_response(response).body) == []


@pytest.mark.parametrize("wire", OTHERS)
@pytest.mark.parametrize(
    "path", [*real_fixtures("bedrock-converse", "request"), *_own("request")], ids=lambda p: p.stem
)
def test_every_converse_request_crosses_to_the_other_wires(wire: str, path: Path) -> None:
    request = CODEC.decode_request(load_body(path), model="claude-sonnet-4-5")
    assert validate_wire(wire, "request", il.get_codec(wire).encode_request(request).body) == []


@pytest.mark.parametrize("wire", OTHERS)
@pytest.mark.parametrize(
    "path", [*real_fixtures("bedrock-converse", "response"), *_own("response")], ids=lambda p: p.stem
)
def test_every_converse_answer_crosses_to_the_other_wires(wire: str, path: Path) -> None:
    response = CODEC.decode_response(load_body(path))
    assert validate_wire(wire, "response", il.get_codec(wire).encode_response(response).body) == []


# --- what the codec reads, writes and reports -----------------------------------------------------


def _golden(kind: str, name: str) -> Any:
    return load_body(GOLDEN / kind / f"{name}.json")


def test_cache_points_become_the_breakpoint_of_the_block_before() -> None:
    request = CODEC.decode_request(_golden("request", "media-cache-points-and-tools"))
    system, user = request.messages
    assert system.parts[0].cache_control == il.CacheControl(ttl="1h")
    assert [getattr(p, "cache_control", None) is not None for p in user.parts] == [False, False, True, False, False]
    assert request.tools[0].cache_control == il.CacheControl()  # type: ignore[union-attr]


def test_claude_thinking_and_top_k_are_settings_and_the_rest_stays_with_the_model() -> None:
    request = CODEC.decode_request(_golden("request", "media-cache-points-and-tools"))
    assert request.thinking == il.ThinkingConfig(budget_tokens=1024) and request.top_k == 40
    options = request.provider_options["bedrock"]
    assert options["additionalModelRequestFields"] == {"anthropic_beta": ["interleaved-thinking-2025-05-14"]}
    assert options["guardrailConfig"]["guardrailIdentifier"] == "gr-1"


def test_a_tool_result_gets_its_call_name_and_keeps_status_and_mixed_content() -> None:
    request = CODEC.decode_request(_golden("request", "parallel-tool-results"))
    paris, lyon, search = request.messages[2].parts
    assert isinstance(paris, il.ToolResult) and isinstance(lyon, il.ToolResult)
    assert (paris.name, paris.content, paris.is_error) == ("get_weather", {"temp_c": 18, "sky": "clear"}, False)
    assert lyon.is_error and [type(p) for p in lyon.content] == [il.Text, il.Image]  # type: ignore[union-attr]
    assert isinstance(search, il.Native) and search.provider == "bedrock"


def test_another_vendors_request_reports_what_converse_cannot_take() -> None:
    request = il.Request(
        model="anthropic.claude-sonnet-4-5",
        temperature=1.5,
        seed=7,
        tool_choice="none",
        tools=[il.Tool(name="f", description="")],
        messages=[
            il.Message(
                role="user",
                parts=[il.Image(il.MediaSource.from_url("https://example.com/a.png", "image/png")), il.Text("hi")],
            )
        ],
        provider_options={"openai": {"store": True}},
    )
    encoded = CODEC.encode_request(request)
    assert sorted((w.kind, w.path) for w in encoded.warnings) == [
        ("foreign_option", "provider_options.openai.store"),
        ("lossy_encode", "messages[0].parts[0]"),
        ("unsupported_setting", "seed"),
        ("unsupported_setting", "temperature"),
        ("unsupported_setting", "tool_choice"),
    ]
    assert encoded.body["messages"] == [{"role": "user", "content": [{"text": "hi"}]}]
    assert encoded.body["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object", "properties": {}}}}}]
    }
    assert validate("request", encoded.body) == []


def test_another_vendors_thinking_is_not_replayed_but_shows_in_an_answer() -> None:
    thought = il.Thinking("weighing options").with_echo("anthropic", {"signature": "sig"})
    request = il.Request(
        model="m",
        messages=[
            il.Message(role="user", parts=[il.Text("q")]),
            il.Message(role="assistant", parts=[thought, il.Text("a")]),
            il.Message(role="user", parts=[il.Text("q2")]),
        ],
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body["messages"][1] == {"role": "assistant", "content": [{"text": "a"}]}
    assert [w.kind for w in encoded.warnings] == ["lossy_encode"]
    answer = CODEC.encode_response(il.Response(message=il.Message(role="assistant", parts=[thought])))
    assert answer.body["output"]["message"]["content"] == [
        {"reasoningContent": {"reasoningText": {"text": "weighing options"}}}
    ]


def test_usage_counts_cache_reads_in_the_prompt_as_the_ir_does() -> None:
    response = CODEC.decode_response(_golden("response", "signed-reasoning-then-tool-use"))
    assert (response.usage.input_tokens, response.usage.cache_read_tokens, response.usage.output_tokens) == (
        1334,
        1322,
        85,
    )
    assert response.stop_reason == "tool_use"
    thinking, redacted, _, call = response.message.parts
    assert isinstance(thinking, il.Thinking) and thinking.echo("bedrock") is not None
    assert isinstance(redacted, il.RedactedThinking) and isinstance(call, il.ToolUse)


def test_the_recorded_error_reads_with_its_amazon_error_type() -> None:
    error = CODEC.decode_error(
        400,
        json.dumps(load_body(real_fixture("bedrock-converse", "error", "invalid-model-identifier.json"))).encode(),
        {"x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/"},
    )
    assert isinstance(error, il.BadRequestError)
    assert (error.type, error.message) == ("ValidationException", "The provided model identifier is invalid.")


def test_the_oracle_finds_what_botocore_refuses() -> None:
    body = {"messages": [{"role": "user", "content": [{"image": {"format": "png", "source": {"bytes": "%%%"}}}]}]}
    assert any("not base64" in p for p in validate("request", body))
    assert validate("request", {"messages": [], "bogus": 1}) != []
    assert validate("request", {"messages": [{"role": "user", "content": "hi"}]}) != []


def test_malformed_input_is_a_decode_error_with_its_path() -> None:
    with pytest.raises(il.DecodeError) as caught:
        CODEC.decode_request({"messages": [{"role": "user", "content": [{"text": 3}]}]})
    assert caught.value.path == "messages[0].content[0].text"


# --- streams --------------------------------------------------------------------------------------

STREAMS = real_fixtures("bedrock-converse", "stream", "*.eventstream.bin")


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: p.name.split(".")[0])
def test_real_stream_frames_decode_and_agree_with_their_decoded_record(path: Path) -> None:
    raw = path.read_bytes()
    events = list(CODEC.decode_event_stream([raw[i : i + 61] for i in range(0, len(raw), 61)]))
    response = il.accumulate(events)
    recorded = [
        json.loads(line) for line in path.with_name(path.name.replace(".bin", ".jsonl")).read_text().splitlines()
    ]
    final = recorded[-1]["payload"]
    assert response.usage.output_tokens == final["usage"]["outputTokens"]
    stop = next(r["payload"]["stopReason"] for r in recorded if r["headers"][":event-type"] == "messageStop")
    assert response.raw_stop_reason == stop
    texts = "".join(
        r["payload"]["delta"].get("text", "") for r in recorded if r["headers"][":event-type"] == "contentBlockDelta"
    )
    assert "".join(p.text for p in response.message.parts if isinstance(p, il.Text)) == texts


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: p.name.split(".")[0])
def test_a_stream_written_back_reads_as_the_same_answer_and_frames_parse(path: Path) -> None:
    from interlingua.kit import event_frames, render_frames

    events = list(CODEC.decode_event_stream([path.read_bytes()]))
    written = CODEC.encode_stream(events)
    frames = b"".join(render_frames((e.event, e.data.encode()) for e in written))
    assert written.warnings == []
    again = il.accumulate(CODEC.decode_stream(event_frames([frames], codec="t")))
    assert again == il.accumulate(events)


def test_a_streamed_answers_citations_are_its_texts_as_in_the_answer_body() -> None:
    """The stream of the golden cited answer (``citation`` deltas in its text block) gives the
    part the answer's ``citationsContent`` block gives: Text.citations, the block in its echo."""
    path = GOLDEN / "stream" / "cited-answer.sse"
    decoded = CODEC.decode_stream(il.parse_sse([path.read_bytes()]))
    streamed = il.accumulate(decoded)
    answer = CODEC.decode_response(load_body(GOLDEN / "response" / "cited-answer.json"))
    assert decoded.warnings == [] and streamed == answer
    assert streamed.to_json_dict() == json.loads(path.with_name("cited-answer.ir.json").read_text())
    (text,) = streamed.message.parts
    assert isinstance(text, il.Text) and [(c.source.title, c.source.unit) for c in text.citations] == [
        ("Contract 2026", "char"),
        ("Handbook", "page"),
    ]


def test_a_cited_text_block_the_stream_never_stops_keeps_its_citations() -> None:
    path = GOLDEN / "stream" / "cited-answer.sse"
    events = [e for e in il.parse_sse([path.read_bytes()]) if e.event != "contentBlockStop"]
    response = il.accumulate(CODEC.decode_stream(events))
    answer = CODEC.decode_response(load_body(GOLDEN / "response" / "cited-answer.json"))
    assert response == answer


def test_a_streamed_answers_citations_go_back_out_as_citation_deltas() -> None:
    from interlingua.kit import event_frames, render_frames

    events = list(CODEC.decode_stream(il.parse_sse([(GOLDEN / "stream" / "cited-answer.sse").read_bytes()])))
    written = list(CODEC.encode_stream(events))
    deltas = [json.loads(e.data)["delta"] for e in written if e.event == "contentBlockDelta"]
    assert [d["citation"]["title"] for d in deltas if "citation" in d] == ["Contract 2026", "Handbook"]
    assert all(validate_wire("bedrock-converse", "stream_event", json.loads(e.data)) == [] for e in written)
    frames = b"".join(render_frames((e.event, e.data.encode()) for e in written))
    assert il.accumulate(CODEC.decode_stream(event_frames([frames], codec="t"))) == il.accumulate(events)


def test_signed_reasoning_in_a_stream_carries_its_signature() -> None:
    path = real_fixture("bedrock-converse", "stream", "reasoning-stream.eventstream.bin")
    response = il.accumulate(CODEC.decode_event_stream([path.read_bytes()]))
    thinking = response.message.parts[0]
    assert isinstance(thinking, il.Thinking) and thinking.text.startswith("The user has greeted me")
    assert (thinking.echo("bedrock") or il.ProviderEcho(provider="x", data={})).data["signature"].startswith("Eu0C")


def test_another_wires_stream_becomes_converse_events_and_an_exception_ends_it() -> None:
    events = [
        il.MessageStart(id="msg_1", model="m"),
        il.PartStart(0, il.Text("")),
        il.TextDelta(0, "Hi"),
        il.PartEnd(0),
        il.PartStart(1, il.ImageOutput(source=il.MediaSource.from_base64("image/png", "AAAA"))),
        il.PartEnd(1),
        il.MessageEnd("end_turn", None, il.Usage(input_tokens=3, output_tokens=1)),
    ]
    written = CODEC.encode_stream(events)
    names = [(e.event, json.loads(e.data)) for e in written]
    assert names == [
        ("messageStart", {"role": "assistant"}),
        ("contentBlockDelta", {"delta": {"text": "Hi"}, "contentBlockIndex": 0}),
        ("contentBlockStop", {"contentBlockIndex": 0}),
        ("messageStop", {"stopReason": "end_turn"}),
        ("metadata", {"usage": {"inputTokens": 3, "outputTokens": 1, "totalTokens": 4}, "metrics": {"latencyMs": 0}}),
    ]
    assert [(w.kind, w.path) for w in written.warnings] == [("lossy_encode", "events[4].part")]
    failing = [*events[:3], il.ErrorEvent(il.RateLimitError("slow down", status=429, type="throttlingException"))]
    decoded = list(CODEC.decode_stream(CODEC.encode_stream(failing)))
    assert isinstance(decoded[-1], il.ErrorEvent) and decoded[-1].error.status == 429


def test_capabilities_hold() -> None:
    from interlingua.testing import assert_capabilities_hold

    samples = {
        "native": il.Native("bedrock", {"guardContent": {"text": {"text": "x"}}}),
        "native_tools": il.NativeTool(provider="bedrock", data={"systemTool": {"name": "nova_grounding"}}),
        "thinking": il.Thinking("t").with_echo("bedrock", {"signature": "s"}),
        "redacted_thinking": il.RedactedThinking().with_echo("bedrock", {"redactedContent": "YQ=="}),
        "video": il.Video(il.MediaSource.from_base64("video/mp4", "AAAA")),
    }
    checked = assert_capabilities_hold(CODEC, samples)
    assert checked["cache_control"] == "native" and checked["seed"] == "lossy"


def test_the_codec_is_installed_and_detected() -> None:
    assert "bedrock-converse" in il.codecs()
    body = load_body(real_fixture("bedrock-converse", "request", "text-basic-nova.json"))
    assert CODEC.sniff(body) is not None and CODEC.sniff({"contents": [], "toolConfig": {}}) is None


def test_another_wires_reasoning_token_count_is_reported_in_the_answer() -> None:
    usage = il.Usage(input_tokens=10, output_tokens=9, reasoning_tokens=3)
    answer = il.Response(message=il.Message(role="assistant", parts=[il.Text("It is so.")]), usage=usage)
    encoded = CODEC.encode_response(answer)
    assert encoded.body["usage"] == {"inputTokens": 10, "outputTokens": 9, "totalTokens": 19}
    assert [(w.kind, w.path, w.message) for w in encoded.warnings] == [
        (
            "lossy_encode",
            "usage.reasoning_tokens",
            "Converse usage has no reasoning token count (3 of the output tokens)",
        )
    ]


def test_a_stop_reason_without_a_converse_form_is_converted_with_a_warning() -> None:
    answer = il.Response(message=il.Message.assistant("so far"), stop_reason="pause")
    encoded = CODEC.encode_response(answer)
    assert encoded.body["stopReason"] == "end_turn"
    assert [(w.kind, w.path, w.message) for w in encoded.warnings] == [
        ("lossy_encode", "stop_reason", "stopReason has no form for 'pause'; sent as 'end_turn'")
    ]


def test_a_call_id_rewritten_for_converse_comes_back_as_it_was() -> None:
    call = il.ToolUse(id="functions/get time#1", name="get_time", input={"tz": "Europe/Paris"})
    result = il.ToolResult(tool_use_id="functions/get time#1", name="get_time", content="10:00")
    request = il.Request(
        model="m",
        messages=[il.Message.user("time?"), il.Message(role="assistant", parts=[call]), il.Message.user(result)],
    )
    body = CODEC.encode_request(request).body
    sent = body["messages"][1]["content"][0]["toolUse"]["toolUseId"]
    assert sent.startswith("tooluse_") and sent == body["messages"][2]["content"][0]["toolResult"]["toolUseId"]
    back = CODEC.decode_request(body)
    assert [p.id for p in back.messages[1].parts if isinstance(p, il.ToolUse)] == ["functions/get time#1"]
    assert [p.tool_use_id for p in back.messages[2].parts if isinstance(p, il.ToolResult)] == ["functions/get time#1"]


def _foreign_stream(*parts: il.StreamEvent, stop: il.StopReason = "end_turn") -> list[il.StreamEvent]:
    return [il.MessageStart(), *parts, il.MessageEnd(stop, None, il.Usage(input_tokens=3, output_tokens=2))]


def test_a_stream_from_another_wire_reads_back_empty_blocks_whole_calls_and_reports_citations() -> None:
    cited = il.Citation(cited_text="so", source=il.CitationSource(type="url", url="https://example.com/a"))
    call = il.ToolUse(id="c1", name="lookup", input={"q": "x"})  # whole, as Gemini's stream gives it
    events = _foreign_stream(
        il.PartStart(0, il.Thinking("")),
        il.PartEnd(0),
        il.PartStart(1, il.Text("It is so.")),
        il.PartEnd(1, citations=[cited]),
        il.PartStart(2, call),
        il.PartEnd(2),
        stop="tool_use",
    )
    written = CODEC.encode_stream(events)
    frames = list(written)
    back = il.accumulate(CODEC.decode_stream(frames))
    thinking, text, used = back.message.parts
    assert isinstance(thinking, il.Thinking) and thinking.text == ""
    assert isinstance(text, il.Text) and text.text == "It is so." and text.citations == []
    assert isinstance(used, il.ToolUse) and (used.id, used.input) == ("c1", {"q": "x"})
    assert [(w.path, w.part_type) for w in written.warnings] == [("events[4].citations", "citations")]


def test_a_stream_ends_at_its_exception_and_says_the_stop_reason_after_it_is_lost() -> None:
    failure = il.ErrorEvent(il.ProviderError.for_status(429, "slow down", type="throttlingException", codec="t"))
    written = CODEC.encode_stream(_foreign_stream(failure, stop="error"))
    assert [e.event for e in written] == ["messageStart", "exception"]
    assert [(w.path, w.part_type) for w in written.warnings] == [("events[2].stop_reason", "stop_reason")]


def test_a_block_skipped_at_its_start_ends_without_ending_the_stream() -> None:
    """Nova's code interpreter streams its result as a ``toolResult`` block (shape from
    https://docs.aws.amazon.com/nova/latest/userguide/tool-built-in.html): it has no IR form in a
    stream, so its start and delta are skipped with a warning each, and its ``contentBlockStop``
    ends no part; the answer around it accumulates."""
    call = {"toolUseId": "tooluse_1", "name": "nova_code_interpreter", "type": "server_tool_use"}
    result = {"toolUseId": "tooluse_1", "type": "nova_code_interpreter_result", "status": "success"}
    wire = [
        ("messageStart", {"role": "assistant"}),
        ("contentBlockStart", {"start": {"toolUse": call}, "contentBlockIndex": 0}),
        ("contentBlockDelta", {"delta": {"toolUse": {"input": '{"code": "1+1"}'}}, "contentBlockIndex": 0}),
        ("contentBlockStop", {"contentBlockIndex": 0}),
        ("contentBlockStart", {"start": {"toolResult": result}, "contentBlockIndex": 1}),
        ("contentBlockDelta", {"delta": {"toolResult": [{"text": '{"stdOut": "2"}'}]}, "contentBlockIndex": 1}),
        ("contentBlockStop", {"contentBlockIndex": 1}),
        ("contentBlockDelta", {"delta": {"text": "It is 2."}, "contentBlockIndex": 2}),
        ("contentBlockStop", {"contentBlockIndex": 2}),
        ("messageStop", {"stopReason": "end_turn"}),
        ("metadata", {"usage": {"inputTokens": 3, "outputTokens": 5, "totalTokens": 8}, "metrics": {"latencyMs": 1}}),
    ]
    decoded = CODEC.decode_stream([il.ServerSentEvent(data=json.dumps(data), event=name) for name, data in wire])
    response = il.accumulate(decoded)
    assert [part.type for part in response.message.parts] == ["tool_use", "text"]
    assert response.message.parts[1] == il.Text("It is 2.")
    assert [w.path for w in decoded.warnings] == ["events[4].start", "events[5].delta"]
