"""The transport against a real sshd (tests/remote/sshd.py): pideck runs on the host over the
shared connection, and a host that went away says ssh's own reason."""

from __future__ import annotations

import subprocess

import pytest

from core.config.settings import check_host
from core.remote.ssh import ssh_argv, ssh_reason

pytestmark = pytest.mark.ssh


def test_pideck_runs_on_the_host_and_a_gone_host_says_why(make_host) -> None:
    box = make_host("box")
    host = check_host(box.settings())
    done = subprocess.run(ssh_argv(host, ["--version"]), capture_output=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, b"pideck 0.1.0\n"), done.stderr
    box.kill()
    done = subprocess.run(ssh_argv(host, ["--version"]), capture_output=True, timeout=30)
    assert done.returncode == 255
    assert ssh_reason(done.stderr) == f"ssh: connect to host 127.0.0.1 port {box.port}: Connection refused"


@pytest.mark.parametrize(("script", "why"), [
    ("sleep 600", "box did not answer within 2 s"),
    ("yes pideck", "box answered more than 1 MB"),
])
def test_a_one_shot_command_is_stopped_in_bounded_time_and_memory(make_host, tmp_path, script, why) -> None:
    """A hung host, or one printing without end: stopped, there too (nothing of it left running)."""
    import time

    from core.remote.ssh import run_once

    box = make_host("box")
    fake = tmp_path / "fake-pideck"
    fake.write_text(f"#!/bin/sh\nexec {script}\n")
    fake.chmod(0o755)
    host = check_host({**box.settings(), "pideck": str(fake)})
    started = time.monotonic()
    answer = run_once(host, ["status"], timeout=2, limit=1 << 20)
    assert (answer.code, answer.why) == (None, why)
    assert time.monotonic() - started < 8
    assert len(answer.out) < 2 << 20

    def running() -> bool:
        ps = subprocess.run(["ps", "-ww", "-e", "-o", "args="], capture_output=True, text=True).stdout
        return any(line.strip() == script for line in ps.splitlines())

    deadline = time.monotonic() + 10
    while running():
        assert time.monotonic() < deadline, f"{script} still runs on the host"
        time.sleep(0.1)
