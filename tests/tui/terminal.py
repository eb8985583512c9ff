"""The console script in a pseudo-terminal, as a person's terminal runs it: what it writes is read
back as a terminal would (tests/tui/test_tui_hangup.py, test_tui_follow_directory.py)."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

PIDECK = str(Path(sys.executable).with_name("pideck"))  # the console script, as a user runs it


class Terminal:
    """``pideck ARGS`` in a pseudo-terminal of 120x40, with ``env`` added to this process's
    environment, in ``cwd``."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None,
                 ignore_sighup: bool = False) -> None:
        environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40", **(env or {})}
        environment.pop("TEXTUAL_ALLOW_SIGNALS", None)
        # The constructor returns once the command runs: until its exec the child is still this
        # Python, and a key a test sends at once (ctrl+c) would land in it, not in pideck. The pipe's
        # end the child holds closes at the exec (os.pipe's ends are not inherited), which ends the read.
        started, starting = os.pipe()
        pid, fd = pty.fork()
        if pid == 0:  # the child: never back into pytest
            try:
                os.close(started)
                if ignore_sighup:
                    signal.signal(signal.SIGHUP, signal.SIG_IGN)
                if cwd is not None:
                    os.chdir(cwd)
                os.execve(PIDECK, [PIDECK, *args], environment)
            finally:
                os._exit(127)
        os.close(starting)
        os.read(started, 1)
        os.close(started)
        self.pid, self.fd, self.output, self.status = pid, fd, b"", None

    def read_until(self, text: bytes, timeout: float = 30) -> bool:
        deadline = time.monotonic() + timeout
        while text not in self.output and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.1)[0]:
                try:
                    self.output += os.read(self.fd, 1 << 16)
                except OSError:
                    break
        return text in self.output

    def wait(self, timeout: float) -> int | None:
        """The exit status (a signal as its negative number), None if still running after ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            self.drain()
        return None

    def drain(self) -> None:
        """Read what the app wrote, as a terminal does: a full terminal would hold the app's writes."""
        try:
            if select.select([self.fd], [], [], 0.05)[0]:
                self.output += os.read(self.fd, 1 << 16)
        except OSError:  # closed by the test, or the app is gone
            time.sleep(0.05)

    def close(self) -> None:
        if self.status is None and self.wait(0) is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        try:
            os.close(self.fd)
        except OSError:
            pass


