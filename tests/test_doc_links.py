"""Every relative link in the README and the docs pages points at a file that exists, so moving a
page cannot leave a reader at a dead end. (Anchors are not checked; mkdocs reports those.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# [text](target) outside code: the target up to a space (a title) or the closing parenthesis.
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)[^)]*\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")


def _relative_links(page: Path) -> list[str]:
    text = CODE.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    targets = [m.group(1) for m in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def test_the_pages_have_relative_links() -> None:
    assert len(_relative_links(ROOT / "README.md")) >= 10


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_relative_links_resolve(page: Path) -> None:
    broken = [t for t in _relative_links(page) if not (page.parent / t.split("#", 1)[0]).exists()]
    assert broken == []


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("[ok](page.md#top) [gone](missing.md) [web](https://example.com) `[code](x.md)`\n")
    assert [t for t in _relative_links(page) if not (page.parent / t.split("#", 1)[0]).exists()] == ["missing.md"]
