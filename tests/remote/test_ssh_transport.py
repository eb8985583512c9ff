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
