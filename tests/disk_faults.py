"""Disk faults for the tests of issue 20, injected where a tmpfs cannot be mounted: a session file
whose writes stop halfway on a full disk, a session file on a read-only filesystem."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from core.session import writer


def disk_full(monkeypatch: pytest.MonkeyPatch, path: Path, code: int = errno.ENOSPC) -> None:
    """Each write to ``path`` (pideck's writer's ``os.write``) writes half its bytes, then fails
    with ``code``; writes to other files (the saved index, the history) go through."""
    real = os.write

    def write(fd: int, data: bytes) -> int:
        if os.readlink(f"/proc/self/fd/{fd}") != str(path):
            return real(fd, data)
        real(fd, bytes(data[: len(data) // 2]))
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(writer.os, "write", write)


def read_only_filesystem(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """``path`` as on a read-only mount: opening it to write is EROFS, ``access`` says no and
    ``statvfs`` says the filesystem is read-only."""
    real_open, real_access, real_statvfs = os.open, os.access, os.statvfs

    def open_(p, flags, *args):
        if flags & (os.O_RDWR | os.O_WRONLY) and Path(p) == path:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real_open(p, flags, *args)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "access", lambda p, mode: real_access(p, mode) and not (mode == os.W_OK and Path(p) == path))
    monkeypatch.setattr(os, "statvfs", lambda p: ReadOnlyMount(real_statvfs(p)) if Path(p) == path else real_statvfs(p))


class ReadOnlyMount:
    """A ``statvfs`` result whose flags say the filesystem is mounted read-only."""

    def __init__(self, real: os.statvfs_result) -> None:
        self.f_flag = real.f_flag | os.ST_RDONLY
