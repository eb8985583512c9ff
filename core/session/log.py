"""``SessionLog``: one pi session file, indexed, followed and appended to.

The log is the one object the rest of pideck holds (``core/session/interface.py``); its parts
live beside it, each in a module of its own, the way a file-following engine keeps the file, the
watcher and the line reader apart:

- ``access.py``: which paths are opened at all, and the read-only rule;
- ``indexing.py``: the hot loop that indexes the lines the tailer (``tail.py``) reads;
- ``bodies.py``: entry bodies read back from the file when a record is asked for them;
- ``branch.py``: the current branch as the leaf moves, and the questions asked of it;
- ``keeping.py``: the saved index and the derived results kept between runs (``sidecar.py``);
- ``append.py``: the locked appends (serialised by ``writer.py``).

What stays here is what ties them together: opening and creating a file, reading what was
appended (``refresh``) and deciding how it is read (``SCAN_MIN_BYTES``), and the facts and
questions a front end asks.
"""

from __future__ import annotations

import errno
import os
from itertools import compress
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from core.collector import paused_collector
from core.config import places
from core.files import fill_empty_file, is_empty_file, make_private_dirs, write_private_file
from core.session import branch as branches
from core.session import sidecar, split
from core.session.access import WriteAccess, check_openable, every_write_refused
from core.session.append import Appender
from core.session.bodies import BodyReader
from core.session.branch import Picked, Wanted, usage_tokens
from core.session.errors import PATH_PROBLEMS, EmptySession, NotASession, ReadOnlySession, WriteFailed, create_failed
from core.session.index import EntryIndex, Kind
from core.session.indexing import Indexer
from core.session.keeping import Keeper
from core.session.naming import new_session_path
from core.session.records import ById, EntryRecord, Records
from core.session.tail import TailChunk, Tailer
from core.session.writer import (
    MISSING,
    WRITER_KEY,
    Clock,
    IdFactory,
    custom_entry,
    custom_message_entry,
    header_entry,
    iso_timestamp,
    serialise,
    short_id,
    utc_now,
    uuid7,
)

if TYPE_CHECKING:
    from core.session.append import Build
    from core.session.entry import AgentObject, Entry, Header, Tokens

__all__ = ["Refresh", "SessionLog", "Wanted", "usage_tokens", "SCAN_MIN_BYTES"]

SCAN_MIN_BYTES = 1 << 20
"""Reads of at least this many new bytes scan lines with msgspec (``scan.py``); smaller ones parse
them in full, which costs less than loading msgspec (a hook's ``pideck gate`` on a small session)."""


class Refresh:
    """What one ``refresh()`` found."""

    __slots__ = ("new", "reset", "warnings")

    def __init__(self, new: Sequence[EntryRecord] | None = None, reset: bool = False,
                 warnings: list[str] | None = None) -> None:
        self.new: Sequence[EntryRecord] = [] if new is None else new  # entries added, in file order
        self.reset = reset  # the file was replaced/truncated/rewritten: everything was re-read
        self.warnings: list[str] = [] if warnings is None else warnings  # warnings raised by this refresh

    @property
    def changed(self) -> bool:
        return self.reset or bool(self.new)


class SessionLog:
    """A pi session file: header, entry index, current branch, incremental tail, locked appends.

    Implements ``core.session.interface.WritableLog``. Not thread-safe; use one instance per thread.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        writable: bool | None = None,
        clock: Clock | None = None,
        id_factory: IdFactory | None = None,
        saved_index: bool | None = None,
        scan: bool | None = None,
    ) -> None:
        """``saved_index``: use and keep the saved index (``sidecar.py``); None follows
        ``PIDECK_INDEX``. ``scan=False`` parses every line in full instead of scanning it (the
        reference the tests hold the scanner to), ``scan=True`` scans every line; None scans reads
        of ``SCAN_MIN_BYTES`` or more."""
        self.path = Path(path)
        self._scan = scan
        self._tail = Tailer(self.path)
        self._access = WriteAccess(self.path, writable)
        self._appender = Appender(self.path, self._tail, clock or utc_now, id_factory or short_id)
        self._by: str | None = None  # who the entries appended now are written by (``written_by``)
        self.generation = 0
        """Incremented each time the file is read again from scratch (replaced, truncated or
        rewritten): records of an older generation belong to a file that is gone."""
        self.index_source = "file"
        """``file``, or ``saved index`` when the open started from the saved index."""
        read = Indexer(self.path)
        self._bodies = BodyReader(self.path, read)
        on = saved_index if saved_index is not None else sidecar.mode() != "off"
        self._keeper = Keeper(self.path, on, self._tail, self._bodies)
        self._start(read)

    def _start(self, read: Indexer) -> None:
        """Take ``read`` as what is known of the file: a new generation, or the saved index."""
        self._read = read
        self._bodies.reset(read)
        self._records = Records(read.index, self._bodies.load)
        self._name: tuple[int, str | None] | None = None  # (position, name) of the newest session_info

    @property
    def header(self) -> Header | None:
        return self._read.header

    @property
    def warnings(self) -> list[str]:
        """Lines skipped or repaired while reading, in file order (then bodies that could not be
        read back, and branch cycles, as they were met); last, while the file ends in a line with no
        newline yet, that line (a write in progress, or a writer that died mid-line)."""
        torn = self._tail.partial
        if not torn:
            return self._read.warnings
        return [*self._read.warnings, f"the last line (line {self._tail.lines + 1}) is incomplete: {len(torn):,} "
                                      "bytes, no newline yet; not read until a writer ends it"]

    # -- opening ----------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], writable: bool | None = None, **options: Any) -> SessionLog:
        """Open and index ``path``. ``writable=None``: read-only inside pi's session folders,
        writable elsewhere. Raises ``NotASession`` when the first parsed line is not a header."""
        log = cls(path, writable=writable, **options)
        check_openable(log.path)
        if is_empty_file(log.path):
            raise EmptySession(f"{log.path} is not a pi session file yet: it is empty (a create that did not finish)")
        if (saved := log._keeper.resume()) is not None:
            log._start(saved)
            log.index_source = "saved index"
        log.refresh()
        if log.header is None:
            raise NotASession(f"{log.path} is not a pi session file: it has no session header line")
        log._keeper.save(log._read)
        log._keeper.load_kept(log._read)
        return log

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        cwd: str | os.PathLike[str],
        *,
        session_id: str | None = None,
        timestamp: str | None = None,
        **options: Any,
    ) -> SessionLog:
        """Create a new session file (mode 0600) holding just its header: a file with content at
        ``path`` is FileExistsError, an empty one is filled (docs/session-format.md#new-files-and-file-modes).
        Raises ``WriteFailed`` naming the cause when the system refuses (a full disk, a read-only
        filesystem, no permission); nothing is left behind then."""
        path = Path(path)
        if (refused := every_write_refused()) is not None:
            raise ReadOnlySession(refused)
        now = (options.get("clock") or utc_now)()
        header = header_entry(session_id or uuid7(now), timestamp or iso_timestamp(now), places.normalise_cwd(cwd))
        data = serialise(header)
        try:
            make_private_dirs(path.parent)
            try:
                write_private_file(path, data, replace=False)  # whole or not at all
            except FileExistsError:
                if not fill_empty_file(path, data):  # an empty file is a create that never finished
                    raise
        except OSError as exc:
            if errno.errorcode.get(exc.errno or -1) in PATH_PROBLEMS:
                raise
            raise WriteFailed(create_failed(path, exc)) from None
        return cls.open(path, writable=True, **options)

    @classmethod
    def create_for_cwd(cls, cwd: str | os.PathLike[str], **options: Any) -> SessionLog:
        """A new pideck session in pideck's own folder for ``cwd``, named the way pi names files."""
        now = (options.get("clock") or utc_now)()
        path, session_id, timestamp = new_session_path(cwd, uuid7(now), iso_timestamp(now))
        return cls.create(path, cwd, session_id=session_id, timestamp=timestamp, **options)

    # -- the saved index --------------------------------------------------------------------------

    def derived(self, name: str) -> tuple[Any, int, EntryRecord] | None:
        """A result kept by ``keep_derived`` (in this run or an earlier one) while the current
        branch still starts with the entries it was derived from:
        ``(value, covers, last)``, the branch length it covers and its last record; else None."""
        return self._keeper.derived(name, self._read, self._records)

    def keep_derived(self, name: str, covers: int, value: Callable[[], Any]) -> None:
        """Keep ``value()`` (JSON), derived from the first ``covers`` entries of the current
        branch, for later runs (beside the saved index). Called after every derivation; written
        only when none is known to be kept yet or the branch grew by ``keeping.DERIVED_RESAVE``
        entries since, and only for a session that keeps its index."""
        self._keeper.keep_derived(name, covers, value, self._read)

    def derived_in_file(self, name: str) -> tuple[Any, int] | None:
        """A result ``keep_in_file`` kept (in this run or an earlier one): ``(value, covers)``, where
        ``covers`` counts entries in file order; None when none is kept."""
        return self._keeper.derived_in_file(name, self._read)

    def keep_in_file(self, name: str, covers: int, value: Callable[[], Any]) -> None:
        """``keep_derived`` for a result derived from the first ``covers`` entries of the file in
        file order, whatever their branch (a file only grows, so they stay what they were for as
        long as the saved index holds)."""
        self._keeper.keep_in_file(name, covers, value, self._read)

    # -- header facts -----------------------------------------------------------------------------

    @property
    def shown_path(self) -> Path:
        """The file a person knows this session by: the session file itself (a conversation's log
        shows the agent's transcript instead, ``core/sources/log.py``)."""
        return self.path

    def agent(self) -> AgentObject | None:
        """What the agent whose conversation this is was last seen doing; None for a pi or pideck
        session (docs/agent-conversations.md#the-agent-object)."""
        return None

    def last_turn_tokens(self) -> Tokens | None:
        """The token use of the newest assistant message on the branch that says it (pi's
        ``usage``: input, output, cacheRead, cacheWrite, totalTokens), or None."""
        return branches.last_turn_tokens(self._read.index, self._records, self._read.current_branch())

    def watched(self) -> tuple[Path, ...]:
        """The files whose change means there may be something new to read (a follower polls
        them): the session file itself."""
        return (self.path,)

    @property
    def session_id(self) -> str | None:
        return self.header.get("id") if self.header else None

    @property
    def cwd(self) -> str | None:
        cwd = self.header.get("cwd") if self.header else None
        return cwd if isinstance(cwd, str) else None

    @property
    def version(self) -> int:
        return self._read.version

    @property
    def read_only_reason(self) -> str | None:
        """Why appends are refused, as the refusal a person reads, or None when the log is
        writable (docs/session-format.md#the-read-only-rule)."""
        return self._access.read_only_reason(self.header, self.version)

    @property
    def writable(self) -> bool:
        return self.read_only_reason is None

    # -- reading ----------------------------------------------------------------------------------

    @property
    def index(self) -> EntryIndex:
        """The entry index (read it, never change it): what a view of the file as it was at an
        entry (``cut.py``) and the tree of branches (``tree.py``) are computed from."""
        return self._read.index

    @property
    def entry_count(self) -> int:
        """How many entries the log holds: the number every view of it says (the header, the
        catalog's rows, ``pideck sessions``)."""
        return len(self.records)

    @property
    def records(self) -> Records:
        """Every entry in file order (a sequence of records, the same object until a reset)."""
        return self._records

    @property
    def by_id(self) -> Mapping[str, EntryRecord]:
        """id -> record of the last entry with that id (pi's id map)."""
        return ById(self._read.index, self._records)

    def refresh(self) -> Refresh:
        """Read what was appended since the last call (all of it at first; everything after a reset)."""
        result = Refresh()
        first_warning = len(self.warnings)
        start = len(self._read.index)
        with paused_collector():  # (indexing allocates nothing cyclic: core/collector.py)
            far: split.FarPart | None = None  # a child scanning the far part of this read (split.py)
            may_split = self._tail.stat is None  # the first read of the file, or of what a saved index left
            try:
                while True:
                    chunk = self._tail.read(until=far.begin if far is not None else None)
                    if chunk is None:
                        if far is None:
                            break
                        taken, far = far, None
                        if (chunk := self._take_far(taken)) is None:
                            continue
                    if chunk.reset:
                        if far is not None:
                            far.end_now()
                            far = None
                        self.generation += 1
                        self._start(Indexer(self.path))
                        self._keeper.forget()
                        first_warning = start = 0
                        result.reset = True
                    if start == len(self._read.index):  # (the first new lines: what an earlier read
                        self._read.said = {}          # said is let go, untaken, so it stays one read's)
                    self._read.ingest(chunk, self._scans(chunk.offset))
                    if may_split and self._read.header is not None:  # (once the first line says what the file is)
                        may_split = False
                        far = self._far_part()
            finally:
                if far is not None:
                    far.end_now()
        result.new = self._records.picked(range(start, len(self._read.index)))
        result.warnings = self.warnings[first_warning:]
        return result

    def _scans(self, offset: int) -> bool:
        """Whether the lines from ``offset`` on are scanned (``scan.py``) rather than parsed in full."""
        if self._scan is not None:
            return self._scan
        if split.mode() == "always":  # (the tests' switch: every read scanned, and split)
            return True
        st = self._tail.stat
        return st is not None and st.st_size - offset >= SCAN_MIN_BYTES

    def _far_part(self) -> split.FarPart | None:
        """A child scanning the far part of what is left to read, when there is enough of it to be
        worth it and it is scanned (``split.py``): asked once per first read, after its first
        chunk (a file that is not a session, or older than version 3, is never split)."""
        how = split.mode()
        st = self._tail.stat
        if how == "off" or self._scan is False or self._read.legacy or st is None:
            return None
        left = st.st_size - self._tail.offset
        if left < (2 if how == "always" else split.SPLIT_MIN_BYTES) or not self._scans(self._tail.offset):
            return None
        return split.FarPart.start(self.path, self._tail.offset, st.st_size, st.st_ino)

    def _take_far(self, far: split.FarPart) -> TailChunk | None:
        """Index what the child scanned, when the near part ended where the far part begins
        (``_far_part`` started it for a scanned version 3 read, and a reset ends it); otherwise the
        tailer simply reads on. Returns a reset the tailer met meanwhile (the file was replaced:
        ``refresh`` starts again with it)."""
        segments = far.take()
        read, tail = self._read, self._tail
        if segments is None or tail.consumed != far.begin:
            return None
        line_no = tail.lines + 1
        for segment in segments:
            if segment[0] == "batch":
                batch = segment[1]
                if read.apply_batch(batch, line_no):
                    line_no += len(batch.ids)
                    continue
                begin, end, count = batch.offsets[0], batch.offsets[-1] + batch.lengths[-1] + 1, len(batch.ids)
            else:
                _, begin, end, count = segment
            tail.skip_to(begin, line_no - 1)  # lines it did not decode, or that need a decision line by line
            while (chunk := tail.read(until=end)) is not None:
                if chunk.reset:
                    return chunk
                read.ingest(chunk, True)
            if tail.consumed != end:  # (the file changed under us: the tailer reads on from where it is)
                return None
            line_no += count
        tail.skip_to(far.end, line_no - 1)
        return None

    # -- the tree ---------------------------------------------------------------------------------

    @property
    def leaf(self) -> EntryRecord | None:
        """The last entry of the file (pi's leaf after loading)."""
        index = self._read.index
        return self._records.record(len(index) - 1) if len(index) else None

    @property
    def leaf_id(self) -> str | None:
        ids = self._read.index.ids
        return ids[-1] if ids else None

    def branch(self) -> Sequence[EntryRecord]:
        """Records of the current branch, root first (a snapshot: later appends do not change it)."""
        return self._records.picked(list(self._read.current_branch()))

    def branch_entries(self) -> Sequence[Mapping[str, Any]]:
        """Entries of the current branch, root first, as records: a record reads its body from the
        file when a key beyond type/id/customType is looked up (so on a big session, filter on
        ``type`` before looking at ``message``)."""
        return self.branch()

    def branch_select(self, wanted: Wanted, start: int = 0, anchor: Mapping[str, Any] | None = None) -> Picked | None:
        """The entries of the current branch from position ``start`` on that
        ``wanted(type, customType, role, toolName)`` picks, found from the index alone, so a fold
        that reads a few kinds of entry costs nothing for the others. Returns
        ``(picked, length, record_at, last)``: (branch position, kind, key) triples, the branch
        length, ``record_at(key)`` for the record of a picked entry, and the branch's last record.
        None when the entry at ``start - 1`` is no longer ``anchor`` (the branch changed in
        another way than growing)."""
        read = self._read
        return branches.select(read.index, self._records, read.current_branch(), wanted, start, anchor)

    def select(self, wanted: Wanted, start: int = 0, end: int | None = None) -> list[tuple[int, Kind]]:
        """(position, kind) of the entries of the whole file, from position ``start`` on (to before
        ``end``), that
        ``wanted(type, customType, role, toolName)`` picks, in file order, found from the index
        alone (no record is made): what a fold over the file rather than the branch reads."""
        index = self._read.index
        codes, kinds, table = index.codes(wanted), index.kinds, index.kind_table
        end = len(kinds) if end is None else min(end, len(kinds))
        picked = compress(range(start, end), map(codes.__contains__, kinds[start:end]))
        return [(i, table[kinds[i]]) for i in picked]

    def take_said(self) -> dict[int, tuple]:
        """What the scan read of each answer and prompt it decoded in a batch (position ->
        ``(timestamp, role, usage, provider, model)``, as JSON gives them; ``scan.py``), handed
        over once: the usage ledger folds them without reading those lines again, and the memory
        goes with it. Only the last read that found entries leaves them (a follower that never asks
        holds one read's worth); messages read another way (a saved index, a line read on its own)
        are not in it."""
        said, self._read.said = self._read.said, {}
        return said

    def lines_at(self, positions: Sequence[int]) -> Iterator[tuple[int, memoryview | None]]:
        """The raw lines of the entries at ``positions`` (ascending), many in one read
        (``bodies.py``); None for a line that cannot be read so (the record's ``load`` then says
        why). For a reader that decodes only the fields it needs; the bytes are the file's,
        untrusted and not yet checked."""
        return self._bodies.lines(self._read.index, positions)

    def entry(self, entry_id: str) -> Entry | None:
        """The full entry with this id (the later one for a duplicate id), or None."""
        i = self._read.index.positions.get(entry_id)
        return self._records.record(i).load() if i is not None else None

    def latest_custom(self, custom_type: str) -> Entry | None:
        """The newest ``custom`` entry of ``custom_type`` on the current branch, or None."""
        return branches.newest_custom(self._read.index, self._records, self._read.current_branch(), custom_type)

    def latest_tool_result(self, tool_name: str) -> Entry | None:
        """The newest ``toolResult`` message entry of ``tool_name`` on the current branch, or None
        (found from the index; only that entry's body is read)."""
        read = self._read
        found = branches.newest(
            read.index, self._records, read.current_branch(),
            lambda kind, ct, role, tool: kind == "message" and role == "toolResult" and tool == tool_name,
        )
        return found.load() if found is not None else None

    @property
    def name(self) -> str | None:
        """The session name: ``name`` of the newest ``session_info`` entry in the file."""
        name_at = self._read.name_at
        if name_at < 0:
            return None
        if self._name is None or self._name[0] != name_at:
            name = self._records.record(name_at).get("name")
            self._name = (name_at, name if isinstance(name, str) else None)
        return self._name[1]

    # -- appending --------------------------------------------------------------------------------

    def append_custom(self, custom_type: str, data: Any = MISSING) -> Entry:
        """Append a ``custom`` entry (pi's ``appendEntry``) whose parent is the file's last entry."""
        return self._appender.append(self, self._signed(
            lambda id, parent, ts: custom_entry(custom_type, data, id, parent, ts)))

    def append_custom_message(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> Entry:
        """Append a ``custom_message`` entry (pi's ``sendMessage`` while idle)."""
        return self._appender.append(self, self._signed(
            lambda id, parent, ts: custom_message_entry(custom_type, content, display, details, id, parent, ts)))

    @contextmanager
    def written_by(self, who: str | None) -> Iterator[None]:
        """Mark the entries appended meanwhile as written by ``who`` (``WRITER_KEY``)."""
        before, self._by = self._by, who
        try:
            yield
        finally:
            self._by = before

    def _signed(self, build: Build) -> Build:
        who = self._by
        if who is None:
            return build
        return lambda id, parent, ts: {**build(id, parent, ts), WRITER_KEY: who}

    def locked(self) -> AbstractContextManager[None]:
        """Hold the file's exclusive lock across a whole read-derive-append (re-entrant; see
        ``append.py``)."""
        return self._appender.locked()
