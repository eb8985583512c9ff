"""Make Textual snapshots independent of the developer's shell and of timing
(docs/tui.md#snapshot-tests-are-deterministic)."""

import os

import pytest
import textual.constants
from textual.widgets import Input

from private_homes import use_private_homes

# NO_COLOR is read in App.__init__, so dropping it here (before any app is built) works.
os.environ.pop("NO_COLOR", None)


@pytest.fixture(autouse=True)
def deterministic_textual(monkeypatch: pytest.MonkeyPatch) -> None:
    # App.__init__ copies constants.TEXTUAL_ANIMATIONS into app.animation_level.
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")
    # Freeze Input cursors in the visible state.
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture(autouse=True)
def a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests run the app headless or not at all: as if on a terminal (test_tui_entry_points
    tests the refusal without one)."""
    monkeypatch.setattr("tui.launcher.has_terminal", lambda: True)


@pytest.fixture(autouse=True)
def isolated_homes(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No real config, pideck state or pi sessions leak into a test."""
    use_private_homes(tmp_path_factory.mktemp("home"), monkeypatch)
