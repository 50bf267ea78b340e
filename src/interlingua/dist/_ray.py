"""Ray Data: ``map_batches`` over numbered lines -> rows, and the reduce that builds the loss report.

Batches travel as Arrow tables (``batch_format="pyarrow"``) with the rows' fixed schema. The
callable class keeps one :class:`Conversion` per actor, so codecs are built once per worker.
"""

from __future__ import annotations

import logging
import pickle
from collections.abc import Callable, Iterable, Iterator
from functools import reduce
from operator import add
from typing import TYPE_CHECKING, Any

from ..cli.loss import LossReport
from ._arrow import TEXT_COLUMN, convert_table, report_table, rows_table
from ._rows import Conversion
from ._run import Chunk, Rows, chunks, ordered

if TYPE_CHECKING:
    import pyarrow
    import ray.data


class RayConverter:
    """For ``ds.map_batches(RayConverter, fn_constructor_args=(conversion,), batch_format="pyarrow",
    concurrency=N)``: a batch with ``line`` and ``text`` columns -> the rows' table."""

    def __init__(self, conversion: Conversion) -> None:
        self.conversion = conversion

    def __call__(self, batch: pyarrow.Table) -> pyarrow.Table:
        return convert_table(self.conversion, batch)


def convert(ds: ray.data.Dataset, conversion: Conversion) -> ray.data.Dataset:
    """A dataset of ``line`` and ``text`` columns (see :func:`numbered`) -> a dataset of rows,
    with tasks (no actors to keep): ``map_batches`` of :func:`convert_table`."""
    return ds.map_batches(_convert_batch, fn_args=(conversion,), batch_format="pyarrow")


def _convert_batch(batch: pyarrow.Table, conversion: Conversion) -> pyarrow.Table:
    return convert_table(conversion, batch)


def numbered(lines: Iterable[str | bytes], *, block_lines: int = 4096) -> ray.data.Dataset:
    """Lines read by the driver -> a dataset of ``line`` (from 1) and ``text``. Ray Data's own
    ``read_text`` keeps no line numbers; a dataset that has a ``line`` column needs no help."""
    import pyarrow as pa
    import ray.data

    tables = []
    for part in chunks(((n, _text(line)) for n, line in enumerate(lines, 1)), block_lines):  # type: ignore[misc]  # text, not bytes, here
        numbers, texts = zip(*part, strict=True)
        tables.append(pa.table({"line": pa.array(numbers, pa.int64()), TEXT_COLUMN: pa.array(texts, pa.string())}))
    return ray.data.from_arrow(tables) if tables else ray.data.from_arrow(rows_table([]))


def _text(line: str | bytes) -> str:
    return line.decode() if isinstance(line, bytes) else line


def report(rows: ray.data.Dataset, conversion: Conversion) -> LossReport:
    """The loss report of a dataset of rows: a partial report per batch, added up on the driver."""
    partial = rows.map_batches(_report_batch, fn_args=(conversion,), batch_format="pyarrow", batch_size=None)
    found = [pickle.loads(cell) for cell in _column(partial, "report")]
    return reduce(add, found, LossReport(target=conversion.job.converter.target))


def _report_batch(batch: pyarrow.Table, conversion: Conversion) -> pyarrow.Table:
    return report_table(conversion, [batch])


def _column(ds: ray.data.Dataset, name: str) -> list[Any]:
    return [value for batch in ds.iter_batches(batch_format="pyarrow") for value in batch.column(name).to_pylist()]


def convert_lines(
    lines: Iterable[tuple[int, bytes]], conversion: Conversion, *, address: str | None = None
) -> Iterator[dict[str, Any]]:
    """Rows in input order, converted by Ray tasks on a running cluster (``address``) or a local
    Ray started for the call with two CPUs; what the CLI's ``--engine ray`` runs."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address,
            num_cpus=None if address else 2,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    try:
        task = ray.remote(_convert_chunk)
        window = 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))

        def submit(part: Chunk) -> Callable[[], Rows]:
            ref = task.remote(part, conversion)
            return lambda: ray.get(ref)

        for rows in ordered(chunks(lines), submit, window):
            yield from rows
    finally:
        if started:
            ray.shutdown()


def _convert_chunk(part: Chunk, conversion: Conversion) -> Rows:
    return conversion.rows(part)
