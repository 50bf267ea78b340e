"""mkdocs hooks: the README is the site's home page, its links into docs/ made relative to the
site; and no page may show a Sphinx role as raw text (``:class:`Request```), which docs/_roles.py
turns into cross-references in the reference: one left shows a warning, so ``--strict`` fails."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

_LOG = logging.getLogger("mkdocs.hooks.interlingua")
RAW_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|data|attr|mod|exc|obj|const|type):(?:<code>|`)")


def on_files(files: Files, config: Any) -> Files:
    readme = Path(config["config_file_path"]).parent / "README.md"
    text = re.sub(r"\]\(docs/", "](", readme.read_text(encoding="utf-8"))
    files.append(File.generated(config, "index.md", content=text))
    return files


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    for found in RAW_ROLE.finditer(html):
        _LOG.warning("%s shows a raw Sphinx role: %s", page.file.src_uri, html[found.start() : found.end() + 40])
    return html
