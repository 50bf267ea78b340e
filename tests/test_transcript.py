"""Transcript: the persisted format, both forms, its errors, and its stability across releases."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given

from interlingua import (
    DecodeError,
    Image,
    Message,
    Request,
    Text,
    Thinking,
    ToolResult,
    ToolUse,
    Transcript,
    UrlSource,
)
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
