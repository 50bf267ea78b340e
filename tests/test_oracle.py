"""The SDK oracle itself: every real recorded body passes it (or fails with exactly the SDK drift
written down below), bogus bodies fail with a path, and every recorded request keeps the vendor
rules. Each codec's own rule cases sit beside its oracle (``codecs/*/tests/**/test_oracle_rules.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua.kit import loads
from interlingua.testing import check_rules, load_body, read_stream_file, real_fixtures, validate_wire

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini")

# Real traffic the installed SDK types do not describe. Each entry is the oracle's exact answer,
# so a change in the oracle or in the SDK shows up here. Why each one is not our bug:
_RESPONSES_USAGE = "usage.input_tokens_details.cache_write_tokens: Field required"
DRIFT: dict[str, list[str]] = {
    # The SDK (anthropic 2.12) requires server_tool_use.web_fetch_requests; older recordings lack it.
    "anthropic-messages/response/compaction": ["usage.server_tool_use.web_fetch_requests: Field required"],
    "anthropic-messages/response/mcp-connector": ["usage.server_tool_use.web_fetch_requests: Field required"],
    # OpenAI-compatible servers add their own fields to the OpenAI shape.
    "openai-chat/response/gemini-openai-compat-tool-call": [
        "choices[0].message.extra_content: unknown key (not in ChatCompletionMessage)",
        "choices[0].message.thought_signature: unknown key (not in ChatCompletionMessage)",
    ],
    "openai-chat/response/ollama-openai-compat-reasoning-tool-call": [
        "choices[0].message.reasoning: unknown key (not in ChatCompletionMessage)",
        "choices[0].message.tool_calls[0].index: unknown key (not in ChatCompletionMessageFunctionToolCall)",
    ],
    "openai-chat/request/ollama-openai-compat-reasoning-tool-call": [
        "messages[1].reasoning: unknown key (not in ChatCompletionAssistantMessageParam)"
    ],
    # The SDK types say strict is required and status never null; the API accepted both requests.
    "openai-responses/request/encrypted-reasoning-roundtrip": ["tools[0].strict: Field required"],
    "openai-responses/request/function-call-turn2": [
        "input[1].status: Input should be 'in_progress', 'completed' or 'incomplete'"
    ],
    # Vertex-only or newer fields google-genai 3.4 does not declare on these types.
    "gemini/request/image-output-vertex": ["generationConfig.imageConfig: unknown key (not in GenerationConfig)"],
    "gemini/request/prompt-blocked-model-armor": [
        "modelArmorConfig: unknown key (not a generateContent request field)"
    ],
    "gemini/response/cached-content": [
        "usageMetadata.serviceTier: unknown key (not in GenerateContentResponseUsageMetadata)"
    ],
    "gemini/response/max-tokens-finish": [
        "usageMetadata.serviceTier: unknown key (not in GenerateContentResponseUsageMetadata)"
    ],
}
# The live Responses API returns store/billing/penalties the SDK's Response model lacks, and the
# SDK (openai 3.54) requires a cache_write_tokens figure older recordings do not have.
_RESPONSES_EXTRA = {
    "billing": "billing: unknown key (not in Response)",
    "frequency_penalty": "frequency_penalty: unknown key (not in Response)",
    "presence_penalty": "presence_penalty: unknown key (not in Response)",
    "store": "store: unknown key (not in Response)",
}


def _expected(wire: str, kind: str, name: str, body: Any) -> list[str]:
    key = f"{wire}/{kind}/{name}"
    if key in DRIFT:
        return DRIFT[key]
    if wire == "openai-responses" and kind == "response":
        problems = [_RESPONSES_USAGE] if body.get("usage") else []
        problems += [line for field, line in _RESPONSES_EXTRA.items() if field in body]
        if key.endswith("image-generation-call"):
            problems.append("tools[0].n: unknown key (not in ImageGeneration)")
        return problems
    return []


CASES = [
    (wire, kind, path)
    for wire in WIRES
    for kind in ("request", "response", "error")
    for path in real_fixtures(wire, kind)
]


@pytest.mark.parametrize(("wire", "kind", "path"), CASES, ids=[f"{w}/{k}/{p.stem}" for w, k, p in CASES])
def test_every_real_body_passes_or_shows_its_known_drift(wire: str, kind: str, path: Path) -> None:
    body = load_body(path)
    assert sorted(validate_wire(wire, kind, body)) == sorted(_expected(wire, kind, path.stem, body))


def _stream_chunks(path: Path) -> list[Any]:
    if path.name.endswith(".json-array.txt"):
        chunks = loads(path.read_bytes())
        assert isinstance(chunks, list)
        return chunks
    return [loads(event.data) for event in read_stream_file(path) if event.data.strip() != "[DONE]"]


_OBFUSCATED = (
    "ResponseTextDeltaEvent",
    "ResponseFunctionCallArgumentsDeltaEvent",
    "ResponseReasoningSummaryTextDeltaEvent",
)
_RESPONSES_STREAM_DRIFT = {
    # recorded before the API numbered its events
    "function-call-stream": {"sequence_number: Field required"},
    # a web_search_call item is announced before its action is known
    "web-search-call-stream": {"item.action: Field required"},
    # the API nests the error object and uses codes the SDK's Literal does not list
    "insufficient-quota-in-stream": {
        "error: unknown key (not in ResponseErrorEvent)",
        "message: Field required",
        "response.error.code: Input should be 'server_error', ...",
    },
}

STREAMS = [(wire, path) for wire in WIRES for path in real_fixtures(wire, "stream")]


@pytest.mark.parametrize(("wire", "path"), STREAMS, ids=[f"{w}/{p.name}" for w, p in STREAMS])
def test_every_real_stream_event_passes_or_shows_its_known_drift(wire: str, path: Path) -> None:
    found = {problem for chunk in _stream_chunks(path) for problem in validate_wire(wire, "stream_event", chunk)}
    allowed: set[str] = set()
    if wire == "openai-responses":
        allowed = {f"response.{line}" for line in [*_RESPONSES_EXTRA.values(), _RESPONSES_USAGE]}
        # The live API pads delta events with an "obfuscation" string the SDK does not declare.
        allowed |= {f"obfuscation: unknown key (not in {event})" for event in _OBFUSCATED}
        allowed |= _RESPONSES_STREAM_DRIFT.get(path.name.split(".")[0], set())
    if path.name.startswith("azure-model-router"):
        # Azure's content-filter chunk: empty object string and its own filter fields.
        allowed = {
            "object: Input should be 'chat.completion.chunk'",
            "prompt_filter_results: unknown key (not in ChatCompletionChunk)",
            "choices[0].content_filter_results: unknown key (not in Choice)",
        }
    unexplained = {p for p in found if not any(p.startswith(a.removesuffix("...")) for a in allowed)}
    assert unexplained == set()
    assert len(_stream_chunks(path)) > 1


def test_a_bogus_block_inside_a_lazy_iterable_is_found_with_its_path() -> None:
    body = {
        "model": "m",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "txet", "text": "x"}]}],
    }
    problems = validate_wire("anthropic-messages", "request", body)
    assert problems and all(p.startswith("messages[0].content[1]") for p in problems)


def test_undeclared_keys_are_reported_at_every_depth() -> None:
    body = {
        "model": "m",
        "max_tokens": 10,
        "temprature": 1,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi", "cache": True}]}],
    }
    assert validate_wire("anthropic-messages", "request", body) == [
        "temprature: unknown key (not in MessageCreateParamsNonStreaming)",
        "messages[0].content[0].cache: unknown key (not in TextBlockParam)",
    ]


def test_a_wrong_type_deep_in_an_openai_request_is_reported() -> None:
    body = {
        "model": "m",
        "messages": [{"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": 1}}]}],
    }
    problems = validate_wire("openai-chat", "request", body)
    assert any(p.startswith("messages[0].tool_calls[0].function") for p in problems)


def test_responses_stream_events_and_errors_are_checked() -> None:
    assert validate_wire("openai-responses", "stream_event", {"type": "response.output_text.delta"}) != []
    assert validate_wire("openai-chat", "error", {"error": {"message": "m", "type": "t"}}) == []
    assert validate_wire("openai-chat", "error", {"error": {"message": "m"}}) == ["error.type: Field required"]
    assert validate_wire("anthropic-messages", "stream_event", {"type": "ping"}) == []


def test_unknown_wire_or_kind_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="acme"):
        validate_wire("acme", "request", {})
    with pytest.raises(ValueError, match="kind"):
        validate_wire("gemini", "reply", {})  # type: ignore[arg-type]  # the wrong kind is the point


# --- vendor rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(("wire", "path"), [(w, p) for w in WIRES for p in real_fixtures(w, "request")], ids=str)
def test_real_requests_keep_the_rules_except_the_one_the_api_refused(wire: str, path: Path) -> None:
    model = json.loads(path.read_text()).get("path", "")
    problems = check_rules(wire, load_body(path), model=model if wire == "gemini" else None)
    if path.stem == "reasoning-item-without-following-item":
        # Recorded with its 400 answer beside it in error/: the rule is real.
        assert problems == ["input[1]: a stored reasoning item must be followed by the item it produced"]
        assert (path.parent.parent / "error" / path.name).exists()
    else:
        assert problems == []
