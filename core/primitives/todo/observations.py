"""Turn-scoped weak points recorded at each accepted write
(docs/todo-gates.md#observations-and-the-severe-intent-nudge)."""

# (No ``from __future__ import annotations`` here: typing would compile the string annotations of
# the NamedTuples below, and the first compile() of a process costs every command ~1 ms; see
# core/slotted.py.)

from typing import NamedTuple

from core.primitives.todo.constants import QUALITY_BAR, SEVERE_INTENT
from core.primitives.todo.model import TodoGoal, TodoItem, TodoPlan, open_items
from core.primitives.todo.ownership import closed_groups


class Observation(NamedTuple):  # (a NamedTuple, as in core/primitives/host.py: made quickly at start-up)
    kind: str  # "intent_understanding" or "closed_feedback_loop"
    group: str | None
    score: int | None


def _low(score: int | None) -> bool:
    return score is None or score < QUALITY_BAR


def record_reframe_observations(
    plan: TodoPlan, goals: list[TodoGoal], todos: list[TodoItem], previous: list[TodoItem]
) -> list[Observation]:
    found = []
    opened = open_items(todos)
    if opened and _low(plan.understands_user_intent):
        found.append(Observation("intent_understanding", None, plan.understands_user_intent))
    if not goals:  # (an agent's own plan has none: a fold of 2,000 of its changes looks no further)
        return found
    closed_now = closed_groups(previous, todos)
    open_groups = {t.group for t in opened}
    for goal in goals:
        if goal.group not in open_groups and goal.group not in closed_now:
            continue
        if _low(goal.closed_feedback_loop):
            found.append(Observation("closed_feedback_loop", goal.group, goal.closed_feedback_loop))
    return found


def needs_severe_intent_nudge(plan: TodoPlan, todos: list[TodoItem]) -> bool:
    """Only the first intent score (history length <= 1) can be severe enough to nudge in-band."""
    score = plan.understands_user_intent
    return (
        bool(open_items(todos))
        and score is not None
        and score < SEVERE_INTENT
        and len(plan.understands_user_intent_history) <= 1
    )


def cap(log: list[Observation], limit: int) -> list[Observation]:
    return log[-limit:] if len(log) > limit else log
