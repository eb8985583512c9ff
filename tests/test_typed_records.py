"""Types say what they hold (docs/architecture.md#records): ``dict[str, Any]`` is for JSON at the
edges (a line read or written, a config file, the MCP wire), and there are fewer than 60 in
``core/`` and ``tui/``. The count is of the written type, wherever it is written (an annotation,
a quoted one, a cast); no alias may stand in for it, and the read-only ``Mapping[str, Any]`` may not
grow in its place."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_UNTYPED_DICTS = 8  # (the bound asked for was under 60; once typed they were 4, and this keeps them few)
MAX_UNTYPED_MAPPINGS = 73  # as many as there were once the dicts were typed: none may take their place


def _untyped(node: ast.AST, names: tuple[str, ...]) -> bool:
    """``NAME[str, Any]`` for one of ``names`` (``dict``, ``typing.Dict``, ...)."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Tuple):
        return False
    base = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(node.value, "id", None)
    args = node.slice.elts
    return (base in names and len(args) == 2 and all(isinstance(a, (ast.Name, ast.Attribute)) for a in args)
            and [a.attr if isinstance(a, ast.Attribute) else a.id for a in args] == ["str", "Any"])  # type: ignore[union-attr]


def _trees(path: Path) -> list[ast.AST]:
    """The module, and each quoted annotation in it parsed as the expression it is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    quoted = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
              and "[str, Any]" in node.value]
    extra: list[ast.AST] = []
    for text in quoted:
        try:
            extra.append(ast.parse(text, mode="eval"))
        except SyntaxError:
            pass  # (prose that names the type)
    return [tree, *extra]


def _count(names: tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in sorted([*ROOT.joinpath("core").rglob("*.py"), *ROOT.joinpath("tui").rglob("*.py")]):
        found = sum(_untyped(node, names) for tree in _trees(path) for node in ast.walk(tree))
        if found:
            counts[str(path.relative_to(ROOT))] = found
    return counts


def _aliases() -> list[str]:
    """Module-level names bound to ``dict[str, Any]`` (``State = dict[str, Any]``): each use would
    be one the count does not see."""
    found = []
    for path in sorted([*ROOT.joinpath("core").rglob("*.py"), *ROOT.joinpath("tui").rglob("*.py")]):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if value is not None and _untyped(value, ("dict", "Dict", "Mapping", "MutableMapping")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_fewer_than_60_untyped_dicts() -> None:
    counts = _count(("dict", "Dict"))
    assert sum(counts.values()) <= MAX_UNTYPED_DICTS, counts


def test_mappings_did_not_take_their_place() -> None:
    counts = _count(("Mapping", "MutableMapping"))
    assert sum(counts.values()) <= MAX_UNTYPED_MAPPINGS, counts


def test_no_alias_hides_one() -> None:
    assert _aliases() == []


def test_the_count_sees_each_way_of_writing_it(tmp_path: Path) -> None:
    """The counter itself: an annotation, a typing name, a quoted annotation and a cast each count."""
    source = ("from typing import Any, Dict, cast\n"
              "def f(a: dict[str, Any]) -> 'dict[str, Any] | None':\n"
              "    b: Dict[str, Any] = cast(dict[str, Any], a)\n"
              "    c: dict[str, int] = {}\n"
              "    return None\n")
    path = tmp_path / "m.py"
    path.write_text(source)
    assert sum(_untyped(n, ("dict", "Dict")) for tree in _trees(path) for n in ast.walk(tree)) == 4
