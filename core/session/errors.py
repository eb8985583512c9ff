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


class EmptySession(NoSession, NotASession):
    """The file is empty: a session whose create never finished, so it is not there yet (a create
    fills it, ``SessionLog.create``)."""


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
SERVED_READ_ONLY = ("This deck is served read-only: start pideck serve with --write to allow writes. "
                    "Nothing was changed.")
"""The refusal of every write in an app ``pideck serve`` started without --write (docs/serve.md)."""
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


class StaleState(SessionError):
    """Raised by an append inside a read-derive-append (``SessionLog.locked``) when repairing a
    dead writer's partial last line turned it into an entry: what was derived before did not hold
    it, so nothing was appended and the caller derives again (``Deck._mutating``)."""


class WriteFailed(ReadOnlySession):
    """The system refused a write pideck started (a full disk, an I/O error, a read-only
    filesystem): what was written of it was taken back, so the file is as it was. A refusal like
    every other, so each front end reports it the way it reports a read-only session."""


# What an OSError of a write means, in a person's words: the errno text ("[Errno 28] No space
# left on device") is never shown.
_CAUSES = {
    "ENOSPC": "the disk is full",
    "EDQUOT": "the user is over its disk quota",
    "EIO": "an I/O error on the disk",
    "EFBIG": "the file is too large for the filesystem",
    "EROFS": "a read-only filesystem",
    "ENOENT": "no such folder",
    "EACCES": "permission denied",
    "EPERM": "permission denied",
}


def os_cause(exc: OSError) -> str:
    """The cause of a failed write or create, named without the errno text."""
    import errno

    name = errno.errorcode.get(exc.errno or -1, "")
    return _CAUSES.get(name) or exc.strerror or "the system refused it"


def write_failed(exc: OSError, undone: bool = True) -> str:
    if undone:
        return f"The entry could not be written ({os_cause(exc)}). Nothing was changed."
    return (f"The entry could not be written ({os_cause(exc)}), and what was written of it could not be "
            "taken back: the file now ends with a partial line, which the next append starts after.")


PATH_PROBLEMS = frozenset({"ENOTDIR", "EISDIR", "ELOOP", "ENAMETOOLONG", "EEXIST"})
"""Errors of a create that say the path itself is wrong (a file where a folder belongs): the
caller's to fix, so they stay OSErrors (exit 2 on the command line), not refusals."""


def create_failed(path: object, exc: OSError) -> str:
    return f"The session file {path} could not be created ({os_cause(exc)}). Nothing was changed."
