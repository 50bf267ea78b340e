"""Rows as Arrow record batches with one fixed schema, for the engines that move Arrow (Ray, Spark).

A fixed schema, not an inferred one: a partition whose lines have no warnings would otherwise
type ``warnings`` as a list of nulls and clash with the next partition's.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._rows import ROW_FIELDS, Conversion

if TYPE_CHECKING:
    import pyarrow

TEXT_COLUMN = "text"
"""The input column holding a line (``ray.data.read_text`` names it so); ``line`` holds its number."""


def schema() -> pyarrow.Schema:
    import pyarrow as pa

    warning = pa.struct([(name, pa.string()) for name in ("kind", "codec", "path", "message", "detail")])
    return pa.schema(
        [
            ("line", pa.int64()),
            ("output", pa.string()),
            ("source", pa.string()),
            ("labels", pa.list_(pa.string())),
            ("warnings", pa.list_(warning)),
            ("error", pa.string()),
            ("lossy", pa.bool_()),
            ("blank", pa.bool_()),
        ]
    )


def rows_table(rows: list[dict[str, Any]]) -> pyarrow.Table:
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=schema())


def convert_table(conversion: Conversion, table: pyarrow.Table | pyarrow.RecordBatch) -> pyarrow.Table:
    """A table of ``line`` (int) and ``text`` (str) columns -> the rows' table."""
    numbers = table.column("line").to_pylist()
    texts = table.column(TEXT_COLUMN).to_pylist()
    return rows_table(conversion.rows(zip(numbers, texts, strict=True)))


def report_table(conversion: Conversion, tables: Iterable[pyarrow.Table | pyarrow.RecordBatch]) -> pyarrow.Table:
    """Some rows -> one row holding their loss report, pickled (a partition's partial reduce)."""
    import pyarrow as pa

    report = conversion.report(row for table in tables for row in table.to_pylist())
    return pa.table({"report": pa.array([pickle.dumps(report)], pa.binary())})


def rows_of(table: pyarrow.Table) -> list[Mapping[str, Any]]:
    rows: list[Mapping[str, Any]] = table.select(list(ROW_FIELDS)).to_pylist()
    return rows
