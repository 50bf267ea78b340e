"""Transcript: the persisted format, both forms, its errors, and its stability across releases."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given

from interlingua import (
    Cost,
    DecodeError,
    Image,
    Message,
    Request,
    Response,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    Transcript,
    UrlSource,
    Usage,
)
from interlingua.pricing import UnknownPriceWarning
from interlingua.testing import strategies

PINNED = Path(__file__).parents[1] / "fixtures" / "transcript-format"


def _expected_v1() -> Transcript:
    return Transcript.of(
        [
            Message.system("You are terse."),
            Message.user(
                "What is in /tmp?", Image(source=UrlSource(url="https://example.com/a.png")).with_cache_control("1h")
            ),
            Message.assistant(
                Thinking(text="List the directory.").with_echo("anthropic", {"signature": "EqQBCkYIBxgCKkA"}),
                ToolUse(id="toolu_01", name="ls", input={"path": "/tmp"}),
            ),
            Message.tool(ToolResult(tool_use_id="toolu_01", name="ls", content="a.txt\nb.txt")),
            Message.assistant("Two files: a.txt and b.txt."),
        ],
        title="format v1 pin",
        **{"myapp.session": "s-42"},
    )


@pytest.mark.parametrize("name", ["v1.json", "v1.jsonl"])
def test_a_committed_v1_file_still_loads_to_the_same_value(name: str) -> None:
    assert Transcript.load(PINNED / name) == _expected_v1()


def test_the_v1_files_are_what_this_release_writes() -> None:
    transcript = _expected_v1()
    assert (PINNED / "v1.json").read_text() == transcript.dumps() + "\n"
    assert (PINNED / "v1.jsonl").read_text() == transcript.dumps_jsonl()


def test_jsonl_is_a_header_then_one_message_per_line() -> None:
    lines = _expected_v1().dumps_jsonl().splitlines()
    assert lines[0] == (
        '{"format":"interlingua.transcript","version":1,"metadata":{"myapp.session":"s-42","title":"format v1 pin"}}'
    )
    assert len(lines) == 1 + 5
    assert lines[4] == (
        '{"role":"tool","parts":[{"type":"tool_result","tool_use_id":"toolu_01","name":"ls","content":"a.txt\\nb.txt"}]}'
    )


@given(strategies.requests())
def test_any_conversation_survives_both_forms(request: Request) -> None:
    transcript = Transcript.of(request)
    assert Transcript.loads(transcript.dumps()) == transcript
    assert Transcript.loads_jsonl(transcript.dumps_jsonl()) == transcript


def test_files_and_streams(tmp_path: Path) -> None:
    transcript = _expected_v1()
    for name in ("t.json", "t.jsonl"):
        transcript.dump(tmp_path / name)
        assert Transcript.load(tmp_path / name) == transcript
    buffer = io.StringIO()
    transcript.dump(buffer)
    buffer.seek(0)
    assert Transcript.load(buffer) == transcript


def test_request_replays_the_messages_with_settings() -> None:
    request = _expected_v1().request("claude-x", max_tokens=100)
    assert request.model == "claude-x"
    assert request.max_tokens == 100
    assert request.messages == _expected_v1().messages
    assert Transcript.of(request).messages == request.messages


def test_append_returns_a_new_transcript() -> None:
    first = Transcript.of([Message.user("hi")])
    second = first.append(Message.assistant("hello"))
    assert [m.role for m in first.messages] == ["user"]
    assert [m.role for m in second.messages] == ["user", "assistant"]
    assert second.messages[1].parts == [Text(text="hello")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", "transcript: <body>: expected a transcript object, got list"),
        ("{not json", "transcript: <body>: not JSON"),
        ('{"version": 2}', "transcript: version: unknown transcript version 2; this release reads 1"),
        ('{"format": "other"}', "transcript: format: not an interlingua transcript: 'other'"),
        (
            '{"messages": [{"role": "user", "parts": [{"type": "text", "text": "a"}, {"type": "tool_use", "id": 1}]}]}',
            "transcript: messages[0].parts[1].id: Input should be a valid string",
        ),
        ('{"messages": [{"role": "robot"}]}', "transcript: messages[0].role: Input should be"),
        (
            '{"messages": [{"role": "user", "parts": [{"type": "text"}]}]}',
            "transcript: messages[0].parts[0].text: Field required",
        ),
    ],
)
def test_bad_json_names_the_path(text: str, message: str) -> None:
    with pytest.raises(DecodeError) as caught:
        Transcript.loads(text)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "transcript: line 1: empty file"),
        ('{}\n\n{"role": "user", "parts": [{"type": "txt"}]}', "transcript: line 3: parts[0]"),
        ('{}\n{"role": "user"}\nnope', "transcript: line 3: not JSON"),
        ('[]\n{"role": "user"}', "transcript: line 1: expected the transcript header"),
    ],
)
def test_bad_jsonl_names_the_line(text: str, message: str) -> None:
    with pytest.raises(DecodeError) as caught:
        Transcript.loads_jsonl(text)
    assert str(caught.value).startswith(message)


def _with_entries() -> Transcript:
    at = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    return (
        Transcript.of([Message.user("delete the branch")])
        .log("approval.requested", {"tool": "git"}, at=at)
        .log("approval.granted")
        .append(Message.assistant("Deleted."))
        .log("user.interrupted")
    )


def test_host_entries_keep_their_place_among_the_messages() -> None:
    transcript = _with_entries()
    assert [getattr(item, "kind", None) or getattr(item, "role", None) for item in transcript.items()] == [
        "user",
        "approval.requested",
        "approval.granted",
        "assistant",
        "user.interrupted",
    ]
    lines = transcript.dumps_jsonl().splitlines()
    assert (
        lines[2]
        == '{"type":"host_entry","kind":"approval.requested","data":{"tool":"git"},"at":"2026-11-23T12:00:00Z"}'
    )
    assert Transcript.loads_jsonl(transcript.dumps_jsonl()) == transcript
    assert Transcript.loads(transcript.dumps()) == transcript


def test_requests_and_encoders_never_see_host_entries() -> None:
    request = _with_entries().request("m")
    assert [m.role for m in request.messages] == ["user", "assistant"]
    assert "approval" not in request.model_dump_json()


def test_entries_out_of_order_are_refused() -> None:
    text = '{"messages": [], "entries": [{"type": "host_entry", "kind": "x", "position": 3}]}'
    with pytest.raises(DecodeError, match="host entries must be in order"):
        Transcript.loads(text)


def test_total_cost_of_a_ten_turn_tool_loop_is_the_sum_by_hand() -> None:
    """claude-sonnet-4-5 in the bundled table: $3/M input, $15/M output, $0.30/M cache reads."""
    transcript = Transcript.of([Message.user("fix the tests")])
    by_hand = Decimal(0)
    for turn in range(10):
        prompt, cached, out = 2_000 + 500 * turn, 1_500 + 500 * turn if turn else 0, 120
        usage = Usage(input_tokens=prompt, output_tokens=out, cache_read_tokens=cached)
        call = ToolUse(id=f"toolu_{turn}", name="run", input={"step": turn})
        response = Response(model="claude-sonnet-4-5", message=Message.assistant(call), usage=usage)
        transcript = transcript.add_response(response).append(
            Message.tool(ToolResult(tool_use_id=f"toolu_{turn}", name="run", content="ok"))
        )
        by_hand += (Decimal(prompt - cached) * 3 + Decimal(cached) * Decimal("0.30") + Decimal(out) * 15) / 1_000_000
    total = transcript.total_cost()
    assert total is not None and total.total == by_hand
    assert transcript.total_usage().input_tokens == sum(2_000 + 500 * t for t in range(10))
    assert Transcript.loads(transcript.dumps()).total_cost() == total


def test_a_reported_cost_wins_and_an_unknown_price_leaves_the_total_unknown() -> None:
    reported = Cost(total=Decimal("0.5"))
    known = Transcript.of([]).add_response(Response(model="no-such-model-9", cost=reported))
    assert known.total_cost() == reported
    unknown = known.add_response(Response(model="no-such-model-9", usage=Usage(input_tokens=10)))
    with pytest.warns(UnknownPriceWarning, match=r"1 of 2 recorded turns have no cost \(no price for no-such-model-9"):
        assert unknown.total_cost() is None
    assert unknown.total_usage().input_tokens == 10


def test_total_cost_warns_for_a_catalog_model_the_price_table_names_as_unpriced() -> None:
    """A first-party model without a price row (claude-fable-5-2: the pricing page had no row)
    gives None and a warning naming it, never a silent None; the turn priced before it stays
    in the usage."""
    priced = Transcript.of([]).add_response(Response(model="claude-opus-4-7", usage=Usage(input_tokens=1_000)))
    assert priced.total_cost() == Cost(input=Decimal("0.005"), output=Decimal(0), total=Decimal("0.005"))
    grown = priced.add_response(Response(model="claude-fable-5-2", usage=Usage(input_tokens=1_000)))
    with pytest.warns(UnknownPriceWarning) as caught:
        assert grown.total_cost() is None
    assert [(str(w.message), getattr(w.message, "model", None)) for w in caught] == [
        ("1 of 2 recorded turns have no cost (no price for claude-fable-5-2)", "claude-fable-5-2")
    ]
