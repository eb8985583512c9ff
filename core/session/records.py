"""Record objects: the entries of the index (``index.py``) as the rest of pideck sees them.

A record holds an entry's identity and where its line sits in the file, and reads the full entry
from disk when a key beyond those is looked up. Records are made on demand, one per entry at
most, so the same entry always gives the same object (the Deck and the todo fold compare them by
identity) while a big session that nobody browses costs no objects at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Callable, Iterator, overload

from core.session.index import EntryIndex
from core.session.parse import ENTRY_TYPES

if TYPE_CHECKING:  # (annotations only: at run time typing would compile the forward reference, core/slotted.py)
    from core.session.entry import Entry

    Loader = Callable[["EntryRecord"], Entry]
_NOT_INDEXED = object()


class EntryRecord(Mapping):
    """Index record of one entry; also a read-only mapping view of the full entry.

    ``record["type"]``, ``record.get("id")`` and a string ``customType`` are answered from the
    index; any other key reads the entry from the file. Do not mutate what ``load()`` returns: the
    log keeps the last body it read to answer the next lookup on the same record.
    """

    __slots__ = (
        "id", "parent_id", "type", "custom_type", "role", "tool_name", "offset", "length", "line_no", "_loader",
    )

    def __init__(
        self,
        id: str,
        parent_id: str | None,
        type: str | None,
        offset: int,
        length: int,
        line_no: int,
        *,
        custom_type: str | None = None,
        role: str | None = None,
        tool_name: str | None = None,
        loader: Loader | None = None,
    ) -> None:
        self.id = id
        self.parent_id = parent_id
        self.type = type
        self.custom_type = custom_type
        self.role = role
        self.tool_name = tool_name
        self.offset = offset
        self.length = length
        self.line_no = line_no
        self._loader = loader

    @property
    def known(self) -> bool:
        """False for an entry type pi does not write (kept in the tree, shown as unknown)."""
        return self.type in ENTRY_TYPES

    def load(self) -> Entry:
        """The full entry as it is in the file."""
        if self._loader is None:
            raise LookupError(f"entry {self.id} has no body loader")
        return self._loader(self)

    # -- Mapping view -----------------------------------------------------------------------------

    def _indexed(self, key: str) -> Any:
        """The value of ``key`` when the index knows it, else ``_NOT_INDEXED``."""
        if key == "type" and self.type is not None:
            return self.type
        if key == "id":
            return self.id
        if key == "customType" and self.custom_type is not None:
            return self.custom_type
        return _NOT_INDEXED

    def __getitem__(self, key: str) -> Any:
        value = self._indexed(key)
        if value is not _NOT_INDEXED:
            return value
        body: Mapping[str, object] = self.load()  # (any key a line holds, not only those pi writes)
        return body[key]

    def get(self, key: str, default: Any = None) -> Any:
        """``Mapping.get`` without the exception round trip: derived-state folds call it on every
        entry they look at, and the index answers the keys they filter on."""
        value = self._indexed(key)
        return self.load().get(key, default) if value is _NOT_INDEXED else value

    def __iter__(self) -> Iterator[str]:
        return iter(self.load())

    def __len__(self) -> int:
        return len(self.load())

    def __repr__(self) -> str:
        extra = f" {self.custom_type}" if self.custom_type else (f" {self.role}" if self.role else "")
        return f"<EntryRecord {self.type}{extra} {self.id} parent={self.parent_id} line={self.line_no}>"

    __hash__ = object.__hash__
    __eq__ = object.__eq__


class _RecordSequence(Sequence):
    """Records at positions of one index, made as they are looked at. Compares equal to a list
    (or another such sequence) holding the very same records."""

    def _positions(self) -> Sequence[int]:
        raise NotImplementedError

    def _record(self, position: int) -> EntryRecord:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._positions())

    @overload
    def __getitem__(self, i: int) -> EntryRecord: ...
    @overload
    def __getitem__(self, i: slice) -> list[EntryRecord]: ...
    def __getitem__(self, i: int | slice) -> EntryRecord | list[EntryRecord]:
        positions = self._positions()  # a range or a list: negative indexes and IndexError as usual
        if isinstance(i, slice):
            return [self._record(p) for p in positions[i]]
        return self._record(positions[i])

    def __iter__(self) -> Iterator[EntryRecord]:
        return map(self._record, self._positions())

    def __reversed__(self) -> Iterator[EntryRecord]:
        return map(self._record, reversed(self._positions()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, _RecordSequence)):
            return len(self) == len(other) and all(a is b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class Records(_RecordSequence):
    """Every entry of one index, in file order, as records (made on first access, then kept).

    One ``Records`` object lives as long as its index: it grows as entries are appended and is
    replaced when the file is re-read from scratch.
    """

    def __init__(self, index: EntryIndex, loader: Loader) -> None:
        self._index = index
        self._loader = loader
        self._made: dict[int, EntryRecord] = {}

    def record(self, i: int) -> EntryRecord:
        made = self._made.get(i)
        if made is None:
            index = self._index
            kind, custom_type, role, tool_name = index.kind_table[index.kinds[i]]
            made = self._made[i] = EntryRecord(
                index.ids[i], index.parent_id(i), kind, index.offsets[i], index.lengths[i], index.line_nos[i],
                custom_type=custom_type, role=role, tool_name=tool_name, loader=self._loader,
            )
        return made

    def _positions(self) -> Sequence[int]:
        return range(len(self._index))

    def _record(self, position: int) -> EntryRecord:
        return self.record(position)

    def picked(self, positions: Sequence[int]) -> RecordList:
        """The records at ``positions`` (a snapshot), made as they are looked at."""
        return RecordList(self, positions)

    def __repr__(self) -> str:
        return f"<Records of {len(self)} entries>"


class RecordList(_RecordSequence):
    """Records at fixed positions of one index (a branch, or the entries one refresh added)."""

    def __init__(self, records: Records, positions: Sequence[int]) -> None:
        self._records = records
        self._positions_held = positions

    def _positions(self) -> Sequence[int]:
        return self._positions_held

    def _record(self, position: int) -> EntryRecord:
        return self._records.record(position)

    def __repr__(self) -> str:
        return f"<RecordList of {len(self)} entries>"


class ById(Mapping):
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
