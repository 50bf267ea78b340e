"""Every python block of the README runs on its own, in a namespace of its own: a reader can paste
any one of them, and the docs cannot rot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks() -> list[tuple[int, str]]:
    text = README.read_text(encoding="utf-8")
    return [(text[: m.start()].count("\n") + 2, m.group(1)) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]


def test_the_readme_has_python_blocks() -> None:
    assert len(_blocks()) >= 4


@pytest.mark.parametrize(("line", "block"), _blocks(), ids=[f"README.md:{line}" for line, _ in _blocks()])
def test_readme_python_block_runs_alone(line: int, block: str) -> None:
    exec(compile("\n" * (line - 1) + block, str(README), "exec"), {"__name__": "readme"})
