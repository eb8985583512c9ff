"""Hosts for the tests of pideck across machines: real sshd servers on loopback (tests/remote/sshd.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from remote.sshd import Host


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """pideck's runtime folder of the test's own, short (ssh's shared-connection socket lives there,
    and a socket's path has room for about 100 bytes: not under pytest's long tmp_path)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="pdk", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


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
