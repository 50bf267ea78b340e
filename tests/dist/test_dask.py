"""Dask on a real ``distributed.LocalCluster`` with worker processes: the bag functions, the reduce,
and the CLI's ``--engine dask`` on the same cluster, each against the CLI's own run."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from interlingua.dist import Conversion, dask

from .conftest import TARGET, Baseline, assert_same_as_cli, read_html_report

distributed = pytest.importorskip("distributed", reason="Dask's distributed is missing: pip install 'interlingua[dask]'")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local.scheduler_address


def test_a_bag_converted_on_worker_processes_matches_the_cli(cluster: str, baseline: Baseline) -> None:
    import dask.bag as db

    conversion = Conversion(TARGET)
    with distributed.Client(cluster):
        lines = dask.numbered(db.read_text(str(baseline.path), blocksize=2_000))
        assert lines.npartitions > 1, "the input is split, so numbering crosses partitions"
        rows = dask.convert_bag(lines, conversion)
        assert_same_as_cli(rows.compute(), dask.report(rows, conversion), baseline)


def test_the_cli_on_a_dask_cluster_writes_as_alone(cluster: str, baseline: Baseline, tmp_path: Path) -> None:
    from interlingua.cli import main

    out, report, page = tmp_path / "out.jsonl", tmp_path / "report.jsonl", tmp_path / "report.html"
    for kept in (report, page):
        args = ["convert", str(baseline.path), "--to", TARGET, "-o", str(out), "--report", str(kept)]
        assert main([*args, "--engine", "dask", "--address", cluster]) == 1  # the bad lines fail, as alone
    assert [line for line in out.read_text().splitlines()] == [
        line for line in (baseline.path.parent / "cli.jsonl").read_text().splitlines()
    ]
    assert report.read_text() == (baseline.path.parent / "cli-report.jsonl").read_text()
    assert read_html_report(page.read_text()) == [baseline.report.to_json_dict()]


SCRIPT = """
import json, sys

import dask.bag as db
from distributed import Client

from interlingua.dist import Conversion, dask

conversion = Conversion(target="anthropic-messages")
with dask.local_cluster() as cluster, Client(cluster):
    rows = dask.convert_bag(dask.numbered(db.read_text(sys.argv[1])), conversion)
    print(json.dumps(dask.report(rows, conversion).to_json_dict()))
"""


def test_a_script_starts_worker_processes_with_no_main_guard(baseline: Baseline, tmp_path: Path) -> None:
    script = tmp_path / "convert_on_dask.py"
    script.write_text(SCRIPT)  # top-level code, no `if __name__ == "__main__":`, as the user wrote it
    done = subprocess.run([sys.executable, str(script), str(baseline.path)], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert json.loads(done.stdout) == baseline.report.to_json_dict()
