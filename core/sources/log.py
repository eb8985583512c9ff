"""An agent's conversation as a session log, read-only: the events its reader made of the
transcript (``reading.py``), held in memory behind the log protocols the Deck and the views are
written against (``core/session/interface.py``), and the agent object (who, where, doing what,
tokens) (docs/agent-conversations.md).

The log is one branch: the ``n``-th event is the entry with id ``f"{n:08x}"`` whose parent is the
one before. Its index (``core/session/index.py``) is built from the events' kinds, its records load
the entry of an event when asked (``reader.entry_of``), so the Deck, the activity, the timeline and
the time travel (``core/session/cut.py``) read a conversation as they read a session, and no entry
is ever serialised or parsed on the way. Each refresh first has the reading take in what the
transcript gained, then adds the new events' entries the way a session log adds what another
writer appended.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from core.files import not_regular
from core.session import branch as branches
from core.session.branch import Picked, Wanted
from core.session.errors import NotASession, ReadOnlySession
from core.session.index import EntryIndex
from core.session.log import Refresh
from core.session.records import ById, EntryRecord, RecordList, Records
from core.session.writer import iso_timestamp
from core.sources.detect import detect_kind
from core.sources.discovery import LiveSessions, claude_live_folder, conversation_status, source_stat
from core.sources.plan import AGENT_NAMES
from core.sources.reader import AGENT_ENDED, EVENT_KINDS, entry_id, entry_of
from core.sources.reading import Reading

if TYPE_CHECKING:
    from core.session.entry import AgentObject, Entry, Header, Tokens


def agent_read_only(kind: str) -> str:
    """The refusal of a write to an agent's conversation, and what works instead
    (docs/agent-conversations.md#read-only): a Claude Code or Codex conversation gets a pideck
    session of its own, where the same commands write, at the agent's first pideck tool call or Stop
    hook; beside any other, the person can keep a session of their own."""
    from core.sources.binding import AGENTS  # (a refusal is rare: not on the open's path)

    name = AGENT_NAMES.get(kind, kind)
    instead = (f"Commands write to its pideck session, which starts with {name}'s first pideck tool call or "
               f"Stop hook (`pideck install {kind}` sets them up)." if kind in AGENTS
               else "For notes of your own beside it, start a pideck session: `pideck --new`.")
    return (f"This is {name}'s own conversation: pideck follows it read-only and never "
            f"writes to an agent's files. Nothing was changed. {instead}")


class ConversationLog:
    """A read-only session log over what the reader of an agent's transcript made of it."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self._live = LiveSessions()  # Claude Code's word on whether it runs
        self._told = False  # the transcript's warnings so far are among the log's
        self.generation = 0
        """Incremented each time the events were made anew (the transcript replaced, truncated or
        rewritten): records of an older generation belong to a reading that is gone."""
        self._start()

    def _start(self) -> None:
        self._index = EntryIndex()
        self._records = Records(self._index, self._load)
        self._entries: dict[int, Entry] = {}  # position -> its entry, made when first asked for
        self._warnings: list[str] = []
        self._of = self.reading.generation  # the reading's generation the index was built of
        self._covers: dict[str, int] = {}  # what was kept (or found kept) of each fold: the entries it covers

    @classmethod
    def open_transcript(cls, path: str | os.PathLike[str], kind: str | None = None) -> ConversationLog:
        """Follow the transcript at ``path``; raises ``NotASession`` when no reader knows it."""
        source = Path(path)
        mode = source_stat(source).st_mode
        if (what := not_regular(mode)) is not None:
            raise NotASession(f"{source} is {what}, not a conversation")
        kind = kind or detect_kind(source)
        if kind is None:
            raise NotASession(f"{source} is not a conversation of Claude Code, Codex or Gemini CLI")
        reading = Reading(source, kind)
        reading.sync()  # (first, so that a transcript that cannot be read is an error, not an empty log)
        log = cls(reading)
        log.refresh()
        return log

    def refresh(self) -> Refresh:
        """Have the reading take in what the transcript gained, then add the entries of the events
        it made; the transcript's warnings join the log's (all of them after a read anew)."""
        reading = self.reading
        try:
            fresh = reading.sync().warnings
        except FileNotFoundError:
            fresh = []  # the transcript is gone: what was read stays on screen
        except OSError as exc:
            fresh = [f"{reading.source}: cannot be read ({exc.strerror or exc})"]
        result = Refresh()
        if reading.generation != self._of:
            self.generation += 1
            self._start()
            result.reset = True
        start = len(self._index)
        self._add(start, reading.count)
        result.new = self._records.picked(range(start, len(self._index)))
        told = reading.warnings if result.reset or not self._told else fresh
        self._told = True
        self._warnings.extend(told)
        result.warnings = told
        return result

    def _add(self, start: int, end: int) -> None:
        """Index the entries of events ``start`` to ``end``: a run of events from the start at
        once, in arrays (a re-open of a long conversation builds no object per entry)."""
        if start >= end:
            return
        index, kinds = self._index, self.reading.kinds
        if start == 0:
            codes = {letter: index.kind_code(kind) for letter, kind in EVENT_KINDS.items()}
            ids = list(map("{:08x}".format, range(1, end + 1)))  # (``entry_id``, without a call per entry)
            index.ids = ids
            index.offsets = array("q", range(end))
            index.lengths = array("q", bytes(8 * end))
            index.line_nos = array("q", range(2, end + 2))  # (line 1 being the header's)
            index.kinds = array("i", [codes[letter] for letter in kinds[:end]])
            index.parents = array("q", range(-1, end - 1))
            index._positions = None  # (made from ids when first asked for)
            return
        for i in range(start, end):
            index.add(entry_id(i + 1), entry_id(i) if i else None, EVENT_KINDS[kinds[i]], i, 0, i + 2)

    def _load(self, record: EntryRecord) -> Entry:
        """The entry of a record: made from its event once, then kept (the Deck compares records,
        and the folds look at a record's body more than once)."""
        position = record.offset
        entry = self._entries.get(position)
        if entry is None:
            entry = self._entries[position] = entry_of(self.reading.event(position), position + 1)
        return entry

    # -- the log protocols ------------------------------------------------------------------------

    @property
    def index(self) -> EntryIndex:
        """The entry index (read it, never change it), as ``SessionLog.index``: what time travel
        (``cut.py``) is computed from."""
        return self._index

    @property
    def records(self) -> Records:
        return self._records

    @property
    def by_id(self) -> Mapping[str, EntryRecord]:
        return ById(self._index, self._records)

    @property
    def warnings(self) -> list[str]:
        """Warnings about the transcript's lines, in file order (``reading.py`` numbers them)."""
        return self._warnings

    @property
    def header(self) -> Header | None:
        """The session header made at the transcript's first read (its session id, first time and
        directory then): what ``inspect --json`` says of the session."""
        return self.reading.header

    @property
    def version(self) -> int:
        """The session format's version: the header's (``header_entry`` writes the current one)."""
        version = (self.header or {}).get("version")
        return version if isinstance(version, int) else 3

    @property
    def leaf(self) -> EntryRecord | None:
        count = len(self._index)
        return self._records.record(count - 1) if count else None

    @property
    def leaf_id(self) -> str | None:
        ids = self._index.ids
        return ids[-1] if ids else None

    def _branch(self) -> list[int]:
        return list(range(len(self._index)))  # (one branch: every entry's parent is the one before)

    def branch(self) -> RecordList:
        return self._records.picked(range(len(self._index)))

    def branch_entries(self) -> RecordList:
        return self.branch()

    def branch_select(self, wanted: Wanted, start: int = 0, anchor: Mapping[str, object] | None = None) -> Picked | None:
        """As ``SessionLog.branch_select``: found from the index, only the picked entries made."""
        return branches.select(self._index, self._records, self._branch(), wanted, start, anchor)

    def entry(self, entry_id: str) -> Entry | None:
        i = self._index.positions.get(entry_id)
        return self._records.record(i).load() if i is not None else None

    def latest_custom(self, custom_type: str) -> Entry | None:
        return None  # (a conversation holds messages only)

    def latest_tool_result(self, tool_name: str) -> Entry | None:
        found = branches.newest(
            self._index, self._records, self._branch(),
            lambda kind, ct, role, tool: kind == "message" and role == "toolResult" and tool == tool_name,
        )
        return found.load() if found is not None else None

    def last_turn_tokens(self) -> Tokens | None:
        """As ``SessionLog.last_turn_tokens``: the usage of the newest answer that says it."""
        return branches.last_turn_tokens(self._index, self._records, self._branch())

    @property
    def name(self) -> str | None:
        return None  # (no ``session_info`` entry: the overview names a conversation by its first prompt)

    # -- kept between runs ------------------------------------------------------------------------

    def derived(self, name: str) -> tuple[Any, int, EntryRecord] | None:
        """A result ``keep_derived`` kept, here or in the cache an earlier run wrote, while the
        events it was derived from are still the log's (a conversation only grows, until its
        events are made anew: then nothing kept holds)."""
        kept = self.reading.kept(name)
        if kept is None or self.generation or not 0 < kept["covers"] <= len(self._index):
            return None
        self._covers[name] = kept["covers"]
        return kept["value"], kept["covers"], self._records.record(kept["covers"] - 1)

    def keep_derived(self, name: str, covers: int, value: Callable[[], Any]) -> None:
        """Keep ``value()`` in the cache, as a session's saved index keeps it beside the session
        (core/session/keeping.py): for a conversation whose cache is big enough to be worth it,
        again only once the log grew by ``DERIVED_RESAVE`` entries, and not with ``PIDECK_INDEX=off``."""
        from core.session import sidecar
        from core.session.keeping import DERIVED_RESAVE

        known = self._covers.get(name)
        how = sidecar.mode()
        if how == "off" or self.generation or not 0 < covers <= len(self._index):
            return
        if known is not None and 0 <= covers - known < (1 if how == "always" else DERIVED_RESAVE):
            return
        if how != "always" and self.reading.cache_bytes < sidecar.MIN_BYTES:
            return
        self.reading.keep(name, covers, value())
        self._covers[name] = covers

    # -- writing: refused -------------------------------------------------------------------------

    @property
    def writable(self) -> bool:
        return False

    def locked(self) -> AbstractContextManager[None]:
        return nullcontext()

    def written_by(self, who: str | None) -> AbstractContextManager[None]:
        return nullcontext()

    def append_custom(self, custom_type: str, data: Any = None) -> Entry:
        raise ReadOnlySession(agent_read_only(self.kind))

    def append_custom_message(self, custom_type: str, content: Any, display: bool, details: Any = None) -> Entry:
        raise ReadOnlySession(agent_read_only(self.kind))

    # -- what a front end shows -----------------------------------------------------------------

    @property
    def kind(self) -> str:
        return self.reading.kind

    @property
    def entry_count(self) -> int:
        """The transcript's lines read: what the agent wrote, whatever pideck made of it (the same
        count ``pideck sessions`` gives a transcript it has not read)."""
        return int(self.reading.state.get("lines", 0))

    @property
    def path(self) -> Path:
        """The transcript: a conversation has no file of pideck's that is its log."""
        return self.reading.source

    @property
    def shown_path(self) -> Path:
        return self.reading.source

    @property
    def read_only_reason(self) -> str | None:
        return agent_read_only(self.kind)

    @property
    def cwd(self) -> str | None:
        cwd = self.reading.info.get("cwd")
        if isinstance(cwd, str) and cwd:
            return cwd
        cwd = (self.header or {}).get("cwd")
        return cwd if isinstance(cwd, str) else None

    @property
    def session_id(self) -> str | None:
        sid = self.reading.info.get("sessionId")
        return sid if isinstance(sid, str) else (self.header or {}).get("id")

    def watched(self) -> tuple[Path, ...]:
        """The transcript, and for Claude Code its subagents' folder and the transcripts of those
        running (a subagent writes while its parent waits, and a new one or a meta.json replaced
        changes the folder), and its live-session folder and the files in it: a Claude that exits
        deletes its file there without writing to the transcript, and one that goes idle rewrites
        its file in place (the folder does not change then)."""
        reading = self.reading
        if reading.database is not None:  # (a conversation in a database: it and its WAL)
            db = reading.database[0]
            return (db, db.with_name(db.name + "-wal"))
        side = (reading.side, *reading.running_files()) if reading.side is not None else ()
        live = claude_live_folder(reading.source) if self.kind == "claude" else None
        if live is None:
            return (reading.source, *side)
        try:
            files = sorted(live / name for name in os.listdir(live) if name.endswith(".json"))
        except OSError:
            files = []
        return (reading.source, *side, live, *files)

    def agent(self) -> AgentObject:
        """The agent object of ``inspect --json`` (docs/agent-conversations.md#the-agent-object)."""
        reading, info = self.reading, self.reading.info
        self._live.tick()  # (a new look at the live-session files, each parsed again only when it changed)
        status = conversation_status(reading, self._live)
        try:
            mtime_ms: int | None = source_stat(reading.source).st_mtime_ns // 1_000_000
        except OSError:
            mtime_ms, status = None, AGENT_ENDED
        for running in reading.running_files() if mtime_ms is not None else []:  # (a subagent writes while its parent waits)
            try:
                mtime_ms = max(mtime_ms or 0, os.stat(running).st_mtime_ns // 1_000_000)
            except OSError:
                pass
        last_ms, of_line = reading.last_activity_ms(mtime_ms)
        last = iso_timestamp(datetime.fromtimestamp(last_ms / 1000, timezone.utc)) if last_ms is not None else None
        agent: AgentObject = {
            "kind": self.kind,
            "name": AGENT_NAMES.get(self.kind, self.kind),
            "sessionId": info.get("sessionId"),
            "cwd": self.cwd or None,
            "version": info.get("version"),
            "model": info.get("model"),
            "status": status,
            "lastActivity": last,
            "lastActivityOf": ("line" if of_line else "file") if last is not None else None,
            "lastMessage": info.get("lastMessage"),
            "tokens": info.get("tokens"),
            "transcript": os.fsdecode(reading.source),
            "pideckSession": self._pideck_session(info.get("sessionId")),
        }
        if "subagents" in info:  # (Claude Code's, once it had one)
            agent["subagents"] = [s.copy() for s in info["subagents"]]
        if "cost" in info:  # (where the agent's own store counts it)
            agent["cost"] = info["cost"]
        return agent

    def _pideck_session(self, session_id: str | None) -> str | None:
        """The pideck session of this conversation, when it has one (core/sources/binding.py)."""
        from core.sources.binding import AGENTS, bound_session

        if self.kind not in AGENTS or not isinstance(session_id, str) or not session_id:
            return None
        found = bound_session(self.kind, session_id)
        return str(found) if found is not None else None


if TYPE_CHECKING:  # mypy checks that a conversation keeps the protocol the Deck and the views are written against
    from core.session.interface import SessionFile

    _protocol_check: SessionFile = ConversationLog(Reading("", ""))
