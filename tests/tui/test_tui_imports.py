"""The modules of ``tui/`` import each other without a circle (docs/tui.md#the-imports-inside-tui).

A circle makes a module's import order matter (one half sees the other half-initialised) and ties
code that needs no screen, such as completion, to the screens. Every import counts: at the top,
inside a function, and under ``TYPE_CHECKING`` (a type-only circle is still a design circle).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tui_modules(root: Path = ROOT) -> dict[str, Path]:
    """Module name -> file, for every module of the ``tui`` package."""
    out = {}
    for path in sorted((root / "tui").rglob("*.py")):
        out[".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")] = path
    return out


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The ``tui`` modules that module ``name`` imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            # ``from tui.screens import deck`` imports the module tui.screens.deck
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = tui_modules(root)
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


def test_the_walk_sees_every_kind_of_import(tmp_path):
    # The walker itself: relative, function-level and TYPE_CHECKING imports all count.
    pkg = tmp_path / "tui"
    (pkg / "screens").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "screens" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tui.screens import b\n")
    (pkg / "screens" / "b.py").write_text("def f():\n    from ..c import thing\n")
    (pkg / "c.py").write_text("import tui.a\n")
    graph = import_graph(tmp_path)
    assert graph["tui.a"] == {"tui.screens.b"} and graph["tui.screens.b"] == {"tui.c"}
    assert circles(graph) == [["tui.a", "tui.c", "tui.screens.b"]]


def test_no_import_circle_inside_tui():
    assert circles(import_graph()) == []
