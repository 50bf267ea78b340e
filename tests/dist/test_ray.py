"""Ray Data on a local Ray with two CPUs: ``map_batches`` by task and by actor class, the reduce,
and the CLI's ``--engine ray`` on the same Ray, each against the CLI's own run."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interlingua.dist import Conversion, ray

from .conftest import TARGET, Baseline, assert_same_as_cli, read_html_report

ray_module = pytest.importorskip("ray", reason="Ray is not installed: pip install 'interlingua[ray]'")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray_module.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield
    finally:
        ray_module.shutdown()


def _rows(ds: Any) -> list[dict[str, Any]]:
    return [row for batch in ds.iter_batches(batch_format="pyarrow") for row in batch.to_pylist()]


def test_map_batches_by_task_and_by_actor_match_the_cli(local_ray: None, baseline: Baseline) -> None:
    conversion = Conversion(TARGET)
    lines = ray.numbered(baseline.path.read_text().splitlines(), block_lines=7)
    by_task = ray.convert(lines, conversion).materialize()
    assert_same_as_cli(_rows(by_task), ray.report(by_task, conversion), baseline)
    by_actor = lines.map_batches(
        ray.RayConverter, fn_constructor_args=(conversion,), batch_format="pyarrow", batch_size=5, concurrency=2
    )
    assert_same_as_cli(_rows(by_actor), ray.report(by_actor, conversion), baseline)


def test_the_cli_on_ray_writes_what_it_writes_alone(local_ray: None, baseline: Baseline, tmp_path: Path) -> None:
    from interlingua.cli import main

    out, report, page = tmp_path / "out.jsonl", tmp_path / "report.jsonl", tmp_path / "report.html"
    for kept in (report, page):
        args = ["convert", str(baseline.path), "--to", TARGET, "-o", str(out), "--report", str(kept)]
        assert main([*args, "--engine", "ray"]) == 1  # joins the running Ray; the bad lines fail, as alone
    assert out.read_text() == (baseline.path.parent / "cli.jsonl").read_text()
    assert report.read_text() == (baseline.path.parent / "cli-report.jsonl").read_text()
    assert read_html_report(page.read_text()) == [baseline.report.to_json_dict()]
