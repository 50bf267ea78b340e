"""The loss report page in a real headless Chromium: the counts it shows, the filters, the
escaping of hostile text, and a screenshot kept as a CI artifact."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from interlingua.cli.loss import LossReport, PathStat
from interlingua.cli.loss_html import render_html

from .conftest import CLI_FIXTURES, run_cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium on PATH (apt-get install chromium)")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def _chromium(tmp_path: Path, *args: str) -> str:
    profile = tmp_path / "profile"
    done = subprocess.run(
        [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, timeout=120, check=True
    )
    return done.stdout.decode()


def _dom(tmp_path: Path, page: Path, fragment: str = "") -> str:
    return _chromium(tmp_path, "--dump-dom", page.as_uri() + fragment)


def _visible_rows(dom: str, table: str) -> list[str]:
    body = re.search(rf'<table id="{table}">(.*?)</table>', dom, re.S)
    assert body is not None, f"no table {table}"
    return [row for row in re.findall(r"<tr[^>]*>.*?</tr>", body.group(1), re.S) if 'class="hidden"' not in row]


def test_the_page_shows_the_run_s_counts_and_filters_by_kind(tmp_path: Path) -> None:
    page = tmp_path / "loss.html"
    run = run_cli("convert", CLI_FIXTURES / "mixed-lines.jsonl", "--to", "gemini", "-o", tmp_path / "out.jsonl",
                  "--report", page)  # fmt: skip
    assert run.code == 0, run.stderr
    dom = _dom(tmp_path, page)
    counts = dict(re.findall(r'data-count="(\w+)">([\d,]+)<', dom))
    assert counts == {"total": "7", "converted": "7", "lossy": "2", "failed": "0", "rejected": "0", "blank": "0"}
    kinds = {m.group(1) for row in _visible_rows(dom, "paths") if (m := re.search(r'data-kind="(\w+)"', row))}
    assert kinds == {"lossy_encode", "unsupported_setting"}
    filtered = _dom(tmp_path, page, "#kind=lossy_encode")
    assert [r for r in _visible_rows(filtered, "paths") if "data-kind" in r] == [
        r for r in _visible_rows(dom, "paths") if 'data-kind="lossy_encode"' in r
    ]
    heat = [r for r in _visible_rows(filtered, "heat-map") if "<td" in r]
    assert len(heat) == 1 and "messages[*].parts[*]" in heat[0], "the heat map keeps the fields of that kind only"
    shot = Path(os.environ.get("INTERLINGUA_ARTIFACTS", tmp_path)) / "loss-report.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    _chromium(tmp_path, "--window-size=1200,900", f"--screenshot={shot}", page.as_uri())
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hostile_text_in_a_report_stays_text(tmp_path: Path) -> None:
    hostile = '<img src=x onerror="document.title=1"></script><script>document.title=2</script>'
    report = LossReport(
        target="gemini", converted=1, failed=1, sources=Counter({hostile: 2}), labels=Counter({"x": 1}),
        paths={("lossy_encode", f"messages[*].{hostile}"): PathStat(1, [1], hostile, 1)}, failures=[(2, hostile)],
    )  # fmt: skip
    page = tmp_path / "hostile.html"
    page.write_text(render_html([report], title=hostile))
    dom = _dom(tmp_path, page)
    assert "<img" not in dom and "<script>document.title" not in dom
    assert "<title>interlingua loss report: &lt;img" in dom
    assert dom.count("&lt;img src=x") >= 4  # title, heading, path, message, error: shown, as text


def test_report_combines_pages_a_column_per_target_and_adds_runs_of_one_target(tmp_path: Path) -> None:
    pages = []
    for target in ("gemini", "cohere-chat", "gemini"):
        page = tmp_path / f"{target}-{len(pages)}.html"
        run = run_cli("convert", CLI_FIXTURES / "mixed-lines.jsonl", "--to", target, "-o", tmp_path / "out.jsonl",
                      "--report", page)  # fmt: skip
        assert run.code == 0, run.stderr
        pages.append(page)
    combined = tmp_path / "all.html"
    assert run_cli("report", *pages, "-o", combined, "--title", "three runs").code == 0
    dom = _dom(tmp_path, combined)
    header = re.search(r'<table id="heat-map">.*?</tr>', dom, re.S)
    assert header is not None
    assert re.findall(r'<th data-target="([\w-]+)"', header.group(0)) == ["gemini", "cohere-chat"]
    totals = dict(re.findall(r'<th>([\w-]+)</th><td class="n" data-count="total">(\d+)<', dom))
    assert totals == {"gemini": "14", "cohere-chat": "7"}  # two gemini runs of 7 lines add up
    only_cohere = _dom(tmp_path, combined, "#target=cohere-chat")
    assert [t for t in re.findall(r'<th data-target="([\w-]+)"(?! class="hidden")', only_cohere)] == ["cohere-chat"]


def test_report_refuses_a_page_that_is_not_a_loss_report(tmp_path: Path) -> None:
    page = tmp_path / "other.html"
    page.write_text("<html><body>hello</body></html>")
    run = run_cli("report", page, "-o", tmp_path / "all.html")
    assert run.code == 2 and run.stderr.strip() == (
        f"interlingua report: {page} is not a loss report page (written by convert --report X.html)"
    )
