"""An in-memory, single-branch log for adapter and Deck tests: what the upstream adapter test
harness gives an adapter, behind the same log protocols as a session file
(``core.session.interface``)."""

from __future__ import annotations

import copy
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, cast

from core.session.errors import ReadOnlySession
from core.session.interface import Kind, Selection, Wanted, WritableLog
from core.session.log import Refresh
from core.session.records import EntryRecord

if TYPE_CHECKING:
    from core.session.entry import Entry


@dataclass
class MemoryLog:
    """``entries`` seeds the branch (pi-format dicts; ids optional); ``appended`` collects what
    adapters appended, exactly as they built it (no id, parent or timestamp)."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    appended: list[dict[str, Any]] = field(default_factory=list)
    writable: bool = True
    generation: int = 0
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._records: list[EntryRecord] = []
        self._recorded: list[dict[str, Any]] = []  # the entry each record stands for
        self._kept: dict[str, tuple[tuple[int, ...], str]] = {}  # name -> (entries it covers, JSON)

    # -- reading ------------------------------------------------------------------------------

    @property
    def records(self) -> list[EntryRecord]:
        """One record per entry, built on demand: tests seed and edit ``entries`` freely."""
        records, recorded = self._records, self._recorded
        if len(records) > len(self.entries) or any(r is not e for r, e in zip(recorded, self.entries)):
            records.clear()
            recorded.clear()
        for entry in self.entries[len(records):]:
            records.append(_record(entry, len(records), records[-1].id if records else None))
            recorded.append(entry)
        return records

    @property
    def leaf_id(self) -> str | None:
        records = self.records
        return records[-1].id if records else None

    def branch(self) -> list[EntryRecord]:
        return list(self.records)

    def branch_entries(self) -> list[Mapping[str, Any]]:
        return list(self.entries)

    def branch_select(self, wanted: Wanted, start: int = 0, anchor: Mapping[str, Any] | None = None) -> Selection | None:
        entries = self.entries
        if start and (len(entries) < start or entries[start - 1] is not anchor):
            return None
        picked = []
        for position in range(start, len(entries)):
            kind = _kind(entries[position])
            if wanted(*kind):
                picked.append((position, kind, position))
        return picked, len(entries), entries.__getitem__, entries[-1] if entries else None

    def derived(self, name: str) -> tuple[Any, int, Mapping[str, Any]] | None:
        """What ``keep_derived`` kept, through JSON as a saved index holds it, while the branch
        still starts with the very entries it covers (so every adapter test that opens a second
        adapter on this log resumes from what the first kept)."""
        if name not in self._kept:
            return None
        covers, text = self._kept[name]
        if tuple(map(id, self.entries[:len(covers)])) != covers:
            return None
        return json.loads(text), len(covers), self.entries[len(covers) - 1]

    def keep_derived(self, name: str, covers: int, value: Callable[[], Any]) -> None:
        if 0 < covers <= len(self.entries):
            self._kept[name] = (tuple(map(id, self.entries[:covers])), json.dumps(value()))

    def latest_custom(self, custom_type: str) -> Mapping[str, Any] | None:
        for entry in reversed(self.entries):
            if entry.get("type") == "custom" and entry.get("customType") == custom_type:
                return entry
        return None

    def refresh(self) -> Refresh:
        return Refresh()

    # -- writing ------------------------------------------------------------------------------

    @contextmanager
    def locked(self) -> Iterator[None]:
        yield

    @contextmanager
    def written_by(self, who: str | None) -> Iterator[None]:
        yield

    def append_custom(self, custom_type: str, data: Any) -> dict[str, Any]:
        return self._append({"type": "custom", "customType": custom_type, "data": copy.deepcopy(data)})

    def append_custom_message(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "type": "custom_message",
            "customType": custom_type,
            "content": copy.deepcopy(content),
            "display": display,
        }
        if details is not None:
            entry["details"] = copy.deepcopy(details)
        return self._append(entry)

    @property
    def read_only_reason(self) -> str | None:
        return None if self.writable else "This in-memory log is read-only."

    def _append(self, entry: dict[str, Any]) -> dict[str, Any]:
        if (reason := self.read_only_reason) is not None:
            raise ReadOnlySession(reason)
        self.entries.append(entry)
        self.appended.append(entry)
        return entry

    @staticmethod
    def custom(custom_type: str, data: Any) -> dict[str, Any]:
        """A branch entry for seeding a test log."""
        return {"type": "custom", "customType": custom_type, "data": data}


def _kind(entry: Mapping[str, Any]) -> Kind:
    message = entry.get("message") if entry.get("type") == "message" else None
    role = message.get("role") if isinstance(message, dict) else None
    tool = message.get("toolName") if isinstance(message, dict) else None
    return entry.get("type"), entry.get("customType"), role, tool


def _record(entry: dict[str, Any], index: int, parent: str | None) -> EntryRecord:
    kind, custom_type, role, tool = _kind(entry)
    entry_id = entry.get("id")
    return EntryRecord(
        entry_id if isinstance(entry_id, str) else f"mem{index}", parent, kind, 0, 0, index + 1,
        custom_type=custom_type, role=role, tool_name=tool, loader=lambda record: cast("Entry", entry),  # (a seeded dict, as a test wrote it)
    )


if TYPE_CHECKING:  # mypy checks that the tests' log keeps the protocol the Deck is written against
    _protocol_check: WritableLog = MemoryLog()
