"""The usage tests run as the conversation tests do: pideck's and pi's folders and the agents'
homes under tmp_path (no agent folder of the machine is read; the caches and saved rates land in
a private ``PIDECK_HOME``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pideck_run import pideck  # noqa: F401  (the fixture, for every test here)
from private_homes import use_agent_homes


@pytest.fixture(autouse=True)
def private_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return use_agent_homes(tmp_path, monkeypatch)[1]
