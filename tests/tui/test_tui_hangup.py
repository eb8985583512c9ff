"""An app whose terminal goes away ends (issue 19, bug 14, second half): on SIGHUP, and when its
terminal hangs up under it with SIGHUP ignored (`nohup`, a parent that ignores it), where the
terminal's input only gives end-of-file. It ends with status 129 (128 + SIGHUP, what a shell reports
for a hang-up) and the demo's temporary folder is removed as on a quit.

These run the console script in a pseudo-terminal, as a person's terminal runs it (like
`test_without_a_terminal_the_app_says_so_and_ends` in test_tui_entry_points.py); each takes a
second or two."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from terminal import Terminal
from tui.launcher import HANGUP_STATUS

STARTED = b"Agent State"  # a pane title: the app is up and drawn


class Child(Terminal):
    """``pideck demo`` in a pseudo-terminal of 120x40."""

    def __init__(self, tmp_path: Path, ignore_sighup: bool = False) -> None:
        self.temp = tmp_path / "temp"
        self.temp.mkdir()
        super().__init__(["demo"], {"TMPDIR": str(self.temp)}, ignore_sighup=ignore_sighup)


@pytest.fixture
def child(tmp_path):
    made: list[Child] = []

    def start(**options) -> Child:
        made.append(Child(tmp_path, **options))
        assert made[-1].read_until(STARTED), made[-1].output[-2000:]
        return made[-1]

    yield start
    for c in made:
        c.close()


def test_sighup_ends_the_app_and_the_demo_folder_goes(child):
    app = child()
    os.kill(app.pid, signal.SIGHUP)
    assert app.wait(10) == HANGUP_STATUS
    assert list(app.temp.iterdir()) == []  # the demo's folder, removed as on a quit


def test_a_closed_terminal_ends_the_app(child):
    """The terminal window is closed: the kernel hangs up the terminal and sends SIGHUP."""
    app = child()
    os.close(app.fd)
    assert app.wait(10) == HANGUP_STATUS
    assert list(app.temp.iterdir()) == []


def test_a_hung_up_terminal_ends_the_app_with_sighup_ignored(child):
    """Only end-of-file on the terminal tells: Textual's input thread reads an empty string there and
    goes on reading, at full speed, forever."""
    app = child(ignore_sighup=True)
    os.close(app.fd)
    assert app.wait(10) == HANGUP_STATUS
    assert list(app.temp.iterdir()) == []


def test_a_quit_still_ends_with_status_0(child):
    app = child()
    os.write(app.fd, b"\x11")  # ctrl+q
    assert app.wait(10) == 0
    assert list(app.temp.iterdir()) == []


def test_an_app_ended_by_force_still_runs_its_cleanup(monkeypatch):
    """When the app does not end within the grace time after a hang-up (a loaded machine), the
    process is ended with os._exit, which runs no ``finally``: the demo's folder is removed first."""
    import tui.launcher as launcher_module

    done: list[str] = []

    class Stuck:  # an app that never ends
        def exit(self, *args):
            pass

        def post_message(self, message):
            pass

    monkeypatch.setattr(launcher_module.os, "_exit", lambda status: done.append(f"exit {status}"))
    watch = launcher_module.TerminalWatch(Stuck(), cleanup=lambda: done.append("cleanup"))
    watch.GRACE_S = 0.01
    watch.hang_up()
    assert done == ["cleanup", f"exit {launcher_module.HANGUP_STATUS}"]
