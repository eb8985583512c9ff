"""The todos in a GitHub Copilot CLI session's own ``session.db``, read the way that changes
nothing beside it (docs/agent-conversations.md#github-copilot-cli).

The replay of the ``sql`` calls in ``events.jsonl`` (``copilot.py``) gives the plan after each
call, but the database is the truth: a query that replays differently (a function, a time, a
table the model changed), or a change that is in the database before its event is in the log, is
put right by reading it. This is the only file I/O of a Copilot conversation besides its log, so
it is kept out of the line reader (which stays a pure function of the lines it is fed) and is
called by the conversation's ``Reading`` after a sync (``reading.py``).

How it reads: Python's ``sqlite3`` on the URI ``file:<path>?mode=ro`` (never ``immutable=1``,
which would let SQLite cache pages across Copilot's changes), in autocommit mode, with a short
busy timeout and a few tries when Copilot holds its lock; both tables are read in one short read
transaction (the two reads agree), and the connection is closed at once, so no lock is held
between syncs. Copilot keeps the database in rollback-journal mode (``journal_mode = delete``),
where a read-only reader creates no file: no ``-journal``, ``-wal`` or ``-shm`` appears because of
pideck.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from core.sources.copilot_sql import plan_of

if TYPE_CHECKING:
    from core.sources.plan import PlanItem

DB_NAME = "session.db"
BUSY_TIMEOUT = 0.075  # seconds SQLite waits for Copilot's lock, each try
TRIES = 3


def database_of(transcript: Path) -> Path:
    """Where the session database of ``<id>/events.jsonl`` is: beside it."""
    return transcript.parent / DB_NAME


def database_key(path: Path) -> tuple[int, int, int, int, bytes] | None:
    """What tells a change of the database without opening it as a database (None: there is none):
    its identity, size and time, and the file change counter SQLite keeps in its header (bytes 24
    to 27, one more at each commit in rollback-journal mode: a change that keeps the size within
    the file system's time resolution is still seen). Reading those bytes as a file takes no lock
    and creates nothing."""
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            counter = f.read(28)[24:]
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, counter


def read_plan(path: Path) -> list[PlanItem] | None:
    """The plan the database at ``path`` holds; None when there is none, it cannot be read (locked
    through every try, not a database, no ``todos`` table)."""
    if not path.is_file():
        return None
    uri = "file:" + urllib.parse.quote(os.fsdecode(path.absolute())) + "?mode=ro"
    for _ in range(TRIES):
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT,
                                   check_same_thread=False)
        except sqlite3.Error:
            return None
        try:
            conn.execute("BEGIN")
            try:
                return plan_of(conn)
            finally:
                conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                continue  # Copilot is writing: try again
            return None
        except sqlite3.Error:
            return None
        finally:
            conn.close()
    return None
