"""Ray Data on a local Ray with two CPUs: ``map_batches`` by task and by actor class, the reduce,
and the CLI's ``--engine ray`` on the same Ray, each against the CLI's own run."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interlingua.dist import Conversion, ray

from .conftest import TARGET, Baseline, assert_cli_on_engine_writes_as_alone, assert_same_as_cli

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
    assert_cli_on_engine_writes_as_alone(baseline, tmp_path, "--engine", "ray")
