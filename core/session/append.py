"""Locked appends: how a log adds an entry to its file (docs/session-format.md#how-pideck-writes-an-entry).

Every append takes the file's exclusive advisory lock, reads what other writers appended meanwhile
(so the new entry's parent is the file's leaf as it is now, not as it was), repairs a partial last
line a crashed writer left, and writes the whole line at once. What a line holds and how it is
serialised is ``writer.py``'s; whether the log may be written is ``access.py``'s, asked again
under the lock because the file may have been replaced meanwhile.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Protocol

try:
    import fcntl
except ImportError:  # not POSIX: appends are not locked
    fcntl = None  # type: ignore[assignment]

from core.limits import entry_too_large

TORN_GRACE_S = 0.5
"""How long a partial last line must have been quiet before pideck takes it for a dead writer's."""
TORN_WAIT_S = 3.0
"""The longest pideck waits for another writer to end its line before it starts its own."""
TORN_POLL_S = 0.02

from core.files import write_all
from core.session.errors import (
    FILE_GONE,
    ReadOnlySession,
    StaleState,
    WriteFailed,
    cannot_write,
    os_cause,
    write_failed,
)
from core.session.index import EntryIndex
from core.session.tail import Tailer
from core.session.writer import Clock, IdFactory, iso_timestamp, serialise, unique_id

if TYPE_CHECKING:  # (annotations only: at run time typing would compile the forward reference, core/slotted.py)
    from core.session.entry import Entry

    Build = Callable[[str, str | None, str], Entry]
    """``build(id, parentId, timestamp)``: the entry to append."""


class Target(Protocol):
    """What an append asks of its log (``SessionLog``)."""

    @property
    def read_only_reason(self) -> str | None: ...

    @property
    def index(self) -> EntryIndex: ...

    @property
    def leaf_id(self) -> str | None: ...

    def refresh(self) -> object: ...


class Appender:
    """Appends to one session file under its lock; ``tail`` is the log's reader of that file."""

    def __init__(self, path: Path, tail: Tailer, clock: Clock, id_factory: IdFactory) -> None:
        self._path, self._tail, self._clock, self._id_factory = path, tail, clock, id_factory
        self._lock_fd: int | None = None
        self.sync: str | None = None
        """``data``: every append is on disk (``fdatasync``) before it returns; ``off``: left to the
        system; None: as the ``[session] sync`` setting says, read at the first append
        (docs/session-format.md#durability)."""

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the file's exclusive lock across a whole read-derive-append (re-entrant).

        A mutation decides what to append from the state it read; taking the lock around both
        (and refreshing inside it) means a concurrent writer can never be overwritten by a
        state computed before its entry landed.
        """
        if self._lock_fd is not None or fcntl is None:
            yield
            return
        fd = self._open(os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._lock_fd = fd
            yield
        finally:
            self._lock_fd = None
            os.close(fd)  # releases the lock

    def append(self, log: Target, build: Build) -> Entry:
        """Append ``build(id, parent, timestamp)``, parented to the file's leaf, and read it in."""
        reason = log.read_only_reason
        if reason is not None:
            raise ReadOnlySession(reason)
        # A value JSON cannot hold fails here, before any write, and so does an entry over the limit.
        if (too_large := entry_too_large(len(serialise(build("00000000", None, ""))))) is not None:
            raise ReadOnlySession(too_large)
        fd = self._open(os.O_RDWR | os.O_APPEND)
        try:
            if fcntl is not None and self._lock_fd is None:
                fcntl.flock(fd, fcntl.LOCK_EX)  # released by close
            log.refresh()  # another process may have appended: choose the parent from the file
            if (reason := log.read_only_reason) is not None:  # emptied or replaced meanwhile
                raise ReadOnlySession(reason)
            size = os.fstat(fd).st_size  # what the file holds before this append touches it
            try:
                if self._tail.partial:
                    entries = len(log.index.ids)
                    if self._still_written(log):
                        size = os.fstat(fd).st_size  # (its writer ended it meanwhile: theirs to keep)
                    else:
                        write_all(fd, b"\n")  # a crashed writer's partial line becomes its own line
                        log.refresh()
                    if self._lock_fd is not None and len(log.index.ids) > entries:
                        # The line became an entry (its writer ended it, or it lacked only its
                        # newline): the state this read-derive-append decided from did not hold
                        # it, so the caller derives again.
                        raise StaleState("the file gained an entry while this write was decided")
                entry = build(unique_id(log.index.positions, self._id_factory), log.leaf_id,
                              iso_timestamp(self._clock()))
                write_all(fd, serialise(entry))
                self._sync(fd)
            except OSError as exc:
                self._take_back(fd, size, exc)
                raise AssertionError("unreachable") from exc  # (_take_back always raises)
            log.refresh()
        finally:
            os.close(fd)
        return entry

    def _still_written(self, log: Target) -> bool:
        """Wait while the partial last line may be another writer's line in progress: it is younger
        than ``TORN_GRACE_S`` or still growing (a writer that writes a line in pieces; pi writes
        each line with one call). True when it was ended meanwhile; False when it is still partial
        after the wait, the line of a writer that died (docs/session-format.md#following-a-file-that-grows)."""
        waited = 0.0
        while self._tail.partial and waited < TORN_WAIT_S:
            try:
                st = os.stat(self._path)
            except OSError:
                return False
            if time.time() - st.st_mtime >= TORN_GRACE_S and st.st_size == self._tail.offset:
                return False  # quiet for the grace period: no one is writing it
            time.sleep(TORN_POLL_S)
            waited += TORN_POLL_S
            log.refresh()
        return not self._tail.partial

    def _sync(self, fd: int) -> None:
        """On disk before the caller is answered (docs/session-format.md#durability)."""
        if self.sync is None:
            from core.config.settings import load_session_config

            self.sync = load_session_config()[0].sync
        if self.sync != "off":
            getattr(os, "fdatasync", os.fsync)(fd)

    def _take_back(self, fd: int, size: int, exc: OSError) -> None:
        """A write that failed or stopped short (a full disk, an I/O error): cut the file back to
        ``size`` while the lock is still held, so no other pideck ever sees half an entry, then
        refuse. Raises ``WriteFailed``."""
        try:
            os.ftruncate(fd, size)
        except OSError:
            raise WriteFailed(write_failed(exc, undone=False)) from None
        raise WriteFailed(write_failed(exc)) from None

    def _open(self, flags: int) -> int:
        """The session file opened to lock or append to it. Non-blocking (something put in its
        place must not hang pideck); a file that is gone or may not be written is a refusal."""
        try:
            return os.open(self._path, flags | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise ReadOnlySession(FILE_GONE) from None
        except OSError as exc:  # no permission, a read-only filesystem: named, never the errno text
            raise ReadOnlySession(cannot_write(os_cause(exc))) from None
