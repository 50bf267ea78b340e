"""cohere-chat: the recorded Cohere v2 traffic round-trips exactly and passes the cohere SDK's types,
our goldens decode to their recorded IR, streams accumulate and come back, and bodies cross from
and to every other installed wire through each wire's oracle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import interlingua as il
from interlingua.testing import (
    assert_capabilities_hold,
    assert_request_round_trip,
    assert_response_round_trip,
    load_body,
    real_fixture,
    real_fixtures,
    validate_wire,
)

CODEC = il.get_codec("cohere-chat")
GOLDEN = Path(__file__).resolve().parents[3] / "fixtures" / "cohere-chat"
OTHERS = [name for name in il.codecs() if name != "cohere-chat"]


def _own(kind: str) -> list[Path]:
    return sorted(p for p in (GOLDEN / kind).glob("*.json") if not p.name.endswith(".ir.json"))


@pytest.mark.parametrize("path", real_fixtures("cohere", "request"), ids=lambda p: p.stem)
def test_real_request_round_trips_exactly_and_passes_the_sdk(path: Path) -> None:
    body = load_body(path)
    assert_request_round_trip(CODEC, body)
    assert validate_wire("cohere-chat", "request", body) == []


@pytest.mark.parametrize("path", real_fixtures("cohere", "response"), ids=lambda p: p.stem)
def test_real_response_round_trips_exactly_and_passes_the_sdk(path: Path) -> None:
    body = load_body(path)
    assert_response_round_trip(CODEC, body)
    assert validate_wire("cohere-chat", "response", body) == []


@pytest.mark.parametrize("path", [*_own("request"), *_own("response")], ids=lambda p: p.stem)
def test_golden_decodes_to_its_recorded_ir_and_back(path: Path) -> None:
    body = load_body(path)
    kind = path.parent.name
    decoded = CODEC.decode_request(body) if kind == "request" else CODEC.decode_response(body)
    assert decoded.to_json_dict() == json.loads(path.with_name(path.stem + ".ir.json").read_text())
    (assert_request_round_trip if kind == "request" else assert_response_round_trip)(CODEC, body)
    assert validate_wire("cohere-chat", kind, body) == []


def _events(path: Path) -> list[il.ServerSentEvent]:
    return [il.ServerSentEvent(data=line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("path", real_fixtures("cohere", "stream"), ids=lambda p: p.name.split(".")[0])
def test_real_stream_accumulates_and_comes_back_through_the_encoder(path: Path) -> None:
    decoded = CODEC.decode_stream(_events(path))
    events = list(decoded)
    response = il.accumulate(events)
    assert decoded.warnings == [] and response.stop_reason in ("end_turn", "tool_use")
    recorded = [json.loads(e.data) for e in _events(path)]
    text = "".join(
        r["delta"]["message"]["content"].get("text", "") for r in recorded if r.get("type") == "content-delta"
    )
    assert "".join(p.text for p in response.message.parts if isinstance(p, il.Text) and not p.echo("cohere")) == text
    written = CODEC.encode_stream(events)
    assert il.accumulate(CODEC.decode_stream(list(written))) == response and written.warnings == []
    for event in CODEC.encode_stream(events):
        assert validate_wire("cohere-chat", "stream_event", json.loads(event.data)) == []


@pytest.mark.parametrize("wire", OTHERS)
def test_every_real_body_of_another_wire_encodes_to_a_body_the_cohere_sdk_accepts(wire: str) -> None:
    from interlingua.testing import skip_without_corpus

    skip_without_corpus()
    source = il.get_codec(wire)
    for kind in ("request", "response"):
        for path in real_fixtures(wire, kind):
            body = load_body(path)
            if kind == "request":
                request = source.decode_request(body)
                request = request if request.model else request.model_copy(update={"model": "command-a-03-2025"})
                assert validate_wire("cohere-chat", kind, CODEC.encode_request(request).body) == [], path.name
            else:
                encoded = CODEC.encode_response(source.decode_response(body)).body
                assert validate_wire("cohere-chat", kind, encoded) == [], path.name


@pytest.mark.parametrize("wire", OTHERS)
def test_every_cohere_body_crosses_to_the_other_wires(wire: str) -> None:
    target = il.get_codec(wire)
    for path in [*real_fixtures("cohere", "request"), *_own("request")]:
        request = CODEC.decode_request(load_body(path))
        assert validate_wire(wire, "request", target.encode_request(request).body) == [], path.name
    for path in [*real_fixtures("cohere", "response"), *_own("response")]:
        response = CODEC.decode_response(load_body(path))
        assert validate_wire(wire, "response", target.encode_response(response).body) == [], path.name


def test_tool_plan_calls_and_results_read_as_the_ir_has_them() -> None:
    request = CODEC.decode_request(load_body(GOLDEN / "request" / "documents-tools-thinking.json"))
    plan, call = request.messages[2].parts
    assert isinstance(plan, il.Text) and plan.text == "I will look up the plans." and plan.echo("cohere") is not None
    assert isinstance(call, il.ToolUse) and call.input == {"seats": 12}
    (result,) = request.messages[3].parts
    assert isinstance(result, il.ToolResult) and result.name == "lookup_plans"
    assert request.thinking == il.ThinkingConfig(budget_tokens=2048) and request.tool_choice == "required"
    assert (request.top_k, request.top_p, request.seed) == (40, 0.9, 7)
    assert request.provider_options["cohere"]["citation_options"] == {"mode": "FAST"}


def test_usage_counts_cached_tokens_as_cache_reads() -> None:
    response = CODEC.decode_response(load_body(GOLDEN / "response" / "thinking-with-citations.json"))
    assert (response.usage.input_tokens, response.usage.output_tokens, response.usage.cache_read_tokens) == (
        612,
        33,
        512,
    )
    assert response.stop_reason == "end_turn"


def test_another_vendors_request_reports_what_cohere_cannot_take() -> None:
    request = il.Request(
        model="command-a-03-2025",
        tool_choice=il.ToolChoice(name="f"),
        tools=[il.Tool(name="f")],
        messages=[
            il.Message(role="developer", parts=[il.Text("be brief")]),
            il.Message(
                role="user",
                parts=[il.Text("hi").with_cache_control(), il.Audio(il.MediaSource.from_base64("audio/wav", "UklG"))],
            ),
        ],
    )
    encoded = CODEC.encode_request(request)
    assert sorted((w.kind, w.path) for w in encoded.warnings) == [
        ("lossy_encode", "messages[1].parts[0].cache_control"),
        ("lossy_encode", "messages[1].parts[1]"),
        ("unsupported_setting", "messages[0].role"),
        ("unsupported_setting", "tool_choice"),
    ]
    assert validate_wire("cohere-chat", "request", encoded.body) == []


def test_capabilities_hold() -> None:
    samples = {
        "native": il.Native("cohere", {"type": "x"}),
        "native_tools": il.NativeTool(provider="cohere", data={"type": "web"}),
        "thinking": il.Thinking("t").with_echo("cohere", {}),
    }
    assert assert_capabilities_hold(CODEC, samples)["thinking"] == "native"


def test_http_request_and_errors() -> None:
    request = il.Request(model="command-a-03-2025", messages=[il.Message.user("hi")])
    sent = CODEC.http_request(request, stream=True, endpoint=il.Endpoint(api_key="co-key"))
    assert (sent.url, sent.headers["authorization"], sent.json["stream"]) == (
        "https://api.cohere.com/v2/chat",
        "Bearer co-key",
        True,
    )
    error = CODEC.decode_error(429, b'{"message": "too many requests"}', {"retry-after": "3"})
    assert isinstance(error, il.RateLimitError) and (error.message, error.retry_after) == ("too many requests", 3.0)


def test_the_recorded_answer_with_documents_keeps_its_citations() -> None:
    response = CODEC.decode_response(load_body(real_fixture("cohere", "response", "citations-documents.json")))
    (text,) = response.message.parts
    assert (
        isinstance(text, il.Text)
        and len((text.echo("cohere") or il.ProviderEcho(provider="x", data={})).data["citations"]) >= 2
    )


@pytest.mark.parametrize("path", sorted((GOLDEN / "stream").glob("*.sse")), ids=lambda p: p.stem)
def test_golden_stream_accumulates_to_its_recorded_ir(path: Path) -> None:
    response = il.accumulate(CODEC.decode_stream(il.parse_sse([path.read_bytes()])))
    assert response.to_json_dict() == json.loads(path.with_name(path.stem + ".ir.json").read_text())


def test_a_streamed_answers_citations_are_its_texts_as_in_the_answer_body() -> None:
    """The stream of the golden cited answer (citation-start events before its text block's end)
    gives the text part the answer body gives: Text.citations, the wire's list in its echo."""
    decoded = CODEC.decode_stream(il.parse_sse([(GOLDEN / "stream" / "cited-answer.sse").read_bytes()]))
    streamed = il.accumulate(decoded)
    answer = CODEC.decode_response(load_body(GOLDEN / "response" / "thinking-with-citations.json"))
    text = streamed.message.parts[1]
    assert decoded.warnings == [] and text == answer.message.parts[1]
    assert isinstance(text, il.Text) and [(c.cited_text, c.start, c.end) for c in text.citations] == [
        ("Business", 4, 12)
    ]


def test_a_cited_text_block_the_stream_never_ends_keeps_its_citations() -> None:
    path = GOLDEN / "stream" / "cited-answer.sse"
    events = [e for e in il.parse_sse([path.read_bytes()]) if '"index":1}' not in e.data or e.event != "content-end"]
    decoded = CODEC.decode_stream(events)
    text = il.accumulate(decoded).message.parts[1]
    assert len(events) == 11 and decoded.warnings == []
    assert isinstance(text, il.Text) and [c.cited_text for c in text.citations] == ["Business"]


def test_a_streamed_answers_citations_go_back_out_as_citation_events() -> None:
    events = list(CODEC.decode_stream(il.parse_sse([(GOLDEN / "stream" / "cited-answer.sse").read_bytes()])))
    written = CODEC.encode_stream(events)
    payloads = [json.loads(event.data) for event in written]
    assert written.warnings == []
    assert [p["type"] for p in payloads if p["type"].startswith("citation")] == ["citation-start", "citation-end"]
    assert all(validate_wire("cohere-chat", "stream_event", payload) == [] for payload in payloads)
    assert il.accumulate(CODEC.decode_stream(list(CODEC.encode_stream(events)))) == il.accumulate(events)


def test_another_wires_citations_in_a_stream_are_reported_not_sent() -> None:
    cited = il.Citation(cited_text="Business", source=il.CitationSource(type="document"))
    events = [
        il.MessageStart(id="m"),
        il.PartStart(0, il.Text("")),
        il.TextDelta(0, "The Business plan."),
        il.PartEnd(0, [cited]),
        il.MessageEnd("end_turn", None, il.Usage()),
    ]
    written = CODEC.encode_stream(events)
    assert not any(json.loads(e.data)["type"].startswith("citation") for e in written)
    warned = [(w.path, w.kind, getattr(w, "part_type", None)) for w in written.warnings]
    assert warned == [("events[3].citations", "lossy_encode", "citations")]


def test_golden_error_reads_with_its_status_and_retry_after() -> None:
    path = GOLDEN / "error" / "rate-limit-429.json"
    recorded = json.loads(path.read_text())
    error = CODEC.decode_error(recorded["status"], json.dumps(recorded["body"]).encode(), recorded["headers"])
    expected = json.loads(path.with_name(path.stem + ".ir.json").read_text())
    assert {
        "class": type(error).__name__,
        "status": error.status,
        "type": error.type,
        "message": error.message,
        "retry_after": error.retry_after,
    } == expected
    assert validate_wire("cohere-chat", "error", recorded["body"]) == []


def test_a_reasoning_summary_setting_is_reported_not_dropped() -> None:
    request = il.Request(
        model="command-a-reasoning-08-2025",
        messages=[il.Message(role="user", parts=[il.Text("hi")])],
        thinking=il.ThinkingConfig(budget_tokens=2048, summary=True),
    )
    encoded = CODEC.encode_request(request)
    assert encoded.body["thinking"] == {"type": "enabled", "token_budget": 2048}
    assert [(w.kind, w.path) for w in encoded.warnings] == [("unsupported_setting", "thinking.summary")]


def test_another_wires_reasoning_token_count_is_reported_in_the_answer() -> None:
    usage = il.Usage(input_tokens=10, output_tokens=9, reasoning_tokens=3)
    answer = il.Response(id="r1", message=il.Message(role="assistant", parts=[il.Text("It is so.")]), usage=usage)
    encoded = CODEC.encode_response(answer)
    assert encoded.body["usage"] == {"tokens": {"input_tokens": 10, "output_tokens": 9}}
    assert [(w.kind, w.path, w.message) for w in encoded.warnings] == [
        (
            "lossy_encode",
            "usage.reasoning_tokens",
            "Cohere's usage has no reasoning token count (3 of the output tokens)",
        )
    ]


def test_a_stop_reason_without_a_finish_reason_is_converted_with_a_warning() -> None:
    answer = il.Response(id="r1", message=il.Message.assistant("no"), stop_reason="content_filter")
    encoded = CODEC.encode_response(answer)
    assert encoded.body["finish_reason"] == "ERROR"
    assert [(w.kind, w.path, w.message) for w in encoded.warnings] == [
        ("lossy_encode", "stop_reason", "finish_reason has no form for 'content_filter'; sent as 'ERROR'")
    ]


def test_a_text_document_outside_a_tool_message_is_sent_as_text_and_in_one_as_an_object() -> None:
    document = il.Document(source=il.MediaSource.from_text("The sky is blue."), name="sky")
    call = il.ToolUse(id="c1", name="look", input={})
    result = il.ToolResult(tool_use_id="c1", name="look", content=[document])
    request = il.Request(
        model="command-a-03-2025",
        messages=[
            il.Message(role="user", parts=[document, il.Text("why?")]),
            il.Message(role="assistant", parts=[call]),
            il.Message(role="tool", parts=[result]),
        ],
    )
    encoded = CODEC.encode_request(request)
    user, _, tool = encoded.body["messages"]
    assert user["content"] == [{"type": "text", "text": "The sky is blue."}, {"type": "text", "text": "why?"}]
    assert tool["content"] == [{"type": "document", "document": {"data": {"title": "sky", "text": "The sky is blue."}}}]
    assert [(w.kind, w.path) for w in encoded.warnings] == [("lossy_encode", "messages[0].parts[0]")]
    assert validate_wire("cohere-chat", "request", encoded.body) == []


def test_a_whole_call_and_another_wires_usage_cross_a_stream() -> None:
    usage = il.Usage(input_tokens=3, output_tokens=2, reasoning_tokens=1, extra={"totalTokenCount": 5})
    events = [
        il.MessageStart(id="m1"),
        il.PartStart(0, il.ToolUse(id="c1", name="lookup", input={"q": "x"})),  # whole, as Gemini's
        il.PartEnd(0),
        il.MessageEnd("tool_use", None, usage),
    ]
    written = CODEC.encode_stream(events)
    back = il.accumulate(CODEC.decode_stream(list(written)))
    (used,) = back.message.parts
    assert isinstance(used, il.ToolUse) and used.input == {"q": "x"}
    assert [w.path for w in written.warnings] == [
        "events[3].usage.reasoning_tokens",
        "events[3].usage.extra.totalTokenCount",
    ]


def test_cache_marks_on_a_tool_result_and_inside_it_are_reported_where_they_sat() -> None:
    """A Cohere tool message and its content blocks carry no breakpoint; no mark goes unsaid."""
    mark = il.CacheControl()
    result = il.ToolResult("c1", "look", [il.Text("page one", cache_control=mark)], cache_control=mark)
    request = il.Request(
        model="command-a-03-2025",
        messages=[il.Message.user("read"), il.Message.assistant(il.ToolUse("c1", "look", {})), il.Message.tool(result)],
    )
    encoded = CODEC.encode_request(request)
    content = [{"type": "text", "text": "page one"}]
    assert encoded.body["messages"][2] == {"role": "tool", "tool_call_id": "c1", "content": content}
    assert [(w.path, w.part_type) for w in encoded.warnings] == [
        ("messages[2].parts[0].cache_control", "cache_control"),
        ("messages[2].parts[0].content[0].cache_control", "cache_control"),
    ]
