"""Spark: ``mapInArrow`` over numbered lines -> rows, and the reduce that builds the loss report.

``mapInArrow`` (not ``mapInPandas``) because a row's warnings are a list of structs, which Arrow
carries as they are. Lines are numbered with ``zipWithIndex``, in the file's order, on the
executors: the driver never holds the input.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from functools import reduce
from operator import add
from typing import TYPE_CHECKING, Any

from ..cli.loss import LossReport
from ._arrow import TEXT_COLUMN, convert_table, report_table, rows_of, schema
from ._rows import Conversion
from ._run import Chunk, Rows, chunks, ordered

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql import DataFrame, SparkSession


def spark_schema() -> str:
    """The rows' schema as Spark DDL, for ``mapInArrow``."""
    return (
        "line bigint, output string, source string, labels array<string>, "
        "warnings array<struct<kind:string,codec:string,path:string,message:string,detail:string>>, "
        "error string, lossy boolean, blank boolean"
    )


def numbered(spark: SparkSession, path: str) -> DataFrame:
    """A text file -> a DataFrame of ``line`` (from 1, blank lines counted) and ``text``."""
    lines = spark.read.text(path).rdd.zipWithIndex().map(lambda pair: (pair[1] + 1, pair[0][0]))
    return spark.createDataFrame(lines, f"line bigint, {TEXT_COLUMN} string")


def converter(conversion: Conversion) -> Callable[[Iterator[pyarrow.RecordBatch]], Iterator[pyarrow.RecordBatch]]:
    """For ``df.mapInArrow(converter(conversion), spark_schema())`` over ``line`` and ``text``."""

    def convert_batches(batches: Iterator[pyarrow.RecordBatch]) -> Iterator[pyarrow.RecordBatch]:
        for batch in batches:
            yield from convert_table(conversion, batch).to_batches()

    return convert_batches


def convert(df: DataFrame, conversion: Conversion) -> DataFrame:
    """A DataFrame of ``line`` and ``text`` -> a DataFrame of rows."""
    return df.mapInArrow(converter(conversion), spark_schema())


def report(rows: DataFrame, conversion: Conversion) -> LossReport:
    """The loss report of a DataFrame of rows: a partial report per partition, added up."""

    def partial(batches: Iterator[pyarrow.RecordBatch]) -> Iterator[pyarrow.RecordBatch]:
        yield from report_table(conversion, list(batches)).to_batches()

    found = [pickle.loads(row["report"]) for row in rows.mapInArrow(partial, "report binary").collect()]
    return reduce(add, found, LossReport(target=conversion.job.converter.target))


def convert_lines(
    lines: Iterable[tuple[int, bytes]], conversion: Conversion, *, address: str | None = None
) -> Iterator[dict[str, Any]]:
    """Rows in input order, converted by Spark on ``address`` (a master URL; ``local[2]`` when
    None), a job per few thousand lines; what the CLI's ``--engine spark`` runs."""
    import pyarrow as pa
    from pyspark.sql import SparkSession

    running = SparkSession.getActiveSession()
    spark = running or session(address)
    fields = f"line bigint, {TEXT_COLUMN} string"

    def submit(part: Chunk) -> Callable[[], Rows]:
        df = spark.createDataFrame([(n, raw.decode()) for n, raw in part], fields)
        table = pa.Table.from_batches(convert(df, conversion).toArrow().to_batches(), schema=schema())
        return lambda: sorted(rows_of(table), key=lambda row: int(row["line"]))  # type: ignore[arg-type]  # dict rows

    try:
        for rows in ordered(chunks(lines, 4096), submit, 1):
            yield from rows
    finally:
        if running is None:
            spark.stop()


def session(master: str | None = None) -> SparkSession:
    """A Spark session on ``master`` (``local[2]`` when None), quiet: warnings and errors only, no
    progress bar over the CLI's own."""
    from pyspark.sql import SparkSession

    if master is None:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # a local run binds to loopback only
    builder = SparkSession.builder.master(master or "local[2]").appName("interlingua convert")
    spark = builder.config("spark.ui.showConsoleProgress", "false").config("spark.ui.enabled", "false").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
