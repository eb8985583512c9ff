"""Make Textual snapshots independent of the developer's shell and of timing
(docs/tui.md#snapshot-tests-are-deterministic)."""

import inspect
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


async def models_quiet(pilot, timeout: float = 10.0) -> None:
    """Wait until no screen of the app has a job or a first view outstanding on its model's thread."""
    for _ in range(int(timeout / 0.01)):
        if not any(getattr(screen, "busy", False) for screen in pilot.app.screen_stack):
            break
        await pilot.pause(0.01)
    await pilot.pause()


@pytest.fixture
def snap_compare(snap_compare):
    """A snapshot shows what the models built: the first view is read on the deck's thread, so
    every snapshot first waits for the screens' models, and again after its key presses."""

    def compare(app, press=(), terminal_size=(80, 24), run_before=None, **options):
        async def before(pilot):
            await models_quiet(pilot)
            if run_before is not None:
                result = run_before(pilot)
                if inspect.isawaitable(result):
                    await result
            if press:
                await pilot.press(*press)
                await models_quiet(pilot)

        return snap_compare(app, terminal_size=terminal_size, run_before=before, **options)

    return compare
