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

from .conftest import TARGET, Baseline, assert_cli_on_engine_writes_as_alone, assert_same_as_cli

distributed = pytest.importorskip("distributed", reason="no Dask distributed: pip install 'interlingua[dask]'")


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
    assert_cli_on_engine_writes_as_alone(baseline, tmp_path, "--engine", "dask", "--address", cluster)



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
