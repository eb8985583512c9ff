"""A conversation's reading: what the agent's reader made of its transcript, held in memory, and
its cache in pideck's home for a fast re-open (docs/agent-conversations.md#what-pideck-keeps-of-a-conversation).

A sync reads the transcript's whole lines appended since the last one (a partial last line waits
for its newline), hands them to the agent's reader (``reader.py``) and keeps the events it answers
(a prompt, an answer, a change of the plan) in memory, in the reader's own compact form: the
conversation's log (``log.py``) makes its entries from them, so nothing is written as a pi-format
log or parsed back. pideck never writes beside the transcript; what it keeps to open the
conversation again fast, in this process or another, is one file under
``<pideck home>/conversations/``: the reader's state, the transcript bytes read, a digest of the
last 4 KiB before that point, the line count, the warnings and the events, rebuilt with
``json.loads`` (``CacheState``). A transcript that was replaced, truncated or rewritten is read again
from its start. Syncs hold a lock, so two pidecks following one conversation never write the cache
over each other.

A Claude Code conversation is more than one file: each subagent writes its own transcript in
``<session id>/subagents/`` beside the conversation's (docs/agent-conversations.md#subagents). The
reading reads them all into the one reader, the lines each sync finds merged in time order, and
keeps how far it read each one (``CacheState.subagents``).
"""

from __future__ import annotations

import atexit
import hashlib
import heapq
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Callable, cast

from core.collector import paused_collector
from core.config import places
from core.clock import iso_ms
from core.files import make_private_dirs, read_small_file, replace_private_file
from core.session.log import SCAN_MIN_BYTES
from core.session.parse import TooDeep, loads_line, too_deep
from core.session.split import SPLIT_MIN_BYTES, FarPart
from core.session.split import mode as split_mode
from core.session.writer import header_entry
from core.sources import copilot_db, opencode
from core.sources.claude import ClaudeReader
from core.sources.codex import CodexReader
from core.sources.copilot import CopilotReader
from core.sources.gemini import GeminiReader
from core.sources.in_database import split
from core.sources.qwen import QwenReader
from core.sources.reader import Event, Reader
from core.sources.sqlite_ro import Busy, NotNow, change_key
from core.sources import wanted as wanted_lines

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import TypedDict

    from core.session.entry import Header
    from core.sources.reader import AgentInfo, ReaderState

    class Kept(TypedDict):
        """A result the conversation's log was asked to keep (``ConversationLog.keep_derived``)."""

        covers: int  # the entries it was derived from: the first ``covers``
        value: object  # JSON

    class CacheState(TypedDict, total=False):
        """How far a reading has read its transcript: the cache file's first line, as JSON (its
        second line is the list of events). Empty until the first sync; ``reader``, ``tail`` and
        ``kinds`` are added as it is saved, ``long`` only while a too-long line is being passed
        over."""

        format: int  # FORMAT
        source: str  # the transcript's path (second: ``source_of`` reads it from the file's head)
        kind: str  # the agent's
        identity: list[int]  # the transcript's device and inode: another file at the path is read anew
        offset: int  # transcript bytes read: the end of the last whole line
        long: int  # bytes passed over of a too-long line starting at the offset
        lines: int  # transcript lines read
        warnings: list[str]  # about the transcript's lines, the first MAX_WARNINGS
        header: Header  # the session header the conversation's log answers (made at the first read)
        reader: ReaderState
        tail: str | None  # the digest of the BLOCK bytes before the offset
        kinds: str  # each event's first field, in order: the log's index without parsing the events
        sizes: list[int]  # the bytes of each event's JSON in the file: one is found without the others
        kept: dict[str, Kept]  # what the log kept of its folds, by name
        cursor: str  # of a conversation in a database: the part up to which every part was read
        fed: list[str]  # the parts after the cursor read already (an earlier one was still running)
        subagents: dict[str, Cursor]  # Claude Code: each subagent's transcript (by file name), how far it was read

    class Cursor(TypedDict, total=False):
        """How far one file of a conversation was read (the transcript's own is in ``CacheState``)."""

        identity: list[int]  # its device and inode
        offset: int
        long: int
        lines: int

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

READERS: dict[str, type[Reader]] = {"claude": ClaudeReader, "codex": CodexReader, "gemini": GeminiReader,
                                    "qwen": QwenReader, "opencode": opencode.OpencodeReader, "copilot": CopilotReader}
FORMAT = 6  # of the cache; another number is read again from the transcript's start
# (4: the events in the reader's form, no longer a pi-format mirror beside a state file;
# 5: Claude Code's subagents' transcripts read too, each with its offset;
# 6: every answer's tokens as a ``u`` event, compactions as ``c``: the answers' usage moved there)
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True).encode
"""An event as the cache keeps it (``json.dumps`` with these options would make an encoder per
event). ASCII escapes: no raw newline inside, and a lone surrogate a transcript held survives.
A big read encodes with msgspec instead (``_fast_encoder``)."""
SAVE_AFTER = 1 << 20
"""Transcript bytes read without a new event or warning after which the cache is written anyway
(``Reading._extend``): what a re-open may have to read again."""
SUFFIX = ".cache"
"""The cache's file name after the hash of the transcript's path (``.jsonl`` and ``.state`` were the
mirror of earlier versions, which the sweep removes: core/catalog/cache.py)."""
BLOCK = 4096
CHUNK = 8 << 20  # transcript bytes read at a time
MAX_LINE_BYTES = 32 << 20
"""The longest transcript line read (docs/agent-conversations.md#how-pideck-reads-them): a longer one,
finished or not, is passed over without being held, and skipped with a warning."""
MAX_WARNINGS = 200
META_BYTES = 1 << 16  # the most read of a subagent's meta.json

class _Replaced(Exception):
    """A subagent's transcript was replaced or cut, or the parts of a conversation in a database
    that were read are gone: the conversation is read again from its start."""


def subagents_folder(source: Path) -> Path:
    """Where Claude Code keeps the subagents' transcripts of the conversation at ``source``."""
    return source.with_suffix("") / "subagents"


class Synced:
    """What one sync did."""

    __slots__ = ("events", "not_now", "rebuilt", "warnings")

    def __init__(self) -> None:
        self.events = 0  # events the reader added
        self.not_now = False  # a database that could not be read at this moment (what was read stays)
        self.rebuilt = False  # the events were made anew from the transcript's start
        self.warnings: list[str] = []  # about lines of the transcript read now


class Reading:
    """The reading of the transcript at ``source`` (an agent conversation of ``kind``)."""

    def __init__(self, source: str | os.PathLike[str], kind: str, home: Path | None = None) -> None:
        self.source = Path(os.path.abspath(source))
        self.kind = kind
        self.database = split(self.source) if kind == "opencode" else None
        """The database and session id of a conversation kept in one (opencode's), else None: a
        transcript file, read by its lines."""
        digest = hashlib.sha256(os.fsencode(self.source)).hexdigest()[:32]
        folder = cache_home(home)
        self.path = folder / f"{digest}{SUFFIX}"
        self._lock_path = folder / f"{digest}.lock"
        self._old = (folder / f"{digest}.jsonl", folder / f"{digest}.state")  # (an earlier version's mirror)
        self.state: CacheState = {}
        self.reader: Reader = READERS[kind]()
        self.generation = 0
        """Bumped when the events are made anew (the transcript replaced, or another process's
        cache taken over): what a log built of the events before no longer holds."""
        self._events: list[Event | None] = []  # None: an event of the cache not parsed yet
        self._file = memoryview(b"")  # the cache file as loaded: the first ``len(self._at)`` events' JSON
        self._at: list[int] = []  # where each of those starts in it
        self._pieces: list[bytes] = []  # the JSON of each event made since (serialised once, as it was made)
        self._bytes = 0  # of all the events' JSON
        self._synced_at: tuple[object, ...] | None = None  # the transcript as this object last read it
        self.side = subagents_folder(self.source) if kind == "claude" else None
        """The subagents' folder (Claude Code's alone)."""
        self._side_at: object = None  # the folder and the watched subagent files as this object last read them
        self._watch: list[str] = []  # the subagent files looked at each sync: those still running
        self._metas: dict[str, int] = {}  # each meta.json's inode when it was last read (it is replaced by a rename)
        self._unsaved = 0  # transcript bytes read since the cache was last written
        self._session_db = copilot_db.database_of(self.source) if kind == "copilot" else None
        """Copilot's session database beside the log: the truth about its plan (``_reconcile``)."""
        self._session_db_at: tuple[object, ...] | None = None  # the database as last read (``change_key``)
        self._folds: dict[str, Callable[[Reading], tuple[int, object] | None]] = {}  # ``keep_with_cache``
        self._piece: Callable[[Event], bytes] = _ascii_piece  # an event's JSON (msgspec's once a big read loaded it)

    @property
    def info(self) -> AgentInfo:
        """The agent object as the reader has it so far (kind, session id, cwd, version, model,
        status, last message, tokens)."""
        return self.reader.info

    @property
    def name(self) -> str | None:
        """What the conversation is called: the first line of its first prompt, once there is one."""
        return self.reader.name

    @property
    def count(self) -> int:
        """How many events the reader made."""
        return len(self.state.get("kinds", ""))

    @property
    def kinds(self) -> str:
        """Each event's kind (``reader.EVENT_KINDS``), in order."""
        return self.state.get("kinds", "")

    @property
    def cache_bytes(self) -> int:
        """About how big the cache is: what keeping a fold in it is weighed against."""
        return self._bytes

    def event(self, i: int) -> Event:
        """The ``i``-th event (from 0). An event loaded from the cache is parsed when it is first
        asked for: a re-open whose folds were kept parses only the few a view shows (the newest
        answer, the last entry's time), not the whole conversation."""
        event = self._events[i]
        if event is None:
            at = self._at[i]
            event = self._events[i] = cast("Event", json.loads(bytes(self._file[at:at + self.state["sizes"][i]])))
        return event

    def last_activity_ms(self, mtime_ms: int | None) -> tuple[int | None, bool]:
        """When the agent last wrote, and whether that is the time of a line (True) or only the
        file's modification time (False: no line said when, docs/agent-conversations.md#the-agent-object).
        A line's own time wins: a transcript copied, synced or restored is as old as its lines. It
        is never later than the file's last change (a clock ahead of the disk's)."""
        from core.clock import iso_ms

        line_ms = iso_ms(self.reader.last_ts)
        if line_ms is None:
            return mtime_ms, False
        return (line_ms if mtime_ms is None else min(line_ms, mtime_ms)), True

    def side_moved(self) -> bool:
        """Whether the subagents' folder or a running subagent's transcript changed since the last
        sync (a follower that stats the transcript alone would not see it): a stat of the folder,
        and one per running subagent."""
        return self.side is not None and self._side_key() != self._side_at

    def running_files(self) -> list[Path]:
        """The transcripts of the subagents still running (their lines are the conversation's
        newest while the parent waits for them)."""
        return [self.side / name for name in self._watch] if self.side is not None else []

    @property
    def warnings(self) -> list[str]:
        """Every warning about the transcript's lines read so far, in file order."""
        return list(self.state.get("warnings", []))

    @property
    def header(self) -> Header | None:
        return self.state.get("header")

    def forget(self) -> None:
        """Remove the cache, the transcript being gone (docs/caches.md): kept, it would only take
        room, as nothing reads it again. A pideck still following the transcript finds no file to
        read and says it is gone."""
        with self._locked():
            for path in (self.path, *self._old):
                try:
                    path.unlink()
                except OSError:
                    pass
        try:
            self._lock_path.unlink()
        except OSError:
            pass

    def sync(self) -> Synced:
        """Read what the transcript gained since the last sync. A transcript this object read as it
        is now costs one stat (a follower asks at every refresh). What this object holds goes on
        from where it is; only a first sync, or one that finds the transcript replaced, looks at the
        cache (another process may have read it already). A conversation in a database is looked
        at again when the database or its WAL changed; Copilot's, when its session database did too;
        Claude Code's, when its subagents' folder or a running subagent's transcript did."""
        key = self._change_key()
        side = self._side_key()
        session_db = change_key(self._session_db) if self._session_db is not None else None
        if key == self._synced_at and side == self._side_at and session_db == self._session_db_at:
            return Synced()
        make_private_dirs(self.path.parent)
        with self._locked(), paused_collector():  # (a read makes events by the thousand, none cyclic)
            st = os.stat(self.database[0] if self.database else self.source)
            side = self._side_key()
            known = bool(self.state)
            try:
                if known and self._holds(self.state, st):
                    synced = self._extend(st)
                elif (loaded := self._load(st)) is not None:
                    self._take(*loaded)
                    if known:
                        self.generation += 1
                    synced = self._extend(st)
                    synced.rebuilt = known
                else:
                    if known:
                        self.generation += 1
                    synced = self._rebuild(st)
            except _Replaced:
                self.generation += 1
                synced = self._rebuild(st)
            if self._session_db is not None:
                self._reconcile(synced, session_db)
        # (a database that could not be read now is looked at again next time, changed or not)
        self._synced_at = None if synced.not_now else key
        if isinstance(side, tuple) and side[2] != self._watch:
            # (a subagent found running now: its file as it is now, what was read of it; a line
            # appended since is news at the next one, or when the folder or the transcript moves)
            side = self._side_key()
        self._side_at = side
        return synced

    def _change_key(self) -> tuple[object, ...]:
        if self.database is not None:
            return change_key(self.database[0])
        st = os.stat(self.source)
        return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns

    def _side_key(self) -> object:
        """What a sync looks at of the subagents: the folder (a new subagent, a meta.json
        replaced) and the files of those still running (a file that grows leaves its folder as it
        was). Nothing for a conversation without the folder: one stat."""
        if self.side is None:
            return None
        try:
            folder = os.stat(self.side)
        except OSError:
            return None
        files: list[tuple[int, int, int] | None] = []
        for name in self._watch:
            try:
                st = os.stat(self.side / name)
                files.append((st.st_ino, st.st_size, st.st_mtime_ns))
            except OSError:
                files.append(None)
        return folder.st_ino, folder.st_mtime_ns, list(self._watch), files

    def _reconcile(self, synced: Synced, session_db: tuple[object, ...] | None) -> None:
        """Copilot's plan as its session database holds it, when that differs from the plan read
        from the log (docs/agent-conversations.md#github-copilot-cli): read when the database or the
        log changed, and at the first sync of this object (it may have changed while no pideck
        looked). The event it makes joins the others, as of the last line read."""
        if session_db == self._session_db_at and not synced.events and not synced.rebuilt:
            return
        if session_db is None or session_db[0] is None or not isinstance(self.reader, CopilotReader) \
                or self._session_db is None:  # (no database yet: nothing to read)
            self._session_db_at = session_db
            return
        try:
            plan = copilot_db.read_plan(self._session_db)
        except Busy:
            return  # (Copilot held its lock throughout: asked again at the next sync)
        self._session_db_at = session_db  # (read, or unreadable as it is: asked again once it changes)
        events = self.reader.reconcile(plan)
        if events:
            self._keep(events, synced)
            self.save()

    # -- the cache ------------------------------------------------------------------------------

    def _holds(self, state: CacheState, st: os.stat_result) -> bool:
        """Whether ``state`` still describes the transcript: the same file, not shrunk, the same
        bytes before the point it reached."""
        same = state.get("format") == FORMAT and state.get("source") == os.fsdecode(self.source) \
            and state.get("kind") == self.kind and state.get("identity") == [st.st_dev, st.st_ino]
        if self.database is not None:
            return same and isinstance(state.get("cursor"), str) and isinstance(state.get("fed"), list)
        return same and isinstance(state.get("offset"), int) and isinstance(state.get("long", 0), int) \
            and state["offset"] + state.get("long", 0) <= st.st_size \
            and state.get("tail") == self._tail_digest(state["offset"])

    def _load(self, st: os.stat_result) -> tuple[CacheState, bytes, list[int]] | None:
        """The cache's state, the file and where each event's JSON starts in it, when it still
        describes the transcript, else None. (The reader's part is taken as this FORMAT's readers
        saved it: the file is pideck's own.) The events are one JSON array, an event a line, whose
        sizes the state says: ``json.loads`` of the second line gives them all, and one event is
        parsed alone when only it is asked for (``event``)."""
        try:
            data = self.path.read_bytes()
            cut = data.index(b"\n")
            state = json.loads(data[:cut])
        except (OSError, ValueError):
            return None
        if not isinstance(state, dict) or not self._holds(cast("CacheState", state), st) \
                or not self._sides_hold(cast("CacheState", state)) or not isinstance(state.get("kinds"), str) or not isinstance(state.get("sizes"), list) \
                or len(state["sizes"]) != len(state["kinds"]):
            return None
        at, starts = cut + 2, []  # (past the newline and the array's "[")
        for size in state["sizes"]:
            starts.append(at)
            at += size + 2  # (and the ",\n" after it)
        if data[cut + 1:cut + 2] != b"[" or data[at - 2 if starts else at:] != b"]\n" \
                or any(data[start - 1] not in b"[\n" for start in starts[-1:]):
            return None
        return cast("CacheState", state), data, starts

    def _sides_hold(self, state: CacheState) -> bool:
        """Whether each subagent transcript the cache read is still the file it read, not shrunk."""
        for name, cursor in state.get("subagents", {}).items():
            try:
                st = os.stat(self.side / name) if self.side is not None else None
            except OSError:
                return False
            if st is None or cursor.get("identity", [st.st_dev, st.st_ino]) != [st.st_dev, st.st_ino] \
                    or cursor.get("offset", 0) + cursor.get("long", 0) > st.st_size:
                return False
        return True

    def _take(self, state: CacheState, data: bytes, starts: list[int]) -> None:
        self.state = state
        self.reader = READERS[self.kind](state["reader"])
        self._file, self._at, self._pieces = memoryview(data), starts, []
        self._bytes = sum(state["sizes"])
        self._events = [None] * len(starts)

    def _tail_digest(self, offset: int) -> str | None:
        if self.database is not None:
            return None  # (a database is rewritten in place: whether it is the same one is its inode)
        try:
            with open(self.source, "rb") as f:
                f.seek(max(0, offset - BLOCK))
                return hashlib.sha256(f.read(min(offset, BLOCK))).hexdigest()
        except OSError:
            return None

    def save(self) -> None:
        """Write the cache: the state, then the events as one JSON array (each event was serialised
        once, when the reader made it). A cache that cannot be written costs the next open a full
        read, nothing else."""
        state = self.state
        for name, fold in self._folds.items():
            got = fold(self)
            if got is not None:
                state.setdefault("kept", {})[name] = {"covers": got[0], "value": got[1]}
        state["reader"] = self.reader.save()
        state["tail"] = self._tail_digest(state["offset"])
        head = json.dumps(state, separators=(",", ":"), ensure_ascii=True).encode("ascii")
        self._unsaved = 0
        try:
            parts: list[bytes | memoryview] = [head, b"\n["]
            if self._at:  # (the events loaded from the cache, as they were written)
                parts.append(self._file[self._at[0]:self._at[-1] + self.state["sizes"][len(self._at) - 1]])
            if self._pieces:
                parts += [b",\n" if self._at else b"", b",\n".join(self._pieces)]
            parts.append(b"]\n")
            replace_private_file(self.path, parts)
        except OSError:
            pass

    def keep(self, name: str, covers: int, value: object) -> None:
        """Keep a result the log derived from its first ``covers`` entries, and write the cache."""
        self.state.setdefault("kept", {})[name] = {"covers": covers, "value": value}
        with self._locked():
            self.save()

    def kept(self, name: str) -> Kept | None:
        return self.state.get("kept", {}).get(name)

    def keep_with_cache(self, name: str, fold: Callable[[Reading], tuple[int, object] | None]) -> None:
        """From now on, at every write of the cache, keep what ``fold(self)`` gives under ``name``
        (the events it covers and a JSON value; None: nothing to keep): a result derived from the
        events is then kept as fresh as they are, at no write of its own (the catalog's usage of a
        conversation: core/usage/of_log.py ``ledger_of_reading``)."""
        self._folds[name] = fold

    # -- reading the transcript -----------------------------------------------------------------

    def _rebuild(self, st: os.stat_result) -> Synced:
        self.reader = READERS[self.kind]()
        self.state = {"format": FORMAT, "source": os.fsdecode(self.source), "kind": self.kind,
                      "identity": [st.st_dev, st.st_ino], "offset": 0, "lines": 0, "warnings": [], "kinds": "",
                      "sizes": []}
        if self.database is not None:
            self.state["cursor"], self.state["fed"] = "", []
        self._events, self._file, self._at, self._pieces, self._bytes = [], memoryview(b""), [], [], 0
        self._metas = {}
        synced = self._read_all(st, True)
        info = self.reader.info
        self.state["header"] = header_entry(str(info.get("sessionId") or self.source.stem),
                                            self.reader.first_ts or "1970-01-01T00:00:00.000Z",
                                            str(info.get("cwd") or self._cwd()))
        self.save()
        synced.rebuilt = True
        return synced

    def _cwd(self) -> str:
        """The directory where the transcript names none: Gemini CLI keeps it beside its chats."""
        if self.kind == "gemini":
            from core.sources.discovery import project_root

            return project_root(self.source.parent.parent) or ""
        if self.kind == "copilot":
            from core.sources.discovery import copilot_workspace_cwd

            return copilot_workspace_cwd(self.source.parent) or ""
        return ""

    def _extend(self, st: os.stat_result) -> Synced:
        """Read what the transcript gained. The cache is written when the lines made an event or a
        warning, or once ``SAVE_AFTER`` bytes went by without one: most of an agent's lines (tool
        calls, their output) make none, and writing the cache for each would rewrite every event
        for nothing. A re-open then reads again only those lines."""
        relist = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) != self._synced_at \
            or self._side_key() != self._side_at
        synced = self._read_all(st, relist)
        if synced.events or synced.warnings or self._unsaved >= SAVE_AFTER:
            self.save()
        return synced

    def _read_all(self, st: os.stat_result, relist: bool) -> Synced:
        """Read what the transcript and, for Claude Code, its subagents' transcripts gained. With
        ``relist`` (the transcript or the subagents' folder changed) the folder is listed (a new
        subagent's file, a meta.json rewritten); else only the running subagents' files are looked
        at. The lines of more than one file are told to the reader in the order of their times
        (each file's own order kept), as far as a follower can: what one file had at this sync
        may be older than what another had at the last. A conversation in a database is read by
        its parts instead (``_read_database``)."""
        if self.database is not None:
            return self._read_database(self.state)
        state, synced = self.state, Synced()
        sides = state.setdefault("subagents", {}) if self.side is not None else {}
        if relist and self.side is not None:
            self._list_side(sides)
            self._keep_aside(synced)
        grown: list[str] = []
        for name in sides if relist else [n for n in self._watch if n in sides]:
            try:
                fst = os.stat(self.side / name) if self.side is not None else None
            except OSError:
                continue
            if fst is None:
                continue
            cursor = sides[name]
            if cursor.setdefault("identity", [fst.st_dev, fst.st_ino]) != [fst.st_dev, fst.st_ino] \
                    or cursor.get("offset", 0) + cursor.get("long", 0) > fst.st_size:
                raise _Replaced(name)
            if cursor.get("offset", 0) != fst.st_size or cursor.get("long"):
                grown.append(name)
        main = state["offset"] != st.st_size or bool(state.get("long"))
        before = state["offset"] + sum(sides[n].get("offset", 0) for n in grown)
        if not sides:
            if main:
                self._read(state, self.source, state, synced)
        else:
            streams: list[list[tuple[int, int, int, int, object]]] = []
            speakers: list[str | None] = []
            wheres: list[str] = []
            for i, (speaker, path, cursor, where) in enumerate(
                    [*([(None, self.source, cast("Cursor", state), "")] if main else []),
                     *((name[len("agent-"):-len(".jsonl")], self.side / name, sides[name], f"{name} ")
                       for name in grown if self.side is not None)]):
                got: list[tuple[int, object]] = []
                cursor.setdefault("offset", 0)
                cursor.setdefault("lines", 0)
                self._read(state, path, cursor, synced, got, where)
                key, stream = 0, []
                for seq, (number, line) in enumerate(got):
                    ms = iso_ms(line.get("timestamp")) if isinstance(line, dict) else None
                    key = key if ms is None else ms
                    stream.append((key, i, seq, number, line))
                streams.append(stream)
                speakers.append(speaker)
                wheres.append(where)
            try:
                for _, i, _, number, line in heapq.merge(*streams):
                    self.reader.speaker = speakers[i]
                    self._feed_value(line, f"{wheres[i]}line {number}", state, synced)
            finally:
                self.reader.speaker = None
        self._unsaved += state["offset"] + sum(sides[n].get("offset", 0) for n in grown) - before
        running = {f"agent-{s['id']}.jsonl" for s in self.reader.info.get("subagents", []) if s["status"] == "running"}
        self._watch = [name for name in sides if name in running or name in grown]
        self.reader.settle()
        self._keep_aside(synced)
        return synced

    def _keep_aside(self, synced: Synced) -> None:
        """Keep the events the reader made outside ``feed`` (a subagent's meta.json read)."""
        if self.reader.aside:
            events, self.reader.aside = self.reader.aside, []
            self._keep(events, synced)

    def _list_side(self, sides: dict[str, Cursor]) -> None:
        """List the subagents' folder: a new transcript gets a cursor at its start, and the reader is
        told each meta.json that is new or was replaced since it was last read."""
        assert self.side is not None
        try:
            entries = list(os.scandir(self.side))
        except OSError:
            return
        metas: list[tuple[int, str, int]] = []
        for entry in entries:
            name = entry.name
            if not name.startswith("agent-"):
                continue
            if name.endswith(".jsonl") and name not in sides and _is_file(entry):
                sides[name] = {"offset": 0, "lines": 0}
            elif name.endswith(".meta.json") and self._metas.get(name) != entry.inode():
                try:
                    metas.append((entry.stat().st_mtime_ns, name, entry.inode()))
                except OSError:
                    continue
        for _, name, inode in sorted(metas):  # (a new subagent's meta.json is written before its transcript)
            try:
                meta = json.loads(read_small_file(self.side / name, META_BYTES))
            except (OSError, ValueError, RecursionError):
                continue  # (replaced by a rename, never seen half written: an unreadable one is read next time)
            self._metas[name] = inode
            self.reader.subagent(name[len("agent-"):-len(".meta.json")], meta)

    def _read(self, state: CacheState, path: Path | None = None, at_: Cursor | None = None,
              synced: Synced | None = None, sink: list[tuple[int, object]] | None = None, where: str = "") -> Synced:
        """Whole lines of the file at ``path`` (the transcript, or a subagent's) from the cursor's
        ``offset`` on (``at_``: the transcript's is ``state``), told to the reader, or with ``sink``
        parsed into it with their numbers for the caller to tell; the events the reader answers are
        kept. The cursor moves past every line read; ``where`` names the file in warnings.

        Time and memory stay linear in what is read: an unfinished line is held as its pieces (never
        copied again per chunk), and a line longer than ``MAX_LINE_BYTES`` is not held at all but
        passed over to its newline, where it is skipped with a warning. ``state["long"]`` keeps how
        much of such a line has been passed over, so the next sync goes on from there."""
        synced = synced if synced is not None else Synced()
        cursor = at_ if at_ is not None else cast("Cursor", state)
        wanted = wanted_lines.WANTED.get(self.kind)
        long = cursor.pop("long", 0)  # bytes passed over of a too-long line starting at the offset
        with open(path or self.source, "rb") as f:
            at = f.seek(cursor["offset"] + long)
            size = os.fstat(f.fileno()).st_size  # (what grows meanwhile is the next sync's)
            # (a few lines are parsed whole: not worth loading msgspec for, as for a session's)
            decode = _decoder(self.kind) if size - at >= SCAN_MIN_BYTES else None
            if decode is not None and self._piece is _ascii_piece:
                self._piece = _fast_encoder()
            pieces: list[bytes] = []  # an unfinished line's bytes so far
            held = 0
            far = self._far_part(path or self.source, f, at, size, wanted) if not long else None
            try:
                for stop in (far.begin, size) if far is not None else (size,):
                    at, long, held = self._read_to(f, at, stop, long, pieces, held, wanted, decode, state, cursor,
                                                   synced, sink, where)
                    if far is not None and stop == far.begin:
                        at = self._take_far(far, f, at, bool(pieces) or bool(long), size, decode, state, cursor,
                                            synced, sink, where)
                        far.end_now()  # (still running when a piece was refused)
            finally:
                if far is not None:
                    far.end_now()
        if long:
            cursor["long"] = long
        return synced

    def _far_part(self, path: Path, f: BinaryIO, at: int, size: int, wanted: re.Pattern[bytes] | None) -> FarPart | None:
        """A second process looking through the far part of a big first read for the lines the
        reader wants (core/sources/wanted.py), while this one reads the near part; None when the
        read is too small for it to pay (``PIDECK_SPLIT`` as for a session's read), or it
        cannot start."""
        how = split_mode()
        if wanted is None or how == "off" or size - at < (2 if how == "always" else SPLIT_MIN_BYTES):
            return None
        share = max(0.5, 1 - wanted_lines.NEAR_BYTES / (size - at))  # (half of a read too small to pay: the tests')
        return FarPart.start(path, at, size, os.fstat(f.fileno()).st_ino, wanted_lines.CHILD, share,
                             (self.kind, str(MAX_LINE_BYTES)))

    def _take_far(self, far: FarPart, f: BinaryIO, at: int, pending: bool, size: int,
                  decode: Callable[[bytes], object] | None, state: CacheState, cursor: Cursor, synced: Synced,
                  sink: list[tuple[int, object]] | None, where: str) -> int:
        """The wanted lines the child finds, told to the reader as if read here a piece at a time,
        as the child sends them, the cursor moved past each piece: where to read on from. When
        the near part did not end where the far part begins (the file changed meanwhile, a line
        still open), nothing is taken; when the child stops (done, failed, or before a line too
        long for it) or sends what is not the next piece, what is left is read here."""
        if pending or at != far.begin or cursor["offset"] != far.begin:
            return at
        for piece in far.values():
            taken = wanted_lines.checked(piece, cursor["offset"], size)
            if taken is None:
                break
            end, count, found = taken
            first = cursor["lines"]
            for number, raw in found:
                self._feed_line(first + number, raw, decode, state, synced, sink, where)
            cursor["lines"], cursor["offset"] = first + count, end
        return f.seek(cursor["offset"])

    def _read_to(self, f: BinaryIO, at: int, size: int, long: int, pieces: list[bytes], held: int,
                 wanted: re.Pattern[bytes] | None, decode: Callable[[bytes], object] | None, state: CacheState,
                 cursor: Cursor, synced: Synced, sink: list[tuple[int, object]] | None,
                 where: str) -> tuple[int, int, int]:
        """``_read``'s loop from ``at`` to ``size``: ``(at, long, held)`` where it stopped."""
        # Never ask for more than the file holds: ``read(n)`` allocates n bytes first, and a
        # follower syncing small files 8 MiB at a time would grow its heap for nothing.
        while at < size and (chunk := f.read(min(CHUNK, size - at))):
            at += len(chunk)
            end = chunk.rfind(b"\n")
            if end < 0:
                if long:
                    long += len(chunk)
                elif held + len(chunk) > MAX_LINE_BYTES:
                    long, held = held + len(chunk), 0
                    pieces.clear()
                else:
                    pieces.append(chunk)
                    held += len(chunk)
                continue
            begin = 0  # where the chunk's whole lines not told yet start
            if long or pieces:  # the line started before the chunk ends here
                begin = chunk.find(b"\n") + 1
                # (too long whether it grew past the limit in an earlier chunk or in this one: what
                # becomes of a line never depends on where the reads fall, nor where a read began)
                if long or held + begin - 1 > MAX_LINE_BYTES:
                    self._warn(state, synced, f"{where}line {cursor['lines'] + 1}: longer than {MAX_LINE_BYTES >> 20} MiB (skipped)")
                    cursor["lines"] += 1
                    cursor["offset"] += (long or held) + begin
                    long = 0
                else:  # it alone is joined, not the whole chunk
                    line = b"".join((*pieces, chunk[:begin]))
                    self._feed_lines(line, 0, len(line) - 1, wanted, decode, state, cursor, synced, sink, where)
                pieces.clear()
                held = 0
            self._feed_lines(chunk, begin, end, wanted, decode, state, cursor, synced, sink, where)
            if end + 1 < len(chunk):
                pieces[:], held = [chunk[end + 1:]], len(chunk) - end - 1
        return at, long, held

    def _read_database(self, state: CacheState) -> Synced:
        """The parts of the conversation settled since the last look, told to the reader in the
        order of their ids; a part still running is passed over and looked at again next time (the
        cursor stops before it). Then the plan as the database's todo table holds it now. A
        database that cannot be read at this moment keeps what was read (``sqlite_ro.NotNow``)."""
        synced = Synced()
        db, session_id = cast("tuple[Path, str]", self.database)
        try:
            found = opencode.rows(db, session_id, state["cursor"])
        except NotNow:
            synced.not_now = True
            return synced
        if found.session is None:
            return synced  # (not there yet, or deleted: what was read stays)
        if not found.cursor_found:
            raise _Replaced(session_id)  # (the parts read are gone: the sync reads anew)
        reader = cast(opencode.OpencodeReader, self.reader)
        reader.feed({"type": "session", **found.session._asdict()})
        fed, waiting = set(state["fed"]), False
        later = opencode.moved_on(found.parts)
        for line in found.parts:
            part_id = cast(str, line["id"])
            if part_id not in fed:
                if not opencode.settled(line) and part_id not in later:
                    waiting = True
                    continue
                self._feed_value(line, f"part {part_id}", state, synced)
                fed.add(part_id)
            if not waiting:
                state["cursor"] = part_id
                fed.discard(part_id)
        state["fed"] = sorted(fed)
        # (its entries are its parts, every one, as ``pideck sessions`` counts them: one count in every view)
        state["lines"] = found.session.parts
        self._keep(reader.table(found.todos, found.todos_ms), synced)
        return synced

    def _feed_lines(self, data: bytes, begin: int, end: int, wanted: re.Pattern[bytes] | None,
                    decode: Callable[[bytes], object] | None, state: CacheState, cursor: Cursor, synced: Synced,
                    sink: list[tuple[int, object]] | None = None, where: str = "") -> None:
        """Tell the reader the lines of ``data[begin:end]`` (``end``: the newline of the last), or
        with ``sink``, put them there parsed; the cursor moves past them. ``decode``: what the
        reader reads of a line, where it has a decoder of its own (``_decoder``)."""
        if begin > end:  # (no line: the chunk's one newline ended the line held before it)
            return
        first = cursor["lines"]
        lines, count = wanted_lines.numbered_lines(data, begin, end, first, wanted)
        cursor["lines"] = first + count
        cursor["offset"] += end + 1 - begin
        for number, raw in lines:
            self._feed_line(number, raw, decode, state, synced, sink, where)

    def _feed_line(self, number: int, raw: bytes, decode: Callable[[bytes], object] | None, state: CacheState,
                   synced: Synced, sink: list[tuple[int, object]] | None, where: str) -> None:
        """Tell the reader line ``number`` (or put it in ``sink``), or warn why it is skipped."""
        if not raw.strip():
            return
        if len(raw) > MAX_LINE_BYTES:
            self._warn(state, synced, f"{where}line {number}: longer than {MAX_LINE_BYTES >> 20} MiB (skipped)")
            return
        try:
            line = loads_line(raw) if decode is None else _decoded(raw, decode)
        except (ValueError, RecursionError) as exc:
            self._warn(state, synced, f"{where}line {number}: {_why(exc)} (skipped)")
            return
        if sink is not None:
            sink.append((number, line))
        else:
            self._feed_value(line, f"{where}line {number}", state, synced)

    def _feed_value(self, line: object, where: str, state: CacheState, synced: Synced) -> None:
        """Tell the reader one parsed line (``where`` names it in a warning) and keep its events."""
        try:
            events = self.reader.feed(line)
            if self.reader.bills:
                events, self.reader.bills = self.reader.bills + events, []
            if isinstance(line, dict):
                self.reader.seen_at(line.get("timestamp"))
        except (TypeError, KeyError, AttributeError, ValueError) as exc:  # a shape no reader foresaw
            self.reader.notes.clear()
            self.reader.bills.clear()
            self._warn(state, synced, f"{where}: not understood ({type(exc).__name__}; skipped)")
            return
        for note in self.reader.notes:
            self._warn(state, synced, f"{where}: {note}")
        self.reader.notes.clear()
        if events:
            self._keep(events, synced)

    def _keep(self, events: list[Event], synced: Synced) -> None:
        """Keep the events the reader made."""
        state = self.state
        state["kinds"] += "".join(cast(str, event[0]) for event in events)
        self._events += events
        encode, pieces, sizes = self._piece, self._pieces, state["sizes"]
        for event in events:
            piece = encode(event)
            pieces.append(piece)
            self._bytes += len(piece)
            sizes.append(len(piece))
        synced.events += len(events)

    def _warn(self, state: CacheState, synced: Synced, text: str) -> None:
        synced.warnings.append(text)
        if len(state["warnings"]) < MAX_WARNINGS:
            state["warnings"].append(text)

    def _locked(self) -> _Lock:
        return _Lock(self._lock_path)


class _Lock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def __enter__(self) -> None:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl is not None:
            fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
            self.fd = None


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


_SOURCE = re.compile(rb'"source"\s*:\s*("(?:[^"\\]|\\.)*")')


def source_of(cache_file: Path) -> str | None:
    """The transcript a cache names, from its head (``_rebuild`` writes ``source`` second), without
    reading the rest: a sweep asks this of every cache."""
    try:
        with open(cache_file, "rb") as fh:
            head = fh.read(4096)
        match = _SOURCE.search(head)
        value = json.loads(match.group(1)) if match else None
    except (OSError, ValueError):
        return None
    return value if isinstance(value, str) else None


def _ascii_piece(event: Event) -> bytes:
    return _encode(event).encode("ascii")


def _fast_encoder() -> Callable[[Event], bytes]:
    """An event's JSON as msgspec writes it, a tenth of the time of ``_encode`` (UTF-8: no raw
    newline inside either, and ``json.loads`` reads it back the same; an event holds no NaN, which
    msgspec would write as null). A lone surrogate, which UTF-8 cannot hold, is escaped by
    ``_encode``."""
    import msgspec

    encode = msgspec.json.Encoder().encode

    def piece(event: Event) -> bytes:
        try:
            return encode(event)
        except UnicodeEncodeError:
            return _ascii_piece(event)

    return piece


def _decoder(kind: str) -> Callable[[bytes], object] | None:
    """What the reader of ``kind`` reads of a line, decoded without the rest, where it has such a
    decoder (Claude Code's: most of a user or assistant line is what the reader never reads)."""
    if kind != "claude":
        return None
    from core.sources.claude_lines import line_of

    return line_of


def _decoded(raw: bytes, decode: Callable[[bytes], object]) -> object:
    """``loads_line(raw)`` as far as the reader reads it: ``decode``'s answer, or where msgspec
    refuses the line (``claude_lines.REFUSED``), the line parsed in full."""
    from core.sources.claude_lines import REFUSED

    if too_deep(raw):
        raise TooDeep()
    try:
        return decode(raw)
    except REFUSED:
        return loads_line(raw, depth_checked=True)


def _why(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deep"
    return str(exc) if isinstance(exc, TooDeep) else "not JSON"


def cache_home(home: Path | None = None) -> Path:
    """Where the caches live: ``<pideck home>/conversations``; a temporary folder of this process
    when pideck's home cannot be written (a read-only home still lets a person look)."""
    folder = (home or places.pideck_home()) / "conversations"
    try:
        make_private_dirs(folder)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    global _FALLBACK
    if _FALLBACK is None:
        _FALLBACK = Path(tempfile.mkdtemp(prefix="pideck-conversations-"))
        atexit.register(shutil.rmtree, _FALLBACK, True)  # (this process's caches, of no use to another)
    return _FALLBACK


_FALLBACK: Path | None = None
