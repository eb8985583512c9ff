"""Which groups a write closes, and the write-time ownership gate (docs/todo-gates.md#the-ownership-gate)."""

from __future__ import annotations

from core.primitives.todo.constants import OWNERSHIP_CONTINUATION, QUALITY_BAR
from core.primitives.todo.model import TodoGoal, TodoItem, find_goal, group_complete, groups_in_order


def closed_groups(previous: list[TodoItem], todos: list[TodoItem]) -> list[str | None]:
    """Groups complete in ``todos`` and not in ``previous``, in first-appearance order."""
    return [
        g
        for g in groups_in_order(todos)
        if group_complete(todos, g) and not group_complete(previous, g)
    ]


def failing_groups(
    previous: list[TodoItem], todos: list[TodoItem], goals: list[TodoGoal]
) -> list[str | None]:
    failing = []
    for group in closed_groups(previous, todos):
        goal = find_goal(goals, group)
        score = goal.end_to_end_ownership if goal else None
        if score is None or score < QUALITY_BAR:
            failing.append(group)
    return failing


def rejection_text(failing: list[str | None]) -> str:
    names = ", ".join("(ungrouped)" if g is None else f'"{g}"' for g in failing)
    return f"{OWNERSHIP_CONTINUATION}\nFailing groups: {names}."
