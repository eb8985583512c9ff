"""Point every folder pideck and pi read at temporary ones, so no test sees the real config, state
or sessions (subprocesses inherit the same environment)."""

from __future__ import annotations

from pathlib import Path

import pytest


def use_private_homes(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pideck's state dir, its config file and pi's agent dir under ``root``; no session is named
    by the environment."""
    monkeypatch.setenv("PIDECK_HOME", str(root / "pideck-home"))
    monkeypatch.setenv("PIDECK_CONFIG", str(root / "config.toml"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(root / "pi-agent"))
    monkeypatch.delenv("PIDECK_SESSION", raising=False)
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)


AGENT_VARIABLES = ("CLAUDE_CONFIG_DIR", "CLAUDE_CODE_TASK_LIST_ID", "CODEX_HOME", "GEMINI_CLI_HOME", "QWEN_HOME",
                   "QWEN_RUNTIME_DIR", "XDG_DATA_HOME", "OPENCODE_DB", "COPILOT_HOME",
                   "PIDECK_INDEX")
"""What moves the agents' folders (and pideck's saved index) away from their defaults."""


def use_agent_homes(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """``use_private_homes``, then ``HOME`` at ``root/home`` with the agents' folders at their
    defaults under it, and the cwd at ``root/project``: (home, project)."""
    use_private_homes(root, monkeypatch)
    home, project = root / "home", root / "project"
    home.mkdir()
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in AGENT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(project)
    return home, project
