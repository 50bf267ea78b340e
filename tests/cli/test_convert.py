"""``interlingua convert`` on single bodies, through the real entry point."""

from __future__ import annotations

import json
import re
from pathlib import Path

import interlingua as il
from interlingua.testing import check_rules, validate_wire

from .conftest import CLI_FIXTURES, FIXTURES, run_cli

AGENT_TURN = CLI_FIXTURES / "agent-turn.openai-chat.json"
TRANSCRIPT = CLI_FIXTURES / "signed-thinking-tool-turn.transcript.json"


def test_main_job_writes_the_committed_anthropic_body_and_explains_itself(tmp_path: Path) -> None:
    out = tmp_path / "claude.json"
    run = run_cli("convert", AGENT_TURN, "--to", "anthropic-messages", "--model", "claude-sonnet-4-5", "-o", out)
    assert run.code == 0, run.stderr
    assert run.stdout == ""
    body = json.loads(out.read_text())
    assert body == json.loads((CLI_FIXTURES / "agent-turn.anthropic-messages.json").read_text())
    assert validate_wire("anthropic-messages", "request", body) == []
    assert check_rules("anthropic-messages", body) == []
    first, *table = run.stderr.splitlines()
    assert first == "from openai-chat request: has 'max_completion_tokens', 'seed', tools with 'function'"
    assert table[0] == "1 warning(s):"
    assert table[1].split() == ["codec", "warning", "action", "path", "why"]
    assert table[3].split()[:3] == ["anthropic-messages", "unsupported_setting:seed", "seed"]


def test_strict_writes_nothing_and_exits_3_when_lossy_and_0_when_not(tmp_path: Path) -> None:
    lossy = run_cli("convert", AGENT_TURN, "--to", "anthropic-messages", "--strict")
    assert (lossy.code, lossy.stdout) == (3, "")
    assert "unsupported_setting:seed" in lossy.stderr and "--strict: lossy conversion" in lossy.stderr
    # Gemini has a seed: the same body converts without a warning, so --strict lets it through.
    clean = run_cli("convert", AGENT_TURN, "--from", "openai-chat", "--to", "gemini", "--strict", "--compact")
    assert clean.code == 0, clean.stderr
    assert clean.stderr == ""  # --from given: no detection line; no warnings
    body = clean.json()
    assert body["generationConfig"]["seed"] == 7 and len(clean.stdout.splitlines()) == 1
    assert validate_wire("gemini", "request", body) == []


def test_reasoning_option_drops_or_sends_foreign_thinking_as_text() -> None:
    dropped = run_cli("convert", TRANSCRIPT, "--to", "openai-chat", "--model", "gpt-4.1", "--reasoning", "drop")
    as_text = run_cli("convert", TRANSCRIPT, "--to", "openai-chat", "--model", "gpt-4.1", "--reasoning", "as_text")
    assert dropped.code == as_text.code == 0
    thought = "Bergen is rainy; I should check the live weather."
    assert "content" not in dropped.json()["messages"][2]
    assert as_text.json()["messages"][2]["content"] == thought
    assert dropped.json()["model"] == "gpt-4.1"
    assert re.search(r"openai-chat +lossy_encode:thinking +dropped +messages\[2\]\.parts\[0\]", dropped.stderr)
    assert re.search(r"openai-chat +lossy_encode:thinking +converted +messages\[2\]\.parts\[0\]", as_text.stderr)
    assert run_cli("convert", TRANSCRIPT, "--to", "openai-chat", "--reasoning", "maybe").code == 2


def test_stdin_stream_becomes_the_target_stream_or_its_response() -> None:
    sse = (FIXTURES / "anthropic-messages" / "stream" / "ping-between-deltas.sse").read_bytes()
    stream = run_cli("convert", "-", "--to", "openai-chat", stdin=sse)
    assert stream.code == 0, stream.stderr
    assert stream.stderr.startswith("from anthropic-messages stream: event 'message_start'")
    codec = il.get_codec("openai-chat")
    answer = il.accumulate(codec.decode_stream(il.parse_sse([stream.stdout.encode()])))
    assert (answer.message.text, answer.stop_reason) == ("Hello, world", "end_turn")
    assert stream.stdout.rstrip().endswith("data: [DONE]")

    body = run_cli("convert", "-", "--to", "openai-chat", "--accumulate", stdin=sse)
    assert body.code == 0, body.stderr
    assert validate_wire("openai-chat", "response", body.json()) == []
    choice = body.json()["choices"][0]
    assert (choice["message"]["content"], choice["finish_reason"]) == ("Hello, world", "stop")


def test_kind_and_from_decide_when_detection_is_not_asked() -> None:
    response = FIXTURES / "openai-chat" / "response" / "cached-and-reasoning-tokens.json"
    run = run_cli("convert", response, "--from", "openai-chat", "--kind", "response", "--to", "gemini")
    assert run.code == 0, run.stderr
    body = run.json()
    assert validate_wire("gemini", "response", body) == []
    source = json.loads(response.read_text())
    assert body["usageMetadata"]["promptTokenCount"] == source["usage"]["prompt_tokens"]
    # A stream forced on a JSON body is read as SSE: no events, so the stream is incomplete.
    forced = run_cli("convert", response, "--from", "openai-chat", "--kind", "stream", "--to", "gemini")
    assert forced.code == 1 and "the stream is incomplete" in forced.stderr


def test_a_transcript_in_jsonl_form_is_one_body(tmp_path: Path) -> None:
    lines = tmp_path / "chat.jsonl"
    lines.write_text(il.Transcript.loads(TRANSCRIPT.read_text()).dumps_jsonl())
    run = run_cli("convert", lines, "--to", "transcript")
    assert run.code == 0, run.stderr
    assert il.Transcript.from_json_dict(run.json()).messages == il.Transcript.loads(TRANSCRIPT.read_text()).messages


def test_bad_input_gets_one_line_and_its_exit_code(tmp_path: Path) -> None:
    not_json = tmp_path / "broken.json"
    not_json.write_text('{"model": "gpt-4.1", "messages": [')
    unknown_shape = tmp_path / "unknown.json"
    unknown_shape.write_text('{"prompt": "hi"}')
    truncated = tmp_path / "cut.sse"
    truncated.write_bytes((FIXTURES / "anthropic-messages" / "stream" / "ping-between-deltas.sse").read_bytes()[:700])
    bad_event = tmp_path / "bad-event.sse"
    stream = (FIXTURES / "anthropic-messages" / "stream" / "ping-between-deltas.sse").read_bytes()
    bad_event.write_bytes(stream.replace(b"data: {", b"data: {nope", 1))
    malformed = tmp_path / "malformed.json"
    malformed.write_text('{"model": "m", "messages": [{"role": "user", "content": 5}], "max_tokens": 9}')
    response = FIXTURES / "anthropic-messages" / "response" / "refusal.json"
    cases = {
        "not JSON": (["convert", not_json, "--to", "gemini"], 1, "input is not JSON"),
        "unknown shape": (["convert", unknown_shape, "--to", "gemini"], 1, "cannot tell the input's wire"),
        "truncated": (["convert", truncated, "--to", "gemini"], 1, "the stream is incomplete"),
        "bad event": (
            ["convert", bad_event, "--from", "anthropic-messages", "--to", "gemini"],
            1,
            "cannot decode the input: anthropic-messages: events[0]: data is not JSON",
        ),
        "malformed": (
            ["convert", malformed, "--from", "anthropic-messages", "--to", "gemini"],
            1,
            "messages[0].content",
        ),
        "unknown wire": (["convert", AGENT_TURN, "--to", "acme-chat"], 2, "installed codecs: anthropic-messages"),
        "no dialects": (["convert", AGENT_TURN, "--to", "gemini:vertex"], 2, "has no dialects"),
        "missing file": (["convert", tmp_path / "nope.json", "--to", "gemini"], 2, "cannot read"),
        "response as transcript": (["convert", response, "--to", "transcript"], 2, "no transcript form"),
    }
    for name, (args, code, message) in cases.items():
        run = run_cli(*args)
        assert (run.code, run.stdout) == (code, ""), (name, run.stderr)
        assert message in run.stderr, (name, run.stderr)
        assert "Traceback" not in run.stderr, name
