"""Every CLI test runs in its own directory with pideck's and pi's folders under tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from pideck_run import pideck  # noqa: F401  (the fixture, for every test here)
from private_homes import use_private_homes



@pytest.fixture(autouse=True)
def both_open_paths(open_path: str) -> str:
    """Every CLI test runs on both ways a session is opened (tests/conftest.py: ``open_path``)."""
    return open_path


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "project"
    work.mkdir()
    monkeypatch.chdir(work)
    use_private_homes(tmp_path, monkeypatch)
    return work
