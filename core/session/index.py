"""The entry index: what the log knows about every entry, kept in compact arrays.

A 100,000-entry session would need 100,000 Python objects if each entry had its own; here each
entry is a slot in a few typed arrays (where its line is, its kind, its parent) plus its id string,
and a record object is made only for the entries somebody asks for (``records.py``).

Parents are stored as positions, resolved when the entry is added; ``parent_position`` applies
pi's rules at read time (its id map is filled in file order, so the later of two entries with one
id wins, and an id that only appears further down the file still counts), which the stored
position can miss only when ids repeat or a parent id named no entry yet.
"""

from __future__ import annotations

from array import array
from typing import Callable, Iterable

NO_PARENT = -1  # parentId null, missing or not a string
PENDING = -2  # parentId named no earlier entry: resolved by id when walking (see ``pending``)

Kind = tuple["str | None", "str | None", "str | None", "str | None"]
"""(type, customType, role, toolName) of an entry; role and toolName only for ``message`` entries."""


class EntryIndex:
    """Per-entry arrays in file order. Position ``i`` is the ``i``-th entry with an id."""

    def __init__(self) -> None:
        self.offsets = array("q")  # file offset of the line
        self.lengths = array("q")  # line length without the "\n"
        self.line_nos = array("q")  # 1-based line number
        self.kinds = array("i")  # code into kind_table
        self.parents = array("q")  # parent position, NO_PARENT or PENDING
        self.ids: list[str] = []
        self.pending: dict[int, str] = {}  # position -> parentId that named no earlier entry
        self.kind_table: list[Kind] = []
        self.kind_codes: dict[Kind, int] = {}  # kind -> code (only kinds whose parts are str or None)
        self._positions: dict[str, int] | None = {}  # id -> last position with that id
        self.duplicates = False  # some id appears twice

    def __len__(self) -> int:
        return len(self.ids)

    # -- adding -------------------------------------------------------------------------------------

    def kind_code(self, kind: Kind) -> int:
        code = self.kind_codes.get(kind)
        if code is None:
            code = self.kind_codes[kind] = len(self.kind_table)
            self.kind_table.append(kind)
        return code

    def add(self, entry_id: str, parent_id: str | None, kind: Kind, offset: int, length: int, line_no: int) -> int:
        """Append one entry; returns the position of an earlier entry with the same id, or -1."""
        positions = self.positions
        i = len(self.ids)
        previous = positions.get(entry_id, -1)
        if previous >= 0:
            self.duplicates = True
        if parent_id is None:
            parent = NO_PARENT
        else:
            parent = positions.get(parent_id, PENDING)
            if parent == PENDING:
                self.pending[i] = parent_id
        positions[entry_id] = i
        self.ids.append(entry_id)
        self.parents.append(parent)
        self.kinds.append(self.kind_code(kind))
        self.offsets.append(offset)
        self.lengths.append(length)
        self.line_nos.append(line_no)
        return previous

    # -- reading ------------------------------------------------------------------------------------

    @property
    def positions(self) -> dict[str, int]:
        """id -> position of the last entry with that id (built on first use after a restore)."""
        if self._positions is None:
            self._positions = {entry_id: i for i, entry_id in enumerate(self.ids)}
        return self._positions

    def kind(self, i: int) -> Kind:
        return self.kind_table[self.kinds[i]]

    def parent_id(self, i: int) -> str | None:
        """The entry's ``parentId`` when it is a string, else None."""
        parent = self.parents[i]
        if parent >= 0:
            return self.ids[parent]
        return self.pending.get(i) if parent == PENDING else None

    def parent_position(self, i: int) -> int:
        """Position of the entry's parent under pi's rules, or -1 for a root."""
        parent = self.parents[i]
        if parent == PENDING:
            return self.positions.get(self.pending[i], -1)
        if parent >= 0 and self.duplicates:
            return self.positions[self.ids[parent]]
        return parent

    def codes(self, wanted: Callable[[str | None, str | None, str | None, str | None], bool]) -> set[int]:
        """Kind codes for which ``wanted(type, customType, role, toolName)`` holds."""
        return {code for code, kind in enumerate(self.kind_table) if wanted(*kind)}

    def walk(self, leaf: int) -> tuple[list[int], int | None]:
        """Positions from the root to ``leaf``, and the position where a parentId cycle cut the
        walk (pi would loop forever there), or None. Walked backwards from the leaf: a parent
        before its child in the file (every entry pi writes) cannot close a cycle, so the visited
        set is only kept once the walk has gone forwards."""
        path: list[int] = []
        seen: set[int] | None = None
        parents, duplicates = self.parents, self.duplicates
        i = leaf
        while i >= 0:
            if seen is not None:
                if i in seen:
                    path.reverse()
                    return path, i
                seen.add(i)
            path.append(i)
            parent = parents[i]
            if parent == PENDING or (duplicates and parent >= 0):
                parent = self.parent_position(i)
            if parent >= i and seen is None:
                seen = set(path)
            i = parent
        path.reverse()
        return path, None

    # -- restoring ----------------------------------------------------------------------------------

    @classmethod
    def restore(
        cls, arrays: dict[str, array], ids: list[str], pending: dict[int, str], kind_table: Iterable[Kind],
        duplicates: bool,
    ) -> EntryIndex:
        """An index from saved arrays (``sidecar.py`` checks their shapes first)."""
        index = cls()
        for name in ("offsets", "lengths", "line_nos", "kinds", "parents"):
            setattr(index, name, arrays[name])
        index.ids, index.pending, index.duplicates = ids, pending, duplicates
        index.kind_table = [tuple(k) for k in kind_table]  # type: ignore[misc]
        index.kind_codes = {k: code for code, k in enumerate(index.kind_table)}
        index._positions = None
        return index
