"""How the code reads, held by its shape (STYLE.md): no function of the library or a codec runs
past 80 lines (a long one reads as a short list of steps), and the core's modules import in
layers: each stands above what it uses, counting imports made inside functions and for type
checking, so a lazy import back up cannot hide a circle."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src"
LIBRARY = [CORE, *sorted((ROOT / "codecs").glob("*/src"))]

REMAINING_CIRCLES = {
    # ToolResult.from_mcp / Tool.from_mcp (public classmethods of the IR) call into the MCP
    # mapping, which builds those classes
    frozenset({"interlingua._mcp", "interlingua._message", "interlingua._parts", "interlingua._request"}),
    # the token-count and model-list endpoints are the Gateway's own handlers, kept in modules of
    # their own: they read the Gateway they serve (a type-checking import) and it routes to them
    frozenset({"interlingua.gateway._app", "interlingua.gateway._count", "interlingua.gateway._models"}),
    # `interlingua demo` runs the CLI's own main, to show the command it runs
    frozenset({"interlingua.cli", "interlingua.cli.demo"}),
    # `interlingua convert --engine` hands a dataset to interlingua.dist, which reuses the CLI's rows
    frozenset(
        {
            "interlingua.cli.datasets",
            "interlingua.cli.loss",
            "interlingua.cli.loss_html",
            "interlingua.dist",
            "interlingua.dist._rows",
        }
    ),
}


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def test_no_function_of_the_library_or_a_codec_runs_past_80_lines() -> None:
    long = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for root in LIBRARY
        for path in sorted(root.rglob("*.py"))
        if path.name != "_probes.py"  # a codec's conformance probes: tables of bodies, data not steps
        for node in _functions(ast.parse(path.read_text(encoding="utf-8")))
        if node.end_lineno is not None and node.end_lineno - node.lineno + 1 > 80
    ]
    assert long == []


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((CORE / "interlingua").rglob("*.py")):
        name = ".".join(path.relative_to(CORE).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules ``name`` imports anywhere in it (a function's imports included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{base}.{node.module}" if node.module else base
            found.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
    return {target for target in found if target in modules and target != name}


def _circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: set[frozenset[str]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = {stack.pop()}
            while node not in group:
                group.add(stack.pop())
            if len(group) > 1:
                circles.add(frozenset(group))

    for node in graph:
        if node not in index:
            visit(node)
    return circles


def test_the_core_imports_in_layers() -> None:
    """The catalog (_model_spec below _catalog below models), the test oracle (the model-rule
    judge below it) and the errors (below the warnings and the answer they carry) import no
    circle; the circles left are named above with the reason each stands."""
    modules = _modules()
    graph = {name: _imported(name, path, modules) for name, path in modules.items()}
    assert _circles(graph) == REMAINING_CIRCLES
