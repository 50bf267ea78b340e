"""``interlingua convert`` on single bodies, through the real entry point."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import interlingua as il
from interlingua.testing import check_rules, validate_wire

from .conftest import CLI_FIXTURES, FIXTURES, run_cli

AGENT_TURN = CLI_FIXTURES / "agent-turn.openai-chat.json"
TRANSCRIPT = CLI_FIXTURES / "signed-thinking-tool-turn.transcript.json"


def test_main_job_writes_the_committed_anthropic_body_and_explains_itself(tmp_path: Path) -> None:
    out = tmp_path / "claude.json"
    run = run_cli("convert", AGENT_TURN, "--to", "anthropic-messages", "--model", "claude-sonnet-4-6", "-o", out)
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
    # A stream forced on a JSON body is read as SSE: it holds no event, and the message says so.
    forced = run_cli("convert", response, "--from", "openai-chat", "--kind", "stream", "--to", "gemini")
    assert forced.code == 1 and "read as a stream, it holds no SSE event (no 'data:' line)" in forced.stderr


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


def test_empty_binary_and_unwritable_get_one_line_naming_the_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"  \n")
    nul = tmp_path / "nul.json"
    nul.write_bytes(b'{"a": "\x00"}')
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"model": "caf\xe9"}')
    string = tmp_path / "string.json"
    string.write_text('{"model": "m", "messages": "hi"}')
    cases = {
        "empty": ([empty, "--to", "gemini"], 1, f"{empty} is empty: expected a JSON body"),
        "nul": ([nul, "--to", "gemini"], 1, f"{nul} is not text (it holds NUL bytes)"),
        "not utf-8": ([latin, "--to", "gemini"], 1, f"{latin} is not UTF-8 text (byte 14)"),
        "string messages": ([string, "--to", "gemini"], 1, "choose): messages: expected an array, got a string"),
        "missing folder": ([AGENT_TURN, "--to", "gemini", "-o", tmp_path / "no" / "x.json"], 2, "No such file"),
        "a folder": ([AGENT_TURN, "--to", "gemini", "-o", tmp_path], 2, f"cannot write {tmp_path}: it is a directory"),
    }
    for name, (args, code, message) in cases.items():
        run = run_cli("convert", *args)
        assert (run.code, run.stdout) == (code, ""), (name, run.stderr)
        assert message in run.stderr, (name, run.stderr)
        assert "Traceback" not in run.stderr, name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.json", "latin.json", "nul.json", "string.json"]


def test_output_replaces_the_file_whole_with_the_usual_permissions(tmp_path: Path) -> None:
    out = tmp_path / "gemini.json"
    out.write_text("old")
    run = run_cli("convert", AGENT_TURN, "--to", "gemini", "-o", out)
    assert run.code == 0, run.stderr
    assert "contents" in json.loads(out.read_text())
    assert out.stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert [p.name for p in tmp_path.iterdir()] == ["gemini.json"]


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_version_names_the_package_and_the_installed_codecs() -> None:
    run = run_cli("--version")
    assert run.code == 0, run.stderr
    assert run.stdout.splitlines() == [
        f"interlingua {il.__version__}",
        "codecs: anthropic-messages, bedrock-converse, cohere-chat, gemini, openai-chat, openai-responses",
    ]


def test_an_unexpected_error_is_one_line_unless_debug(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from interlingua import cli
    from interlingua.cli import convert

    def broken(args: Any) -> int:
        raise TypeError("a bug")

    monkeypatch.setattr(convert, "run", broken)
    assert cli.main(["convert", str(AGENT_TURN), "--to", "gemini"]) == 1
    assert capsys.readouterr().err == (
        "interlingua convert: internal error: TypeError: a bug (--debug shows the traceback)\n"
    )
    with pytest.raises(TypeError, match="a bug"):
        cli.main(["--debug", "convert", str(AGENT_TURN), "--to", "gemini"])


def test_device_outputs_are_written_in_place_not_replaced() -> None:
    import stat

    run = run_cli("convert", AGENT_TURN, "--to", "gemini", "-o", "/dev/null")
    assert run.code == 0, run.stderr
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)
    assert Path("/dev/stdout").is_symlink()


def test_a_json_array_stream_is_detected_by_the_codecs(tmp_path: Path) -> None:
    chunks = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}]},
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]}, "finishReason": "STOP"}]},
    ]
    array = tmp_path / "answer.json"
    array.write_text(json.dumps(chunks))
    run = run_cli("convert", array, "--to", "openai-chat", "--accumulate", "--compact")
    assert run.code == 0, run.stderr
    assert run.stderr.splitlines()[0] == "from gemini stream: a JSON array of chunks: data chunks with 'candidates'"
    assert run.json()["choices"][0]["message"]["content"] == "Hello"
    unknown = tmp_path / "unknown.json"
    unknown.write_text('[{"tokens": [1, 2]}]')
    run = run_cli("convert", unknown, "--to", "openai-chat", "--kind", "stream")
    assert run.code == 1 and "a stream of no known wire" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("suffix", [".jsonl", ".json"], ids=["dataset-line", "single-body"])
def test_strict_fails_on_a_chat_request_carrying_n_converted_to_anthropic(tmp_path: Path, suffix: str) -> None:
    source = tmp_path / f"chat{suffix}"
    source.write_text('{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "n": 2}\n')
    strict = run_cli("convert", source, "--to", "anthropic-messages", "--strict")
    assert (strict.code, strict.stdout) == (3, "")
    assert "foreign_option:openai.n" in strict.stderr
    lenient = run_cli("convert", source, "--to", "anthropic-messages", "--compact")
    assert lenient.code == 0 and "n" not in lenient.lines()[0]
    assert "foreign_option:openai.n" in lenient.stderr  # reported, not refused


def _thinking_stream() -> bytes:
    """An Anthropic stream that thinks (signed), then answers."""
    signed = il.Thinking(
        "Is it 4?", provider_echoes=[il.ProviderEcho(provider="anthropic", data={"signature": "c2ln"})]
    )
    events: list[il.StreamEvent] = [
        il.MessageStart(id="msg_1", model="claude-sonnet-4-5"),
        il.PartStart(0, signed),
        il.PartEnd(0),
        il.PartStart(1, il.Text("4")),
        il.PartEnd(1),
        il.MessageEnd("end_turn", None, il.Usage(input_tokens=5, output_tokens=3)),
    ]
    return b"".join(il.render_sse(il.get_codec("anthropic-messages").encode_stream(events)))


def test_a_stream_reports_its_own_warnings_at_the_event_and_strict_fails_on_them() -> None:
    sse = _thinking_stream()
    run = run_cli("convert", "-", "--from", "anthropic-messages", "--to", "openai-chat", stdin=sse)
    assert run.code == 0, run.stderr
    # Paths count the decoded IR events: message_start, its usage, then the thinking's part_start.
    assert re.search(r"openai-chat +lossy_encode:thinking +dropped +events\[2\]\.part ", run.stderr), run.stderr
    strict = run_cli("convert", "-", "--from", "anthropic-messages", "--to", "openai-chat", "--strict", stdin=sse)
    assert (strict.code, strict.stdout) == (3, "")
    clean = run_cli("convert", "-", "--from", "anthropic-messages", "--to", "openai-responses", "--strict", stdin=sse)
    assert clean.code == 0, clean.stderr
