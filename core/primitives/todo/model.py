"""The todo state: items, the plan and per-group goals (docs/todo-gates.md#the-todo-state).

Status and priority are stored as plain strings because restored foreign data may hold values
outside the enums (an unknown status counts as open); writes are checked against the enums.
Every value is checked before an item is made (``validate.py`` for writes, ``restore.py`` for the
log), so the classes only hold values: no validation library is loaded to hold them, nor the
dataclasses module (``core/slotted.py``: every ``pideck gate`` folds a todo list).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.jsutil import is_blank, js_trim
from core.slotted import Slotted

if TYPE_CHECKING:
    from core.shapes import AgentPlanJson, TodoGoalJson, TodoItemJson, TodoPlanJson, TodoStateJson

STATUSES = ("pending", "in_progress", "completed", "cancelled")
PRIORITIES = ("high", "medium", "low")

# An item, the plan and a goal (a history left out, or None, is a new empty list) write their
# fields in declaration order in ``to_json``, leaving out None values and empty histories, and
# copying lists (core/shapes.py).


class TodoItem(Slotted):
    """One todo. An item of an agent's own plan (docs/agent-conversations.md) has no priority and
    no scores, and may carry what the agent's tool gave it: the in-progress wording, a
    description, the ids of the items it blocks and of those it waits for, and who made it when a
    subagent did (its description)."""

    __slots__ = ("content", "status", "priority", "id", "group", "confidence", "completion_confidence",
                 "confidence_history", "active_form", "description", "blocks", "blocked_by", "made_by")

    def __init__(self, content: str, status: str, priority: str | None, id: str, group: str | None = None,
                 confidence: int | None = None, completion_confidence: int | None = None,
                 confidence_history: list[int] | None = None, active_form: str | None = None,
                 description: str | None = None, blocks: list[str] | None = None,
                 blocked_by: list[str] | None = None, made_by: str | None = None) -> None:
        self.content = content
        self.status = status
        self.priority = priority
        self.id = id
        self.group = group
        self.confidence = confidence
        self.completion_confidence = completion_confidence
        self.confidence_history: list[int] = [] if confidence_history is None else confidence_history
        self.active_form = active_form
        self.description = description
        self.blocks = blocks
        self.blocked_by = blocked_by
        self.made_by = made_by

    def to_json(self) -> TodoItemJson:
        """The agents' names for what an agent's own plan tool gives an item (``activeForm``,
        ``blockedBy``, ``madeBy``)."""
        out: TodoItemJson = {"content": self.content, "status": self.status}
        if self.priority is not None:
            out["priority"] = self.priority
        out["id"] = self.id
        if self.group is not None:
            out["group"] = self.group
        if self.confidence is not None:
            out["confidence"] = self.confidence
        if self.completion_confidence is not None:
            out["completion_confidence"] = self.completion_confidence
        if self.confidence_history:
            out["confidence_history"] = list(self.confidence_history)
        if self.active_form is not None:
            out["activeForm"] = self.active_form
        if self.description is not None:
            out["description"] = self.description
        if self.blocks is not None:
            out["blocks"] = list(self.blocks)
        if self.blocked_by is not None:
            out["blockedBy"] = list(self.blocked_by)
        if self.made_by is not None:
            out["madeBy"] = self.made_by
        return out


class TodoPlan(Slotted):
    """The plan: what the user wants, and how well the agent says it understands it."""

    __slots__ = ("user_intention", "understands_user_intent", "understands_user_intent_history")

    def __init__(self, user_intention: str | None = None, understands_user_intent: int | None = None,
                 understands_user_intent_history: list[int] | None = None) -> None:
        self.user_intention = user_intention
        self.understands_user_intent = understands_user_intent
        self.understands_user_intent_history: list[int] = (
            [] if understands_user_intent_history is None else understands_user_intent_history)

    def to_json(self) -> TodoPlanJson:
        out: TodoPlanJson = {}
        if self.user_intention is not None:
            out["user_intention"] = self.user_intention
        if self.understands_user_intent is not None:
            out["understands_user_intent"] = self.understands_user_intent
        if self.understands_user_intent_history:
            out["understands_user_intent_history"] = list(self.understands_user_intent_history)
        return out


class TodoGoal(Slotted):
    """One group's goal-level assessments: its closed feedback loop and end-to-end ownership."""

    __slots__ = ("group", "closed_feedback_loop", "closed_feedback_loop_history", "feedback_loop",
                 "end_to_end_ownership", "end_to_end_ownership_history")

    def __init__(self, group: str | None = None, closed_feedback_loop: int | None = None,
                 closed_feedback_loop_history: list[int] | None = None, feedback_loop: str | None = None,
                 end_to_end_ownership: int | None = None,
                 end_to_end_ownership_history: list[int] | None = None) -> None:
        self.group = group
        self.closed_feedback_loop = closed_feedback_loop
        self.closed_feedback_loop_history: list[int] = (
            [] if closed_feedback_loop_history is None else closed_feedback_loop_history)
        self.feedback_loop = feedback_loop
        self.end_to_end_ownership = end_to_end_ownership
        self.end_to_end_ownership_history: list[int] = (
            [] if end_to_end_ownership_history is None else end_to_end_ownership_history)

    def to_json(self) -> TodoGoalJson:
        out: TodoGoalJson = {}
        if self.group is not None:
            out["group"] = self.group
        if self.closed_feedback_loop is not None:
            out["closed_feedback_loop"] = self.closed_feedback_loop
        if self.closed_feedback_loop_history:
            out["closed_feedback_loop_history"] = list(self.closed_feedback_loop_history)
        if self.feedback_loop is not None:
            out["feedback_loop"] = self.feedback_loop
        if self.end_to_end_ownership is not None:
            out["end_to_end_ownership"] = self.end_to_end_ownership
        if self.end_to_end_ownership_history:
            out["end_to_end_ownership_history"] = list(self.end_to_end_ownership_history)
        return out


class TodoState(Slotted):
    """The whole todo state: the items, the plan and the goals (left out: none, an empty plan)."""

    __slots__ = ("todos", "plan", "goals", "agent_plan")

    def __init__(self, todos: list[TodoItem] | None = None, plan: TodoPlan | None = None,
                 goals: list[TodoGoal] | None = None, agent_plan: AgentPlanJson | None = None) -> None:
        self.todos: list[TodoItem] = [] if todos is None else todos
        self.plan = TodoPlan() if plan is None else plan
        self.goals: list[TodoGoal] = [] if goals is None else goals
        self.agent_plan = agent_plan
        """Set when the list is an agent's own plan: ``agent`` (claude, codex, gemini), the plan
        ``tool``, the ``noun`` an item is called by, and the agent's ``explanation`` where it gave one."""

    def to_json(self) -> TodoStateJson:
        out: TodoStateJson = {
            "todos": [t.to_json() for t in self.todos],
            "plan": self.plan.to_json(),
            "goals": [g.to_json() for g in self.goals],
        }
        if self.agent_plan is not None:
            out["agentPlan"] = self.agent_plan.copy()
        return out

    def is_empty(self) -> bool:
        return not self.todos and not self.plan.to_json() and not self.goals

    def same_as(self, other: TodoState) -> bool:
        return self.to_json() == other.to_json()


def normalise_group(value: Any) -> str | None:
    """None for absent, null or blank; otherwise the JS-trimmed string."""
    if not isinstance(value, str) or is_blank(value):
        return None
    return js_trim(value)


def is_open(item: TodoItem) -> bool:
    return item.status not in ("completed", "cancelled")


def open_items(todos: list[TodoItem]) -> list[TodoItem]:
    return [t for t in todos if is_open(t)]


def display_confidence(item: TodoItem) -> int | None:
    if item.status == "completed" and item.completion_confidence is not None:
        return item.completion_confidence
    return item.confidence


def priority_weight(priority: str | None) -> int:
    return {"high": 3, "medium": 2}.get(priority or "", 1)


def weighted_average(pairs: list[tuple[int, int]]) -> int | None:
    """Exact integer rounding half up: ``(Σ s·w + W // 2) // W``; None when the weight is 0."""
    total = sum(w for _, w in pairs)
    if total == 0:
        return None
    return (sum(s * w for s, w in pairs) + total // 2) // total


def find_goal(goals: list[TodoGoal], group: str | None) -> TodoGoal | None:
    for goal in goals:
        if goal.group == group:
            return goal
    return None


def last_by_id(todos: list[TodoItem]) -> dict[str, TodoItem]:
    """Lookup by id; with duplicate ids (restored data) the last item counts."""
    return {t.id: t for t in todos}


def group_complete(todos: list[TodoItem], group: str | None) -> bool:
    members = [t for t in todos if t.group == group]
    return bool(members) and all(t.status == "completed" for t in members)


def groups_in_order(todos: list[TodoItem]) -> list[str | None]:
    seen: list[str | None] = []
    for t in todos:
        if t.group not in seen:
            seen.append(t.group)
    return seen
