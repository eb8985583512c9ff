"""``SessionLog``: one pi session file, indexed, followed and appended to."""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping

try:
    import fcntl
except ImportError:  # not POSIX: appends are not locked
    fcntl = None  # type: ignore[assignment]

from . import discovery
from .errors import NotASession, ReadOnlySession
from .parse import FAST_MIN, fast_head, header_version, is_header, loads_line, parse_line, upgrade_legacy_message
from .records import EntryRecord
from .tail import Tailer, TailChunk
from .tree import branch_path
from .writer import (
    MISSING, Clock, IdFactory, custom_entry, custom_message_entry, header_entry, iso_timestamp,
    serialise, short_id, unique_id, utc_now, uuid7, write_all,
)

KEEP_TYPES = frozenset({
    "custom", "custom_message", "session_info", "label", "model_change", "thinking_level_change",
    "compaction", "branch_summary", "context_edit", "usage",
})
"""Entry types whose parsed dict is kept in memory (small, and what derived state reads)."""
KEEP_MAX = 64 << 10
"""Entries of other non-message types (unknown ones) are kept when their line is at most this long."""


@dataclass
class Refresh:
    """What one ``refresh()`` found."""

    new: list[EntryRecord] = field(default_factory=list)  # entries added, in file order
    reset: bool = False  # the file was replaced/truncated/rewritten: everything was re-read
    warnings: list[str] = field(default_factory=list)  # warnings raised by this refresh

    @property
    def changed(self) -> bool:
        return self.reset or bool(self.new)


def _make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and every missing ancestor with mode 0700 (``mkdir(parents=True)`` gives
    the ancestors, such as pideck's home and its ``sessions`` folder, the default mode, so anyone
    could list which directories a user works in)."""
    missing: list[Path] = []
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for each in reversed(missing):
        try:
            each.mkdir(mode=0o700)
        except FileExistsError:
            pass


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
        fast_min: int | None = FAST_MIN,
    ) -> None:
        self.path = Path(path)
        self._requested_writable = writable
        self._clock = clock or utc_now
        self._id_factory = id_factory or short_id
        self._fast_min = fast_min
        self._tail = Tailer(self.path)
        self._lock_fd: int | None = None
        self.generation = 0  # bumped on every re-read from scratch (see ReadableLog.generation)
        self._reset_state()

    def _reset_state(self) -> None:
        self.header: dict[str, Any] | None = None
        self.records: list[EntryRecord] = []
        self.by_id: dict[str, EntryRecord] = {}
        self.warnings: list[str] = []
        self._name: str | None = None
        self._branch: list[EntryRecord] | None = []
        self._cycle_warned: set[str] = set()
        self._head_index = False  # large message lines may be indexed from their head

    # -- opening ----------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], writable: bool | None = None, **options: Any) -> SessionLog:
        """Open and index ``path``. ``writable=None``: read-only inside pi's session folders,
        writable elsewhere. Raises ``NotASession`` when the first parsed line is not a header."""
        log = cls(path, writable=writable, **options)
        if log.path.is_dir():
            raise IsADirectoryError(f"{log.path} is a directory, not a session file")
        if not log.path.is_file():
            raise FileNotFoundError(f"no session file at {log.path}")
        log.refresh()
        if log.header is None:
            raise NotASession(f"{log.path} is not a pi session file: it has no session header line")
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
        _make_private_dirs(path.parent)
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

    # -- header facts -----------------------------------------------------------------------------

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
        """Why appends are refused, or None when the log is writable."""
        if self.version < 3:
            return (f"{self.path} is a version {self.version} session file: pideck reads it but never writes "
                    "to it (pi migrates such files to version 3 by rewriting them)")
        if self._requested_writable is True:
            return None
        if self._requested_writable is None and not discovery.is_pi_session_path(self.path):
            return None
        if self._requested_writable is None:
            return (f"{self.path} is one of pi's own session files, opened read-only: pi keeps its session "
                    "tree in memory, so entries appended while pi runs land on a branch pi no longer "
                    "follows. Pass --write to append anyway.")
        return f"{self.path} was opened read-only; pass --write to append to it"

    @property
    def writable(self) -> bool:
        return self.read_only_reason is None

    # -- reading ----------------------------------------------------------------------------------

    def refresh(self) -> Refresh:
        """Read what was appended since the last call (all of it at first; everything after a reset)."""
        result = Refresh()
        first_warning = len(self.warnings)
        # Indexing creates one small object per entry and nothing cyclic: pausing the cycle collector
        # meanwhile saves the repeated full-heap scans that would otherwise dominate a big open.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            while (chunk := self._tail.read()) is not None:
                if chunk.reset:
                    self._reset_state()
                    self.generation += 1
                    first_warning = 0
                    result = Refresh(reset=True)
                before = len(self.records)
                self._ingest(chunk)
                result.new.extend(self.records[before:])
        finally:
            if gc_was_enabled:
                gc.enable()
        if result.new:
            self._verify_leaf(result)
        result.warnings = self.warnings[first_warning:]
        return result

    def _ingest(self, chunk: TailChunk) -> None:
        # The hot loop of opening a big file: lines are walked in place (no copies), and large
        # message lines are indexed from their head (parse.fast_head).
        data, base, size = chunk.data, chunk.offset, chunk.size
        find, load = data.find, self._load
        fast_min = self._fast_min if self._fast_min is not None else size + 1
        line_no, pos = chunk.first_line_no, 0
        while (end := find(b"\n", pos, size)) >= 0:
            start, pos, n = pos, end + 1, line_no
            line_no += 1
            if end - start >= fast_min and self._head_index:
                head = fast_head(data, start, end)
                if head is not None and (head[2] != "toolResult" or head[3] not in (None, "todo")):
                    # (a toolResult without a toolName in its head, or a todo result, is parsed in full;
                    # so is every line of a version < 3 file, whose hookMessage role reads as custom)
                    record = EntryRecord(head[0], head[1], "message", base + start, end - start, n, loader=load)
                    record.role, record.tool_name, record.verified = head[2], head[3], False
                    self._add(record)
                    continue
            try:
                value = parse_line(data, start, end)
            except ValueError as exc:
                self._warn(f"line {n}: {exc}; skipped")
                continue
            if value is None:
                continue
            if self.header is None:
                if not is_header(value):
                    raise NotASession(f"{self.path} is not a pi session file: line {n} is not a session header")
                self.header = value
                self._head_index = self.version >= 3  # a legacy file is parsed in full
                if self.version < 3:
                    self._warn(f"line {n}: version {self.version} session file; opened read-only")
                continue
            self._add_parsed(value, n, base + start, end - start)
        chunk.line_count_hint = line_no - chunk.first_line_no

    def _add_parsed(self, value: Any, line_no: int, offset: int, length: int) -> None:
        if not isinstance(value, dict):
            self._warn(f"line {line_no}: not a JSON object; skipped")
            return
        if value.get("type") == "session":
            self._warn(f"line {line_no}: a second session header; ignored")
            return
        if self.version < 3:
            value = upgrade_legacy_message(value)
            if not isinstance(value.get("id"), str):
                previous = self.records[-1].id if self.records else None
                value = {**value, "id": f"line-{line_no}", "parentId": previous}
        entry_id = value.get("id")
        if not isinstance(entry_id, str):
            self._warn(f"line {line_no}: entry without a string id skipped (pi itself would show an "
                       "empty branch after such a line)")
            return
        parent = value.get("parentId")
        kind = value.get("type") if isinstance(value.get("type"), str) else None
        message = value.get("message") if kind == "message" else None
        role = tool = None
        if isinstance(message, dict):
            role = message.get("role") if isinstance(message.get("role"), str) else None
            tool = message.get("toolName") if isinstance(message.get("toolName"), str) else None
        if kind == "message":
            keep = role == "toolResult" and tool == "todo"
        else:
            keep = kind in KEEP_TYPES or length <= KEEP_MAX
        custom_type = value.get("customType")
        self._add(EntryRecord(
            id=entry_id, parent_id=parent if isinstance(parent, str) else None, type=kind,
            custom_type=custom_type if isinstance(custom_type, str) else None, role=role, tool_name=tool,
            offset=offset, length=length, line_no=line_no, entry=value if keep else None, loader=self._load,
        ))
        if kind == "session_info":
            name = value.get("name")
            self._name = name if isinstance(name, str) else None

    def _add(self, record: EntryRecord) -> None:
        previous = self.by_id.get(record.id)
        if previous is not None:
            self._warn(f"line {record.line_no}: duplicate id {record.id} (also on line {previous.line_no}); "
                       "the later entry wins, as in pi")
        branch = self._branch
        if branch is not None:
            if previous is not None:
                self._branch = None
            elif record.parent_id is None or record.parent_id not in self.by_id:
                self._branch = [record]
            elif branch and branch[-1].id == record.parent_id:
                branch.append(record)
                if branch[0].parent_id == record.id:  # the root pointed at this id: a cycle
                    self._warn_cycle(record.id)
            else:
                self._branch = None
        self.records.append(record)
        self.by_id[record.id] = record

    def _verify_leaf(self, result: Refresh) -> None:
        """The leaf decides the branch: check an entry indexed from its head before trusting it."""
        while self.records and not self.records[-1].verified:
            record = self.records[-1]
            try:
                value = loads_line(self._read_line(record))
                ok = isinstance(value, dict) and value.get("id") == record.id
            except (OSError, ValueError):
                ok = False
            if ok:
                record.verified = True
                return
            self._warn(f"line {record.line_no}: invalid JSON or UTF-8; skipped")
            self.records.pop()
            if record in result.new:
                result.new.remove(record)
            self._branch = None
            del self.by_id[record.id]
            for other in reversed(self.records):
                if other.id == record.id:
                    self.by_id[record.id] = other
                    break

    def _read_line(self, record: EntryRecord) -> bytes:
        with open(self.path, "rb") as fh:
            fh.seek(record.offset)
            return fh.read(record.length)

    def _load(self, record: EntryRecord) -> dict[str, Any]:
        """Read one entry's line back from the file (a body that was not kept in memory)."""
        try:
            value = loads_line(self._read_line(record))
        except (OSError, ValueError) as exc:
            value, problem = None, str(exc)
        else:
            problem = "it changed on disk"
        if isinstance(value, dict) and self.version < 3:
            value = upgrade_legacy_message(value)
            if not isinstance(value.get("id"), str):
                value = {**value, "id": record.id, "parentId": record.parent_id}
        if isinstance(value, dict) and value.get("id") == record.id:
            record.verified = True
            return value
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
        return self.records[-1] if self.records else None

    @property
    def leaf_id(self) -> str | None:
        return self.records[-1].id if self.records else None

    def branch(self) -> list[EntryRecord]:
        """Index records of the current branch, root first."""
        return list(self._current_branch())

    def _current_branch(self) -> list[EntryRecord]:
        if self._branch is None:
            path, cycle_at = branch_path(self.leaf, self.by_id)
            if cycle_at is not None:
                self._warn_cycle(cycle_at)
            self._branch = path
        return self._branch

    def branch_entries(self) -> list[Mapping[str, Any]]:
        """Entries of the current branch, root first: kept entries as their dicts, the others as
        records that read their body from the file when a key beyond type/id is looked up (so on a
        big session, filter on ``type`` before looking at ``message``)."""
        return [r.entry if r.entry is not None else r for r in self._current_branch()]

    def branch_since(self, length: int, anchor: Mapping[str, Any] | None) -> list[Mapping[str, Any]] | None:
        """What was added to the current branch after its first ``length`` entries, provided the
        entry at ``length - 1`` is still ``anchor`` (the very object ``branch_entries`` gave);
        None when the branch changed in another way (a switch or a reset). Costs O(new entries)."""
        branch = self._current_branch()
        if length == 0 or len(branch) < length:
            return None
        record = branch[length - 1]
        if (record.entry if record.entry is not None else record) is not anchor:
            return None
        return [r.entry if r.entry is not None else r for r in branch[length:]]

    def entry(self, entry_id: str) -> dict[str, Any] | None:
        """The full entry with this id (the later one for a duplicate id), or None."""
        record = self.by_id.get(entry_id)
        return record.load() if record is not None else None

    def latest_custom(self, custom_type: str) -> dict[str, Any] | None:
        """The newest ``custom`` entry of ``custom_type`` on the current branch, or None."""
        for record in reversed(self._current_branch()):
            if record.type == "custom" and record.custom_type == custom_type:
                return record.load()
        return None

    def latest_tool_result(self, tool_name: str) -> dict[str, Any] | None:
        """The newest ``toolResult`` message entry of ``tool_name`` on the current branch, or None
        (found from the index; only that entry's body is read)."""
        for record in reversed(self._current_branch()):
            if record.type == "message" and record.role == "toolResult" and record.tool_name == tool_name:
                return record.load()
        return None

    @property
    def name(self) -> str | None:
        """The session name: ``name`` of the newest ``session_info`` entry in the file."""
        return self._name

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
        fd = os.open(self.path, os.O_RDONLY)
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
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
        try:
            if fcntl is not None and self._lock_fd is None:
                fcntl.flock(fd, fcntl.LOCK_EX)  # released by close
            self.refresh()  # another process may have appended: choose the parent from the file
            if self._tail.partial:
                write_all(fd, b"\n")  # a crashed writer's partial line becomes its own (bad) line
                self.refresh()
            entry = build(unique_id(self.by_id, self._id_factory), self.leaf_id, iso_timestamp(self._clock()))
            write_all(fd, serialise(entry))
            self.refresh()
        finally:
            os.close(fd)
        return entry
