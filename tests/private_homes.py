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
