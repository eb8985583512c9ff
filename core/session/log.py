"""``SessionLog``: one pi session file, indexed, followed and appended to."""

from __future__ import annotations

import gc
import os
import stat
from array import array
from itertools import compress, repeat
from operator import attrgetter, ge, itemgetter, ne, sub
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Callable, Iterator, cast

try:
    import fcntl
except ImportError:  # not POSIX: appends are not locked
    fcntl = None  # type: ignore[assignment]

from . import discovery, sidecar
from .errors import (
    FILE_GONE, NO_HEADER, OPENED_READ_ONLY, PI_SESSION_READ_ONLY, NotARegularFile, NotASession, ReadOnlySession,
    cannot_write, version_read_only,
)
from .files import make_private_dirs, not_regular
from .index import NO_PARENT, PENDING, EntryIndex, Kind
from .parse import MAX_DEPTH, header_version, is_header, loads_line, parse_line, too_deep, upgrade_legacy_message
from .records import EntryRecord, Records
from .tail import Tailer, TailChunk
from .writer import (
    MISSING, Clock, IdFactory, custom_entry, custom_message_entry, header_entry, iso_timestamp,
    serialise, short_id, unique_id, utc_now, uuid7, write_all,
)

SCAN_MIN_BYTES = 1 << 20
"""Reads of at least this many new bytes scan lines with msgspec (``scan.py``); smaller ones parse
them in full, which costs less than loading msgspec (a hook's ``pideck gate`` on a small session)."""
FORK_REACH = 256
"""How far back from the leaf a new entry's parent is looked for on the branch (see ``_follow_leaf``)."""
DERIVED_RESAVE = 2000
"""Branch entries a derived result must have grown by before it is kept again (``keep_derived``)."""
BODIES_KEPT = 32
"""Bodies of entries other than messages kept after being read (see ``_load``)."""

Wanted = Callable[["str | None", "str | None", "str | None", "str | None"], bool]
"""``wanted(type, customType, role, toolName)``: picks entries by what the index knows of them."""


@dataclass
class Refresh:
    """What one ``refresh()`` found."""

    new: Sequence[EntryRecord] = field(default_factory=list)  # entries added, in file order
    reset: bool = False  # the file was replaced/truncated/rewritten: everything was re-read
    warnings: list[str] = field(default_factory=list)  # warnings raised by this refresh

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
        self._requested_writable = writable
        self._clock = clock or utc_now
        self._id_factory = id_factory or short_id
        self._saved_index = saved_index if saved_index is not None else sidecar.mode() != "off"
        self._scan = scan
        self._tail = Tailer(self.path)
        self._lock_fd: int | None = None
        self.generation = 0
        """Incremented each time the file is read again from scratch (replaced, truncated or
        rewritten): records of an older generation belong to a file that is gone."""
        self.index_source = "file"
        """``file``, or ``saved index`` when the open started from the saved index."""
        self._saved_at: int | None = None  # bytes covered by the saved index this log started from
        self._pi_owned: tuple[tuple[str, int, int, int], bool] | None = None  # (file identity, pi's)
        self._reset_state()

    header: dict[str, Any] | None
    warnings: list[str]

    def _reset_state(self) -> None:
        self.header = None
        self._index = EntryIndex()
        self._records = Records(self._index, self._load)
        self.warnings = []
        self._branch: list[int] | None = []  # positions of the current branch; None: walk again
        self._cycle_warned: set[str] = set()
        self._legacy = False  # version < 3: every line is parsed in full (ids may be missing)
        self._name_at = -1  # position of the newest session_info entry
        self._name: tuple[int, str | None] | None = None
        self._memo: tuple[EntryRecord, dict[str, Any]] | None = None  # the last message body read
        self._bodies: OrderedDict[EntryRecord, dict[str, Any]] = OrderedDict()  # recent other bodies
        self._derived: dict[str, dict[str, Any]] = {}  # kept beside the saved index (see keep_derived)
        self._derived_covers: dict[str, int] = {}  # branch entries a saved result is known to cover
        self._read_back_failed = False  # an entry's body could not be read back (see _save_index)

    # -- opening ----------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], writable: bool | None = None, **options: Any) -> SessionLog:
        """Open and index ``path``. ``writable=None``: read-only inside pi's session folders,
        writable elsewhere. Raises ``NotASession`` when the first parsed line is not a header."""
        log = cls(path, writable=writable, **options)
        try:
            mode = os.stat(log.path).st_mode
        except FileNotFoundError:
            raise FileNotFoundError(f"no session file at {log.path}") from None
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(f"{log.path} is a directory, not a session file")
        if (kind := not_regular(mode)) is not None:
            raise NotARegularFile(f"{log.path} is {kind}, not a session file")
        log._start_from_saved_index()
        log.refresh()
        if log.header is None:
            raise NotASession(f"{log.path} is not a pi session file: it has no session header line")
        log._save_index()
        log._load_kept()
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
        """Create a new session file (mode 0600, fails if it exists) holding just its header."""
        path = Path(path)
        now = (options.get("clock") or utc_now)()
        header = header_entry(session_id or uuid7(now), timestamp or iso_timestamp(now), discovery.normalise_cwd(cwd))
        make_private_dirs(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            write_all(fd, serialise(header))
        finally:
            os.close(fd)
        return cls.open(path, writable=True, **options)

    @classmethod
    def create_for_cwd(cls, cwd: str | os.PathLike[str], **options: Any) -> SessionLog:
        """A new pideck session in pideck's own folder for ``cwd``, named the way pi names files."""
        now = (options.get("clock") or utc_now)()
        path, session_id, timestamp = discovery.new_session_path(cwd, uuid7(now), iso_timestamp(now))
        return cls.create(path, cwd, session_id=session_id, timestamp=timestamp, **options)

    # -- the saved index --------------------------------------------------------------------------

    def _start_from_saved_index(self) -> None:
        """Take up where the saved index stopped, when it still describes this file."""
        if not self._saved_index:
            return
        if sidecar.mode() != "always" and self.path.stat().st_size < sidecar.MIN_BYTES:
            return  # none is kept for a small session: not even the state folder is looked at
        saved = sidecar.load(self.path)
        if saved is None:
            return
        self.header = saved.header
        self._legacy = self.version < 3
        self.warnings = saved.warnings
        self._cycle_warned = set(saved.cycle_warned)
        self._index = saved.index
        self._records = Records(self._index, self._load)
        self._branch = saved.branch
        self._name_at = saved.name_at
        self._tail.resume(saved.consumed, saved.lines, saved.first_line, saved.file.st_ino, saved.file.st_mtime_ns)
        self._saved_at = saved.consumed
        self.index_source = "saved index"

    def _keeps(self) -> bool:
        """Whether this log keeps its index and derived results between runs: a saved index is
        on, the session is big enough (or ``PIDECK_INDEX=always``), and no entry failed to be read
        back (its warnings would hold one a fresh read only gives when it reads that entry, and
        results derived since may have met it)."""
        st = self._tail.stat
        if not self._saved_index or self.header is None or st is None or self._read_back_failed:
            return False
        return self._saved_at is not None or sidecar.mode() == "always" or st.st_size >= sidecar.MIN_BYTES

    def _save_index(self) -> None:
        """Save the index after a full read of a big file, or once enough was appended since."""
        st, consumed = self._tail.stat, self._tail.consumed
        if not self._keeps() or st is None or self.header is None or consumed == 0:
            return
        always = sidecar.mode() == "always"
        if self._saved_at is not None and consumed - self._saved_at < (1 if always else sidecar.RESAVE_BYTES):
            return
        if self._branch is None and len(self._index):
            path, cycle_at = self._index.walk(len(self._index) - 1)
            if cycle_at is None:  # (a cycle is left to warn about when the branch is asked for)
                self._branch = path
        saved = sidecar.Saved(
            header=self.header, warnings=list(self.warnings), cycle_warned=sorted(self._cycle_warned),
            index=self._index, branch=self._branch, consumed=consumed, lines=self._tail.lines,
            first_line=self._tail.first_line, file=st, name_at=self._name_at,
        )
        if sidecar.save(self.path, saved):
            self._saved_at = consumed

    def _load_kept(self) -> None:
        """The derived results kept by an earlier run, checked against the file as it was read."""
        st = self._tail.stat
        if self._keeps() and st is not None:
            self._derived = sidecar.load_kept(self.path, st, self._tail.consumed)

    def derived(self, name: str) -> tuple[Any, int, EntryRecord] | None:
        """A result kept by ``keep_derived`` (in this run or an earlier one) while the current
        branch still starts with the entries it was derived from:
        ``(value, covers, last)``, the branch length it covers and its last record; else None."""
        kept = self._derived.get(name)
        if kept is None:
            return None
        covers, branch = kept["covers"], self._current_branch()
        if covers > len(branch) or _branch_digest(branch, covers) != kept["branch"]:
            return None
        self._derived_covers[name] = covers
        return kept["value"], covers, self._records.record(branch[covers - 1])

    def keep_derived(self, name: str, covers: int, value: Callable[[], Any]) -> None:
        """Keep ``value()`` (JSON), derived from the first ``covers`` entries of the current
        branch, for later runs (beside the saved index). Called after every derivation; written
        only when none is known to be kept yet or the branch grew by ``DERIVED_RESAVE`` entries
        since, and only for a session that keeps its index."""
        known = self._derived_covers.get(name)
        always = sidecar.mode() == "always"
        if known is not None and 0 <= covers - known < (1 if always else DERIVED_RESAVE):
            return
        branch, st = self._current_branch(), self._tail.stat
        if not 0 < covers <= len(branch) or not self._keeps() or st is None:
            return
        self._derived[name] = {"covers": covers, "branch": _branch_digest(branch, covers), "value": value()}
        if sidecar.save_kept(self.path, self._derived, self._tail.consumed, self._tail.first_line, st):
            self._derived_covers[name] = covers

    # -- header facts -----------------------------------------------------------------------------

    @property
    def shown_path(self) -> Path:
        """The file a person knows this session by: the session file itself (a conversation's log
        shows the agent's transcript instead, ``core/conversations/log.py``)."""
        return self.path

    def agent(self) -> dict[str, Any] | None:
        """What the agent whose conversation this is was last seen doing; None for a pi or pideck
        session (docs/agent-conversations.md#the-agent-object)."""
        return None

    def last_turn_tokens(self) -> dict[str, int] | None:
        """The token use of the newest assistant message on the branch that says it (pi's
        ``usage``: input, output, cacheRead, cacheWrite, totalTokens), or None."""
        newest = self._newest_on_branch(lambda kind, ct, role, tool: kind == "message" and role == "assistant")
        message = newest.get("message") if newest is not None else None
        return usage_tokens(message.get("usage")) if isinstance(message, dict) else None

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
        return header_version(self.header) if self.header else 3

    @property
    def read_only_reason(self) -> str | None:
        """Why appends are refused, as the refusal a person reads, or None when the log is
        writable (docs/session-format.md#the-read-only-rule)."""
        if self.header is not None and self.version != 3:
            return version_read_only(self.version)
        if self._requested_writable is False:
            return OPENED_READ_ONLY
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return FILE_GONE
        except OSError as exc:
            return cannot_write(exc.strerror or str(exc))
        if self._requested_writable is None and self._belongs_to_pi(st):
            return PI_SESSION_READ_ONLY
        if (kind := not_regular(st.st_mode)) is not None:
            return cannot_write(f"it is {kind} now")
        if not os.access(self.path, os.W_OK):
            return cannot_write("permission denied")
        if self.header is None:
            return NO_HEADER
        return None

    def _belongs_to_pi(self, st: os.stat_result) -> bool:
        """``discovery.is_pi_session_file``, asked again only when the file's identity changes."""
        key = (os.fspath(self.path), st.st_dev, st.st_ino, st.st_nlink)
        if self._pi_owned is None or self._pi_owned[0] != key:
            self._pi_owned = (key, discovery.is_pi_session_file(self.path))
        return self._pi_owned[1]

    @property
    def writable(self) -> bool:
        return self.read_only_reason is None

    # -- reading ----------------------------------------------------------------------------------

    @property
    def index(self) -> EntryIndex:
        """The entry index (read it, never change it): what a view of the file as it was at an
        entry (``cut.py``) and the tree of branches (``tree.py``) are computed from."""
        return self._index

    @property
    def records(self) -> Records:
        """Every entry in file order (a sequence of records, the same object until a reset)."""
        return self._records

    @property
    def by_id(self) -> Mapping[str, EntryRecord]:
        """id -> record of the last entry with that id (pi's id map)."""
        return _ById(self._index, self._records)

    def refresh(self) -> Refresh:
        """Read what was appended since the last call (all of it at first; everything after a reset)."""
        result = Refresh()
        first_warning = len(self.warnings)
        start = len(self._index)
        # Indexing allocates little and nothing cyclic: pausing the cycle collector meanwhile saves
        # the repeated full-heap scans that would otherwise dominate a big open.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            while (chunk := self._tail.read()) is not None:
                if chunk.reset:
                    self.generation += 1
                    self._reset_state()
                    first_warning = start = 0
                    result.reset = True
                self._ingest(chunk)
        finally:
            if gc_was_enabled:
                gc.enable()
        result.new = self._records.picked(range(start, len(self._index)))
        result.warnings = self.warnings[first_warning:]
        return result

    def _ingest(self, chunk: TailChunk) -> None:
        # The hot loop of opening a big file. Lines are walked in place (no copies) and scanned for
        # their identity only (scan.py; a small read parses them in full, see SCAN_MIN_BYTES). The
        # common case, a new entry whose fields are all strings, is indexed right here (a call per
        # line costs as much as the scan); anything else goes through _add, and a line the scanner
        # refuses is parsed in full as pi parses it.

        data, base, size = chunk.data, chunk.offset, chunk.size
        view = memoryview(data)
        find = data.find
        index = self._index
        ids, positions, pending, codes = index.ids, index.positions, index.pending, index.kind_codes
        append_id, append_parent, append_kind = ids.append, index.parents.append, index.kinds.append
        append_offset, append_length, append_line = index.offsets.append, index.lengths.append, index.line_nos.append
        short = 2 * MAX_DEPTH  # longer lines of other types than message get their depth checked
        scan = self._scan
        if scan is None:  # this chunk and what follows it in the file
            st = self._tail.stat
            scan = st is not None and st.st_size - base >= SCAN_MIN_BYTES
        scanning = scan and not self._legacy and self.header is not None
        if scan:
            from .scan import REFUSED, decode_line
        line_no, pos = chunk.first_line_no, 0
        batch = scan  # try the rest of the chunk at once as soon as the lines are scanned
        try:
            while (end := find(b"\n", pos, size)) >= 0:
                if batch and scanning:
                    batch = False
                    if indexed := self._index_batch(data, base, pos, size, line_no):
                        line_no += indexed
                        break
                start, pos, n = pos, end + 1, line_no
                line_no += 1
                if not scanning:  # the lines up to the header, or every line of a legacy file
                    self._parse_in_full(n, data, base, start, end)
                    scanning = scan and not self._legacy and self.header is not None
                    continue
                try:
                    line = decode_line(view[start:end])
                except REFUSED:
                    self._parse_in_full(n, data, base, start, end)
                    continue
                kind, entry_id, parent, custom_type, message = line.type, line.id, line.parentId, line.customType, line.message
                role = tool = None
                if kind == "message" and message is not None:
                    role, tool = message.role, message.toolName
                try:
                    code = codes.get((kind, custom_type, role, tool))  # type: ignore[arg-type]  # scanned values are checked by the lookup
                except TypeError:  # a list or an object where a string belongs
                    code = None
                if (code is None or entry_id.__class__ is not str or entry_id in positions
                        or (kind != "message" and end - start > short)):
                    self._add(kind, entry_id, parent, custom_type, role, tool, n, data, base, start, end)
                    continue
                i = len(ids)
                if parent.__class__ is str:
                    parent_at = positions.get(parent, PENDING)
                    if parent_at == PENDING:
                        pending[i] = parent
                else:
                    parent_at = NO_PARENT
                positions[entry_id] = i
                append_id(entry_id)
                append_parent(parent_at)
                append_kind(code)
                append_offset(base + start)
                append_length(end - start)
                append_line(n)
                if kind == "session_info":
                    self._name_at = i
                branch = self._branch
                if branch and branch[-1] == parent_at and not pending:  # the branch grows by one
                    branch.append(i)
                elif branch is not None:
                    self._follow_leaf(i, parent_at, entry_id)
        finally:
            view.release()
        chunk.line_count_hint = line_no - chunk.first_line_no

    def _index_batch(self, data: bytes | bytearray, base: int, start: int, size: int, first_no: int) -> int:
        """Index the lines of ``data[start:size]`` all at once (each step runs over the whole
        batch in C where it can) when every one of them is an ordinary new entry: every field a
        string, a new id, a parent earlier in the file, no depth to worry about. Returns how many
        lines it indexed; 0 when any line is not such an entry, having changed nothing (the lines
        are then indexed one by one, which decides about each the way pi does)."""
        from .scan import REFUSED, decode_entry

        index = self._index
        if index.pending:  # an earlier entry waits for its parent: leave cycles to the line path
            return 0
        find, ends, end = data.find, [], start - 1
        while (end := find(b"\n", end + 1, size)) >= 0:
            ends.append(end)
        starts = [start, *map((1).__add__, ends[:-1])]
        lines = list(map(memoryview(data).__getitem__, map(slice, starts, ends)))  # views: no copies
        try:
            entries = list(map(decode_entry, lines))
        except REFUSED:
            return 0
        del lines  # (the tailer reuses its buffer: no view of it may outlive this call)
        count, first = len(entries), len(index)
        ids = list(map(_ID, entries))
        positions = index.positions
        if len(set(ids)) != count or not positions.keys().isdisjoint(ids):
            return 0
        positions.update(zip(ids, range(first, first + count)))  # undone below if the batch is refused
        get, parent_ids = positions.get, list(map(_PARENT_ID, entries))
        if None in parent_ids:
            parents = [NO_PARENT if p is None else get(p, PENDING) for p in parent_ids]
        else:
            parents = list(map(get, parent_ids, repeat(PENDING, count)))
        keys: list[Kind] = [
            (e.type, e.customType, m.role, m.toolName) if (m := e.message) is not None and e.type == "message"
            else (e.type, e.customType, None, None) for e in entries
        ]
        types = list(map(_TYPE, keys))
        lengths = list(map(sub, ends, starts))
        short = 2 * MAX_DEPTH
        if (PENDING in parents or any(map(ge, parents, range(first, first + count)))  # a later parent
                or "session" in types  # a second header
                or any(lengths[i] > short and too_deep(data[starts[i]:ends[i]])  # too deep to read back
                       for i in compress(range(count), map(ne, types, repeat("message", count))))):
            for entry_id in ids:
                del positions[entry_id]
            return 0
        known = list(map(index.kind_codes.get, keys))
        # kinds not seen yet are added in the order they appear
        codes = [index.kind_code(k) for k in keys] if None in known else cast("list[int]", known)
        index.ids.extend(ids)
        index.parents.extend(parents)
        index.kinds.extend(codes)
        index.offsets.extend(map(base.__add__, starts))
        index.lengths.extend(lengths)
        index.line_nos.extend(range(first_no, first_no + count))
        if "session_info" in types:
            self._name_at = first + count - 1 - types[::-1].index("session_info")
        branch = self._branch
        if branch and branch[-1] == first - 1 and parents == list(range(first - 1, first + count - 1)):
            branch.extend(range(first, first + count))  # the branch grows by the whole batch
            return count
        for i, parent_at in enumerate(parents, first):
            if branch is None:
                break
            if branch and branch[-1] == parent_at:
                branch.append(i)
            else:
                self._follow_leaf(i, parent_at, ids[i - first])
                branch = self._branch
        return count

    def _parse_in_full(self, n: int, data: bytes | bytearray, base: int, start: int, end: int) -> None:
        try:
            value = parse_line(data, start, end)
        except ValueError as exc:
            self._warn(f"line {n}: {exc}; skipped")
            return
        if value is None:
            return
        if self.header is None:
            if not is_header(value):
                raise NotASession(f"{self.path} is not a pi session file: line {n} is not a session header")
            self.header = value
            self._legacy = self.version < 3
            if self._legacy:
                self._warn(f"line {n}: version {self.version} session file; opened read-only")
            elif self.version > 3:
                self._warn(f"line {n}: version {self.version} session file, newer than pideck knows "
                           "(3); read as version 3 and opened read-only")
            return
        if not isinstance(value, dict):
            self._warn(f"line {n}: not a JSON object; skipped")
            return
        if self._legacy and value.get("type") != "session":
            value = upgrade_legacy_message(value)
            if not isinstance(value.get("id"), str):  # ids came with version 2: chain them in file order
                value = {**value, "id": f"line-{n}", "parentId": self._index.ids[-1] if self._index.ids else None}
        kind, message = value.get("type"), value.get("message")
        role = tool = None
        if kind == "message" and isinstance(message, dict):
            role, tool = message.get("role"), message.get("toolName")
        self._add(kind, value.get("id"), value.get("parentId"), value.get("customType"), role, tool, n,
                  data, base, start, end)

    def _add(self, kind: Any, entry_id: Any, parent: Any, custom_type: Any, role: Any, tool: Any, n: int,
             data: bytes | bytearray, base: int, start: int, end: int) -> None:
        """Index one parsed line (the fields as JSON.parse gives them) the way pi reads it."""
        if kind == "session":
            self._warn(f"line {n}: a second session header; ignored")
            return
        if not isinstance(entry_id, str):
            self._warn(f"line {n}: entry without a string id skipped (pi itself would show an "
                       "empty branch after such a line)")
            return
        if kind != "message" and end - start > 2 * MAX_DEPTH and too_deep(data[start:end]):
            # bodies of these entries are what derived state is built from: never admit one that
            # cannot be read back (message lines are checked when their body is read)
            self._warn(f"line {n}: nested more than {MAX_DEPTH} levels deep; skipped")
            return
        index = self._index
        key = (
            kind if isinstance(kind, str) else None,
            custom_type if isinstance(custom_type, str) else None,
            role if isinstance(role, str) else None,
            tool if isinstance(tool, str) else None,
        )
        previous = index.add(entry_id, parent if isinstance(parent, str) else None, key, base + start, end - start, n)
        i = len(index) - 1
        if previous >= 0:
            self._warn(f"line {n}: duplicate id {entry_id} (also on line {index.line_nos[previous]}); "
                       "the later entry wins, as in pi")
        if key[0] == "session_info":
            self._name_at = i
        if previous >= 0:
            self._branch = None  # an id now names another entry: walk the branch again
        elif self._branch is not None:
            self._follow_leaf(i, index.parents[i], entry_id)

    def _follow_leaf(self, i: int, parent_at: int, entry_id: str) -> None:
        """Keep the branch up to date as entry ``i`` becomes the leaf (no walk from the leaf): it
        grows by one, starts anew at a root, or forks off an entry a little before the old leaf
        (a /tree jump); anything else leaves it to be walked again when asked for."""
        branch = self._branch
        assert branch is not None
        if parent_at == PENDING:  # a parent id not seen before it, maybe its own: pi decides by id
            self._branch = None
            return
        if parent_at < 0:
            self._branch = [i]
            return
        if not branch or branch[-1] != parent_at:
            for k in range(len(branch) - 2, max(len(branch) - FORK_REACH, 0) - 1, -1):
                if branch[k] == parent_at:
                    del branch[k + 1:]
                    break
            else:
                self._branch = None
                return
        branch.append(i)
        if self._index.pending.get(branch[0]) == entry_id:
            # The root pointed at this id: a cycle. Leave it to the walk, which warns of the cycles
            # of the branch as it is when asked for, as a fresh read does (an entry appended later
            # may leave this one off the branch; a warning now would tell of a state that passed).
            self._branch = None

    def _load(self, record: EntryRecord) -> dict[str, Any]:
        """Read one entry's line back from the file."""
        memo = self._memo
        if memo is not None and memo[0] is record:
            return memo[1]
        if (body := self._bodies.get(record)) is not None:
            self._bodies.move_to_end(record)
            return body
        try:
            fd = os.open(self.path, os.O_RDONLY)
            try:
                raw = os.pread(fd, record.length, record.offset)
            finally:
                os.close(fd)
            value = loads_line(raw, depth_checked=record.type != "message")  # (checked when indexed)
        except (OSError, ValueError) as exc:
            value, problem = None, str(exc)
        else:
            problem = "it changed on disk"
        if isinstance(value, dict) and self._legacy:
            value = upgrade_legacy_message(value)
            if not isinstance(value.get("id"), str):
                value = {**value, "id": record.id, "parentId": record.parent_id}
        if isinstance(value, dict) and value.get("id") == record.id:
            # Derived state reads the same few small entries again and again (the newest state of
            # each primitive): keep the last ones read; of big message bodies, only the last.
            if record.type == "message":
                self._memo = (record, value)
            else:
                self._bodies[record] = value
                if len(self._bodies) > BODIES_KEPT:
                    self._bodies.popitem(last=False)
            return value
        self._read_back_failed = True
        self._warn(f"line {record.line_no}: entry {record.id} could not be read back ({problem})")
        return {"type": record.type, "id": record.id, "parentId": record.parent_id}

    def _warn_cycle(self, entry_id: str) -> None:
        if entry_id not in self._cycle_warned:
            self._cycle_warned.add(entry_id)
            self._warn(f"parentId cycle at entry {entry_id}: the branch stops there")

    def _warn(self, text: str) -> None:
        self.warnings.append(text)

    # -- the tree ---------------------------------------------------------------------------------

    @property
    def leaf(self) -> EntryRecord | None:
        """The last entry of the file (pi's leaf after loading)."""
        return self._records.record(len(self._index) - 1) if len(self._index) else None

    @property
    def leaf_id(self) -> str | None:
        return self._index.ids[-1] if self._index.ids else None

    def _current_branch(self) -> list[int]:
        if self._branch is None:
            index = self._index
            path, cycle_at = index.walk(len(index) - 1) if len(index) else ([], None)
            if cycle_at is not None:
                self._warn_cycle(index.ids[cycle_at])
            self._branch = path
        return self._branch

    def branch(self) -> Sequence[EntryRecord]:
        """Records of the current branch, root first (a snapshot: later appends do not change it)."""
        return self._records.picked(list(self._current_branch()))

    def branch_entries(self) -> Sequence[Mapping[str, Any]]:
        """Entries of the current branch, root first, as records: a record reads its body from the
        file when a key beyond type/id/customType is looked up (so on a big session, filter on
        ``type`` before looking at ``message``)."""
        return self.branch()

    def branch_select(
        self, wanted: Wanted, start: int = 0, anchor: Mapping[str, Any] | None = None
    ) -> tuple[list[tuple[int, Kind, int]], int, Callable[[int], EntryRecord], EntryRecord | None] | None:
        """The entries of the current branch from position ``start`` on that
        ``wanted(type, customType, role, toolName)`` picks, found from the index alone, so a fold
        that reads a few kinds of entry costs nothing for the others. Returns
        ``(picked, length, record_at, last)``: (branch position, kind, key) triples, the branch
        length, ``record_at(key)`` for the record of a picked entry, and the branch's last record.
        None when the entry at ``start - 1`` is no longer ``anchor`` (the branch changed in
        another way than growing)."""
        branch, records = self._current_branch(), self._records
        if start and (len(branch) < start or records.record(branch[start - 1]) is not anchor):
            return None
        index = self._index
        codes, kinds, table = index.codes(wanted), index.kinds, index.kind_table
        # the positions are found in C (a map over the branch); only the picked ones cost a step
        hits = compress(range(start, len(branch)), map(codes.__contains__, map(kinds.__getitem__, branch[start:])))
        picked = [(p, table[kinds[branch[p]]], branch[p]) for p in hits]
        return picked, len(branch), records.record, records.record(branch[-1]) if branch else None

    def entry(self, entry_id: str) -> dict[str, Any] | None:
        """The full entry with this id (the later one for a duplicate id), or None."""
        i = self._index.positions.get(entry_id)
        return self._records.record(i).load() if i is not None else None

    def _newest_on_branch(self, wanted: Wanted) -> dict[str, Any] | None:
        codes, kinds = self._index.codes(wanted), self._index.kinds
        if codes:
            for i in reversed(self._current_branch()):
                if kinds[i] in codes:
                    return self._records.record(i).load()
        return None

    def latest_custom(self, custom_type: str) -> dict[str, Any] | None:
        """The newest ``custom`` entry of ``custom_type`` on the current branch, or None."""
        return self._newest_on_branch(lambda kind, ct, role, tool: kind == "custom" and ct == custom_type)

    def latest_tool_result(self, tool_name: str) -> dict[str, Any] | None:
        """The newest ``toolResult`` message entry of ``tool_name`` on the current branch, or None
        (found from the index; only that entry's body is read)."""
        return self._newest_on_branch(
            lambda kind, ct, role, tool: kind == "message" and role == "toolResult" and tool == tool_name
        )

    @property
    def name(self) -> str | None:
        """The session name: ``name`` of the newest ``session_info`` entry in the file."""
        if self._name_at < 0:
            return None
        if self._name is None or self._name[0] != self._name_at:
            name = self._records.record(self._name_at).get("name")
            self._name = (self._name_at, name if isinstance(name, str) else None)
        return self._name[1]

    # -- appending --------------------------------------------------------------------------------

    def append_custom(self, custom_type: str, data: Any = MISSING) -> dict[str, Any]:
        """Append a ``custom`` entry (pi's ``appendEntry``) whose parent is the file's last entry."""
        return self._append(lambda id, parent, ts: custom_entry(custom_type, data, id, parent, ts))

    def append_custom_message(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> dict[str, Any]:
        """Append a ``custom_message`` entry (pi's ``sendMessage`` while idle)."""
        return self._append(
            lambda id, parent, ts: custom_message_entry(custom_type, content, display, details, id, parent, ts)
        )

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the file's exclusive lock across a whole read-derive-append (re-entrant).

        A mutation decides what to append from the state it read; taking the lock around both
        (and refreshing inside it) means a concurrent writer can never be overwritten by a
        state computed before its entry landed.
        """
        if self._lock_fd is not None or fcntl is None:
            yield
            return
        fd = self._open(os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._lock_fd = fd
            yield
        finally:
            self._lock_fd = None
            os.close(fd)  # releases the lock

    def _append(self, build: Callable[[str, str | None, str], dict[str, Any]]) -> dict[str, Any]:
        reason = self.read_only_reason
        if reason is not None:
            raise ReadOnlySession(reason)
        serialise(build("00000000", None, ""))  # a value JSON cannot hold fails here, before any write
        fd = self._open(os.O_RDWR | os.O_APPEND)
        try:
            if fcntl is not None and self._lock_fd is None:
                fcntl.flock(fd, fcntl.LOCK_EX)  # released by close
            self.refresh()  # another process may have appended: choose the parent from the file
            if (reason := self.read_only_reason) is not None:  # emptied or replaced meanwhile
                raise ReadOnlySession(reason)
            if self._tail.partial:
                write_all(fd, b"\n")  # a crashed writer's partial line becomes its own (bad) line
                self.refresh()
            entry = build(unique_id(self._index.positions, self._id_factory), self.leaf_id, iso_timestamp(self._clock()))
            write_all(fd, serialise(entry))
            self.refresh()
        finally:
            os.close(fd)
        return entry


    def _open(self, flags: int) -> int:
        """The session file opened to lock or append to it. Non-blocking (something put in its
        place must not hang pideck); a file that is gone or may not be written is a refusal."""
        try:
            return os.open(self.path, flags | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise ReadOnlySession(FILE_GONE) from None
        except PermissionError as exc:
            raise ReadOnlySession(cannot_write(exc.strerror or "permission denied")) from None


def usage_tokens(usage: Any) -> dict[str, int] | None:
    """pi's ``usage`` of an assistant message as the token counts pideck shows; None when it holds
    none (a count that is not a whole number of 0 or more is left out)."""
    if not isinstance(usage, dict):
        return None
    counts = {key: usage[key] for key in ("input", "output", "cacheRead", "cacheWrite", "totalTokens")
              if type(usage.get(key)) is int and usage[key] >= 0}
    return counts or None


def _branch_digest(branch: list[int], covers: int) -> str:
    """What identifies the first ``covers`` positions of a branch of one index."""
    import hashlib

    return hashlib.blake2b(array("q", branch[:covers]).tobytes(), digest_size=16).hexdigest()


_ID, _PARENT_ID, _TYPE = attrgetter("id"), attrgetter("parentId"), itemgetter(0)


class _ById(Mapping):
    """pi's id map as records: id -> the last entry with that id."""

    def __init__(self, index: EntryIndex, records: Records) -> None:
        self._index, self._records = index, records

    def __getitem__(self, entry_id: str) -> EntryRecord:
        return self._records.record(self._index.positions[entry_id])

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._index.positions

    def __iter__(self) -> Iterator[str]:
        return iter(self._index.positions)

    def __len__(self) -> int:
        return len(self._index.positions)
