"""The todos in a GitHub Copilot CLI session's own ``session.db``, read the way that changes
nothing beside it (docs/agent-conversations.md#github-copilot-cli).

The replay of the ``sql`` calls in ``events.jsonl`` (``copilot.py``) gives the plan after each
call, but the database is the truth: a query that replays differently (a function, a time, a
table the model changed), or a change that is in the database before its event is in the log, is
put right by reading it. This is the only file I/O of a Copilot conversation besides its log, so
it is kept out of the line reader (which stays a pure function of the lines it is fed) and is
called by the conversation's ``Reading`` after a sync (``reading.py``).

How it reads: as every agent's database is read (``sqlite_ro.py``: ``mode=ro``, autocommit, a
short busy timeout and a few tries when Copilot holds its lock, the connection closed at once).
Copilot keeps the database in rollback-journal mode (``journal_mode = delete``), where a
read-only reader creates no file: no ``-journal``, ``-wal`` or ``-shm`` appears because of pideck.
"""

from __future__ import annotations


import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from core.sources.copilot_sql import plan_of
from core.sources.sqlite_ro import Busy, NotNow, read

if TYPE_CHECKING:
    from core.sources.plan import PlanItem

DB_NAME = "session.db"


def database_of(transcript: Path) -> Path:
    """Where the session database of ``<id>/events.jsonl`` is: beside it."""
    return transcript.parent / DB_NAME


def read_plan(path: Path) -> list[PlanItem] | None:
    """The plan the database at ``path`` holds; None when there is none or it cannot be read (not
    a database, no ``todos`` table); raises ``sqlite_ro.Busy`` when Copilot held its lock through
    every try (the caller asks again at its next sync). Both tables are read in one short read
    transaction, so the two agree."""
    if not path.is_file():
        return None

    def query(conn: sqlite3.Connection) -> list[PlanItem]:
        conn.execute("BEGIN")
        try:
            return plan_of(conn)
        finally:
            conn.execute("COMMIT")

    try:
        return read(path, query)
    except Busy:
        raise
    except (NotNow, sqlite3.Error):
        return None
