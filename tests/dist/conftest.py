"""One mixed dataset for every engine, and what the CLI makes of it: the output lines, the
``--report`` lines and the loss report (read back from the HTML page's embedded JSON)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from interlingua.dist import LossReport, report_line

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
TARGET = "anthropic-messages"

# Six source wires' requests, the CLI fixture's batch lines, transcript and answers, and lines
# that fail: not JSON, a JSON array, a body of no known wire; blank lines in between.
SOURCES = [
    FIXTURES / "openai-chat/request/image-detail-and-file-id.json",
    FIXTURES / "openai-responses/request/reasoning-function-call-turn2.json",
    FIXTURES / "gemini/request/parallel-calls-unsigned.json",
    FIXTURES / "bedrock-converse/request/parallel-tool-results.json",
    FIXTURES / "cohere-chat/request/documents-tools-thinking.json",
    FIXTURES / "anthropic-messages/request/thinking-signed-tool-use-turn2.json",
]
BAD = ["{bad json", "[1, 2]", '{"neither": "a wire"}']


@dataclass(frozen=True)
class Baseline:
    path: Path
    output: list[Any]
    report_lines: list[Any]
    report: LossReport


def mixed_lines() -> list[str]:
    lines = [json.dumps(json.loads(path.read_text())) for path in SOURCES]
    lines += (FIXTURES / "cli/mixed-lines.jsonl").read_text().splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        out.append(line)
        if i % 4 == 1:
            out.append("")  # blank lines are counted, not converted
        if i % 5 == 2:
            out.append(BAD[(i // 5) % len(BAD)])
    return out


def read_html_report(page: str) -> list[dict[str, Any]]:
    found = re.search(r'<script type="application/json" id="loss-report">(.*?)</script>', page, re.S)
    assert found is not None, "the page embeds its report"
    data: list[dict[str, Any]] = json.loads(found.group(1))
    return data


@pytest.fixture(scope="session")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Baseline:
    folder = tmp_path_factory.mktemp("dist")
    source = folder / "mixed.jsonl"
    source.write_text("\n".join(mixed_lines()) + "\n")
    out, jsonl, page = folder / "cli.jsonl", folder / "cli-report.jsonl", folder / "cli-report.html"
    for report in (jsonl, page):
        done = subprocess.run(
            [sys.executable, "-m", "interlingua.cli", "convert", str(source), "--to", TARGET, "-o", str(out),
             "--report", str(report)],
            capture_output=True, timeout=120,
        )
        assert done.returncode == 1, done.stderr  # the bad lines fail; everything else converts
    (data,) = read_html_report(page.read_text())
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    output = [json.loads(line) for line in out.read_text().splitlines()]
    return Baseline(source, output, lines, LossReport.from_json_dict(data))


def assert_same_as_cli(rows: list[dict[str, Any]], report: LossReport, baseline: Baseline) -> None:
    """Rows (any order) and a reduced report against the CLI's output, report lines and report."""
    rows = sorted(rows, key=lambda row: int(row["line"]))
    assert [row["line"] for row in rows] == list(range(1, len(rows) + 1)), "no line dropped"
    assert [json.loads(row["output"]) for row in rows if row["output"] is not None] == baseline.output
    assert [entry for row in rows if (entry := report_line(row))] == baseline.report_lines
    assert report.to_json_dict() == baseline.report.to_json_dict()
    assert report.failed == sum(1 for row in rows if row["error"]) >= len(BAD)
    assert report.blank == sum(1 for row in rows if row["blank"]) > 0


def assert_cli_on_engine_writes_as_alone(baseline: Baseline, tmp_path: Path, *engine: str) -> None:
    """``interlingua convert --engine ...`` (in this process, so it joins the engine the test
    started) writes the CLI's own output, ``--report`` JSONL and HTML report."""
    from interlingua.cli import main

    out, report, page = tmp_path / "out.jsonl", tmp_path / "report.jsonl", tmp_path / "report.html"
    for kept in (report, page):
        args = ["convert", str(baseline.path), "--to", TARGET, "-o", str(out), "--report", str(kept)]
        assert main([*args, *engine]) == 1  # the bad lines fail, as alone
    assert out.read_text() == (baseline.path.parent / "cli.jsonl").read_text()
    assert report.read_text() == (baseline.path.parent / "cli-report.jsonl").read_text()
    assert read_html_report(page.read_text()) == [baseline.report.to_json_dict()]
