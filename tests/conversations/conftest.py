"""Every test of the agent conversations runs with pideck's and pi's folders, its config and the
agents' homes under tmp_path: no agent folder of the machine is read, and the caches pideck keeps
land in a private ``PIDECK_HOME``."""

from __future__ import annotations

from pathlib import Path

import pytest

from pideck_run import pideck  # noqa: F401  (the fixture, for every test here)
from private_homes import use_agent_homes


@pytest.fixture(autouse=True)
def private_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The project folder (the cwd), with ``HOME`` and every folder pideck and pi read beside it."""
    return use_agent_homes(tmp_path, monkeypatch)[1]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """``$HOME``: where a test puts the agents' folders (``.claude``, ``.codex``, ``.gemini``)."""
    return tmp_path / "home"
