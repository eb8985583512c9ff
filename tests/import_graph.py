"""The import graph of a package, read with ``ast`` (never imported): the tests of ``tui/``'s and
``core/``'s imports share it (tests/tui/test_tui_imports.py, tests/test_core_imports.py).

Every import statement counts, wherever it stands: at the top, inside a function, under
``TYPE_CHECKING``. A lazy or type-only import is still a dependency of the design.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]


def package_modules(package: str, root: Path = ROOT) -> dict[str, Path]:
    """Module name -> file, for every module of ``package`` (a folder directly under ``root``)."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        out[".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")] = path
    return out


def statements(name: str, path: Path) -> Iterator[tuple[str, list[str]]]:
    """``(module named, names taken from it)`` for each import statement of module ``name``, with
    relative imports resolved; ``import a.b`` takes no names."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            yield base, [alias.name for alias in node.names]


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The ``known`` modules that module ``name`` imports, wherever the import statement stands."""
    found: set[str] = set()
    for base, names in statements(name, path):
        # ``from tui.screens import deck`` imports the module tui.screens.deck
        targets = [f"{base}.{n}" if f"{base}.{n}" in known else base for n in names] or [base]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports."""
    modules = package_modules(package, root)
    return {name: imported(name, path, set(modules)) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)
