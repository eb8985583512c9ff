"""Notifications (docs/notifications.md): no real config or state leaks in; the app tests build
their apps with the TUI tests' fixed sessions (tests/tui/tui_fixtures.py)."""

import sys
from pathlib import Path

import pytest

from private_homes import use_private_homes

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tui"))


@pytest.fixture(autouse=True)
def isolated_homes(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    use_private_homes(tmp_path_factory.mktemp("home"), monkeypatch)
