"""The sessions overview: one row per session, kept up to date by re-reading only what changed.

A row says what a person running several agents wants at a glance: the session's name and
directory, whether it is pi's (read-only) or pideck's, todos settled of total with the lowest
confidence, work items by status, declared milestones, packets, when the session was last written,
and a flag when the agent stopped with work open (see ``flag_of``). The conversations of Claude
Code, Codex and Gemini CLI get rows too (``conversation_row``): their own plan as the todos, and the
agent's status (working, waiting, ended), from the conversation's mirror alone
(docs/agent-conversations.md#finding-them).

``Overview.refresh`` is one tick: it stats the session folders and files it knows (a folder is
listed again only when its own modification time changed), and only a file whose inode, size or
modification time changed is read, from where its log stopped (the tail; a new file through the
saved index; a conversation's mirror is brought up to date). A change notifier (inotify, FSEvents)
would save the stats but not the tail reads; the stats of 50 idle sessions cost well under a
millisecond (tests/benchmarks), so plain polling keeps one behaviour on every filesystem and no
extra dependency.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from core import attention as att
from core.activity import GATE_GAVE_UP, picked_by_activity
from core.conversations import binding
from core.conversations.discovery import (AgentFolders, Head, LiveSessions, Place, belongs, conversation_status,
                                          one_per_session, read_head)
from core.conversations.reader import ENDED as AGENT_ENDED
from core.conversations.reader import WAITING as AGENT_WAITING
from core.deck import Deck
from core.session.discovery import (
    AGENT_KINDS, Kind, encode_cwd, normalise_cwd, pi_custom_session_dir, pi_sessions_root, pideck_home, read_header,
)
from core.session.errors import SessionError
from core.session.log import SessionLog
from core.session.parse import loads_line
from core.shapes import WorkItem
from core.state import WORK_ITEM_STATUSES
from core.todo import constants as c
from core.todo.config import TodoConfig
from core.todo.model import TodoItem, display_confidence, is_open
from core.todo.replay import timestamp_ms
from core.todo.restore import restore_tool_details
from core.untrusted import visible_controls
from core.view import Elsewhere

if TYPE_CHECKING:
    from core.conversations.mirror import Mirror

POKED, WAITING, GAVE_UP, ENDED = "poked", "waiting", "gave up", "ended"
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
    flag: str | None  # POKED, WAITING, GAVE_UP, ENDED (an agent's conversation only) or None
    warnings: int
    status: str | None = None  # an agent's conversation: working, waiting or ended; None for a session
    pending: bool = False  # a conversation listed but not read yet (the overview screen fills it in)
    session_id: str | None = None  # an agent's conversation: its id (where its hooks' records are)
    last_message: str | None = None  # the first line of the agent's last message (untrusted text)
    tokens: int | None = None  # the last turn's tokens, all of them (input, output, cache read and written)
    context_share: float | None = None  # the share of the model's context window the last turn used

    def json(self) -> dict[str, Any]:
        out = {
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
            "lastMessage": self.last_message,
            "tokens": {"total": self.tokens, "contextShare": self.context_share} if self.tokens is not None else None,
        }
        if self.kind in AGENT_KINDS:
            out["status"] = self.status
        return out

    def matches(self, text: str) -> bool:
        """The filter of the overview screen: case-insensitive, on name, directory, kind, path and
        (of a conversation) status."""
        needle = text.casefold()
        values = (self.name, self.cwd, self.kind, self.path, self.status or "")
        return any(needle in value.casefold() for value in values)


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
    total, share = token_counts(log.last_turn_tokens())
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
        last_message=last_words(deck),
        tokens=total,
        context_share=share,
    )


def token_counts(tokens: Mapping[str, Any] | None) -> tuple[int | None, float | None]:
    """(every token of the turn, the share of the context window) of a turn's token use
    (docs/agent-conversations.md#the-agent-object); None where the log does not say."""
    if not isinstance(tokens, Mapping):
        return None, None
    total = tokens.get("totalTokens")
    if type(total) is not int:
        parts = [tokens.get(k) for k in ("input", "output", "cacheRead", "cacheWrite")]
        total = sum(p for p in parts if type(p) is int) if any(type(p) is int for p in parts) else None
    share = tokens.get("contextShare")
    return total, float(share) if isinstance(share, (int, float)) and not isinstance(share, bool) else None


def last_words(deck: Deck[SessionLog]) -> str | None:
    """The first line of the newest assistant message with text on the branch (its last
    ``FLAG_REACH`` entries), or None."""
    from core.conversations.plan import first_line

    branch = deck.log.branch()
    for record in list(branch[max(0, len(branch) - FLAG_REACH):])[::-1]:
        if record.type != "message" or record.role != "assistant":
            continue
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        texts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"
                 and isinstance(b.get("text"), str)] if isinstance(content, list) else []
        line = first_line("\n".join(texts), MESSAGE_LIMIT) if texts else None  # type: ignore[arg-type]
        if line:
            return line
    return None


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


# -- the agents' conversations ----------------------------------------------------------------------

NAME_LIMIT = 60
"""A conversation's name is the first line of its first prompt, cut at this many characters."""
MESSAGE_LIMIT = 200
"""The agent's last message is kept as its first line, cut at this many characters."""


def plan_todos(mirror: Mirror) -> list[TodoItem]:
    """The agent's plan as the Deck of the conversation holds it: the mirror's newest todo result
    holds exactly the reader's plan, restored the same way."""
    state = restore_tool_details({"todos": list(mirror.reader.plan), "agentPlan": {"agent": mirror.kind}})
    return state.todos if state is not None else []


def conversation_flag(open_work: bool, status: str | None) -> str | None:
    """The flag of a conversation, in the flag column's sense (the agent stopped with work open):
    ``waiting`` when its turn ended with items open, ``ended`` when its process is gone with items
    open; none while it works, or with everything settled."""
    if not open_work:
        return None
    return WAITING if status == AGENT_WAITING else ENDED if status == AGENT_ENDED else None


def conversation_row(path: Path, mirror: Mirror, *, status: str, mtime_ms: int | None, name: str | None = None,
                     cwd: str | None = None) -> OverviewRow:
    """The row of an agent's conversation from its mirror: the plan's items settled of total, no
    confidence, no work items, milestones or packets (pideck's own panes are empty there), the
    transcript's last change as its last activity."""
    todos = plan_todos(mirror)
    info = mirror.reader.info
    known = info.get("cwd")
    total, share = token_counts(info.get("tokens"))
    message = info.get("lastMessage")
    return OverviewRow(
        path=str(path),
        name=name or path.name,
        cwd=known if isinstance(known, str) and known else cwd or "",
        kind=mirror.kind,  # type: ignore[arg-type]
        read_only=True,
        entries=int(mirror.state.get("entries", 0)),
        todos_settled=sum(1 for t in todos if not is_open(t)),
        todos_total=len(todos),
        lowest_confidence=None,  # an agent's plan has no scores
        work_items=(0,) * len(WORK_ITEM_STATUSES),
        milestones=0,
        recorded=0,
        packets=0,
        last_activity_ms=mtime_ms,
        flag=conversation_flag(any(is_open(t) for t in todos), status),
        warnings=len(mirror.warnings),
        status=status,
        session_id=sid if isinstance(sid := info.get("sessionId"), str) else None,
        last_message=message if isinstance(message, str) and message else None,
        tokens=total,
        context_share=share,
    )


def with_session_row(row: OverviewRow, session: OverviewRow) -> OverviewRow:
    """A conversation's row with its pideck session's counts (docs/tui.md#one-screen-per-conversation):
    the todos are pideck's when the session has any (the list the Stop hook gates), else the
    agent's plan; work items, milestones and packets are the session's; the last activity is the
    later of the two; the flag is the gates' ``gave up``, else the conversation's over the todos shown."""
    todos = session if session.todos_total else row
    flag = GAVE_UP if session.flag == GAVE_UP else (
        conversation_flag(todos.todos_settled < todos.todos_total, row.status) if session.todos_total else row.flag)
    return replace(
        row, todos_settled=todos.todos_settled, todos_total=todos.todos_total,
        lowest_confidence=todos.lowest_confidence, work_items=session.work_items, milestones=session.milestones,
        recorded=session.recorded, packets=session.packets,
        last_activity_ms=max((t for t in (row.last_activity_ms, session.last_activity_ms) if t is not None),
                             default=None),
        flag=flag, warnings=row.warnings + session.warnings,
    )


def pending_row(path: Path, kind: str, head: Head, mtime_ms: int) -> OverviewRow:
    """A conversation found but not read yet."""
    return OverviewRow(path=str(path), name=path.name, cwd=head.cwd or "", kind=kind, read_only=True,  # type: ignore[arg-type]
                       entries=0, todos_settled=0, todos_total=0, lowest_confidence=None,
                       work_items=(0,) * len(WORK_ITEM_STATUSES), milestones=0, recorded=0, packets=0,
                       last_activity_ms=mtime_ms, flag=None, warnings=0, status=None, pending=True)


def first_prompt(mirror_path: Path, limit: int = NAME_LIMIT) -> str | None:
    """The first line of the first prompt in a mirror (its first 64 KiB), or None."""
    from core.conversations.plan import first_line

    try:
        with open(mirror_path, "rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return None
    for raw in head.split(b"\n")[1:-1]:  # the header first; whole lines only
        try:
            entry = loads_line(raw)
        except (ValueError, RecursionError):
            return None
        message = entry.get("message") if isinstance(entry, dict) else None
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content")
        texts = [b.get("text") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)] \
            if isinstance(content, list) else []
        line = first_line("\n".join(texts), limit)  # type: ignore[arg-type]
        if line:
            return line
    return None


# -- watching the folders ---------------------------------------------------------------------------


class Listing:
    """The ``.jsonl`` files of folders, each folder listed again only when it changed."""

    def __init__(self) -> None:
        self._listed: dict[Path, tuple[int | None, list[Path]]] = {}  # folder -> (its mtime_ns, its files)

    def files(self, folder: Path) -> list[Path]:
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
    mirror: Mirror | None = None  # an agent's conversation, once read
    name: str | None = None  # of a conversation: its first prompt, once there is one
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
    read by the next refreshes (``Tick.pending``). None (the CLI): everything in one refresh."""

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
    ) -> None:
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
        self._live_folders: set[Path] = set()  # Claude's live-session folders of the conversations read

    @property
    def rows(self) -> list[OverviewRow]:
        """Every session's row, the most recently active first. A pideck session bound to a
        conversation listed here has no row of its own: its counts are on the conversation's."""
        listed = {w.conversation for w in self._watched.values() if w.mirror is not None and w.row is not None}
        bound = {w.conversation: w.row for w in self._watched.values()
                 if w.mirror is None and w.row is not None and w.conversation in listed}
        rows = []
        for w in self._watched.values():
            if w.row is None or (w.mirror is None and w.conversation in bound):
                continue
            session = bound.get(w.conversation) if w.mirror is not None else None
            rows.append(w.row if session is None else with_session_row(w.row, session))
        return sorted(rows, key=lambda r: (-(r.last_activity_ms or 0), r.path))

    def refresh(self) -> Tick:
        tick = Tick()
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
            gone = self._watched.pop(path)
            if gone.row is not None:
                tick.removed.append(str(path))
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
        return tick

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
                    st = os.stat(path)
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
        head = read_head(path)
        key = (st.st_dev, st.st_ino) if head.complete else (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        self._heads[path] = (key, head)
        return head

    def _look_at_conversations(self, found: dict[Path, tuple[Kind, Head, os.stat_result]], tick: Tick) -> None:
        """Read what changed in the conversations (the most recently changed first, within the
        budget), and update the rows whose agent's status changed without a line (Claude's
        live-session files)."""
        from core.conversations.mirror import Mirror

        live_moved = self._live.tick(self._live_folders)
        work: list[tuple[int, Path]] = []
        for path, (kind, head, st) in found.items():
            watched = self._watched.get(path)
            if watched is None:
                watched = self._watched[path] = _Watched(kind)
            if file_key(st) != watched.key:
                work.append((st.st_mtime_ns, path))
            elif live_moved and watched.mirror is not None and watched.row is not None and kind == "claude":
                status = conversation_status(watched.mirror, self._live)
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
            tick.read += 1
            try:
                if watched.mirror is None:
                    watched.mirror = Mirror(path, kind)
                watched.mirror.sync()
            except (OSError, ValueError):
                watched.mirror = None  # vanished or unreadable: looked at again when it changes
                if watched.row is not None:
                    watched.row = None
                    tick.removed.append(str(path))
                continue
            if watched.name is None:
                watched.name = first_prompt(watched.mirror.path)
            sid = watched.mirror.info.get("sessionId")
            watched.conversation = (kind, sid) if isinstance(sid, str) else None
            if kind == "claude" and (folder := self._live.folder(watched.mirror.source)) is not None:
                self._live_folders.add(folder)
            self._conversation_row(path, watched, st, head, tick, conversation_status(watched.mirror, self._live))

    def _conversation_row(self, path: Path, watched: _Watched, st: os.stat_result, head: Head, tick: Tick,
                          status: str) -> None:
        assert watched.mirror is not None
        row = conversation_row(path, watched.mirror, status=status, mtime_ms=st.st_mtime_ns // 1_000_000,
                               name=watched.name, cwd=head.cwd)
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
INBOX_COLUMNS = ("STATE", "IN")
"""With the rows' states (``overview_table``'s ``attentions``): after NAME (and TOKENS before
DIRECTORY, MESSAGE last)."""


def ranked(rows: Iterable[OverviewRow], attentions: Mapping[str, att.Attention]) -> list[OverviewRow]:
    """The rows who needs the person first (``core.attention.sort_key``: needs you, stopped with
    open work, working, waiting, ended; within a state the longest in it first), then by path; a
    row without a state (a conversation not read yet) last, the most recently active first."""
    def key(row: OverviewRow) -> tuple[int, int, int, str]:
        state = attentions.get(row.path)
        if state is None:
            return len(att.ORDER), 0, -(row.last_activity_ms or 0), row.path
        return (*att.sort_key(state), 0, row.path)
    return sorted(rows, key=key)


def rank_rows(rows: Iterable[OverviewRow], now_ms: int, idle_ms: int) -> tuple[list[OverviewRow], dict[str, att.Attention]]:
    """The state of every row read (``core.attention.attention_of``, at ``now_ms``) and the rows
    in the inbox's order (``ranked``): what ``pideck overview`` prints, text and JSON alike."""
    rows = list(rows)
    attentions = {row.path: att.attention_of(row, now_ms, idle_ms) for row in rows if not row.pending}
    return ranked(rows, attentions), attentions


def short_count(n: int) -> str:
    """``950``, ``12.3k``, ``48k``, ``1.2M``."""
    for size, unit in ((1_000_000, "M"), (1000, "k")):
        if n >= size:
            value = n / size
            return f"{value:.1f}{unit}" if value < 10 else f"{value:.0f}{unit}"
    return str(n)


def token_cell(row: OverviewRow) -> str:
    """The last turn's tokens and, where the log says the window, the share of it in use:
    ``48k 19%``; ``—`` when the log does not say."""
    if row.tokens is None:
        return "—"
    share = "" if row.context_share is None else " <1%" if 0 < row.context_share < 0.01 else f" {row.context_share * 100:.0f}%"
    return short_count(row.tokens) + share


def in_state(attention: att.Attention | None, now_ms: int) -> str:
    """How long a row has been in its state: ``12s``, ``5m``, ``3h``, ``2d``; ``—`` unknown."""
    if attention is None or attention.since_ms is None:
        return "—"
    return ago(attention.since_ms, now_ms, short=True).removesuffix(" ago")


def row_cells(row: OverviewRow, now_ms: int) -> list[str]:
    """A row as table cells; the log's text with control characters made visible. pi's sessions
    and the agents' conversations are read-only by kind, so only a read-only pideck session says
    ``ro``; a conversation not read yet shows ``…`` for its todos."""
    kind = f"{row.kind}{' ro' if row.read_only and row.kind == 'pideck' else ''}"
    return [
        kind,
        visible_controls(row.name),
        "…" if row.pending else f"{row.todos_settled}/{row.todos_total}" if row.todos_total else "—",
        "—" if row.lowest_confidence is None else str(row.lowest_confidence),
        "/".join(map(str, row.work_items)),
        f"{row.milestones} ({row.recorded} rec.)" if row.recorded else str(row.milestones),
        str(row.packets),
        ago(row.last_activity_ms, now_ms),
        row.flag or "",
        visible_controls(row.cwd),
    ]


def overview_table(rows: Iterable[OverviewRow], now_ms: int,
                   attentions: Mapping[str, att.Attention] | None = None) -> str:
    """The rows as a text table, in the order given. When an agent's conversation is among them, a
    STATUS column (working, waiting, ended) comes before FLAG, empty for pi's and pideck's
    sessions. With ``attentions`` (``rank_rows``), each row's STATE and how long it has been IN it
    follow NAME, its last turn's TOKENS come before DIRECTORY, and the first line of the agent's
    last MESSAGE ends the line."""
    rows = list(rows)
    columns = list(OVERVIEW_COLUMNS)
    lines = [row_cells(r, now_ms) for r in rows]
    if any(r.kind in AGENT_KINDS for r in rows):
        at = columns.index("FLAG")
        columns.insert(at, "STATUS")
        for row, cells in zip(rows, lines):
            cells.insert(at, "…" if row.pending else row.status or "")
    if attentions is not None:
        at = columns.index("NAME") + 1
        columns[at:at] = INBOX_COLUMNS
        columns[-1:-1] = ["TOKENS"]
        columns.append("MESSAGE")
        for row, cells in zip(rows, lines):
            state = attentions.get(row.path)
            cells[at:at] = ["…" if state is None else state.state, in_state(state, now_ms)]
            cells[-1:-1] = [token_cell(row)]
            cells.append(visible_controls(row.last_message or ""))
    table = [columns, *lines]
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in table)


# -- writes that go to another session ---------------------------------------------------------------


class WriteWatch:
    """Which other pideck session of a directory is being written while a screen shows another
    one (docs/tui.md#writes-that-go-elsewhere). A look costs a ``stat`` per session file of the
    directory (the folder is listed again only when it changed).

    """

    def __init__(self, cwd: str) -> None:
        from core.session.discovery import pideck_sessions_dir

        self.folder = pideck_sessions_dir(cwd)
        self._listing = Listing()
        self._keys: dict[Path, FileKey] = {}
        self._written: dict[Path, int] = {}  # sessions written since the first look: when (mtime_ns)
        self._heads: dict[Path, tuple[str | None, dict[str, Any] | None]] = {}
        self._first = True

    def look(self, here: Iterable[Path], conversations: bool = True) -> Elsewhere | None:
        """The session written most recently since the first look, other than those ``here``
        (the screen's own), with what to call it and what to open; None when there is none.
        ``conversations=False`` (the screen of a Claude Code or Codex conversation still going)
        leaves out the sessions bound to a conversation: another conversation's writes are not its
        agent's. Once the conversation has ended (Claude Code's ``/clear`` starts the next one in
        the same process), they count."""
        files = self._listing.files(self.folder)
        for path in files:
            try:
                key = file_key(os.stat(path))
            except OSError:
                continue
            if not self._first and self._keys.get(path) != key:
                self._written[path] = key[2]
            self._keys[path] = key
        self._first = False
        present, mine = set(files), {os.path.abspath(p) for p in here}
        for path in [p for p in self._written if p not in present]:
            del self._written[path]
        for _, path in sorted(((t, p) for p, t in self._written.items()), reverse=True):
            if os.path.abspath(path) in mine:
                continue
            if path not in self._heads:
                session_id, bound, whole = binding.session_head(path)
                if whole:  # (a session being made has its header before its conversation entry)
                    self._heads[path] = session_id, bound
            else:
                session_id, bound = self._heads[path]
            if bound is None:
                return Elsewhere(f"pideck session {(session_id or path.stem)[:8]}", str(path))
            if conversations:
                transcript = bound.get("transcript")
                label = binding.Conversation(bound["agent"], bound["agentSessionId"], "").short
                shown = transcript if isinstance(transcript, str) and os.path.isfile(transcript) else str(path)
                return Elsewhere(label, shown)
        return None
