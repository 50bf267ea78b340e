"""Every python block of the README and of every page under docs/ runs on its own, in a namespace
of its own: a reader can paste any one of them, and the docs cannot rot."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _blocks(page: Path) -> list[tuple[int, str]]:
    text = page.read_text(encoding="utf-8")
    return [(text[: m.start()].count("\n") + 2, m.group(1)) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]


_OPTIONAL = ("ray", "pyspark", "distributed")
"""Engines of interlingua.dist's extras: a block that imports one runs where it is installed (CI's
main run) and is skipped elsewhere (the matrix run, a plain clone)."""


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
    missing = sorted({name for name in _OPTIONAL if re.search(rf"^(import|from) {name}\b", block, re.M)} - _installed())
    if missing:
        pytest.skip(f"this block needs {', '.join(missing)}, an optional engine not installed here")
    exec(compile("\n" * (line - 1) + block, str(page), "exec"), {"__name__": "readme"})
