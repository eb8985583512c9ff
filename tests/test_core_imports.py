"""``core/`` is layered along the data's path, and the TUI reads only its top (docs/architecture.md).

An import may go to its own layer or a lower one, so a layer can be read, tested and changed
without the ones above it; the TUI draws views and catalogs and types into a Deck, and never
reaches past them into the log or the adapters. Every import counts, wherever it stands
(tests/import_graph.py). Each test asserts an exact list, so a failure names the offenders.
"""

from __future__ import annotations

from import_graph import ROOT, circles, import_graph, imported, package_modules, statements

LAYERS = ("config", "remote", "session", "sources", "usage", "primitives", "deck", "catalog", "views", "agents", "cli")
"""The folders of ``core/``, bottom to top; the modules directly in ``core/`` are below them all."""

TUI_READS = {"config", "catalog", "deck", "views"}
"""The folders of ``core/`` the TUI may import, besides the modules directly in ``core/``."""

SCREENSHOTS = ("the README's pictures (python -m tui.screenshots), not the app: it sets each scene up the way a "
               "person's agent would, writing sessions, answering hooks and binding conversations")
TUI_EXCEPTIONS = {
    ("tui.launcher", "cli"): "the console script: it parses the command line and dispatches to the commands",
    **{("tui.screenshots", folder): SCREENSHOTS for folder in ("agents", "cli", "session", "sources")},
}
"""(tui module, core folder) pairs allowed anyway, each with its reason."""

MAX_TOP_LEVEL = 8


def layer(module: str) -> int:
    """0 for ``core`` and the modules directly in it, then 1 + the folder's place in ``LAYERS``."""
    parts = module.split(".")
    if len(parts) == 1 or (ROOT / "core" / f"{parts[1]}.py").is_file():
        return 0
    return 1 + LAYERS.index(parts[1])


def both_graph() -> dict[str, set[str]]:
    """Module -> the ``core`` and ``tui`` modules it imports, for every module of both."""
    modules = {**package_modules("core"), **package_modules("tui")}
    return {name: imported(name, path, set(modules)) for name, path in modules.items()}


def test_the_walk_sees_every_kind_of_import(tmp_path):
    # Relative, function-level and TYPE_CHECKING imports all count; a circle is found.
    pkg = tmp_path / "core"
    (pkg / "deck").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "deck" / "__init__.py").write_text("from .deck import Deck\n")
    (pkg / "deck" / "deck.py").write_text("def f():\n    from ..clock import _now\n")
    (pkg / "clock.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import core.deck.deck\n")
    graph = import_graph("core", tmp_path)
    assert graph == {"core": set(), "core.clock": {"core.deck.deck"}, "core.deck": {"core.deck.deck"},
                     "core.deck.deck": {"core.clock"}}
    assert circles(graph) == [["core.clock", "core.deck.deck"]]
    assert list(statements("core.deck.deck", pkg / "deck" / "deck.py")) == [("core.clock", ["_now"])]


def test_no_import_circle_inside_core():
    assert circles(import_graph("core")) == []


def test_no_module_imports_a_private_name_of_another():
    # A leading underscore means "only this module relies on it": another module taking it is a
    # dependency nobody sees when the name changes. Make it public, or move the code.
    modules = {**package_modules("core"), **package_modules("tui")}
    offenders = [
        f"{name} <- {base}.{taken}"
        for name, path in modules.items()
        for base, names in statements(name, path)
        if base.split(".")[0] in ("core", "tui")
        for taken in names
        if taken.startswith("_") and not taken.startswith("__")
    ]
    assert offenders == []


def test_every_folder_of_core_has_a_layer():
    folders = sorted(p.parent.name for p in (ROOT / "core").glob("*/__init__.py"))
    assert folders == sorted(LAYERS)


def test_core_imports_only_its_own_layer_or_lower():
    offenders = [
        f"{name} -> {target}"
        for name, targets in sorted(import_graph("core").items())
        for target in sorted(targets)
        if layer(target) > layer(name)
    ]
    assert offenders == []


def test_few_modules_directly_in_core():
    # A module directly in core/ is below every layer; more than a handful means a folder is missing.
    top = sorted(p.name for p in (ROOT / "core").glob("*.py") if p.name != "__init__.py")
    assert len(top) <= MAX_TOP_LEVEL, top


def test_the_tui_reads_only_the_top_of_core():
    offenders = [
        f"{name} -> {target}"
        for name, targets in sorted(both_graph().items())
        if name.startswith("tui")
        for target in sorted(targets)
        if target.startswith("core") and layer(target) > 0
        and target.split(".")[1] not in TUI_READS and (name, target.split(".")[1]) not in TUI_EXCEPTIONS
    ]
    assert offenders == []
