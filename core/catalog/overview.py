"""The sessions overview: one row per session, kept up to date by re-reading only what changed.

A row says what a person running several agents wants at a glance: the session's name and
directory, whether it is pi's (read-only) or pideck's, todos settled of total with the lowest
confidence, work items by status, declared milestones, packets, when the session was last written,
and a flag when the agent stopped with work open (see ``flag_of``). The conversations of Claude
Code, Codex and Gemini CLI get rows too (``conversation_row``): their own plan as the todos, and the
agent's status (working, waiting, ended), from what the conversation's reader made of it alone
(docs/agent-conversations.md#finding-them).

``Overview.refresh`` is one tick: it stats the session folders and files it knows (a folder is
listed again only when its own modification time changed), and only a file whose inode, size or
modification time changed is read, from where its log stopped (the tail; a new file through the
saved index; a conversation's reading takes in what its transcript gained). A change notifier (inotify, FSEvents)
would save the stats but not the tail reads; the stats of 50 idle sessions cost well under a
millisecond (tests/benchmarks), so plain polling keeps one behaviour on every filesystem and no
extra dependency.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from core.catalog.rows import OverviewRow, conversation_row, pending_row, row_of, with_session_row
from core.catalog.saved import Key as SavedKey
from core.catalog.saved import SavedRows, key_of
from core.config.places import (
    AGENT_KINDS,
    Kind,
    encode_cwd,
    normalise_cwd,
    pi_custom_session_dir,
    pi_sessions_root,
    pideck_home,
    pideck_sessions_dir,
)
from core.config.settings import TodoConfig
from core.deck.deck import Deck
from core.files import jsonl_files
from core.session.errors import SessionError
from core.session.log import SessionLog
from core.session.parse import read_header
from core.sources import binding
from core.sources.discovery import (
    AgentFolders,
    Head,
    LiveSessions,
    Place,
    belongs,
    conversation_status,
    is_database_place,
    one_per_session,
    read_head,
    source_stat,
    transcript_files,
)
from core.sources.reader import AGENT_WAITING
from core.usage.of_log import keep_usage

if TYPE_CHECKING:
    from core.sources.reading import Reading


# -- the agents' conversations ----------------------------------------------------------------------


# -- watching the folders ---------------------------------------------------------------------------


class Listing:
    """The ``.jsonl`` files of folders, each folder listed again only when it changed."""

    def __init__(self) -> None:
        self._listed: dict[Path, tuple[int | None, list[Path]]] = {}  # folder -> (its mtime_ns, its files)

    def files(self, folder: Path) -> list[Path]:
        if is_database_place(folder):
            return transcript_files(folder)  # (its sessions: a look at the database when it changed)
        try:
            mtime: int | None = folder.stat().st_mtime_ns
        except OSError:
            mtime = None
        listed = self._listed.get(folder)
        if listed is not None and listed[0] == mtime and mtime is not None:
            return listed[1]
        files = jsonl_files(folder)
        self._listed[folder] = (mtime, files)
        return files


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
        return [pi, (pideck_sessions_dir(cwd), "pideck", None)]
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
    reading: Reading | None = None  # an agent's conversation, once read
    name: str | None = None  # of a conversation: its first prompt, once there is one
    own_status: str | None = None  # of a conversation taken from the saved rows: its transcript's word
    saved_key: SavedKey | None = None  # the file's key (with its device) when its row was made
    conversation: tuple[str, str] | None = None  # (agent, id): of a conversation, or the one a session is bound to


@dataclass
class Tick:
    """What one refresh found: rows new or changed, paths gone, how many files it read, and how
    many conversations wait for a later tick (a refresh with a budget)."""

    changed: list[OverviewRow] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    read: int = 0
    pending: int = 0


class Overview:
    """The rows of every session and agent conversation for ``cwd`` (or of every one pideck knows,
    ``cwd`` None). Not thread-safe: one thread calls ``refresh``.

    ``folders`` replaces pi's and pideck's folders (and then no agent's folder is looked at unless
    ``places`` names some). ``budget_s``: a refresh reads conversations, the most recently changed
    first, until that many seconds went by (at least one); the rest are shown as pending rows and
    read by the next refreshes (``Tick.pending``). None (the CLI): everything in one refresh.
    ``table`` False: what the logs do not price is priced with the rates an earlier run saved alone
    (``pideck status``); a row left partly unpriced so is saved as such, and taken from the saved
    rows only by another such run."""

    def __init__(
        self,
        cwd: str | os.PathLike[str] | None,
        *,
        todo_config: TodoConfig | None = None,
        folders: Callable[[], list[Folder]] | None = None,
        places: Callable[[], list[Place]] | None = None,
        rescan_s: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
        budget_s: float | None = None,
        saved: SavedRows | None = None,
        save_every_s: float = 30.0,
        table: bool = True,
    ) -> None:
        self._table = table  # price with the price table (``pideck status`` may not load it: core/usage/prices.py)
        self._saved, self._save_every_s = saved, save_every_s
        self._saved_at: float | None = None  # (monotonic) when the rows were last saved
        self._folders = folders or (lambda: session_folders(cwd))
        agent_folders = AgentFolders()
        self._places = places or ((lambda: []) if folders is not None else (lambda: agent_folders.places(cwd)))
        self._todo_config = todo_config
        self._rescan_s, self._clock = rescan_s, clock
        self._budget_s = budget_s
        self._roots: list[Folder] = []
        self._agent_roots: list[Place] = []
        self._roots_at = -1e18
        self._listing = Listing()
        self._watched: dict[Path, _Watched] = {}
        self._cwd_of: dict[Path, str | None] = {}  # header cwd per file of a flat folder
        self._heads: dict[Path, tuple[tuple[int, ...], Head]] = {}  # a conversation's head, by its file key
        self._live = LiveSessions()
        self.last_tick = Tick()  # what the last refresh found
        self._live_folders: set[Path] = set()  # Claude's live-session folders of the conversations read

    @property
    def rows(self) -> list[OverviewRow]:
        """Every session's row, the most recently active first. A pideck session bound to a
        conversation listed here has no row of its own: its counts are on the conversation's."""
        listed = {w.conversation for w in self._watched.values() if w.kind in AGENT_KINDS and w.row is not None}
        bound = {w.conversation: w.row for w in self._watched.values()
                 if w.kind not in AGENT_KINDS and w.row is not None and w.conversation in listed}
        rows = []
        for w in self._watched.values():
            if w.row is None or (w.kind not in AGENT_KINDS and w.conversation in bound):
                continue
            session = bound.get(w.conversation) if w.kind in AGENT_KINDS else None
            rows.append(w.row if session is None else with_session_row(w.row, session))
        return sorted(rows, key=lambda r: (-(r.last_activity_ms or 0), r.path))

    def refresh(self) -> Tick:
        tick = self.last_tick = Tick()
        now = self._clock()
        if now - self._roots_at >= self._rescan_s or not self._roots:
            self._roots, self._roots_at = self._folders(), now  # (with --all: new per-directory folders)
            self._agent_roots = self._places()
        present: dict[Path, Kind] = {}
        for folder, kind, header_cwd in self._roots:
            for path in self._files(folder):
                if header_cwd is None or self._header_cwd(path) == header_cwd:
                    present[path] = kind
        conversations = self._conversations()
        for path in [p for p in self._watched if p not in present and p not in conversations]:
            self._forget(path, self._watched.pop(path), tick)
        for path, kind in present.items():
            if path in conversations:
                continue
            watched = self._watched.get(path)
            if watched is None:
                watched = self._watched[path] = _Watched(kind)
            row = self._look(path, watched, tick)
            if row is not None:
                tick.changed.append(row)
        self._look_at_conversations(conversations, tick)
        self._keep(tick, now)
        return tick

    def _keep(self, tick: Tick, now: float) -> None:
        """Save the rows for the next process (``core/catalog/saved.py``): after the first refresh
        that read something, then at most every ``save_every_s``."""
        if self._saved is None or not (tick.read or tick.removed) or tick.pending:
            return
        if self._saved_at is not None and now - self._saved_at < self._save_every_s:
            return
        from core.catalog.saved import Entry

        entries: dict[str, Entry] = {}
        for path, w in self._watched.items():
            if w.row is None or w.row.pending or w.saved_key is None:
                continue
            head = self._heads.get(path)
            own = w.own_status
            if w.reading is not None:
                own = str(w.reading.reader.info.get("status") or "") or None
            entries[str(path)] = Entry(w.saved_key, w.row, head[1] if head else None, own, w.conversation)
        self._saved.save(entries)
        self._saved_at = now

    def _forget(self, path: Path, gone: _Watched, tick: Tick) -> None:
        """A file no longer listed: its row goes, and what was kept of it to read faster too when
        the file is gone (not merely out of this scope), so that churn leaves nothing behind."""
        if gone.row is not None:
            tick.removed.append(str(path))
        self._heads.pop(path, None)
        self._cwd_of.pop(path, None)
        self._live.forget(path)
        if os.path.lexists(path):
            return
        from core.session.sidecar import forget as forget_index
        from core.sources.reading import Reading

        try:
            if gone.reading is not None:
                gone.reading.forget()
            elif gone.kind in AGENT_KINDS:
                Reading(path, gone.kind).forget()
            else:
                forget_index(path)
        except OSError:
            pass  # (a home pideck cannot write: a sweep removes it later)

    # -- the agents' conversations --------------------------------------------------------------

    def _conversations(self) -> dict[Path, tuple[Kind, Head, os.stat_result]]:
        """Every conversation in the agents' folders that belongs here, one per Gemini session."""
        found: list[tuple[Path, str, Head, float]] = []
        stats: dict[Path, os.stat_result] = {}
        for place in self._agent_roots:
            for path in self._files(place.folder):
                if path in stats:
                    continue
                try:
                    st = source_stat(path)
                except OSError:
                    continue
                head = self._head(path, st)
                if not belongs(head, place):
                    continue
                if head.cwd is None and place.hint is not None:
                    head = Head(head.kind, head.session_id, place.hint, head.records, head.complete)
                stats[path] = st
                found.append((path, place.kind, head, st.st_mtime))
        return {path: (kind, head, stats[path]) for path, kind, head, _ in one_per_session(found)}  # type: ignore[misc]

    def _head(self, path: Path, st: os.stat_result) -> Head:
        """A transcript's head, read again only when it may say more (a new file, or one whose
        head was incomplete and grew)."""
        cached = self._heads.get(path)
        if cached is not None:
            key, head = cached
            if key == ((st.st_dev, st.st_ino) if head.complete else (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)):
                return head
        entry = self._saved.get(path, key_of(st)) if self._saved is not None else None
        head = entry.head if entry is not None and entry.head is not None else read_head(path)
        key = (st.st_dev, st.st_ino) if head.complete else (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        self._heads[path] = (key, head)
        return head

    def _look_at_conversations(self, found: dict[Path, tuple[Kind, Head, os.stat_result]], tick: Tick) -> None:
        """Read what changed in the conversations (the most recently changed first, within the
        budget), and update the rows whose agent's status changed without a line (Claude's
        live-session files)."""
        from core.sources.reading import Reading

        live_moved = self._live.tick(self._live_folders)
        work: list[tuple[int, Path]] = []
        for path, (kind, head, st) in found.items():
            watched = self._watched.get(path)
            if watched is None:
                watched = self._watched[path] = _Watched(kind)
            if file_key(st) != watched.key or (watched.reading is not None and watched.reading.side_moved()):
                work.append((st.st_mtime_ns, path))  # (a Claude subagent writes while its parent's transcript stays still)
            elif live_moved and watched.row is not None and kind == "claude":
                status = self._status(path, watched)
                if status != watched.row.status:
                    self._conversation_row(path, watched, st, head, tick, status)
        work.sort(key=lambda item: (-item[0], str(item[1])))
        deadline = None if self._budget_s is None else time.perf_counter() + self._budget_s
        for _, path in work:
            kind, head, st = found[path]
            watched = self._watched[path]
            if deadline is not None and tick.read and time.perf_counter() >= deadline:
                tick.pending += 1
                if watched.row is None:
                    watched.row = pending_row(path, kind, head, st.st_mtime_ns // 1_000_000)
                    tick.changed.append(watched.row)
                continue
            watched.key = file_key(st)
            if watched.reading is None and watched.row is None and self._from_saved(path, watched, st, tick):
                continue
            watched.saved_key = key_of(st)
            tick.read += 1
            try:
                if watched.reading is None:
                    watched.reading = Reading(path, kind)
                    if self._table:
                        keep_usage(watched.reading)  # (before its first sync: the cache it writes keeps it)
                watched.reading.sync()
            except (OSError, ValueError):
                watched.reading = None  # vanished or unreadable: looked at again when it changes
                if watched.row is not None:
                    watched.row = None
                    tick.removed.append(str(path))
                continue
            watched.name = watched.reading.name  # (the reader's: no file is read for it)
            sid = watched.reading.info.get("sessionId")
            watched.conversation = (kind, sid) if isinstance(sid, str) else None
            if kind == "claude" and (folder := self._live.folder(watched.reading.source)) is not None:
                self._live_folders.add(folder)
            self._conversation_row(path, watched, st, head, tick, conversation_status(watched.reading, self._live))

    def _from_saved(self, path: Path, watched: _Watched, st: os.stat_result, tick: Tick) -> bool:
        """Take a conversation's row from the saved rows, the file being as it was saved; its
        Claude Code status is asked again (live-session files move without the transcript)."""
        entry = self._saved.get(path, key_of(st)) if self._saved is not None else None
        if entry is None or (entry.row.partial and self._table):
            return False
        watched.saved_key, watched.own_status = entry.key, entry.own_status
        watched.name, watched.conversation = entry.row.name, entry.conversation
        if watched.kind == "claude" and (folder := self._live.folder(path)) is not None:
            self._live_folders.add(folder)
            self._live.tick(self._live_folders)
        status = self._status(path, watched)
        watched.row = entry.row if status == entry.row.status else replace(entry.row, status=status)
        tick.changed.append(watched.row)
        return True

    def _status(self, path: Path, watched: _Watched) -> str:
        """What a conversation's agent is doing: its reader's word, or the saved one, overruled for
        Claude Code by its live-session file."""
        if watched.reading is not None:
            return conversation_status(watched.reading, self._live)
        own = watched.own_status or AGENT_WAITING
        if watched.kind == "claude" and watched.conversation is not None:
            return self._live.status(path, watched.conversation[1]) or own
        return own

    def _conversation_row(self, path: Path, watched: _Watched, st: os.stat_result, head: Head, tick: Tick,
                          status: str) -> None:
        assert watched.reading is not None
        row = conversation_row(path, watched.reading, status=status, mtime_ms=st.st_mtime_ns // 1_000_000,
                               name=watched.name, cwd=head.cwd, table=self._table)
        if row != watched.row:
            watched.row = row
            tick.changed.append(row)

    def _files(self, folder: Path) -> list[Path]:
        return self._listing.files(folder)

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
        if watched.deck is None and watched.row is None and self._saved is not None:
            entry = self._saved.get(path, key_of(st))
            if entry is not None and not (entry.row.partial and self._table):
                watched.saved_key, watched.conversation = entry.key, entry.conversation
                watched.row = entry.row
                return entry.row
        watched.saved_key = key_of(st)
        tick.read += 1
        try:
            if watched.deck is None:
                log = SessionLog.open(path, writable=False)
                watched.deck = Deck(log, todo_config=self._todo_config)
                bound = binding.conversation_of(log.records)
                watched.conversation = (bound["agent"], bound["agentSessionId"]) if bound is not None else None
            else:
                watched.deck.refresh()
        except (SessionError, OSError, ValueError):
            watched.deck = None  # not a session (yet): looked at again when it changes
            if watched.row is not None:
                watched.row = None
                tick.removed.append(str(path))
            return None
        row = row_of(watched.deck, watched.kind, st.st_mtime_ns // 1_000_000, self._table)
        if row == watched.row:
            return None
        watched.row = row
        return row


# -- the text table ---------------------------------------------------------------------------------


