"""The indexing hot loop: what reading a session file's lines has found, and the loop that finds it.

An ``Indexer`` holds everything a read of the lines so far has learnt: the header, the entry index
(``index.py``), the warnings, the positions of the current branch and the newest ``session_info``
entry. ``SessionLog`` (``log.py``) feeds it the chunks its tailer reads (``tail.py``) and starts a
new one when the file was replaced; the saved index (``keeping.py``) hands one back as it was
saved. Kept apart from the log because this is the code a 200 MB open spends its time in: every
line goes through ``ingest``, and nothing else here runs per line.

A line is read the way pi reads it (docs/session-format.md#what-a-bad-line-costs): the scanner
(``scan.py``) reads an entry's identity without its body, a line it refuses is parsed in full
(``parse.py``), and the branch follows each new leaf (``branch.py``) without walking the tree.
"""

from __future__ import annotations

from itertools import repeat
from operator import ge, sub
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.session.branch import follow_leaf
from core.session.errors import NotASession
from core.session.index import NO_PARENT, PENDING, EntryIndex, Kind
from core.session.parse import MAX_DEPTH, header_version, is_entry, is_header, parse_line, too_deep, upgrade_legacy_message
from core.session.tail import TailChunk

if TYPE_CHECKING:
    from core.session.entry import Header
    from core.session.scan import Batch



class Indexer:
    """What reading the lines of one file (one generation of it) has found so far."""

    def __init__(self, path: Path) -> None:
        self.path = path  # (named in the refusal of a file that is not a session)
        self.header: Header | None = None
        self.index = EntryIndex()
        self.warnings: list[str] = []
        self.branch: list[int] | None = []  # positions of the current branch; None: walk again
        self.cycle_warned: set[str] = set()
        self.legacy = False  # version < 3: every line is parsed in full (ids may be missing)
        self.name_at = -1  # position of the newest session_info entry
        self.said: dict[int, tuple] = {}
        """position -> what the usage ledger reads of an answer or a prompt, for the messages
        scanned in a batch (``scan.Batch.said``); handed over once (``SessionLog.take_said``)."""

    @property
    def version(self) -> int:
        return header_version(self.header) if self.header else 3

    def current_branch(self) -> list[int]:
        """Positions of the current branch, root first, walked from the leaf when the entries
        indexed since the last walk did not keep it (a cycle is warned of once)."""
        if self.branch is None:
            index = self.index
            path, cycle_at = index.walk(len(index) - 1) if len(index) else ([], None)
            if cycle_at is not None:
                self.warn_cycle(index.ids[cycle_at])
            self.branch = path
        return self.branch

    def warn_cycle(self, entry_id: str) -> None:
        if entry_id not in self.cycle_warned:
            self.cycle_warned.add(entry_id)
            self.warn(f"parentId cycle at entry {entry_id}: the branch stops there")

    def warn(self, text: str) -> None:
        self.warnings.append(text)

    def ingest(self, chunk: TailChunk, scan: bool) -> None:
        """Index the complete lines of ``chunk``; ``scan``: read them with the scanner (``scan.py``)
        rather than parse each in full (the log decides, ``log.py``'s ``SCAN_MIN_BYTES``)."""
        # The hot loop of opening a big file. Lines are walked in place (no copies) and scanned for
        # their identity only (scan.py; a small read parses them in full, see log.py). The
        # common case, a new entry whose fields are all strings, is indexed right here (a call per
        # line costs as much as the scan); anything else goes through _add, and a line the scanner
        # refuses is parsed in full as pi parses it.

        data, base, size = chunk.data, chunk.offset, chunk.size
        view = memoryview(data)
        find = data.find
        index = self.index
        ids, positions, pending, codes = index.ids, index.positions, index.pending, index.kind_codes
        append_id, append_parent, append_kind = ids.append, index.parents.append, index.kinds.append
        append_offset, append_length, append_line = index.offsets.append, index.lengths.append, index.line_nos.append
        short = 2 * MAX_DEPTH  # longer lines of other types than message get their depth checked
        scanning = scan and not self.legacy and self.header is not None
        if scan:
            from core.session.scan import REFUSED, decode_line
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
                    scanning = scan and not self.legacy and self.header is not None
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
                    self.name_at = i
                branch = self.branch
                if branch and branch[-1] == parent_at and not pending:  # the branch grows by one
                    branch.append(i)
                elif branch is not None:
                    self.branch = follow_leaf(branch, index, i, parent_at, entry_id)
        finally:
            view.release()
        chunk.line_count_hint = line_no - chunk.first_line_no

    def _index_batch(self, data: bytes | bytearray, base: int, start: int, size: int, first_no: int) -> int:
        """Index the lines of ``data[start:size]`` all at once when every one of them is an
        ordinary new entry (``scan.decode_batch``, then ``apply_batch``). Returns how many lines
        it indexed; 0 when any line is not such an entry, having changed nothing (the lines are
        then indexed one by one, which decides about each the way pi does)."""
        from core.session.scan import decode_batch

        batch = decode_batch(data, start, size, base)
        return self.apply_batch(batch, first_no) if batch is not None else 0

    def apply_batch(self, batch: Batch, first_no: int) -> int:
        """Index ``batch`` (lines ``first_no`` on) when each of its entries is new and has its
        parent earlier in the file; returns how many it indexed, or 0 having changed nothing."""
        index = self.index
        ids = batch.ids
        if index.pending and not set(index.pending.values()).isdisjoint(ids):
            return 0  # (an earlier entry waits for one of these as its parent: the line path decides)
        count, first = len(ids), len(index)
        positions = index.positions
        if not positions.keys().isdisjoint(ids):
            return 0
        known_ids = len(positions)
        positions.update(zip(ids, range(first, first + count)))  # undone below if the batch is refused
        parents = self._batch_parents(batch, first, positions) if len(positions) == known_ids + count else None
        if parents is None or PENDING in parents or any(map(ge, parents, range(first, first + count))):
            for entry_id in ids:  # (an id twice in the batch, a parent not earlier in the file)
                positions.pop(entry_id, None)
            return 0
        ours = [index.kind_code(kind) for kind in batch.table]  # (new kinds in the order they appear)
        codes = batch.codes if ours == list(range(len(ours))) else list(map(ours.__getitem__, batch.codes))
        index.ids.extend(ids)
        index.parents.extend(parents)
        index.kinds.extend(codes)
        index.offsets.extend(batch.offsets)
        index.lengths.extend(batch.lengths)
        index.line_nos.extend(range(first_no, first_no + count))
        if batch.said_at:
            self.said.update(zip(map(first.__add__, batch.said_at), batch.said))
        named = {ours[code] for code, kind in enumerate(batch.table) if kind[0] == "session_info"}
        if named:
            self.name_at = next((i for i in range(first + count - 1, first - 1, -1) if index.kinds[i] in named),
                                self.name_at)
        branch = self.branch
        if branch and branch[-1] == first - 1 and parents == list(range(first - 1, first + count - 1)):
            branch.extend(range(first, first + count))  # the branch grows by the whole batch
            return count
        for i, parent_at in enumerate(parents, first):
            if branch is None:
                break
            if branch and branch[-1] == parent_at:
                branch.append(i)
            else:
                branch = self.branch = follow_leaf(branch, index, i, parent_at, ids[i - first])
        return count

    @staticmethod
    def _batch_parents(batch: Batch, first: int, positions: dict[str, int]) -> list[int]:
        """The positions of the parents of ``batch``'s entries, which start at ``first``."""
        if batch.back is None:
            get, parent_ids = positions.get, batch.parent_ids
            if None in parent_ids:
                return [NO_PARENT if p is None else get(p, PENDING) for p in parent_ids]
            return list(map(get, parent_ids, repeat(PENDING, len(parent_ids))))
        parents = list(map(sub, range(first, first + len(batch.back)), batch.back))
        for i, parent_id in batch.outside:
            parents[i] = NO_PARENT if parent_id is None else positions.get(parent_id, PENDING)
        return parents

    def _parse_in_full(self, n: int, data: bytes | bytearray, base: int, start: int, end: int) -> None:
        try:
            value = parse_line(data, start, end)
        except ValueError as exc:
            self.warn(f"line {n}: {exc}; skipped")
            return
        if value is None:
            return
        if self.header is None:
            if not is_header(value):
                raise NotASession(f"{self.path} is not a pi session file: line {n} is not a session header")
            self.header = value
            self.legacy = self.version < 3
            if self.legacy:
                self.warn(f"line {n}: version {self.version} session file; opened read-only")
            elif self.version > 3:
                self.warn(f"line {n}: version {self.version} session file, newer than pideck knows "
                          "(3); read as version 3 and opened read-only")
            return
        if not is_entry(value):
            self.warn(f"line {n}: not a JSON object; skipped")
            return
        entry = value
        if self.legacy and entry.get("type") != "session":
            entry = upgrade_legacy_message(entry)
            if not isinstance(entry.get("id"), str):  # ids came with version 2: chain them in file order
                entry = {**entry, "id": f"line-{n}", "parentId": self.index.ids[-1] if self.index.ids else None}
        kind, message = entry.get("type"), entry.get("message")
        role = tool = None
        if kind == "message" and isinstance(message, dict):
            role, tool = message.get("role"), message.get("toolName")
        self._add(kind, entry.get("id"), entry.get("parentId"), entry.get("customType"), role, tool, n,
                  data, base, start, end)

    def _add(self, kind: Any, entry_id: Any, parent: Any, custom_type: Any, role: Any, tool: Any, n: int,
             data: bytes | bytearray, base: int, start: int, end: int) -> None:
        """Index one parsed line (the fields as JSON.parse gives them) the way pi reads it."""
        if kind == "session":
            self.warn(f"line {n}: a second session header; ignored")
            return
        if not isinstance(entry_id, str):
            self.warn(f"line {n}: entry without a string id skipped (pi itself would show an "
                      "empty branch after such a line)")
            return
        if kind != "message" and end - start > 2 * MAX_DEPTH and too_deep(data[start:end]):
            # bodies of these entries are what derived state is built from: never admit one that
            # cannot be read back (message lines are checked when their body is read)
            self.warn(f"line {n}: nested more than {MAX_DEPTH} levels deep; skipped")
            return
        index = self.index
        key = (
            kind if isinstance(kind, str) else None,
            custom_type if isinstance(custom_type, str) else None,
            role if isinstance(role, str) else None,
            tool if isinstance(tool, str) else None,
        )
        previous = index.add(entry_id, parent if isinstance(parent, str) else None, key, base + start, end - start, n)
        i = len(index) - 1
        if previous >= 0:
            self.warn(f"line {n}: duplicate id {entry_id} (also on line {index.line_nos[previous]}); "
                      "the later entry wins, as in pi")
        if key[0] == "session_info":
            self.name_at = i
        if previous >= 0:
            self.branch = None  # an id now names another entry: walk the branch again
        elif self.branch is not None:
            self.branch = follow_leaf(self.branch, index, i, index.parents[i], entry_id)

