"""Names a package loads on first use (PEP 562), so importing it stays cheap: ``interlingua`` and
``interlingua.kit`` each load a module with the first name asked of it, then keep the name."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping


def lazy_names(
    package: str,
    modules: Mapping[str, Iterable[str]],
    namespace: dict[str, Any],
    submodules: frozenset[str] = frozenset(),
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``, whose ``namespace`` is its
    globals: ``modules`` maps a relative module to the names it holds; a name in ``submodules``
    is a subpackage, imported as such (the import system sets it as an attribute)."""
    where = {name: module for module, names in modules.items() for name in names}

    def get(name: str) -> object:
        if name in submodules:
            return import_module(f".{name}", package)
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        value = getattr(import_module(module, package), name)
        namespace[name] = value  # found directly from now on
        return value

    def names() -> list[str]:
        return sorted({*namespace, *namespace.get("__all__", ())})

    return get, names
