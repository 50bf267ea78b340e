"""docs/schemas.md is what tests/schemas_doc.py writes from the installed codecs' dialects."""

from __future__ import annotations

from pathlib import Path

from tests.schemas_doc import render

PAGE = Path(__file__).parent.parent / "docs" / "schemas.md"


def test_the_schema_dialect_page_is_current() -> None:
    assert PAGE.read_text() == render(), "regenerate: python -m tests.schemas_doc > docs/schemas.md"


def test_every_dialect_row_on_the_page_names_a_source() -> None:
    text = render()
    assert text.count("**") // 2 == text.count(":\n\n- ")
