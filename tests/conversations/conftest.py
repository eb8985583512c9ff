"""Every test of the agent conversations runs with pideck's and pi's folders, its config and the
agents' homes under tmp_path: no agent folder of the machine is read, and the mirrors pideck keeps
land in a private ``PIDECK_HOME``."""

from __future__ import annotations

from pathlib import Path

import pytest

from private_homes import use_private_homes

from core.cli import main

AGENT_VARIABLES = ("CLAUDE_CONFIG_DIR", "CLAUDE_CODE_TASK_LIST_ID", "CODEX_HOME", "GEMINI_CLI_HOME", "PIDECK_INDEX")


@pytest.fixture(autouse=True)
def private_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The project folder (the cwd), with ``HOME`` and every folder pideck and pi read beside it."""
    use_private_homes(tmp_path, monkeypatch)
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in AGENT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(project)
    return project


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """``$HOME``: where a test puts the agents' folders (``.claude``, ``.codex``, ``.gemini``)."""
    return tmp_path / "home"


class Run:
    """``pideck ARGS`` in-process: exit code, stdout and stderr."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys

    def __call__(self, *args: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture
def pideck(capsys: pytest.CaptureFixture[str]) -> Run:
    return Run(capsys)
