"""What an adapter needs from its host: a place to append entries and a way to report messages.

The upstream pi adapters talk to pi's ExtensionAPI; pideck's adapters talk to this small interface
instead, so the same adapter runs on a real session log (core.session) and on an in-memory one in
tests (MemoryLog).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Protocol

Level = Literal["info", "warning"]


@dataclass(frozen=True)
class Notice:
    """One notification (pi's ``ctx.ui.notify(message, level)``)."""

    message: str
    level: Level = "info"


@dataclass(frozen=True)
class ToolDef:
    """A model tool as registered with pi: name, label, description and JSON parameter schema."""

    name: str
    label: str
    description: str
    parameters: dict[str, Any]


AppendCustom = Callable[[str, Any], None]
"""``append_custom(custom_type, data)``: persist one ``custom`` entry (pi's ``appendEntry``)."""


class EntryLog(Protocol):
    """The log interface adapters and the Deck are written against."""

    def branch_entries(self) -> list[dict[str, Any]]:
        """Entries of the current branch, root first, as pi-format dicts."""

    def append_custom(self, custom_type: str, data: Any) -> None:
        """Append a ``custom`` entry whose parent is the current leaf."""

    def append_custom_message(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> None:
        """Append a ``custom_message`` entry whose parent is the current leaf."""


def latest_custom(entries: Iterable[dict[str, Any]], custom_type: str) -> dict[str, Any] | None:
    """The last ``custom`` entry of ``custom_type`` on a branch (spec §6.2 step 1), or None."""
    found = None
    for entry in entries:
        if entry.get("type") == "custom" and entry.get("customType") == custom_type:
            found = entry
    return found


@dataclass
class MemoryLog:
    """An in-memory, single-branch log: what the upstream adapter test harness gives an adapter."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    appended: list[dict[str, Any]] = field(default_factory=list)

    def branch_entries(self) -> list[dict[str, Any]]:
        return list(self.entries)

    def append_custom(self, custom_type: str, data: Any) -> None:
        entry = {"type": "custom", "customType": custom_type, "data": copy.deepcopy(data)}
        self.entries.append(entry)
        self.appended.append(entry)

    def append_custom_message(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> None:
        entry: dict[str, Any] = {
            "type": "custom_message",
            "customType": custom_type,
            "content": copy.deepcopy(content),
            "display": display,
        }
        if details is not None:
            entry["details"] = copy.deepcopy(details)
        self.entries.append(entry)
        self.appended.append(entry)

    @staticmethod
    def custom(custom_type: str, data: Any) -> dict[str, Any]:
        """A branch entry for seeding a test log."""
        return {"type": "custom", "customType": custom_type, "data": data}
