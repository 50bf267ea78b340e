"""Dataset conversion on Ray, Dask and Spark, with the CLI's loss report intact.

Each engine gets the same per-line work, :class:`Conversion` (a picklable value), and returns the
same columns (:data:`ROW_FIELDS`): the converted line, its warnings (kind, codec, path, message),
the error of a line that failed. No line is dropped. Each engine also has a reduce step that adds
up per-partition :class:`LossReport` s, so a report built on a cluster equals the CLI's for the
same input, counts included. The engines are optional extras, imported only when used::

    from interlingua.dist import Conversion, dask

    conversion = Conversion(target="acme-chat")
    rows = dask.convert_bag(dask.numbered(dask_bag.read_text("chats.jsonl")), conversion)
    report = dask.report(rows, conversion)

``interlingua.dist.ray`` (``RayConverter``, ``convert``, ``numbered``, ``report``) and
``interlingua.dist.spark`` (``converter``, ``convert``, ``numbered``, ``report``) read alike;
docs/guide/cli.md has all three.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from ..cli.loss import LossReport
from ..cli.loss_html import render_html
from ._rows import ROW_FIELDS, Conversion, report_line, result_of

__all__ = ["ROW_FIELDS", "Conversion", "LossReport", "dask", "ray", "render_html", "report_line", "result_of", "spark"]

_ENGINES = {"dask": "._dask", "ray": "._ray", "spark": "._spark"}


def __getattr__(name: str) -> ModuleType:
    """``interlingua.dist.dask`` and friends, imported on first use (each imports its engine lazily)."""
    if name in _ENGINES:
        module = import_module(_ENGINES[name], __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
