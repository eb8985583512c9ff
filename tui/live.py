"""What a refresh touched: which panes must redraw after new entries (no Textual here)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable

STATE, PROGRESS, HANDOFF, TODO = "state", "progress", "handoff", "todo"
ALL_PARTS = frozenset({STATE, PROGRESS, HANDOFF, TODO})
PART_BY_TYPE = {"agent-state-state": STATE, "agent-progress-state": PROGRESS, "agent-handoff-state": HANDOFF}
PART_BY_NAMESPACE = {"agent-state": STATE, "agent-progress": PROGRESS, "agent-handoff": HANDOFF, "todos": TODO}


def part_of(record: Any) -> str | None:
    """The pane an index record feeds, or None (messages and other entries feed no pane)."""
    custom_type = getattr(record, "custom_type", None) or ""
    kind = getattr(record, "type", None)
    if kind == "custom" and custom_type in PART_BY_TYPE:
        return PART_BY_TYPE[custom_type]
    if kind in ("custom", "custom_message") and custom_type.startswith("pi-jtodo/"):
        return TODO
    is_result = kind == "message" and getattr(record, "role", None) == "toolResult"
    if is_result and getattr(record, "tool_name", None) == "todo":
        return TODO
    return None


def parts_touched(records: Iterable[Any]) -> set[str]:
    return {p for p in map(part_of, records) if p is not None}


def file_key(path: Path) -> tuple[int, int, int] | None:
    """(inode, size, mtime_ns): any append, truncation or replacement changes it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns
