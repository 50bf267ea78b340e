"""Logs as CLI inputs (``--from`` a log format, or detected) and GenAI span attributes as an output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import ROOT, run_cli

AI_SDK = ROOT / "tests" / "logs" / "ai-sdk-tool-turn.json"


def test_a_log_file_converts_and_says_what_it_was_read_as() -> None:
    run = run_cli("convert", AI_SDK, "--to", "openai-chat", "--model", "gpt-x", "--compact")
    assert run.code == 0, run.stderr
    assert run.stderr.splitlines()[0].startswith("from ai-sdk request: role and content messages with 'tool-call'")
    body = run.json()
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "call-1", "content": '{"sky":"sunny","celsius":21}'}


def test_span_attributes_out_and_back_give_the_same_body(tmp_path: Path) -> None:
    body = {
        "model": "claude-x",
        "max_tokens": 64,
        "system": [{"type": "text", "text": "Be brief."}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "w", "input": {"c": "P"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "sunny"}]},
        ],
    }
    source = tmp_path / "body.json"
    source.write_text(json.dumps(body))
    out = run_cli("convert", source, "--to", "otel-genai", "--compact")
    assert out.code == 0, out.stderr
    span = out.json()
    assert json.loads(span["gen_ai.system_instructions"]) == [{"type": "text", "content": "Be brief."}]
    (tmp_path / "span.json").write_text(out.stdout)
    back = run_cli("convert", tmp_path / "span.json", "--to", "anthropic-messages", "--compact")
    assert back.code == 0, back.stderr
    reason = "a span with 'gen_ai.input.messages', 'gen_ai.system_instructions'"
    assert back.stderr.splitlines()[0] == f"from otel-genai request: {reason}"
    assert back.json() == body  # blocks as blocks: a string content's form is the vendor's own, not the span's


def test_a_dataset_of_logs_converts_line_by_line(tmp_path: Path) -> None:
    messages = json.loads(AI_SDK.read_text())["messages"]
    lines = [json.dumps(messages), json.dumps([{"role": "user", "content": "Hi"}]), json.dumps([{"nothing": 1}])]
    dataset = tmp_path / "logs.jsonl"
    dataset.write_text("\n".join(lines) + "\n")
    run = run_cli("convert", dataset, "--to", "gemini", "--model", "gemini-x")
    assert run.code == 1, run.stderr
    converted = run.lines()
    assert len(converted) == 2 and converted[1]["contents"] == [{"role": "user", "parts": [{"text": "Hi"}]}]
    assert "line 3: expected a JSON object, got list" in run.stderr
    # the plain list fits two formats (tests/test_logs.py: its reason names the other)


def test_inspect_draws_a_log_as_the_conversation_it_holds(capsys: pytest.CaptureFixture[str]) -> None:
    from interlingua import cli

    assert cli.main(["inspect", str(AI_SDK)]) == 0
    drawn = capsys.readouterr().out.splitlines()
    assert drawn[0].startswith("ai-sdk request (role and content messages with 'tool-call'")
    assert drawn[1] == "└── messages (7)"
