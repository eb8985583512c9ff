"""Every install test runs on a temporary home and project, with a fixed pideck path and clock;
the MCP server and hook tests on temporary pideck and pi folders (``homes``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest

from agent_homes import Homes
from install_helpers import PIDECK

from core.agents.targets import SHARED_VARIABLES
from pideck_run import pideck  # noqa: F401  (the fixture, for every test here)
from private_homes import use_private_homes



@dataclass
class Where:
    home: Path
    project: Path

    @property
    def codex(self) -> Path:
        return self.home / ".codex"


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Where:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("QWEN_HOME", raising=False)
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    for name in SHARED_VARIABLES:  # (set by the tests' own homes; a test that wants them sets them)
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("core.agents.install.pideck_command", lambda: [PIDECK])
    monkeypatch.setattr("core.agents.install.utc_now",
                        lambda: datetime(2026, 11, 30, 20, 16, tzinfo=timezone.utc))
    return Where(home, project)






@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Homes:
    """The MCP server and hook tests: every pideck and pi folder is a temporary one (subprocesses
    inherit them), and nothing names a session unless the test does."""
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    use_private_homes(tmp_path, monkeypatch)
    return Homes(tmp_path, project)
