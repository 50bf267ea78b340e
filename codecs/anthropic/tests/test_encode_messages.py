"""anthropic-messages: the message writer (``_request._encode_messages``) behind the core's turn
rules (``encode_with_rules``), on the real corpus, the golden fixtures, the benchmark transcript
and pinned cases: bodies as they came, warnings at the paths of the request as given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interlingua import (
    CacheControl,
    Message,
    ProviderEcho,
    Request,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
)
from interlingua.testing import load_body, load_script, real_fixtures
from interlingua_anthropic import AnthropicMessagesCodec

CODEC = AnthropicMessagesCodec()
ROOT = Path(__file__).resolve().parents[3]
GOLDEN = sorted(p for p in (ROOT / "fixtures/anthropic-messages/request").glob("*.json") if ".ir." not in p.name)
REQUESTS = [*real_fixtures("anthropic-messages", "request"), *GOLDEN]


def _bench_transcript() -> dict[str, Any]:
    """The benchmark's 41-message transcript body."""
    bench = load_script(ROOT / "bench/bench_anthropic_messages.py")
    body: dict[str, Any] = bench.transcript()
    return body


def _encoded(request: Request) -> tuple[dict[str, Any], list[str]]:
    encoded = CODEC.encode_request(request)
    return encoded.body, [w.path for w in encoded.warnings]


# --- the recorded traffic and the benchmark ------------------------------------------------------


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_every_recorded_request_encodes_as_it_came(path: Path) -> None:
    body = load_body(path)
    assert _encoded(CODEC.decode_request(body)) == (body, [])


def test_the_benchmark_transcript_encodes_as_it_came() -> None:
    body = _bench_transcript()
    assert _encoded(CODEC.decode_request(body)) == (body, [])


# --- pinned cases --------------------------------------------------------------------------------

_SIGNED = [ProviderEcho(provider="anthropic", data={"signature": "c2ln"})]


def test_a_cache_mark_over_the_wires_limit_is_dropped_at_its_path() -> None:
    """Five marks: the earliest is dropped, reported at the path of its part; a 1h mark after a
    5m one is shortened."""
    texts = [Text(f"t{i}", cache_control=CacheControl(ttl="1h" if i == 4 else None)) for i in range(5)]
    messages = [Message.user(*texts[:2]), Message.assistant("ok"), Message.user(*texts[2:])]
    body, paths = _encoded(Request(model="claude-sonnet-4-5", max_tokens=64, messages=messages))
    assert paths == ["messages[0].parts[0].cache_control", "messages[2].parts[2].cache_control"]
    assert "cache_control" not in body["messages"][0]["content"][0]


def test_thinking_after_text_in_one_wire_turn_is_reported_at_its_own_path() -> None:
    """Two assistant messages join one wire turn; the thinking of the second comes after the
    text of the first, so it goes, reported at the part it was."""
    messages = [
        Message.user("hi"),
        Message.assistant("first"),
        Message.assistant(Thinking("later", provider_echoes=_SIGNED), Text("second")),
    ]
    body, paths = _encoded(Request(model="claude-sonnet-4-5", max_tokens=64, messages=messages))
    assert paths == ["messages[2].parts[0]"]
    assert body["messages"][1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}],
    }


def test_a_result_after_text_moves_up_to_lead_the_turn_after_its_call() -> None:
    """Results lead the user turn after their call on this wire ("tool_result blocks must come
    FIRST in the content array", https://docs.claude.com/en/docs/agents-and-tools/tool-use/
    implement-tool-use); one behind text is moved, and reported where it was."""
    call = Message.assistant(ToolUse("toolu_1", "f", {}))
    mixed = Message.user(Text("and then"), ToolResult("toolu_1", "f", "ok"))
    body, paths = _encoded(Request(model="claude-sonnet-4-5", max_tokens=64, messages=[call, mixed]))
    assert paths == ["messages[1].parts[1]"]
    assert body["messages"][1:] == [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
        {"role": "user", "content": [{"type": "text", "text": "and then"}]},
    ]


def test_an_error_result_keeps_its_flag_over_an_echo_of_is_error_false() -> None:
    """The IR's flag wins over the echo decode keeps for an explicit ``is_error: false``."""
    echo = [ProviderEcho(provider="anthropic", data={"is_error": False})]
    messages = [
        Message.assistant(ToolUse("toolu_1", "f", {})),
        Message.user(ToolResult("toolu_1", "f", "boom", is_error=True, provider_echoes=echo)),
    ]
    body, paths = _encoded(Request(model="claude-sonnet-4-5", max_tokens=64, messages=messages))
    assert (body["messages"][1]["content"][0]["is_error"], paths) == (True, [])


def test_unanswered_calls_of_the_benchmark_get_error_results_reported_at_their_calls() -> None:
    request = CODEC.decode_request(_bench_transcript())
    results = [i for i, m in enumerate(request.messages) if m.role == "user" and isinstance(m.parts[0], ToolResult)]
    broken = request.model_copy(
        update={"messages": [m for i, m in enumerate(request.messages) if i not in results[:3]]}
    )
    encoded = CODEC.encode_request(broken)
    assert [w.path for w in encoded.warnings] == [
        "messages[4].parts[2]",  # the unanswered calls (the first after a thinking block)
        "messages[7].parts[1]",
        "messages[10].parts[1]",
    ]
    wire = encoded.body["messages"]  # the system prompt (messages[0]) is not among them
    assert [block["type"] for block in wire[3]["content"]] == ["thinking", "text", "tool_use"]
    assert wire[4] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": wire[3]["content"][2]["id"],
                "content": "Error: no result was recorded for this call.",
            }
        ],
    }
    assert len(wire) == len(broken.messages) - 1 + 3
