"""Every python block of the README and of every page under docs/ runs on its own, in a namespace
of its own: a reader can paste any one of them, and the docs cannot rot."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _blocks(page: Path) -> list[tuple[int, str]]:
    text = page.read_text(encoding="utf-8")
    return [(text[: m.start()].count("\n") + 2, m.group(1)) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]


_OPTIONAL = ("ray", "pyspark", "distributed")
"""Engines of interlingua.dist's extras: a block that imports one runs where it is installed (CI's
main run) and is skipped elsewhere (the matrix run, a plain clone)."""


_ADAPTERS = {"dask": "distributed", "ray": "ray", "spark": "pyspark"}
"""``from interlingua.dist import spark`` needs PySpark though the block never imports it."""


def _needs(block: str) -> set[str]:
    needed = {name for name in _OPTIONAL if re.search(rf"^(import|from) {name}\b", block, re.M)}
    for found in re.finditer(r"^from interlingua\.dist import (.+)$", block, re.M):
        needed |= {_ADAPTERS[name.strip()] for name in found.group(1).split(",") if name.strip() in _ADAPTERS}
    return needed


def _installed() -> set[str]:
    return {name for name in _OPTIONAL if importlib.util.find_spec(name) is not None}


BLOCKS = [(page, line, block) for page in PAGES for line, block in _blocks(page)]


def test_the_readme_has_python_blocks() -> None:
    assert len(_blocks(ROOT / "README.md")) >= 3


def test_the_docs_pages_have_python_blocks() -> None:
    assert len([page for page, _, _ in BLOCKS if page.parent != ROOT]) >= 20


@pytest.mark.parametrize(
    ("page", "line", "block"), BLOCKS, ids=[f"{page.relative_to(ROOT)}:{line}" for page, line, _ in BLOCKS]
)
def test_doc_python_block_runs_alone(page: Path, line: int, block: str) -> None:
    missing = sorted(_needs(block) - _installed())
    if missing:
        pytest.skip(f"this block needs {', '.join(missing)}, an optional engine not installed here")
    exec(compile("\n" * (line - 1) + block, str(page), "exec"), {"__name__": "readme"})


def _models_named(block: str) -> dict[str, Any]:
    """Each model-like token of ``block`` that the model catalog knows, with its entry."""
    from interlingua import models

    providers = sorted({spec.provider for spec in models.all_models()})
    found = {}
    for token in set(re.findall(r"[A-Za-z][\w.:/@-]*\d[\w.:@-]*", block)):
        for provider in providers:
            spec = models.find(provider, token)
            if spec is not None:
                found[token] = spec
    return found


FENCED = [
    (page, text[: m.start()].count("\n") + 2, m.group(1))
    for page in PAGES
    for text in [page.read_text(encoding="utf-8")]
    for m in re.finditer(r"```[a-z]*\n(.*?)```", text, re.S)
]


def _stale(fenced: list[tuple[Path, int, str]]) -> list[str]:
    """Each line of ``fenced`` naming a model the catalog marks ``retired`` or ``deprecated``, or
    gives a retirement date: out of date as an example. A line that says so itself (it shows
    what happens to such a model) may name one."""
    stale = []
    for page, line, block in fenced:
        for at, text in enumerate(block.splitlines(), line):
            if re.search(r"retir|deprecat", text):
                continue
            for token, spec in _models_named(text).items():
                if spec.status in ("retired", "deprecated") or spec.retired is not None:
                    stale.append(f"{page.relative_to(ROOT)}:{at}: {token} ({spec.status}, retired {spec.retired})")
    return stale


def test_no_example_uses_a_model_the_catalog_says_is_retired_or_retiring() -> None:
    """Every fenced block of the README and the docs (code, commands, configs)."""
    assert _stale(FENCED) == []


def test_the_model_check_fails_on_a_retired_model() -> None:
    """The check above can fail: a block naming models the catalog retires, one line saying so."""
    block = 'il.Request(model="gemini-3-pro-preview")\nclient(model="gpt-5")\n# gpt-5-mini retires soon\n'
    assert _stale([(ROOT / "docs" / "x.md", 10, block)]) == [
        "docs/x.md:10: gemini-3-pro-preview (retired, retired 2026-03-09)",
        "docs/x.md:11: gpt-5 (deprecated, retired 2026-12-11)",
    ]


def test_the_model_check_sees_the_examples_models() -> None:
    """The check above finds the catalog's models in the blocks: the current ones named there."""
    named = {spec.id for _, _, block in FENCED for spec in _models_named(block).values()}
    assert {"claude-sonnet-4-6", "gpt-5.1"} <= named


_FRAGMENT = "# A fragment"
"""How a Python block that is not run begins: a ``py`` block, its first line saying why."""


def test_python_blocks_run_or_say_they_are_fragments() -> None:
    """A Python block either runs in this test (```` ```python ````) or is a ```` ```py ```` block
    whose first line says it is a fragment and why it is not run; nothing looks runnable and is not."""
    unmarked = [
        f"{page.relative_to(ROOT)}:{line}"
        for page in PAGES
        for text in [page.read_text(encoding="utf-8")]
        for m in re.finditer(r"```(py|py3|python3|pycon|ipython)\n(.*?)```", text, re.S)
        for line in [text[: m.start()].count("\n") + 1]
        if not m.group(2).startswith(_FRAGMENT)
    ]
    assert unmarked == []
    assert [f"{page}:{line}" for page, line, block in BLOCKS if block.startswith(_FRAGMENT)] == []


def test_every_page_is_in_the_site_and_in_this_test() -> None:
    """The docs test reads every page of the site: the README (its home page) and every page under
    docs/, each of which the site's nav lists."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted((ROOT / "docs").rglob("*.md"))
    assert [page for page in pages if f": {page.relative_to(ROOT / 'docs').as_posix()}\n" not in nav] == []
    assert [ROOT / "README.md", *pages] == PAGES
