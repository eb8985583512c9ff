"""``pideck ARGS`` run in-process, for the suites that check what a command prints and returns."""

from __future__ import annotations

import io
from typing import Any

import pytest

from core.cli.main import main


class Run:
    """``pideck ARGS`` in-process: exit code, stdout and stderr. ``stdin`` feeds the command's
    standard input; ``tui`` stands in for the app (``main``'s opener)."""

    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
        self.capsys = capsys
        self.monkeypatch = monkeypatch

    def __call__(self, *args: str, stdin: str | None = None, tui: Any = None) -> tuple[int, str, str]:
        if stdin is not None:
            self.monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        self.capsys.readouterr()
        try:
            code = main(list(args), tui=tui) if tui is not None else main(list(args))
        except SystemExit as exc:  # argparse usage errors and --help/--version
            code = exc.code if isinstance(exc.code, int) else 2
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture
def pideck(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    return Run(capsys, monkeypatch)
