"""The API reference (docs/reference/, rendered by mkdocstrings): one page per area, every public
name of the core on exactly one of them, every installed codec's package on the codecs page, every
field of the IR's models described, and no docstring left with a raw Sphinx role (docs/_roles.py
turns them into cross-references; docs/_hooks.py fails the strict build on any that shows)."""

from __future__ import annotations

import importlib.util
import logging
import re
from collections import Counter
from pathlib import Path
from typing import Any

import griffe
import pytest
from pydantic import BaseModel

import interlingua as il

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference"
PAGES = {"ir.md", "codecs.md", "transport.md", "gateway.md", "models.md", "cli-dist.md", "testing.md"}
SEARCH = [str(ROOT / "src"), *(str(p) for p in sorted((ROOT / "codecs").glob("*/src")))]


def _module(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _directives() -> dict[str, list[str]]:
    pages = REFERENCE.glob("*.md")
    return {page.name: re.findall(r"^::: (\S+)$", page.read_text(encoding="utf-8"), re.M) for page in pages}


def test_one_page_per_area_each_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert {page.name for page in REFERENCE.glob("*.md")} == PAGES
    assert {name for name in PAGES if f"reference/{name}" in nav} == PAGES


def test_every_public_name_of_the_core_is_on_exactly_one_page() -> None:
    shown = Counter(
        target.removeprefix("interlingua.")
        for targets in _directives().values()
        for target in targets
        if target.count(".") == 1 and target.startswith("interlingua.") and importlib.util.find_spec(target) is None
    )  # the core's names, not its submodules (interlingua.kit)
    names = Counter({name: 1 for name in il.__all__})
    assert shown - names == Counter()  # nothing twice, nothing that is not public
    assert names - shown == Counter()  # nothing missing


def test_the_request_comes_first_on_the_ir_page() -> None:
    assert _directives()["ir.md"][0] == "interlingua.Request"


def test_every_installed_codec_package_is_on_the_codecs_page() -> None:
    packages = {type(il.get_codec(wire)).__module__.partition(".")[0] for wire in il.codecs()}
    assert packages <= set(_directives()["codecs.md"])


def test_the_areas_modules_are_on_their_pages() -> None:
    directives = _directives()
    for page, module in [
        ("codecs.md", "interlingua.kit"),
        ("gateway.md", "interlingua.gateway"),
        ("models.md", "interlingua.models"),
        ("models.md", "interlingua.pricing"),
        ("cli-dist.md", "interlingua.cli"),
        ("cli-dist.md", "interlingua.dist"),
        ("testing.md", "interlingua.testing"),
    ]:
        assert module in directives[page], (page, module)


@pytest.fixture(scope="module")
def loaded() -> dict[str, griffe.Object]:
    """The packages as the reference loads them: griffe, with the Sphinx-role extension."""
    roles = _module("docs_roles", ROOT / "docs" / "_roles.py")
    extensions = griffe.load_extensions(roles.SphinxRoles())
    loader = griffe.GriffeLoader(extensions=extensions, search_paths=SEARCH)
    names = ["interlingua", *sorted({type(il.get_codec(w)).__module__.partition(".")[0] for w in il.codecs()})]
    found = {name: loader.load(name) for name in names}
    loader.resolve_aliases(implicit=False, external=False)
    return found  # type: ignore[return-value]


def test_every_field_of_the_ir_models_has_a_description(loaded: dict[str, griffe.Object]) -> None:
    core = loaded["interlingua"]
    models = [(name, getattr(il, name)) for name in il.__all__]
    undocumented = [
        f"{name}.{field}"
        for name, model in models
        if isinstance(model, type) and issubclass(model, BaseModel)
        for field in model.model_fields
        if not (member := core[name].all_members.get(field)) or not member.docstring
    ]
    assert len(models) > 100 and undocumented == []


def _docstrings(obj: griffe.Object) -> list[tuple[str, str]]:
    found = [(obj.path, obj.docstring.value)] if obj.docstring else []
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_docstrings(member))  # type: ignore[arg-type]
    return found


def test_no_docstring_keeps_a_raw_sphinx_role(loaded: dict[str, griffe.Object]) -> None:
    hooks = _module("docs_hooks", ROOT / "docs" / "_hooks.py")
    texts = [text for package in loaded.values() for text in _docstrings(package)]
    assert [path for path, text in texts if hooks.RAW_ROLE.search(text)] == []
    links = [text for _, text in texts if '<autoref identifier="' in text]
    assert len(links) >= 50  # the roles became references (about a hundred in the source)
    schema = dict(texts)["interlingua._schema"]  # ":func:`fit_schema`", the name's own module's
    assert '<autoref identifier="interlingua._schema.fit_schema" optional><code>fit_schema</code></autoref>' in schema


def test_the_build_hook_warns_on_a_raw_role(caplog: pytest.LogCaptureFixture) -> None:
    """``mkdocs build --strict`` fails on a warning: a role that reaches a page's HTML makes one."""
    hooks = _module("docs_hooks", ROOT / "docs" / "_hooks.py")
    page = type("Page", (), {"file": type("File", (), {"src_uri": "reference/ir.md"})()})()
    with caplog.at_level(logging.WARNING):
        hooks.on_page_content("<p>see :class:<code>Request</code></p>", page, {}, None)
        hooks.on_page_content("<p>see <code>Request</code></p>", page, {}, None)
    assert [r.getMessage() for r in caplog.records] == [
        "reference/ir.md shows a raw Sphinx role: :class:<code>Request</code></p>"
    ]
