"""Every test here runs in its own directory with HOME, the agents' folders (their defaults under
HOME: no CLAUDE_CONFIG_DIR, CODEX_HOME or GEMINI_CLI_HOME), pideck's and pi's folders under
tmp_path: no test ever reads a real ~/.claude, ~/.codex or ~/.gemini."""

from __future__ import annotations

from pathlib import Path

import pytest

from discovery_helpers import Homes
from private_homes import use_private_homes


@pytest.fixture(autouse=True)
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Homes:
    home = tmp_path / "home"
    work = tmp_path / "project"
    home.mkdir()
    work.mkdir()
    use_private_homes(tmp_path, monkeypatch)
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(work)
    return Homes(home, work)


class Run:
    """``pideck ARGS`` in-process: exit code, stdout and stderr."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys

    def __call__(self, *args: str, tui=None) -> tuple[int, str, str]:
        from core.cli import main

        self.capsys.readouterr()
        try:
            code = main(list(args), tui=tui) if tui is not None else main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture
def pideck(capsys: pytest.CaptureFixture[str]) -> Run:
    return Run(capsys)
