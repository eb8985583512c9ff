"""The per-entry index record: what the log keeps in memory for each entry.

Big ``message`` bodies are not kept: a record holds the entry's identity and where its line sits in
the file, and reads the full entry from disk when asked. Small entries that derived state needs
(``custom``, ``custom_message``, ``session_info``, ``todo`` tool results, ...) keep their parsed dict.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Iterator

from .parse import ENTRY_TYPES

Loader = Callable[["EntryRecord"], dict[str, Any]]


class EntryRecord(Mapping):
    """Index record of one entry; also a read-only mapping view of the full entry.

    ``record["type"]``, ``record.get("id")`` and the like are answered from the index; any other key
    loads the entry from the file (not cached, so that browsing a branch does not pin bodies). Do not
    mutate what ``load()`` returns for kept entries: it is the log's own copy.
    """

    __slots__ = (
        "id", "parent_id", "type", "custom_type", "role", "tool_name",
        "offset", "length", "line_no", "entry", "verified", "_loader",
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
        entry: dict[str, Any] | None = None,
        verified: bool = True,
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
        self.entry = entry
        self.verified = verified  # False: indexed from its head only, body not JSON-checked yet
        self._loader = loader

    @property
    def known(self) -> bool:
        """False for an entry type pi does not write (kept in the tree, shown as unknown)."""
        return self.type in ENTRY_TYPES

    # -- the full entry ---------------------------------------------------------------------------

    def load(self) -> dict[str, Any]:
        """The full entry as pi wrote it (the kept dict, or the line read back from the file)."""
        if self.entry is not None:
            return self.entry
        if self._loader is None:
            raise LookupError(f"entry {self.id} has no body loader")
        return self._loader(self)

    # -- Mapping view -----------------------------------------------------------------------------

    def __getitem__(self, key: str) -> Any:
        if self.entry is None:
            if key == "type" and self.type is not None:
                return self.type
            if key == "id":
                return self.id
        return self.load()[key]

    def get(self, key: str, default: Any = None) -> Any:
        """``Mapping.get`` without the exception round trip: derived-state folds call it on every
        entry of a branch, and ``type``/``id`` are answered from the index."""
        if self.entry is None:
            if key == "type" and self.type is not None:
                return self.type
            if key == "id":
                return self.id
        return self.load().get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self.load())

    def __len__(self) -> int:
        return len(self.load())

    def __repr__(self) -> str:
        extra = f" {self.custom_type}" if self.custom_type else (f" {self.role}" if self.role else "")
        return f"<EntryRecord {self.type}{extra} {self.id} parent={self.parent_id} line={self.line_no}>"

    __hash__ = object.__hash__
    __eq__ = object.__eq__
