"""Exceptions raised by the session log, and the texts of its refusals."""

from __future__ import annotations


class SessionError(Exception):
    """Base class of every session-log error."""


class NotASession(SessionError):
    """The file is not a pi session: its first parsed line is not a session header."""


class NotARegularFile(SessionError):
    """The path names a FIFO, a device or a socket: reading it could block or never end."""


class NoSession(SessionError, FileNotFoundError):
    """No session file to open, and the caller asked that none be created."""


class ReadOnlySession(SessionError):
    """A write was attempted on a log that may not be written; nothing was written. The message is
    the refusal a person reads (one of the texts below)."""


# Every refusal says why, and ends by saying nothing changed (docs/session-format.md#the-read-only-rule).
PI_SESSION_READ_ONLY = (
    "This session is read-only: it belongs to pi, which keeps its tree in memory, so entries "
    "appended while pi runs would land on a branch pi no longer follows. Nothing was changed. "
    "Open it with --write to append anyway."
)
OPENED_READ_ONLY = "This session was opened read-only. Nothing was changed."
FILE_GONE = "The session file is gone (deleted or moved). Nothing was changed."
NO_HEADER = (
    "The session file no longer starts with a session header (it was emptied or replaced): pideck "
    "appends only after a valid header. Nothing was changed."
)


def version_read_only(version: int) -> str:
    if version < 3:
        why = f"it is a version {version} file, which pideck reads but never writes (pi migrates such files " \
              "to version 3 by rewriting them)"
    else:
        why = f"it is a version {version} file, newer than the version 3 pideck knows, so pideck reads it " \
              "but never writes to it"
    return f"This session is read-only: {why}. Nothing was changed."


def cannot_write(problem: str) -> str:
    return f"The session file cannot be written ({problem}). Nothing was changed."
