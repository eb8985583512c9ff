"""Reading an agent's SQLite database without leaving a trace in its folder
(docs/agent-conversations.md#reading-an-agents-database).

Python's own ``sqlite3`` is all this needs: a few read-only queries of a few tables, answered as
rows, with no model to keep in step with an agent's schema (an ORM would add a dependency and
hide the one thing that matters here, the exact connection string).

The rules, each from a trap of SQLite's:

- ``mode=ro`` (a URI), autocommit, a short busy timeout, and the connection closed after each look:
  no read transaction is ever held open (it would keep the agent's WAL from being reset), no lock
  outlives the query.
- A database in WAL mode with its ``-wal`` and ``-shm`` beside it (the agent running, or exited
  without a checkpoint) is read ``mode=ro``: that sees every commit, the WAL's included.
- A database in WAL mode with neither (the agent exited cleanly) would be given both by a
  ``mode=ro`` connection, created in the agent's folder and left there. It is read ``immutable=1``
  instead, which creates nothing; that is only right because no WAL exists for it to ignore.
- One of the two without the other is a moment of the agent's own start or exit: nothing is read
  then (the caller keeps its last good picture).
- A rollback-journal database is read ``mode=ro``: that creates nothing. A writer mid-commit makes
  the read busy; it is tried again a few times, then left for the next look.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Callable, TypeVar
from urllib.parse import quote

T = TypeVar("T")

BUSY_MS = 50
"""How long one query waits for a writer's lock before it is tried again."""
TRIES = 3
WAL_MODE = 2
"""The file-format version bytes (offsets 18 and 19 of the header) of a database in WAL mode."""


class NotNow(Exception):
    """The database could not be read at this moment (locked, mid-start, mid-write, gone): the
    caller keeps what it last read and looks again at the next refresh."""


class Busy(NotNow):
    """A writer held its lock through every try: the same read goes through once it commits
    (where another ``NotNow`` may fail again until the database changes)."""


def change_key(db: Path) -> tuple[object, ...]:
    """What changes whenever the database's content may have: the inode, size and modification
    time of the database and of its ``-wal``, and the change counter SQLite keeps in the header
    (bytes 24 to 27, one more at each commit of a rollback-journal database: a commit that keeps
    the size within the file system's time resolution is still seen). Reading them takes no lock
    and creates nothing. (A WAL is reused from its start once checkpointed, so its size can stay
    the same while its content changes; its mtime does not.) The first member is None when there
    is no database."""
    try:
        with open(db, "rb") as f:
            st = os.fstat(f.fileno())
            counter = f.read(28)[24:]
        out: list[object] = [(st.st_ino, st.st_size, st.st_mtime_ns, counter)]
    except OSError:
        out = [None]
    try:
        wal = os.stat(_beside(db, "-wal"))
        out.append((wal.st_ino, wal.st_size, wal.st_mtime_ns))
    except OSError:
        out.append(None)
    return tuple(out)


def read(db: Path, query: Callable[[sqlite3.Connection], T]) -> T:
    """``query`` run on a read-only connection to ``db`` that touches nothing beside it; raises
    ``NotNow`` when the database cannot be read now."""
    uri = _uri(db)
    for attempt in range(TRIES):
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_MS / 1000,
                                   check_same_thread=False)
        except sqlite3.Error as exc:
            raise NotNow(str(exc)) from exc
        # (an agent's text that is not UTF-8 is read with U+FFFD where it is broken: a value sqlite3
        # cannot decode would fail every query that reads its row, at every look)
        conn.text_factory = _text
        try:
            return query(conn)
        except sqlite3.OperationalError as exc:
            locked = "locked" in str(exc) or "busy" in str(exc)
            if not locked:
                raise NotNow(str(exc)) from exc
            if attempt == TRIES - 1:
                raise Busy(str(exc)) from exc
        except sqlite3.DatabaseError as exc:  # torn under an immutable read by a writer that just started
            raise NotNow(str(exc)) from exc
        finally:
            conn.close()
        time.sleep(BUSY_MS / 1000)
    raise Busy("busy")  # pragma: no cover - the loop returns or raises


def _text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


def _uri(db: Path) -> str:
    """The connection string that creates nothing in ``db``'s folder (the module's docstring)."""
    try:
        with open(db, "rb") as f:
            header = f.read(20)
    except OSError as exc:
        raise NotNow(str(exc)) from exc
    path = quote(os.fsdecode(os.path.abspath(db)))
    if len(header) < 20 or header[18] != WAL_MODE:
        return f"file:{path}?mode=ro"
    wal, shm = (os.path.exists(_beside(db, suffix)) for suffix in ("-wal", "-shm"))
    if wal and shm:
        return f"file:{path}?mode=ro"
    if not wal and not shm:
        return f"file:{path}?mode=ro&immutable=1"
    raise NotNow("the agent is opening or closing its database")


def _beside(db: Path, suffix: str) -> str:
    return os.fsdecode(db) + suffix
