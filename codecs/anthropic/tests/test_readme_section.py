"""The python blocks of this codec's README section run as written."""

from __future__ import annotations

import re
from pathlib import Path

SECTION = Path(__file__).resolve().parents[1] / "README-section-anthropic-messages.md"


def test_readme_section_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", SECTION.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 2
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(SECTION), "exec"), namespace)
