"""Opening a session file and the read-only rule: which paths are opened at all, and why a log
may not be written (docs/session-format.md#the-read-only-rule).

Kept apart from reading (``indexing.py``) and appending (``append.py``): the rule is asked before
every append and by every front end that shows whether a session is writable, and it depends on
the file as it is now (gone, replaced, its mode changed), not on what was read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from core.config import places
from core.files import not_regular
from core.session.errors import (
    FILE_GONE,
    NO_HEADER,
    OPENED_READ_ONLY,
    PI_SESSION_READ_ONLY,
    NotARegularFile,
    cannot_write,
    version_read_only,
)

if TYPE_CHECKING:
    from core.session.entry import Header


def check_openable(path: Path) -> None:
    """Refuse a path that is no session file to open: missing, a directory, or not a regular file
    (a FIFO or a device would hang or feed pideck without end)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FileNotFoundError(f"no session file at {path}") from None
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(f"{path} is a directory, not a session file")
    if (kind := not_regular(mode)) is not None:
        raise NotARegularFile(f"{path} is {kind}, not a session file")


_every_log_refuses: str | None = None
"""Why every log of this process refuses appends and creates (None: each log decides by itself)."""


def refuse_every_write(reason: str | None) -> None:
    """Make every log this process has open or opens later refuse appends, and every create, with
    ``reason`` (None lifts it): the one app-wide read-only switch, which the app ``pideck serve``
    starts without --write is given (docs/serve.md). Asked before each append, like the rest of the
    rule, so a screen opened later refuses too."""
    global _every_log_refuses
    _every_log_refuses = reason


def every_write_refused() -> str | None:
    """The reason ``refuse_every_write`` set, or None."""
    return _every_log_refuses


class WriteAccess:
    """Whether one log may be written. ``requested``: what the caller asked for (None: read-only
    inside pi's session folders, writable elsewhere)."""

    def __init__(self, path: Path, requested: bool | None) -> None:
        self._path, self._requested = path, requested
        self._pi_owned: tuple[tuple[str, int, int, int], bool] | None = None  # (file identity, pi's)

    def read_only_reason(self, header: Header | None, version: int) -> str | None:
        """Why appends are refused, as the refusal a person reads, or None when the log is writable."""
        if _every_log_refuses is not None:
            return _every_log_refuses
        if header is not None and version != 3:
            return version_read_only(version)
        if self._requested is False:
            return OPENED_READ_ONLY
        try:
            st = os.stat(self._path)
        except FileNotFoundError:
            return FILE_GONE
        except OSError as exc:
            return cannot_write(exc.strerror or str(exc))
        if self._requested is None and self._belongs_to_pi(st):
            return PI_SESSION_READ_ONLY
        if (kind := not_regular(st.st_mode)) is not None:
            return cannot_write(f"it is {kind} now")
        if not os.access(self._path, os.W_OK):
            return cannot_write(_why_not_writable(self._path))
        if not st.st_mode & 0o222:  # honoured whoever runs pideck: root's writes ignore the mode
            return cannot_write(f"permission denied: its mode {stat.filemode(st.st_mode)[1:]} lets no one write it")
        if header is None:
            return NO_HEADER
        return None

    def _belongs_to_pi(self, st: os.stat_result) -> bool:
        """``places.is_pi_session_file``, asked again only when the file's identity changes."""
        key = (os.fspath(self._path), st.st_dev, st.st_ino, st.st_nlink)
        if self._pi_owned is None or self._pi_owned[0] != key:
            self._pi_owned = (key, places.is_pi_session_file(self._path))
        return self._pi_owned[1]


def _why_not_writable(path: Path) -> str:
    """Why ``access`` says no: a read-only filesystem says no to everyone, and is named as such."""
    try:
        read_only = bool(os.statvfs(path).f_flag & getattr(os, "ST_RDONLY", 1))
    except (OSError, AttributeError):  # (no statvfs on Windows)
        read_only = False
    return "a read-only filesystem" if read_only else "permission denied"
