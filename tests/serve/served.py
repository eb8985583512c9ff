"""A real ``pideck serve`` for the tests of tests/serve/: started on a free port, its printed
address read, stopped as ctrl+c stops it."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

PIDECK = str(Path(sys.executable).with_name("pideck"))
WAIT_S = 30.0
"""The longest any one thing is waited for (a ceiling, not a measurement)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``pideck serve ARGS`` in a process group of its own, stopped as ctrl+c stops it (then
    killed, should anything of it be left)."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.port = free_port()
        self.process = subprocess.Popen([PIDECK, "serve", "--port", str(self.port), *args], cwd=cwd,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        start_new_session=True)
        assert self.process.stdout is not None
        self.banner = self.process.stdout.readline()  # (printed once it starts to listen)
        # The address printed, with its token (a page needs it), and the token.
        printed = re.match(r"pideck serve: (http://\S+/\?token=([A-Za-z0-9_-]{32})) ", self.banner)
        self.url, self.token = printed.groups() if printed else ("", "")
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)

    def stop(self) -> int | None:
        """ctrl+c, then whatever is left of the group killed; the server's status (None: killed)."""
        status = None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                status = self.process.wait(WAIT_S)
            except subprocess.TimeoutExpired:
                pass
        else:
            status = self.process.returncode
        deadline = time.monotonic() + WAIT_S  # (each browser's app ends once told its page is gone)
        while group_alive(self.process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = group_alive(self.process.pid)
        if left:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.left = left
        return status


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True
