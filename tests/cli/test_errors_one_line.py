"""Each error a new user met in issue 40 is one line on stderr, saying what is wrong, with the exit
code the help's epilog promises (1: the input, 2: the command line or the output), and no file is
left behind. Run as a user runs them, through ``python -m interlingua.cli``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .conftest import CLI_FIXTURES, ROOT, run_cli

AGENT_TURN = CLI_FIXTURES / "agent-turn.openai-chat.json"


def _one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and "internal error" not in stderr and "Traceback" not in stderr, stderr
    return lines[0]


def test_a_body_of_a_wire_whose_codec_is_missing_names_the_missing_codec_not_the_target() -> None:
    """The two OpenAI wires' codec hidden, as if interlingua-openai were not installed: the Chat body
    is claimed by the nearest installed wire, fails to decode as it, and the message says so."""
    hide = (
        "import interlingua._registry as r; found = r._entry_points(); "
        "r._entry_points = lambda: {k: v for k, v in found.items() if not k.startswith('openai')}; "
        "from interlingua.cli import main; import sys; sys.exit(main(sys.argv[1:]))"
    )
    argv = [str(AGENT_TURN), "--to", "anthropic-messages", "--model", "claude-sonnet-4-6"]
    done = subprocess.run([sys.executable, "-c", hide, "convert", *argv], capture_output=True, text=True, cwd=ROOT)
    line = _one_line(done.stderr)
    assert done.returncode == 1
    assert "cannot decode the input as anthropic-messages, the installed wire its shape fits best" in line
    assert "that wire's codec is not installed (installed: anthropic-messages, bedrock-converse" in line
    assert "openai-chat" not in line and "install it, or pass --from" in line
    assert "messages[2].content: expected an array, got null" in line  # why, at its path


def test_an_unknown_dialect_is_a_usage_error_listing_the_known_ones() -> None:
    done = run_cli("convert", AGENT_TURN, "--to", "openai-chat:mistrall")
    line = _one_line(done.stderr)
    assert done.code == 2 and done.stdout == ""
    assert line == (
        "interlingua convert: unknown openai-chat dialect 'mistrall'; known: openai, deepseek, vllm, openrouter,"
        " mistral, ollama, groq, together, fireworks, xai, gemini-openai, moonshot, cerebras, perplexity, dashscope,"
        " azure-foundry, nvidia-nim, lmstudio, sglang, llamacpp"
    )


def test_yaml_is_neither_json_nor_a_stream(tmp_path: Path) -> None:
    yaml = tmp_path / "request.yaml"
    yaml.write_text("model: gpt-5.1\nmessages:\n  - role: user\n    content: hi\n")
    for extra in ([], ["--from", "openai-chat"]):
        done = run_cli("convert", yaml, "--to", "gemini", *extra)
        line = _one_line(done.stderr)
        assert done.code == 1
        assert "neither JSON nor an SSE stream (no 'data:' line)" in line
        assert "no known wire" not in line and "incomplete" not in line


def test_a_full_device_is_an_unwritable_output_not_an_internal_error(tmp_path: Path) -> None:
    for source in (AGENT_TURN, CLI_FIXTURES / "mixed-lines.jsonl"):
        done = run_cli("convert", source, "--to", "gemini", "-o", "/dev/full")
        assert done.code == 2
        assert done.stderr.splitlines()[-1] == "interlingua convert: cannot write /dev/full: No space left on device"
        assert "internal error" not in done.stderr
    with open("/dev/full", "wb") as full:
        piped = subprocess.run(
            [sys.executable, "-m", "interlingua.cli", "convert", str(AGENT_TURN), "--to", "gemini"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
    assert piped.returncode == 2
    assert piped.stderr.splitlines()[-1] == "interlingua convert: cannot write stdout: No space left on device"


def test_inspect_of_a_dataset_suggests_its_own_option(tmp_path: Path) -> None:
    dataset = tmp_path / "x.jsonl"
    dataset.write_bytes(b"".join((CLI_FIXTURES / "mixed-lines.jsonl").read_bytes().splitlines(keepends=True)[:3]))
    done = run_cli("inspect", dataset)
    line = _one_line(done.stderr)
    assert done.code == 1 and "--jsonl" not in line and "show one of its lines with --line N" in line
    shown = run_cli("inspect", dataset, "--line", "2")
    assert shown.code == 0 and shown.stdout.startswith("openai-chat request (has tools with 'function'")
    missing = run_cli("inspect", dataset, "--line", "9")
    assert missing.code == 2 and _one_line(missing.stderr).endswith("has no such line (it has 3, blank ones included)")
    assert "--jsonl" not in run_cli("inspect", "--help").stdout


def test_an_empty_dataset_is_an_error_and_writes_nothing(tmp_path: Path) -> None:
    for content in (b"", b"\n\n"):
        empty = tmp_path / "empty.jsonl"
        empty.write_bytes(content)
        out = tmp_path / "out.jsonl"
        done = run_cli("convert", empty, "--to", "gemini", "-o", out)
        line = _one_line(done.stderr)
        assert done.code == 1 and "holds no lines" in line and "nothing written" in line
        assert "converted 0 of 0" not in line
        assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.jsonl"]  # no output, no .part


def test_ill_typed_bodies_are_bad_input_not_internal_errors(tmp_path: Path) -> None:
    """Detection raised a bare TypeError on these (issue 40), printed as an internal error even
    with --from."""
    for text, extra in (
        ('{"messages": [{"role": ["user"], "content": "hi"}]}', []),
        ('{"finish_reason": {"x": 1}, "message": {}}', []),
        ('{"messages": 7, "model": "m"}', ["--from", "cohere-chat"]),
    ):
        body = tmp_path / "body.json"
        body.write_text(text)
        done = run_cli("convert", body, "--to", "gemini", *extra)
        _one_line(done.stderr)
        assert done.code == 1, done.stderr
