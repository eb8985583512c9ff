"""Keys as a person's terminal sends them, through tmux (issue 29): tmux, screen, xterm and the Linux
console send alt+digit as ESC and the digit, macOS terminals as the Option key's character (¡ ™ £ ¢
∞ §); shift+tab is ESC [ Z; a paste comes between ESC [200~ and ESC [201~. Each test starts
``pideck`` in a tmux of its own, sends the exact bytes with ``send-keys -H`` (or a bracketed
``paste-buffer``), and reads the screen back with ``capture-pane``: what is focused shows in what
Enter opens. Run by ``.ci/run`` with ``uv run pytest -m tmux`` (it installs tmux where missing)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.cli.demo import write_demo
from core.session.log import SessionLog

pytestmark = pytest.mark.tmux

PIDECK = str(Path(sys.executable).with_name("pideck"))


class Tmux:
    """``pideck ARGS`` in a tmux server of its own (its own socket), 120x40 unless told."""

    def __init__(self, tmp: Path, args: list[str], size: tuple[int, int] = (120, 40), env: str = "") -> None:
        """``env``: more ``NAME=value`` words for pideck's environment."""
        assert shutil.which("tmux"), "tmux is not installed (.ci/run installs it)"
        self.socket = f"pideck-test-{os.getpid()}-{time.monotonic_ns()}"
        env = f"PIDECK_HOME={tmp / 'home'} TMPDIR={tmp} {env}"
        command = f"cd {tmp} && env {env} {PIDECK} {' '.join(args)}"
        self.tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), command)
        self.tmux("set-option", "-t", "t", "remain-on-exit", "on")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, text: str, timeout: float = 30) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.screen():
                return True
            time.sleep(0.1)
        return False

    def send_bytes(self, data: bytes) -> None:
        """``data`` as the terminal would write it to the program, byte for byte."""
        self.tmux("send-keys", "-t", "t", "-H", *(f"{b:02x}" for b in data))

    def paste(self, text: str) -> None:
        """A bracketed paste of ``text``, as tmux pastes for a program that asked for it."""
        self.tmux("set-buffer", "-b", "p", text)
        self.tmux("paste-buffer", "-p", "-b", "p", "-t", "t")

    def command_line(self) -> str:
        """The command line's text: the line above the footer (the placeholder reads as empty).
        Read once the footer is drawn: Textual's footer is built anew when the focus moves (its
        keys change), and a busy machine can show the frame without it for a moment."""
        assert self.wait_for("^p palette", 10), self.screen()
        line = self.screen().rstrip("\n").splitlines()[-2].strip()
        return "" if line.startswith("/agent-state add <id> <content>") else line

    def ended(self, timeout: float) -> bool:
        """Whether the program ended within ``timeout`` (its pane stays, dead: remain-on-exit)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.tmux("display", "-p", "-t", "t", "#{pane_dead}").strip() == "1":
                return True
            time.sleep(0.1)
        return False

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def deck(tmp_path: Path):
    session = tmp_path / "demo.jsonl"
    write_demo(session, cwd=str(tmp_path))
    app = Tmux(tmp_path, [str(session)])
    try:
        assert app.wait_for("LIVE"), app.screen()
        time.sleep(0.3)
        yield app
    finally:
        app.close()


@pytest.mark.parametrize("sent", [b"\x1b3", "£".encode()], ids=["ESC 3 (tmux, xterm)", "Option+3 (macOS)"])
def test_alt_3_focuses_the_packets_as_each_terminal_sends_it(deck: Tmux, sent: bytes) -> None:
    deck.send_bytes(sent)
    time.sleep(0.3)
    assert deck.command_line() == "", deck.screen()  # nothing typed
    deck.send_bytes(b"\r")  # Enter on the focused table: the highlighted packet
    assert deck.wait_for("Packet review-parser", 10), deck.screen()


def test_shift_tab_goes_from_the_command_line_into_the_current_pane_s_table(deck: Tmux) -> None:
    deck.send_bytes(b"\x1b[Z")
    time.sleep(0.3)
    deck.send_bytes(b"\r")
    assert deck.wait_for("Work item parse", 10), deck.screen()


def test_on_a_line_being_typed_option_3_is_the_pound_sign(deck: Tmux) -> None:
    deck.send_bytes("/agent-state decide gbp Costs £3".encode())
    assert deck.wait_for("Costs £3", 10) and deck.command_line() == "/agent-state decide gbp Costs £3"


def test_a_paste_with_a_colour_code_runs_nothing_and_keeps_nothing(deck: Tmux, tmp_path: Path) -> None:
    before = len(SessionLog.open(tmp_path / "demo.jsonl").records)
    deck.paste("/agent-state add x red \x1b[31mred\x1b[0m tab\n")
    deck.send_bytes(b"\r")
    assert deck.wait_for("Not pasted:", 10), deck.screen()  # (the toast wraps the rest by the width)
    assert deck.command_line() == ""
    time.sleep(0.5)
    assert len(SessionLog.open(tmp_path / "demo.jsonl").records) == before
    kept = "".join(p.read_text(errors="replace") for p in (tmp_path / "home").rglob("*") if p.is_file())
    assert "red" not in kept


@pytest.mark.parametrize("after_s", [0.05, 0.3])
def test_ctrl_c_during_the_start_shows_no_traceback(tmp_path: Path, after_s: float) -> None:
    app = Tmux(tmp_path, ["demo"])
    try:
        time.sleep(after_s)
        app.send_bytes(b"\x03")
        if not app.ended(1.0):  # the app had the terminal: twice quits
            app.send_bytes(b"\x03")
            time.sleep(0.3)
            app.send_bytes(b"\x03")
        assert app.ended(20), app.screen()
        assert "Traceback" not in app.screen()
        assert list(tmp_path.glob("pideck-demo-*")) == []  # the demo's folder went
    finally:
        app.close()


def test_the_deck_fills_its_window_and_follows_it_whatever_columns_and_lines_say(tmp_path: Path) -> None:
    # What a program that used GNU readline hands on (80 and 24 when it had no terminal; this test
    # process is one, and tmux hands its environment on): Textual would take it over the window's
    # size, at the start and at each resize, and the deck drew 80x24 in a 120x40 window.
    session = tmp_path / "demo.jsonl"
    write_demo(session, cwd=str(tmp_path))
    app = Tmux(tmp_path, [str(session)], env="COLUMNS=80 LINES=24")
    try:
        assert app.wait_for("^p palette"), app.screen()
        lines = app.screen().rstrip("\n").splitlines()
        assert len(lines) == 40 and lines[0].rstrip().endswith("LIVE") and len(lines[0].rstrip()) > 100, app.screen()
        assert "Agent Progress ──" in app.screen()  # (three panes side by side: 100 columns or more)
        app.tmux("resize-window", "-t", "t", "-x", "90", "-y", "30")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "Agent Progress ──" in app.screen():
            time.sleep(0.1)
        lines = app.screen().rstrip("\n").splitlines()
        assert "Agent Progress ──" not in app.screen() and lines[-1].rstrip().endswith("^p palette"), app.screen()
        assert len(lines) == 30 and max(len(line) for line in lines) <= 90, app.screen()
    finally:
        app.close()
