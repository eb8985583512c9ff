"""GitHub Copilot CLI's todos as SQL (docs/agent-conversations.md#github-copilot-cli): the tables
Copilot makes in each session's ``session.db``, an in-memory database with the same schema in
which the ``sql`` tool's queries are replayed, and the plan a database holds as todo items.

Copilot has no todo tool: the model keeps its todos with the ``sql`` tool in
``todos(id, title, description, status, created_at, updated_at)`` and ``todo_deps(todo_id,
depends_on)``, and the session's ``events.jsonl`` holds the plan only as the text of those
queries. Replaying them, in order, in a database of the same schema gives the plan after each
call. The queries are the model's (untrusted text from a log), so the replay database is made so
that nothing it runs can reach a file: it lives in memory, its temporary storage too, it can
attach no database (``SQLITE_LIMIT_ATTACHED`` 0, and an authorizer refusing ATTACH, which
``VACUUM INTO`` goes through, DETACH, every PRAGMA, virtual tables and ``load_extension``), and a
progress handler stops a query that runs away (a recursive CTE without end).

Python's ``sqlite3`` is all this needs: a few statements on a few rows, no ORM.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from core.sources.plan import plan_item

if TYPE_CHECKING:
    from core.sources.plan import PlanItem

SCHEMA = """
CREATE TABLE todos (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT,
    status TEXT DEFAULT 'pending' CHECK(status IN ('pending', 'in_progress', 'done', 'blocked')),
    created_at TEXT DEFAULT (datetime('now')),
    updated_at TEXT DEFAULT (datetime('now'))
);
CREATE TABLE todo_deps (
    todo_id TEXT NOT NULL,
    depends_on TEXT NOT NULL,
    PRIMARY KEY (todo_id, depends_on),
    FOREIGN KEY (todo_id) REFERENCES todos(id),
    FOREIGN KEY (depends_on) REFERENCES todos(id)
);
"""
"""Copilot CLI 1.0.102's built-in tables, as its ``session.db`` holds them (the sample's
``session.db``, tests/fixtures/agent-transcripts/copilot-sql-todos/)."""

STATUSES = {"pending": "pending", "in_progress": "in_progress", "done": "completed", "blocked": "blocked"}
"""Copilot's statuses in the todo model's words: ``blocked`` stays ``blocked`` (the todo model
keeps it for an agent's plan and shows it ⏸)."""

MAX_STEPS = 10_000
"""Virtual machine steps, in thousands (the progress handler is called every 1000), a replayed
call may take before it is stopped: ten million, a fraction of a second, where a call on a few
todos takes a few thousand."""

_DENIED = {sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH, sqlite3.SQLITE_PRAGMA, sqlite3.SQLITE_CREATE_VTABLE,
           sqlite3.SQLITE_DROP_VTABLE}
_DENIED_FUNCTIONS = {"load_extension", "fts3_tokenizer", "readfile", "writefile", "edit"}


def _authorize(action: int, arg1: str | None, arg2: str | None, database: str | None, trigger: str | None) -> int:
    """What a replayed query may do: anything inside the main (and temporary, in-memory) database,
    nothing that reaches past it."""
    if action in _DENIED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _DENIED_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    if database not in (None, "main", "temp"):
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


class Replay:
    """An in-memory database with Copilot's tables, guarded so that no query can touch a file, in
    which ``sql`` calls are replayed one at a time (``run``)."""

    def __init__(self) -> None:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA temp_store = MEMORY")  # (temporary tables and big sorts stay in memory)
        conn.executescript(SCHEMA)
        if hasattr(conn, "setlimit"):
            conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        conn.set_authorizer(_authorize)
        conn.set_progress_handler(self._progress, 1000)
        self.conn = conn
        self._steps = 0

    def _progress(self) -> int:
        self._steps += 1
        return 1 if self._steps > MAX_STEPS else 0

    def run(self, query: str) -> str | None:
        """Run one ``sql`` call's query, all or nothing (Copilot ran it with success). Answers
        None, or why it failed (the database is then as before the call)."""
        self._steps = 0
        conn = self.conn
        conn.execute("SAVEPOINT pideck_call")
        try:
            for statement in statements(query):
                conn.execute(statement).fetchall()
        except (sqlite3.Error, ValueError, OverflowError, MemoryError) as exc:
            try:
                conn.execute("ROLLBACK TO pideck_call")
                conn.execute("RELEASE pideck_call")
            except sqlite3.Error:
                pass
            return str(exc) or type(exc).__name__
        try:
            conn.execute("RELEASE pideck_call")
        except sqlite3.Error as exc:  # (the query ended the transaction itself)
            return str(exc)
        return None

    def plan(self) -> list[PlanItem]:
        return plan_of(self.conn)

    def close(self) -> None:
        self.conn.close()


def statements(query: str) -> list[str]:
    """The statements of a query, each whole (a ``;`` inside a string or a comment does not cut)."""
    out: list[str] = []
    piece = ""
    for part in query.split(";"):
        piece += part + ";"
        if sqlite3.complete_statement(piece):
            if piece.strip(" \t\r\n;"):
                out.append(piece)
            piece = ""
    if piece.strip(" \t\r\n;"):
        out.append(piece[:-1])  # (an unfinished last statement: SQLite says what is wrong with it)
    return out


def _text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def plan_of(conn: sqlite3.Connection) -> list[PlanItem]:
    """The todos a Copilot session database holds, as todo items in the order they were added:
    Copilot's id and title, its description, the status in the todo model's words, and from
    ``todo_deps`` what each item waits for (``blockedBy``) and what waits for it (``blocks``),
    where there is any. Raises ``sqlite3.Error`` when the table cannot be read (the model dropped
    or changed it)."""
    try:
        rows = conn.execute("SELECT id, title, description, status FROM todos ORDER BY rowid").fetchall()
    except sqlite3.OperationalError:  # (a table remade WITHOUT ROWID: the order SQLite gives)
        rows = conn.execute("SELECT id, title, description, status FROM todos").fetchall()
    try:
        deps = conn.execute("SELECT todo_id, depends_on FROM todo_deps").fetchall()
    except sqlite3.Error:
        deps = []
    waits: dict[str, list[str]] = {}
    blocks: dict[str, list[str]] = {}
    for todo_id, depends_on in deps:
        a, b = _text(todo_id), _text(depends_on)
        if a is not None and b is not None:
            waits.setdefault(a, []).append(b)
            blocks.setdefault(b, []).append(a)
    items: list[PlanItem] = []
    for todo_id, title, description, status in rows:
        item_id = _text(todo_id) or ""
        word = _text(status) or "pending"
        items.append(plan_item(item_id, _text(title) or "", STATUSES.get(word, word),
                               description=_text(description),
                               blocks=sorted(blocks[item_id]) if item_id in blocks else None,
                               blockedBy=sorted(waits[item_id]) if item_id in waits else None))
    return items
