"""A griffe extension for the API reference: the docstrings' Sphinx roles (``:class:`Request```,
``:func:`~interlingua.testing.sdk_type```) become cross-references that render, links to the
object's entry where the reference shows it and its name in code where it does not (a private
helper), never the role's raw text. The source keeps the roles, which ``help()`` shows as written."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|meth|func|data|attr|mod|exc|obj|const|type):`(?P<target>[^`]+)`")
"""A Sphinx role and its target."""

ROOTS = ("interlingua", "interlingua.kit", "interlingua.testing")
"""Where a bare name not found around its docstring is looked for next."""


class SphinxRoles(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        for obj in _walk(pkg):
            docstring = obj.docstring
            if docstring is not None and ":" in docstring.value:
                docstring.value = ROLE.sub(lambda m, at=obj: _reference(m["target"], at, loader), docstring.value)


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_walk(member))  # type: ignore[arg-type]
    return found


def _reference(target: str, at: griffe.Object, loader: griffe.GriffeLoader) -> str:
    name = target.lstrip("~.")
    shown = name.rpartition(".")[2] if target.startswith("~") else name
    identifier = _resolve(name, at, loader)
    if identifier is None:
        return f"`{shown}`"
    return f'<autoref identifier="{identifier}" optional><code>{shown}</code></autoref>'


def _resolve(name: str, at: griffe.Object, loader: griffe.GriffeLoader) -> str | None:
    first = name.split(".")[0]
    scope: griffe.Object | None = at
    while scope is not None:  # the object, its class, its module, the packages around it
        if name.startswith(scope.path + ".") or scope.path == name:
            return name
        if first in scope.members:
            member = scope.members[first]  # an imported name: where it is defined
            where = member.target_path if member.is_alias else member.path  # type: ignore[union-attr]
            return where + name[len(first) :]
        scope = scope.parent
    for root in ROOTS:
        module = _module(root, loader)
        if module is not None and first in module.members:
            return f"{root}.{name}"
    return None


def _module(path: str, loader: griffe.GriffeLoader) -> griffe.Object | None:
    try:
        found = loader.modules_collection[path]
    except KeyError:
        return None
    return found if isinstance(found, griffe.Object) else None
