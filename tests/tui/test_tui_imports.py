"""The modules of ``tui/`` import each other without a circle (docs/tui.md#the-imports-inside-tui).

A circle makes a module's import order matter (one half sees the other half-initialised) and ties
code that needs no screen, such as completion, to the screens. Every import counts: at the top,
inside a function, and under ``TYPE_CHECKING`` (a type-only circle is still a design circle).
"""

from __future__ import annotations

from import_graph import circles, import_graph


def test_the_walk_sees_every_kind_of_import(tmp_path):
    # The walker itself: relative, function-level and TYPE_CHECKING imports all count.
    pkg = tmp_path / "tui"
    (pkg / "screens").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "screens" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tui.screens import b\n")
    (pkg / "screens" / "b.py").write_text("def f():\n    from ..c import thing\n")
    (pkg / "c.py").write_text("import tui.a\n")
    graph = import_graph("tui", tmp_path)
    assert graph["tui.a"] == {"tui.screens.b"} and graph["tui.screens.b"] == {"tui.c"}
    assert circles(graph) == [["tui.a", "tui.c", "tui.screens.b"]]


def test_no_import_circle_inside_tui():
    assert circles(import_graph("tui")) == []
