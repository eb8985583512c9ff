"""Private files and folders: whatever pideck creates is readable by the user alone."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from .writer import write_all


def make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and every missing ancestor with mode 0700 (``mkdir(parents=True)`` gives
    the ancestors, such as pideck's home and its ``sessions`` folder, the default mode, so anyone
    could list which directories a user works in)."""
    missing: list[Path] = []
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for each in reversed(missing):
        try:
            each.mkdir(mode=0o700)
        except FileExistsError:
            pass


def replace_private_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a temporary file beside it, mode 0600, then a rename),
    so a reader sees the old file or the new one, never half of one. Raises OSError."""
    make_private_dirs(path.parent)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            os.fchmod(fd, 0o600)  # whatever the umask
            write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
