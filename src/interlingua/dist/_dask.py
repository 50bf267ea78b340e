"""Dask: a bag of numbered lines -> a bag of rows, and the reduce that builds the loss report.

Everything shipped to the workers is a function of this module and a :class:`Conversion`, and
:func:`local_cluster` starts worker processes from a script with no ``__main__`` guard.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from functools import reduce
from itertools import count
from operator import add
from typing import TYPE_CHECKING, Any

from ..cli.loss import LossReport
from ._rows import Conversion
from ._run import Chunk, Rows, chunks, ordered

if TYPE_CHECKING:
    import dask.bag
    from distributed import LocalCluster


def numbered(lines: dask.bag.Bag) -> dask.bag.Bag:
    """A bag of lines (``dask.bag.read_text``) -> a bag of ``(number, line)``, numbered from 1 in
    bag order as the CLI numbers a file's lines. Counts each partition first: two passes."""
    sizes = lines.map_partitions(lambda part: [sum(1 for _ in part)]).compute()
    starts = [1]
    for size in sizes[:-1]:
        starts.append(starts[-1] + size)
    parts = lines.to_delayed()
    import dask
    import dask.bag as db

    numbered_parts = [dask.delayed(_number)(part, start) for part, start in zip(parts, starts, strict=True)]
    return db.from_delayed(numbered_parts)


def _number(part: Iterable[str], start: int) -> list[tuple[int, str]]:
    return list(zip(count(start), part))


def convert_bag(lines: dask.bag.Bag, conversion: Conversion) -> dask.bag.Bag:
    """A bag of ``(number, line)`` (see :func:`numbered`) -> a bag of rows (``ROW_FIELDS``)."""
    return lines.map_partitions(_convert_partition, conversion)


def _convert_partition(part: Iterable[tuple[int, str | bytes]], conversion: Conversion) -> list[dict[str, Any]]:
    return conversion.rows(part)


def report(rows: dask.bag.Bag, conversion: Conversion) -> LossReport:
    """The loss report of a bag of rows: one partial report per partition, added up."""
    found: LossReport = rows.reduction(
        lambda part: conversion.report(part), lambda parts: reduce(add, parts, LossReport())
    ).compute()
    return found


def convert_lines(
    lines: Iterable[tuple[int, bytes]], conversion: Conversion, *, address: str | None = None
) -> Iterator[dict[str, Any]]:
    """Rows in input order, converted on a Dask cluster (``address``) or on a LocalCluster of two
    worker processes started for the call; what the CLI's ``--engine dask`` runs."""
    from distributed import Client

    with local_cluster() if address is None else nullcontext(address) as cluster, Client(cluster) as client:
        window = 4 * max(1, len(client.scheduler_info()["workers"]))

        def submit(part: Chunk) -> Callable[[], Rows]:
            future = client.submit(_convert_partition, part, conversion, pure=False)
            return lambda: _taken(future)

        for rows in ordered(chunks(lines), submit, window):
            yield from rows


@contextmanager
def local_cluster(workers: int = 2) -> Iterator[LocalCluster]:
    """A ``distributed.LocalCluster`` of worker processes that a script may start at its top
    level, with no ``if __name__ == "__main__"`` guard.

    Worker processes are spawned, and a spawned process imports the parent's main script again,
    which starts another cluster from inside the new worker (Dask then refuses, and the script
    dies). Our workers need nothing from that script (they run this module's functions on a
    :class:`Conversion`), so the main module's file and spec are hidden from ``multiprocessing``
    while the workers start (``multiprocessing.spawn.get_preparation_data`` reads them)."""
    from distributed import LocalCluster

    main = sys.modules["__main__"]
    saved: dict[str, Any] = {name: main.__dict__[name] for name in ("__file__", "__spec__") if name in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)
    with cluster:
        yield cluster


def _taken(future: Any) -> Rows:
    rows: Rows = future.result()
    future.release()
    return rows
