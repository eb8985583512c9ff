"""Every test here runs in its own directory with HOME, the agents' folders (their defaults under
HOME: no CLAUDE_CONFIG_DIR, CODEX_HOME or GEMINI_CLI_HOME), pideck's and pi's folders under
tmp_path: no test ever reads a real ~/.claude, ~/.codex or ~/.gemini."""

from __future__ import annotations

from pathlib import Path

import pytest

from discovery_helpers import Homes
from pideck_run import pideck  # noqa: F401  (the fixture, for every test here)
from private_homes import use_agent_homes


@pytest.fixture(autouse=True)
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Homes:
    return Homes(*use_agent_homes(tmp_path, monkeypatch))
