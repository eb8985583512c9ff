"""opencode's conversations, kept in its SQLite database (docs/agent-conversations.md#opencode).

One database holds every session: ``<data>/opencode.db`` (``opencode-<channel>.db`` on other
release channels; ``$OPENCODE_DB`` names another, absolute or relative to ``<data>``), ``<data>``
being ``$XDG_DATA_HOME/opencode``, else ``~/.local/share/opencode``. pideck names one conversation
``<database>#<session id>`` (``in_database.py``).

What is read, always through ``sqlite_ro`` (nothing is ever created beside the database):

- ``session``: its directory, title, version, parent (a subagent's session), last change;
- ``part`` with its ``message``: the rows of a conversation in order of their ids (opencode's ids
  grow with time). A user message's ``text`` part is the person's prompt; an assistant's ``text``
  parts are its answer, told once its step's ``step-finish`` says whether the turn ended
  (``reason`` ``stop``) and what the step used (``tokens``); a ``todowrite`` tool part, once
  ``completed``, is the whole plan as the agent sent it. A part is read once it is settled (a tool
  completed or failed, a text ended): opencode rewrites a part in place while it runs.
- ``todo``: the plan as opencode keeps it now (every ``todowrite`` deletes the session's rows and
  inserts them all again in one transaction, in order, without ids). It is the truth: when it
  differs from what the parts said last (it is committed before the tool's part is), the plan
  becomes the table's.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from core.sources.in_database import conversation_path, split
from core.sources.plan import int_or_none, plan_item, text_of
from core.sources.reader import AGENT_WAITING, AGENT_WORKING, Reader
from core.sources.sqlite_ro import NotNow, change_key, read

TOOL = "todowrite"

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from core.sources.reader import Event, ReaderState

    class OpencodeState(ReaderState):
        """What an opencode reader saves: besides the plan, the answer of a step not finished yet."""

        answer: str | None  # the text of the current step's answer, told when the step finishes
        answer_ts: str | None


# -- naming a conversation ------------------------------------------------------------------------


def data_dir() -> Path:
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(os.path.expanduser(xdg)) if xdg and os.path.isabs(os.path.expanduser(xdg)) else Path.home() / ".local" / "share"
    return base / "opencode"


def database() -> Path:
    """The database opencode's latest channel writes (``$OPENCODE_DB`` when set)."""
    named = os.environ.get("OPENCODE_DB")
    if named:
        path = Path(os.path.expanduser(named))
        return path if path.is_absolute() else data_dir() / path
    return data_dir() / "opencode.db"


def databases() -> list[Path]:
    """opencode's databases: ``$OPENCODE_DB`` when set, else every ``opencode*.db`` in its data
    folder (one per release channel)."""
    if os.environ.get("OPENCODE_DB"):
        return [database()]
    try:
        names = sorted(os.listdir(data_dir()))
    except OSError:
        return []
    return [data_dir() / n for n in names if n.startswith("opencode") and n.endswith(".db")]


def is_database(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a SQLite database with the tables opencode keeps a conversation in."""
    try:
        with open(path, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                return False
    except OSError:
        return False
    try:
        names = read(Path(path), lambda c: {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")})
    except (NotNow, sqlite3.Error):
        return False
    return {"session", "part", "message", "todo"} <= names


def newest(db: Path) -> Path:
    """The conversation of ``db`` changed last (a subagent's only when there is no other); raises
    ``NotASession`` when it has none."""
    found = sorted(sessions(db).values(), key=lambda s: (s.parent_id is None, s.updated_ms, s.id))
    if not found:
        from core.session.errors import NotASession

        raise NotASession(f"{db}: an opencode database without a conversation")
    return conversation_path(db, found[-1].id)


# -- the sessions of a database ---------------------------------------------------------------------


class Session(NamedTuple):
    id: str
    directory: str
    title: str
    version: str
    parent_id: str | None  # a subagent's session: the session that started it
    created_ms: int
    updated_ms: int  # its last change: of the session row, a message or the todo list
    parts: int  # how many parts it has (what its size is said in)


_SESSION_ROWS = (
    "SELECT s.id, s.directory, s.title, s.version, s.parent_id, s.time_created, "
    "max(s.time_updated, coalesce((SELECT max(m.time_updated) FROM message m WHERE m.session_id = s.id), 0), "
    "coalesce((SELECT max(t.time_updated) FROM todo t WHERE t.session_id = s.id), 0)), "
    "(SELECT count(*) FROM part p WHERE p.session_id = s.id) FROM session s")


def _session(row: tuple[object, ...]) -> Session | None:
    if not isinstance(row[0], str) or not all(type(v) is int for v in row[5:8]):
        return None
    return Session(row[0], str(row[1]), str(row[2]), str(row[3]), text_of(row[4]), *cast("tuple[int, int, int]", row[5:8]))


class Table(NamedTuple):
    """What a database's ``session`` table held at the change key it was read at."""

    key: tuple[object, ...]
    sessions: dict[str, Session]
    listed: list[Path]  # the names of its conversations (its sessions without a parent)


_TABLES: dict[Path, Table] = {}
"""By database (a catalog's tick asks every conversation's last change: one query per change of
the database, not one per conversation)."""
_LOOKED: dict[Path, tuple[float, tuple[object, ...], os.stat_result]] = {}
"""By database: when it was last looked at, its change key and its stat then."""
LOOK_S = 0.05
"""How long one look at a database stands for every conversation in it: a catalog's tick asks
each of them in a few milliseconds, and its next tick looks again. (A conversation's own reading
looks at every sync: ``reading.py``.)"""


def _look(db: Path) -> tuple[tuple[object, ...], os.stat_result]:
    now = time.monotonic()
    looked = _LOOKED.get(db)
    if looked is not None and now - looked[0] < LOOK_S:
        return looked[1], looked[2]
    st = os.stat(db)
    key = change_key(db)
    _LOOKED[db] = (now, key, st)
    return key, st


def table(db: Path) -> Table:
    """The sessions of ``db`` (none when it cannot be read now and was never read)."""
    try:
        key, _ = _look(db)
    except OSError:
        return Table((), {}, [])
    known = _TABLES.get(db)
    if known is not None and known.key == key:
        return known
    try:
        rows = read(db, lambda c: c.execute(_SESSION_ROWS).fetchall())
    except NotNow:
        return known if known is not None else Table((), {}, [])
    found = {s.id: s for s in map(_session, rows) if s is not None}
    made = _TABLES[db] = Table(key, found, [conversation_path(db, s.id) for s in found.values() if s.parent_id is None])
    return made


def sessions(db: Path) -> dict[str, Session]:
    """The sessions of ``db`` by id (empty when it cannot be read now and was never read)."""
    return table(db).sessions


def session_of(path: str | os.PathLike[str]) -> Session | None:
    named = split(path)
    return sessions(named[0]).get(named[1]) if named is not None else None


class Stat(NamedTuple):
    """What ``os.stat`` answers of a file, for a conversation inside a database: the database's
    device and inode, the session's last change as the modification time, and its count of parts as
    the size (it grows as the conversation does)."""

    st_dev: int
    st_ino: int
    st_size: int
    st_mtime: float
    st_mtime_ns: int
    st_mode: int


def stat(path: str | os.PathLike[str]) -> Stat:
    """``os.stat`` of a conversation inside a database; raises FileNotFoundError when the database
    or the session is gone."""
    named = split(path)
    if named is None:
        raise FileNotFoundError(path)
    _, st = _look(named[0])
    session = sessions(named[0]).get(named[1])
    if session is None:
        raise FileNotFoundError(f"no conversation {named[1]} in {named[0]}")
    return Stat(st.st_dev, st.st_ino, session.parts, session.updated_ms / 1000, session.updated_ms * 1_000_000,
                st.st_mode)


# -- the rows of one conversation -------------------------------------------------------------------


class Rows(NamedTuple):
    """One look at a conversation: its session row, its settled parts after the cursor (each a
    line for the reader) and its todo table."""

    session: Session | None
    parts: list[dict[str, object]]
    todos: list[tuple[str, str, str]]  # content, status, priority, in order
    todos_ms: int | None  # when they were written
    cursor_found: bool  # the part read up to is still there (else the parts were rewritten: read anew)


def rows(db: Path, session_id: str, after: str) -> Rows:
    """The parts of ``session_id`` whose id is after ``after``, with their message's fields; and
    whether the part ``after`` is still there (a database made anew, or opencode's revert, removes
    it: what was read no longer holds)."""

    def query(conn: sqlite3.Connection) -> Rows:
        found = conn.execute(_SESSION_ROWS + " WHERE s.id = ?", (session_id,)).fetchone()
        session = _session(found) if found else None
        parts: list[dict[str, object]] = []
        for part_id, message_id, time_created, data, message in conn.execute(
                "SELECT p.id, p.message_id, p.time_created, p.data, m.data FROM part p JOIN message m ON m.id = p.message_id "
                "WHERE p.session_id = ? AND p.id > ? ORDER BY p.id", (session_id, after)):
            parts.append({"type": "part", "id": part_id, "message_id": message_id, "time": time_created,
                          "part": _json(data), "message": _json(message)})
        table = conn.execute("SELECT content, status, priority, time_updated FROM todo WHERE session_id = ? "
                             "ORDER BY position", (session_id,)).fetchall()
        when = [r[3] for r in table if type(r[3]) is int]
        found = not after or conn.execute("SELECT 1 FROM part WHERE id = ? AND session_id = ?",
                                          (after, session_id)).fetchone() is not None
        return Rows(session, parts, [(str(r[0]), str(r[1]), str(r[2])) for r in table], max(when) if when else None,
                    found)

    return read(db, query)


def _json(text: object) -> object:
    try:
        return json.loads(text) if isinstance(text, (str, bytes)) else None
    except ValueError:
        return None


def settled(line: dict[str, object]) -> bool:
    """Whether a part is as it will stay: a tool completed or failed, a text or reasoning ended
    (a user's text has no end: it is written whole). A part that is not is read again next time."""
    part, message = line.get("part"), line.get("message")
    if not isinstance(part, dict):
        return True  # (unreadable: told as such once)
    kind = part.get("type")
    if kind == "tool":
        state = part.get("state")
        return isinstance(state, dict) and state.get("status") in ("completed", "error")
    if kind in ("text", "reasoning"):
        if isinstance(message, dict) and message.get("role") == "user":
            return True
        when = part.get("time")
        return isinstance(when, dict) and "end" in when
    return True


def moved_on(parts: list[dict[str, object]]) -> set[str]:
    """The ids of the unsettled parts that a settled part of a later message follows: opencode
    works a session's messages one after another, so such a part was left as it is (opencode
    stopped, the step interrupted) and is read as it stands, not waited for at every look."""
    left: set[str] = set()
    last_settled: object = None  # the message of the last settled part
    for line in reversed(parts):
        if not settled(line):
            if last_settled is not None and last_settled != line.get("message_id"):
                left.add(cast(str, line["id"]))
        elif last_settled is None:
            last_settled = line.get("message_id")
    return left


# -- the reader -------------------------------------------------------------------------------------


class OpencodeReader(Reader):
    KIND = "opencode"

    def __init__(self, saved: OpencodeState | None = None) -> None:
        super().__init__(saved)
        self.answer: str | None = saved["answer"] if saved else None
        self.answer_ts: str | None = saved["answer_ts"] if saved else None

    def save(self) -> OpencodeState:
        return {**super().save(), "answer": self.answer, "answer_ts": self.answer_ts}

    def feed(self, line: object) -> list[Event]:
        """``line`` is a session row or a part with its message (``rows``), as JSON."""
        if not isinstance(line, dict):
            return []
        if line.get("type") == "session":
            self._set("sessionId", text_of(line.get("id")))
            self._set("cwd", text_of(line.get("directory")))
            self._set("version", text_of(line.get("version")))
            return []
        part, message = line.get("part"), line.get("message")
        if not isinstance(part, dict) or not isinstance(message, dict):
            self.warn("not JSON (skipped)")  # (the reading names the part)
            return []
        timestamp = _iso(line.get("time"))
        self.seen_at(timestamp)
        self._set("model", text_of(message.get("modelID")))
        kind = part.get("type")
        if message.get("role") == "user":
            text = text_of(part.get("text"))
            if kind == "text" and text is not None and not part.get("synthetic"):
                return self._said_so_far(timestamp) + self.user_prompt(text, timestamp)
            return []
        if kind == "text":
            text = text_of(part.get("text"))
            if text is not None and text.strip():
                self.answer = f"{self.answer}\n{text}" if self.answer else text
                self.answer_ts = timestamp
            return []
        if kind == "step-start":
            self._status(AGENT_WORKING)
            return self._said_so_far(timestamp)
        if kind == "step-finish":
            return self._step_finish(part, message, timestamp)
        if kind == "tool" and part.get("tool") == TOOL:
            return self._todowrite(part, timestamp)
        return []

    def _said_so_far(self, timestamp: str | None) -> list[Event]:
        """The text of a step that never finished (the person interrupted it, opencode was stopped):
        told as it stands when the next step or prompt comes, never glued to the next answer."""
        text, self.answer = self.answer, None
        if text is None:
            return []
        return self.assistant_text(text, self.answer_ts or timestamp, self.info.get("model"), ends_turn=False)

    def _step_finish(self, part: dict[str, object], message: dict[str, object], timestamp: str | None) -> list[Event]:
        tokens = part.get("tokens")
        if isinstance(tokens, dict):
            cache = tokens.get("cache")
            cache = cache if isinstance(cache, dict) else {}
            output, reasoning = int_or_none(tokens.get("output")), int_or_none(tokens.get("reasoning"))
            self.tokens(tokens.get("input"), (output or 0) + (reasoning or 0), cache.get("read"), cache.get("write"),
                        timestamp=timestamp, model=text_of(message.get("modelID")), cost=part.get("cost"),
                        provider=text_of(message.get("providerID")))
        self.spent(part.get("cost"))
        ends = part.get("reason") == "stop"
        text, self.answer = self.answer, None
        if text is None:
            if ends:
                self._status(AGENT_WAITING)
            else:
                self._status(AGENT_WORKING)
            return []
        return self.assistant_text(text, self.answer_ts or timestamp, text_of(message.get("modelID")),
                                   ends_turn=ends)

    def _todowrite(self, part: dict[str, object], timestamp: str | None) -> list[Event]:
        state = part.get("state")
        if not isinstance(state, dict) or state.get("status") != "completed":
            return []  # a call that failed changed nothing
        given = state.get("input")
        todos = given.get("todos") if isinstance(given, dict) else None
        if not isinstance(todos, list):
            self.warn(f"{TOOL}: no list of todos (ignored)")
            return []
        items = [plan_item(str(n), self.text(t, "content", TOOL, ""), self.text(t, "status", TOOL, "pending"),
                           priority=text_of(t.get("priority")))
                 for n, t in enumerate(self.objects(todos, TOOL, "todo"), 1)]
        return self.new_plan(items, timestamp, TOOL, "todo", text_of(part.get("callID")) or str(part.get("id", "")))

    def table(self, todos: list[tuple[str, str, str]], written_ms: int | None) -> list[Event]:
        """The plan as the ``todo`` table holds it now, when that is not what the parts said."""
        timestamp = _iso(written_ms)
        items = [plan_item(str(n), content, status, priority=priority)
                 for n, (content, status, priority) in enumerate(todos, 1)]
        return self.new_plan(items, timestamp, TOOL, "todo", "todo-table")


LATEST_MS = 253402300799999
"""The last millisecond of year 9999: a time past it is no time (no date can be made of it)."""


def _iso(ms: object) -> str | None:
    from core.clock import iso_from_ms

    return iso_from_ms(ms) if type(ms) is int and 0 <= ms <= LATEST_MS else None
