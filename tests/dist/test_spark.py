"""Spark in local mode (a real JVM): ``mapInArrow`` over lines numbered by ``zipWithIndex``, the
reduce, and the CLI's ``--engine spark`` on the same session, each against the CLI's own run."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interlingua.dist import Conversion, spark

from .conftest import TARGET, Baseline, assert_cli_on_engine_writes_as_alone, assert_same_as_cli

pytest.importorskip("pyspark", reason="PySpark is not installed: pip install 'interlingua[spark]'")
if shutil.which("java") is None:
    pytest.skip("Spark needs a JVM: no java on PATH (apt-get install default-jre-headless)", allow_module_level=True)


@pytest.fixture(scope="module")
def session() -> Iterator[Any]:
    started = spark.session("local[2]")
    try:
        yield started
    finally:
        started.stop()


def test_map_in_arrow_matches_the_cli(session: Any, baseline: Baseline) -> None:
    conversion = Conversion(TARGET)
    lines = spark.numbered(session, str(baseline.path)).repartition(3)
    rows = spark.convert(lines, conversion).cache()
    assert_same_as_cli([row.asDict(recursive=True) for row in rows.collect()], spark.report(rows, conversion), baseline)


def test_the_cli_on_spark_writes_what_it_writes_alone(session: Any, baseline: Baseline, tmp_path: Path) -> None:
    assert_cli_on_engine_writes_as_alone(baseline, tmp_path, "--engine", "spark")
