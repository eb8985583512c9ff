"""The ``Changes:`` line of an accepted write (docs/todo-gates.md#the-changes-line)."""

from __future__ import annotations

from core.jsutil import is_blank
from core.primitives.todo.model import TodoItem, last_by_id
from core.primitives.todo.validate import IncomingItem

_COMPARED = ("content", "status", "priority", "group", "confidence", "completion_confidence")


def changes_line(
    previous: list[TodoItem], todos: list[TodoItem], incoming: list[IncomingItem] | None
) -> str:
    if incoming is None:
        return "Changes: none"
    before = last_by_id(previous)
    now_ids = {t.id for t in todos}
    updated = sum(
        1
        for t in todos
        if t.id in before and any(getattr(t, k) != getattr(before[t.id], k) for k in _COMPARED)
    )
    new = sum(1 for t in todos if t.id not in before)
    removed = list(dict.fromkeys(t.id for t in previous if t.id not in now_ids))
    cleared = [
        i.id
        for i in incoming
        if i.id in before
        and before[i.id].group is not None
        and isinstance(i.group, str)
        and is_blank(i.group)
    ]
    parts = []
    if updated:
        parts.append(f"{updated} updated")
    if new:
        parts.append(f"{new} new")
    if removed:
        parts.append("removed " + ", ".join(f"#{i}" for i in removed))
    if cleared:
        parts.append("group cleared on " + ", ".join(f"#{i}" for i in cleared))
    return "Changes: " + ("; ".join(parts) if parts else "none")
