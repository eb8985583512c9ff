"""Text of the `todo` tool result: JSON echo, assessment diffs, Changes line
(docs/todo-gates.md#the-tool-result)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from core.primitives.todo.model import TodoGoal, TodoPlan, TodoState

if TYPE_CHECKING:  # (for the type checker alone: a TypedDict made at run time compiles its annotations)
    from typing import NotRequired, TypedDict

    from core.shapes import TodoGoalJson, TodoPlanJson

    class PlanUpdate(TypedDict):
        before: TodoPlanJson
        after: TodoPlanJson
        fields: list[str]

    class GoalUpdate(TypedDict):
        """A goal's change; a goal new to its group has no ``before``."""

        before: NotRequired[TodoGoalJson]
        after: TodoGoalJson
        fields: list[str]


def pretty(value: Any) -> str:
    """Same bytes as serde_json's pretty printer."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def state_echo(state: TodoState) -> str:
    data = state.to_json()
    text = pretty(data["todos"])
    if data["plan"]:
        text += "\n\nPlan:\n" + pretty(data["plan"])
    if data["goals"]:
        text += "\n\nGoals:\n" + pretty(data["goals"])
    return text


def plan_update(before: TodoPlan, after: TodoPlan) -> PlanUpdate | None:
    fields = [
        k
        for k in ("user_intention", "understands_user_intent")
        if getattr(before, k) != getattr(after, k)
    ]
    if not fields:
        return None
    return {"before": before.to_json(), "after": after.to_json(), "fields": fields}


def goal_updates(stored: list[TodoGoal], goals: list[TodoGoal]) -> list[GoalUpdate]:
    by_group = {g.group: g for g in stored}
    updates: list[GoalUpdate] = []
    for goal in goals:
        prev = by_group.get(goal.group)
        keys = ("closed_feedback_loop", "feedback_loop", "end_to_end_ownership")
        if prev is None:
            fields = [k for k in keys if getattr(goal, k) is not None]
            updates.append({"after": goal.to_json(), "fields": fields})
            continue
        fields = [k for k in keys if getattr(goal, k) != getattr(prev, k)]
        if fields:
            updates.append({"before": prev.to_json(), "after": goal.to_json(), "fields": fields})
    return updates


def accepted_text(
    stored: TodoState, new: TodoState, changes: str, continuation: str | None
) -> str:
    text = state_echo(new)
    if [t.to_json() for t in new.todos] == [t.to_json() for t in stored.todos]:
        plan_change = plan_update(stored.plan, new.plan)
        if plan_change:
            text += "\n\nPlan updates:\n" + pretty(plan_change)
        if stored.goals:
            updates = goal_updates(stored.goals, new.goals)
            if updates:
                text += "\n\nGoal updates:\n" + pretty(updates)
    text += "\n\n" + changes
    if continuation:
        text += "\n\n" + continuation
    return text
