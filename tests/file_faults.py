"""File faults for tests that may run as root, for whom a file's mode 0444 changes nothing: the
file is said to be unwritable (``os.access``), or opening it to write fails (``os.open``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def not_writable(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: not (mode == os.W_OK and Path(p) == path)
                        and real_access(p, mode))


def opening_to_write_fails(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    real_open = os.open

    def deny_writes(p, flags, *args):
        if flags & os.O_RDWR and Path(p) == path:
            raise PermissionError(13, "Permission denied")
        return real_open(p, flags, *args)

    monkeypatch.setattr(os, "open", deny_writes)
