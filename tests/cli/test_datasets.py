"""``interlingua convert`` on JSONL datasets: every line kind, bad lines, --jobs, --fail-fast."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interlingua.testing import validate_wire

from .conftest import CLI_FIXTURES, run_cli

MIXED = CLI_FIXTURES / "mixed-lines.jsonl"


def test_every_line_kind_becomes_its_target_form() -> None:
    run = run_cli("convert", MIXED, "--to", "openai-responses", "--model", "gpt-4.1")
    assert run.code == 0, run.stderr
    out = run.lines()
    source = [json.loads(line) for line in MIXED.read_text().splitlines()]
    assert len(out) == len(source) == 7
    # Fine-tuning lines, the transcript and the Responses request become plain request bodies.
    for index in (0, 1, 5, 6):
        assert validate_wire("openai-responses", "request", out[index]) == [], index
        assert out[index]["model"] == "gpt-4.1"
    # Batch lines become OpenAI batch lines for /v1/responses, with their ids kept.
    for index, id_key in ((2, "custom_id"), (3, "custom_id"), (4, "key")):
        assert out[index]["custom_id"] == source[index][id_key]
        assert (out[index]["method"], out[index]["url"]) == ("POST", "/v1/responses")
        assert validate_wire("openai-responses", "request", out[index]["body"]) == [], index
    assert out[1]["tools"][0]["name"] == "get_weather"
    assert out[4]["body"]["max_output_tokens"] == 50
    summary = run.stderr.splitlines()
    assert summary[0].startswith("converted 7 of 7 lines to openai-responses in ")
    assert summary[1] == (
        "read: 2 openai-chat request, 1 anthropic batch line, 1 openai batch line, 1 gemini batch line, "
        "1 transcript request, 1 openai-responses request"
    )
    assert "lines with warnings: 1, by kind:" in run.stderr  # the transcript's foreign thinking
    assert any(line.split() == ["lossy_encode:thinking", "1"] for line in summary)


def test_batch_lines_map_to_each_vendors_batch_form() -> None:
    gemini = run_cli("convert", MIXED, "--to", "gemini").lines()
    anthropic = run_cli("convert", MIXED, "--to", "anthropic-messages", "--model", "claude-sonnet-4-5").lines()
    assert [gemini[i]["key"] for i in (2, 3, 4)] == ["req-anthropic-1", "req-openai-1", "req-gemini-1"]
    assert gemini[4]["request"]["generationConfig"] == {"temperature": 0.7, "maxOutputTokens": 50}
    assert [anthropic[i]["custom_id"] for i in (2, 3, 4)] == ["req-anthropic-1", "req-openai-1", "req-gemini-1"]
    assert anthropic[2]["params"]["system"] == "Be brief."
    for index in (2, 3, 4):
        assert validate_wire("anthropic-messages", "request", anthropic[index]["params"]) == [], index
        assert validate_wire("gemini", "request", gemini[index]["request"]) == [], index


def test_bad_lines_are_reported_skipped_and_counted(tmp_path: Path) -> None:
    good = MIXED.read_text().splitlines()[0]
    huge = json.dumps({"messages": [{"role": "user", "content": "x" * (5 << 20)}]})  # a 5 MB line
    data = tmp_path / "data.jsonl"
    data.write_text(
        "\n".join([good, "not json", "", huge, '{"prompt": "hi"}', "[1, 2]", '{"messages": 5}', good]) + "\n"
    )
    report = tmp_path / "report.jsonl"
    out = tmp_path / "out.jsonl"
    run = run_cli("convert", data, "--to", "anthropic-messages", "-o", out, "--report", report)
    assert run.code == 1
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(written) == 3
    assert written[1]["messages"][0]["content"][0]["text"] == "x" * (5 << 20)
    assert written[0] == written[2]
    errors = [line for line in run.stderr.splitlines() if line.startswith("line ")]
    assert [line.split(":")[0] for line in errors] == ["line 2", "line 5", "line 6", "line 7"]
    assert errors[0].startswith("line 2: ") and "JSON" in errors[0]
    assert "no known request or response shape" in errors[1]
    assert "expected a JSON object, got list" in errors[2]
    assert "blank lines skipped: 1" in run.stderr
    assert "failed: 4 lines: 2, 5, 6, 7" in run.stderr
    assert "converted 3 of 7 lines" in run.stderr
    reported = [json.loads(line) for line in report.read_text().splitlines()]
    assert [entry["line"] for entry in reported] == [2, 5, 6, 7]
    assert all("error" in entry for entry in reported)


def test_fail_fast_stops_at_the_first_bad_line(tmp_path: Path) -> None:
    good = MIXED.read_text().splitlines()[0]
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join([good, good, "{oops", good]) + "\n")
    run = run_cli("convert", data, "--to", "gemini", "--fail-fast")
    assert run.code == 1
    assert len(run.lines()) == 2
    assert "stopped at line 3 (--fail-fast)" in run.stderr


def test_jobs_keep_the_input_order_across_chunks_and_strict_rejects_lossy_lines(tmp_path: Path) -> None:
    lines = MIXED.read_text().splitlines()
    # 700 lines: several 256-line chunks; every line numbered so order is visible in the output.
    numbered = [
        json.dumps({"custom_id": f"n{i}", "params": {**json.loads(lines[2])["params"], "max_tokens": i + 1}})
        for i in range(699)
    ]
    data = tmp_path / "many.jsonl"
    data.write_text("\n".join([*numbered, lines[5]]) + "\n")
    serial = run_cli("convert", data, "--to", "openai-chat", "--jobs", "1")
    parallel = run_cli("convert", data, "--to", "openai-chat", "--jobs", "2")
    assert serial.code == parallel.code == 0, parallel.stderr
    assert serial.stdout == parallel.stdout
    out = parallel.lines()
    assert [line["custom_id"] for line in out[:699]] == [f"n{i}" for i in range(699)]
    assert [line["body"]["max_completion_tokens"] for line in out[:699]] == list(range(1, 700))
    strict = run_cli("convert", data, "--to", "openai-chat", "--jobs", "2", "--strict")
    assert strict.code == 3
    assert len(strict.lines()) == 699  # the transcript's foreign thinking is lossy: not written
    assert "line 700: lossy under --strict: lossy_encode:thinking" in strict.stderr
    assert "failed: 1 lines, 1 of them lossy under --strict: 700" in strict.stderr


def test_to_transcript_keeps_messages_and_warns_for_each_setting() -> None:
    run = run_cli("convert", MIXED, "--to", "transcript", "--report", "/dev/stdout", "--jsonl", "-o", "/dev/null")
    assert run.code == 0, run.stderr
    reported = {entry["line"]: entry for entry in run.lines()}
    assert sorted(reported) == [2, 3, 4, 5, 7]  # every line with a setting besides model and messages
    settings = {w["setting"] for w in reported[3]["warnings"]}
    assert settings == {"max_tokens"}
    assert {w["setting"] for w in reported[2]["warnings"]} == {"tools"}
    assert "unsupported_setting:max_tokens" in run.stderr


def test_an_interrupted_batch_leaves_the_earlier_output_whole_and_says_how_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from interlingua import cli
    from interlingua.cli import datasets

    out = tmp_path / "out.jsonl"
    out.write_text("a complete earlier run\n")
    real_results = datasets.results

    def interrupted(*args: Any, **kwargs: Any) -> Iterator[Any]:
        results = real_results(*args, **kwargs)
        yield next(results)
        yield next(results)
        raise KeyboardInterrupt

    monkeypatch.setattr(datasets, "results", interrupted)
    code = cli.main(["convert", str(MIXED), "--to", "openai-chat", "-o", str(out)])
    assert code == 130
    assert out.read_text() == "a complete earlier run\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"interlingua convert: interrupted after 2 lines; {out} was left as it was"
    )


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_percent_rate_and_time_left_on_a_terminal_only() -> None:
    from interlingua.cli.render import Progress

    terminal = _Terminal()
    progress = Progress(4_000, terminal, every=0)
    progress.update(1_000, 10, 1)
    progress.update(3_000, 30, 2)
    shown = terminal.getvalue().split("\r")[-1]
    assert re.search(r"^ 75%\|.*\| 3\.00k/4\.00k \[\d\d:\d\d<\d\d:\d\d, .*B/s, 30 lines, 2 failed\]", shown), shown
    progress.close()
    log = io.StringIO()
    quiet = Progress(4_000, log, every=0)
    quiet.update(3_000, 30, 2)
    quiet.close()
    assert log.getvalue() == ""


def test_lines_report_the_bytes_read_through_them() -> None:
    from collections import Counter, deque

    from interlingua.cli.datasets import numbered_lines

    ends: deque[tuple[int, int]] = deque()
    lines = list(numbered_lines(io.BytesIO(b'{"a":1}\n\n{"b":22}\n'), Counter(), ends))
    assert [number for number, _ in lines] == [1, 3]
    assert list(ends) == [(1, 8), (3, 18)]
