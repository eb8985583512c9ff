"""Every CLI test runs in its own directory with pideck's and pi's folders under tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from private_homes import use_private_homes

from core.cli import main


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


class Run:
    """``pideck ARGS`` in-process: exit code, stdout and stderr."""

    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
        self.capsys = capsys
        self.monkeypatch = monkeypatch

    def __call__(self, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            import io

            self.monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        self.capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse usage errors and --help/--version
            code = exc.code if isinstance(exc.code, int) else 2
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture
def pideck(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    return Run(capsys, monkeypatch)
