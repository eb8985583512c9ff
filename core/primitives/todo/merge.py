"""Replace-on-membership for the list; merge-on-fields for items, the plan and goals
(docs/todo-gates.md#how-a-write-merges)."""

from __future__ import annotations

from typing import Any

from core.primitives.todo.histories import record_score_observation
from core.primitives.todo.model import TodoGoal, TodoItem, TodoPlan, find_goal, last_by_id, normalise_group
from core.primitives.todo.validate import ABSENT, IncomingGoal, IncomingItem, IncomingPlan


def _given(value: Any, fallback: Any) -> Any:
    return fallback if value is ABSENT else value


def merge_items(previous: list[TodoItem], incoming: list[IncomingItem]) -> list[TodoItem]:
    """The incoming list in incoming order; known ids inherit ``group`` and the completion score."""
    before = last_by_id(previous)
    merged = []
    for item in incoming:
        prev = before.get(item.id)
        if prev is not None and item.group is ABSENT:
            group = prev.group
        else:
            group = normalise_group(_given(item.group, None))
        inherited_cc = prev.completion_confidence if prev is not None else None
        merged.append(
            TodoItem(
                content=item.content,
                status=item.status,
                priority=item.priority,
                id=item.id,
                group=group,
                confidence=item.confidence,
                completion_confidence=_given(item.completion_confidence, inherited_cc),
            )
        )
    return merged


def merge_plan(stored: TodoPlan, incoming: IncomingPlan | None) -> TodoPlan:
    if incoming is None:
        return stored
    score = _given(incoming.understands_user_intent, stored.understands_user_intent)
    return TodoPlan(
        user_intention=_given(incoming.user_intention, stored.user_intention),
        understands_user_intent=score,
        understands_user_intent_history=record_score_observation(
            stored.understands_user_intent_history, score
        ),
    )


def merge_goals(stored: list[TodoGoal], incoming: list[IncomingGoal] | None) -> list[TodoGoal]:
    """Incoming goals first (a repeated group replaces in place), then unmentioned stored goals."""
    if incoming is None:
        return stored
    by_group = {g.group: g for g in stored}
    merged: dict[str | None, TodoGoal] = {}
    for goal in incoming:
        group = normalise_group(goal.group)
        prev = by_group.get(group) or TodoGoal(group=group)
        loop = _given(goal.closed_feedback_loop, prev.closed_feedback_loop)
        ownership = _given(goal.end_to_end_ownership, prev.end_to_end_ownership)
        merged[group] = TodoGoal(
            group=group,
            closed_feedback_loop=loop,
            closed_feedback_loop_history=record_score_observation(
                prev.closed_feedback_loop_history, loop
            ),
            feedback_loop=_given(goal.feedback_loop, prev.feedback_loop),
            end_to_end_ownership=ownership,
            end_to_end_ownership_history=record_score_observation(
                prev.end_to_end_ownership_history, ownership
            ),
        )
    retained = [g for g in stored if g.group not in merged]
    return [*merged.values(), *retained]
