"""The sessions overview: one row per session, kept up to date by re-reading only what changed.

A row says what a person running several agents wants at a glance: the session's name and
directory, whether it is pi's (read-only) or pideck's, todos settled of total with the lowest
confidence, work items by status, declared milestones, packets, when the session was last written,
and a flag when the agent stopped with work open (see ``flag_of``).

``Overview.refresh`` is one tick: it stats the session folders and files it knows (a folder is
listed again only when its own modification time changed), and only a file whose inode, size or
modification time changed is read, from where its log stopped (the tail; a new file through the
saved index). A change notifier (inotify, FSEvents) would save the stats but not the tail reads;
the stats of 50 idle sessions cost well under a millisecond (tests/benchmarks), so plain polling
keeps one behaviour on every filesystem and no extra dependency.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

from core.activity import GATE_GAVE_UP, picked_by_activity
from core.deck import Deck
from core.session.discovery import (
    Kind, encode_cwd, normalise_cwd, pi_custom_session_dir, pi_sessions_root, pideck_home, read_header,
)
from core.session.errors import SessionError
from core.session.log import SessionLog
from core.shapes import WorkItem
from core.state import WORK_ITEM_STATUSES
from core.todo import constants as c
from core.todo.config import TodoConfig
from core.todo.model import display_confidence, is_open
from core.todo.replay import timestamp_ms
from core.untrusted import visible_controls

POKED, WAITING, GAVE_UP = "poked", "waiting", "gave up"
FLAG_REACH = 256
"""How far back from the leaf the flag looks for the agent's or the gates' last word."""


@dataclass(frozen=True)
class OverviewRow:
    path: str
    name: str  # pi's session_info name, else the file name (untrusted text)
    cwd: str  # the header's working directory (untrusted text)
    kind: Kind
    read_only: bool
    entries: int
    todos_settled: int
    todos_total: int
    lowest_confidence: int | None  # of the todos not cancelled
    work_items: tuple[int, ...]  # counts per status, in WORK_ITEM_STATUSES order
    milestones: int  # declared
    recorded: int
    packets: int
    last_activity_ms: int | None  # the last entry's timestamp, else the file's modification time
    flag: str | None  # POKED, WAITING, GAVE_UP or None
    warnings: int

    def json(self) -> dict[str, Any]:
        return {
            "path": self.path, "name": self.name, "cwd": self.cwd, "kind": self.kind, "readOnly": self.read_only,
            "entries": self.entries,
            "todos": {"settled": self.todos_settled, "total": self.todos_total,
                      "lowestConfidence": self.lowest_confidence},
            "workItems": dict(zip(WORK_ITEM_STATUSES, self.work_items)),
            "milestones": {"declared": self.milestones, "recorded": self.recorded},
            "packets": self.packets,
            "lastActivity": _iso(self.last_activity_ms),
            "flag": self.flag,
            "warnings": self.warnings,
        }

    def matches(self, text: str) -> bool:
        """The filter of the overview screen: case-insensitive, on name, directory, kind and path."""
        needle = text.casefold()
        return any(needle in value.casefold() for value in (self.name, self.cwd, self.kind, self.path))


def _iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def row_of(deck: Deck[SessionLog], kind: Kind, mtime_ms: int | None = None) -> OverviewRow:
    """The row of one session's Deck."""
    log = deck.log
    replay = deck.todo.replay()
    todos = replay.state.todos
    scores = [s for t in todos if t.status != "cancelled" and (s := display_confidence(t)) is not None]
    items: list[WorkItem] = deck.state.snapshot()["workItems"]
    progress = deck.progress.state()
    leaf = log.leaf
    last = timestamp_ms(leaf) if leaf is not None else None
    return OverviewRow(
        path=str(log.path),
        name=log.name or log.path.name,
        cwd=log.cwd or "",
        kind=kind,
        read_only=kind == "pi" or log.version < 3,
        entries=len(log.records),
        todos_settled=sum(1 for t in todos if not is_open(t)),
        todos_total=len(todos),
        lowest_confidence=min(scores) if scores else None,
        work_items=tuple(sum(1 for w in items if w["status"] == s) for s in WORK_ITEM_STATUSES),
        milestones=len(progress["currentMilestones"]),
        recorded=len(progress["recordedMilestones"]),
        packets=len(deck.handoff.packets()),
        last_activity_ms=last if last is not None else mtime_ms,
        flag=flag_of(deck),
        warnings=len(deck.warnings) + len(log.warnings),
    )


def flag_of(deck: Deck[SessionLog]) -> str | None:
    """With open todos: GAVE_UP when the gates disarmed themselves (they stopped poking), POKED when
    the newest thing on the branch is a gate's follow-up the agent has not acted on, WAITING when it
    is an assistant message that ended the agent's turn. None otherwise (no open todos, or the agent
    is at work)."""
    replay = deck.todo.replay()
    if not any(is_open(t) for t in replay.state.todos):
        return None
    if not replay.flags.armed and replay.flags.last_disarm_reason in GATE_GAVE_UP:
        return GAVE_UP
    branch = deck.log.branch()
    for record in list(branch[max(0, len(branch) - FLAG_REACH):])[::-1]:
        if not picked_by_activity(record.type, record.custom_type, record.role, record.tool_name):
            continue
        if record.type in ("label", "branch_summary", "session_info"):
            continue
        if record.type == "custom_message":
            return POKED
        if record.type == "message" and record.role == "assistant":
            message = record.get("message")
            stop = message.get("stopReason") if isinstance(message, dict) else None
            return WAITING if stop in ("stop", "length") else None
        if record.type == "custom" and record.custom_type == c.CYCLE_CUSTOM_TYPE:
            continue
        return None
    return None


# -- watching the folders ---------------------------------------------------------------------------


Folder = tuple[Path, Kind, "str | None"]
"""(folder, kind of its sessions, the cwd a header must name there, or None for any)."""


def session_folders(cwd: str | os.PathLike[str] | None) -> list[Folder]:
    """The folders of one working directory's sessions, or of every session pideck knows (``cwd``
    None): pi's per-directory folders (or pi's flat custom folder) and pideck's."""
    custom = pi_custom_session_dir()
    pideck_root = pideck_home() / "sessions"
    if cwd is not None:
        pi: Folder = (custom, "pi", normalise_cwd(cwd)) if custom is not None else (
            pi_sessions_root() / encode_cwd(cwd), "pi", None)
        return [pi, (pideck_root / encode_cwd(cwd), "pideck", None)]
    folders: list[Folder] = [(custom, "pi", None)] if custom is not None else []
    roots: tuple[tuple[Path, Kind], ...] = ((pi_sessions_root(), "pi"), (pideck_root, "pideck"))
    for root, kind in roots:
        try:
            subfolders = sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            continue
        folders += [(p, kind, None) for p in subfolders]
    return folders


FileKey = tuple[int, int, int]


def file_key(st: os.stat_result) -> FileKey:
    return st.st_ino, st.st_size, st.st_mtime_ns


@dataclass
class _Watched:
    kind: Kind
    key: FileKey | None = None
    deck: Deck[SessionLog] | None = None  # None: not a session file (or not one yet)
    row: OverviewRow | None = None


@dataclass
class Tick:
    """What one refresh found: rows new or changed, paths gone, and how many files it read."""

    changed: list[OverviewRow] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    read: int = 0


class Overview:
    """The rows of every session for ``cwd`` (or of every session pideck knows, ``cwd`` None).
    Not thread-safe: one thread calls ``refresh``."""

    def __init__(
        self,
        cwd: str | os.PathLike[str] | None,
        *,
        todo_config: TodoConfig | None = None,
        folders: Callable[[], list[Folder]] | None = None,
        rescan_s: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._folders = folders or (lambda: session_folders(cwd))
        self._todo_config = todo_config
        self._rescan_s, self._clock = rescan_s, clock
        self._roots: list[Folder] = []
        self._roots_at = -1e18
        self._listed: dict[Path, tuple[int | None, list[Path]]] = {}  # folder -> (its mtime_ns, its files)
        self._watched: dict[Path, _Watched] = {}
        self._cwd_of: dict[Path, str | None] = {}  # header cwd per file of a flat folder

    @property
    def rows(self) -> list[OverviewRow]:
        """Every session's row, the most recently active first."""
        rows = [w.row for w in self._watched.values() if w.row is not None]
        return sorted(rows, key=lambda r: (-(r.last_activity_ms or 0), r.path))

    def refresh(self) -> Tick:
        tick = Tick()
        now = self._clock()
        if now - self._roots_at >= self._rescan_s or not self._roots:
            self._roots, self._roots_at = self._folders(), now  # (with --all: new per-directory folders)
        present: dict[Path, Kind] = {}
        for folder, kind, header_cwd in self._roots:
            for path in self._files(folder):
                if header_cwd is None or self._header_cwd(path) == header_cwd:
                    present[path] = kind
        for path in [p for p in self._watched if p not in present]:
            gone = self._watched.pop(path)
            if gone.row is not None:
                tick.removed.append(str(path))
        for path, kind in present.items():
            watched = self._watched.get(path)
            if watched is None:
                watched = self._watched[path] = _Watched(kind)
            row = self._look(path, watched, tick)
            if row is not None:
                tick.changed.append(row)
        return tick

    def _files(self, folder: Path) -> list[Path]:
        """The ``.jsonl`` files of ``folder``, listed again only when the folder changed."""
        try:
            mtime: int | None = folder.stat().st_mtime_ns
        except OSError:
            mtime = None
        listed = self._listed.get(folder)
        if listed is not None and listed[0] == mtime and mtime is not None:
            return listed[1]
        try:
            files = sorted(Path(e.path) for e in os.scandir(folder) if e.name.endswith(".jsonl") and e.is_file())
        except OSError:
            files = []
        self._listed[folder] = (mtime, files)
        return files

    def _header_cwd(self, path: Path) -> str | None:
        if path not in self._cwd_of:
            header = read_header(path)
            cwd = header.get("cwd") if header else None
            self._cwd_of[path] = normalise_cwd(cwd) if isinstance(cwd, str) else None
        return self._cwd_of[path]

    def _look(self, path: Path, watched: _Watched, tick: Tick) -> OverviewRow | None:
        """The new row of a file whose key changed, else None."""
        try:
            st = path.stat()
        except OSError:
            return None
        key = file_key(st)
        if key == watched.key:
            return None
        watched.key = key
        tick.read += 1
        try:
            if watched.deck is None:
                log = SessionLog.open(path, writable=False)
                watched.deck = Deck(log, todo_config=self._todo_config)
            else:
                watched.deck.refresh()
        except (SessionError, OSError, ValueError):
            watched.deck = None  # not a session (yet): looked at again when it changes
            if watched.row is not None:
                watched.row = None
                tick.removed.append(str(path))
            return None
        row = row_of(watched.deck, watched.kind, st.st_mtime_ns // 1_000_000)
        if row == watched.row:
            return None
        watched.row = row
        return row


# -- the text table ---------------------------------------------------------------------------------


def ago(ms: int | None, now_ms: int, *, short: bool = False) -> str:
    """``12 s ago``, ``5 min ago``, ``3 h ago``, ``2 d ago`` (``short``: ``12s ago``, ``5m ago``);
    ``—`` without a time."""
    if ms is None:
        return "—"
    seconds = max(0, (now_ms - ms) // 1000)
    for size, unit in ((86400, "d"), (3600, "h"), (60, "m" if short else "min")):
        if seconds >= size:
            return f"{seconds // size}{'' if short else ' '}{unit} ago"
    return f"{seconds}{'s' if short else ' s'} ago"


OVERVIEW_COLUMNS = ("KIND", "NAME", "TODOS", "CONF", "ITEMS o/p/b/d", "MILESTONES", "PACKETS", "LAST", "FLAG", "DIRECTORY")


def row_cells(row: OverviewRow, now_ms: int) -> list[str]:
    """A row as table cells; the log's text with control characters made visible."""
    kind = f"{row.kind}{' ro' if row.read_only and row.kind != 'pi' else ''}"
    return [
        kind,
        visible_controls(row.name),
        f"{row.todos_settled}/{row.todos_total}" if row.todos_total else "—",
        "—" if row.lowest_confidence is None else str(row.lowest_confidence),
        "/".join(map(str, row.work_items)),
        f"{row.milestones} ({row.recorded} rec.)" if row.recorded else str(row.milestones),
        str(row.packets),
        ago(row.last_activity_ms, now_ms),
        row.flag or "",
        visible_controls(row.cwd),
    ]


def overview_table(rows: Iterable[OverviewRow], now_ms: int) -> str:
    table = [list(OVERVIEW_COLUMNS), *(row_cells(r, now_ms) for r in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(OVERVIEW_COLUMNS))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in table)
