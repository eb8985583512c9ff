"""Entry bodies read back from the session file when a record is asked for more than the index
knows (``records.py``), with the few most recent ones kept.

The index (``indexing.py``) keeps only where each line sits; a body is read again from the file,
one ``pread`` of that line, each time it is needed and not kept. Derived state reads the same few
small entries again and again (the newest state of each primitive), so the last ones read are
kept; of big message bodies, only the last.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

from core.session.index import EntryIndex
from core.session.indexing import Indexer
from core.session.parse import is_entry, loads_line, upgrade_legacy_message
from core.session.records import EntryRecord

if TYPE_CHECKING:
    from core.session.entry import Entry

BODIES_KEPT = 32
"""Bodies of entries other than messages kept after being read."""
SPAN = 4 << 20
"""Bytes one read of ``BodyReader.lines`` takes at most: many lines for one system call, with a
bounded buffer."""
GAP = 256 << 10
"""Bytes between two wanted lines past which ``BodyReader.lines`` starts a new read instead of
reading what lies between."""


class BodyReader:
    """Reads the bodies of a log's entries. One lives as long as its log, so a record of an older
    generation still reads through it; what it knows is dropped with each new generation."""

    def __init__(self, path: Path, read: Indexer) -> None:
        self._path = path
        self.reset(read)

    def reset(self, read: Indexer) -> None:
        """Start over with the indexer of a new generation of the file (its legacy flag decides how
        a body reads, its warnings get a body that cannot be read back)."""
        self._read = read
        self._memo: tuple[EntryRecord, Entry] | None = None  # the last message body read
        self._bodies: OrderedDict[EntryRecord, Entry] = OrderedDict()  # recent other bodies
        self.failed = False
        """An entry's body could not be read back: the warnings now hold one a fresh read gives only
        when it reads that entry (see ``keeping.py``)."""

    def lines(self, index: EntryIndex, positions: Sequence[int]) -> Iterator[tuple[int, memoryview | None]]:
        """The raw lines of the entries at ``positions`` (ascending), read in spans of up to
        ``SPAN`` bytes rather than one read per line: a fold over thousands of entries (the usage
        ledger) pays a few dozen system calls. A line the file no longer holds (it shrank) comes as
        None: its record's ``load`` then says what happened. A legacy file's lines need upgrading
        as ``load`` does them, so each comes as None there too. Each view is valid until the next
        one is asked for."""
        if self._read.legacy or not positions:
            yield from ((i, None) for i in positions)
            return
        offsets, lengths = index.offsets, index.lengths
        try:
            fd = os.open(self._path, os.O_RDONLY)
        except OSError:
            yield from ((i, None) for i in positions)
            return
        buffer = bytearray(SPAN)  # (one buffer for every read: no new pages to fault in for each)
        try:
            k, count = 0, len(positions)
            while k < count:
                first = offsets[positions[k]]
                end, last = first + lengths[positions[k]], k + 1  # (the span: lines k up to last)
                while last < count:
                    start = offsets[positions[last]]
                    stop = start + lengths[positions[last]]
                    if stop - first > SPAN or start - end > GAP:
                        break
                    end, last = stop, last + 1
                if len(buffer) < end - first:
                    buffer = bytearray(end - first)
                view = memoryview(buffer)
                try:
                    got = os.preadv(fd, [view[:end - first]], first)
                except OSError:
                    got = 0
                for j in range(k, last):
                    i = positions[j]
                    at = offsets[i] - first
                    yield i, view[at:at + lengths[i]] if at + lengths[i] <= got else None
                k = last
        finally:
            os.close(fd)

    def load(self, record: EntryRecord) -> Entry:
        """Read one entry's line back from the file (the ``Loader`` of ``records.py``)."""
        memo = self._memo
        if memo is not None and memo[0] is record:
            return memo[1]
        if (body := self._bodies.get(record)) is not None:
            self._bodies.move_to_end(record)
            return body
        try:
            fd = os.open(self._path, os.O_RDONLY)
            try:
                raw = os.pread(fd, record.length, record.offset)
            finally:
                os.close(fd)
            value = loads_line(raw, depth_checked=record.type != "message")  # (checked when indexed)
        except (OSError, ValueError) as exc:
            value, problem = None, str(exc)
        else:
            problem = "it changed on disk"
        entry = value if is_entry(value) else None
        if entry is not None and self._read.legacy:
            entry = upgrade_legacy_message(entry)
            if not isinstance(entry.get("id"), str):
                entry = {**entry, "id": record.id, "parentId": record.parent_id}
        if entry is not None and entry.get("id") == record.id:
            if record.type == "message":
                self._memo = (record, entry)
            else:
                self._bodies[record] = entry
                if len(self._bodies) > BODIES_KEPT:
                    self._bodies.popitem(last=False)
            return entry
        self.failed = True
        self._read.warn(f"line {record.line_no}: entry {record.id} could not be read back ({problem})")
        return {"type": record.type, "id": record.id, "parentId": record.parent_id}
