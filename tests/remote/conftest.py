"""Hosts for the tests of pideck across machines: real sshd servers on loopback (tests/remote/sshd.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from remote.sshd import Host


@pytest.fixture
def make_host(tmp_path: Path) -> Iterator:
    """``make_host(name)``: a prepared, started server standing in for a machine; all are killed
    at the end."""
    made: list[Host] = []

    def make(name: str, start: bool = True) -> Host:
        host = Host(name, tmp_path / name)
        host.prepare()
        if start:
            host.start()
        made.append(host)
        return host

    yield make
    for host in made:
        host.kill()
