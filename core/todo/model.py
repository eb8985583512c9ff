"""The todo state: items, the plan and per-group goals (docs/todo-gates.md#the-todo-state).

Status and priority are stored as plain strings because restored foreign data may hold values
outside the enums (an unknown status counts as open); writes are checked against the enums.
Every value is checked before an item is made (``validate.py`` for writes, ``restore.py`` for the
log), so the classes are plain dataclasses: no validation library is loaded to hold them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.jsutil import is_blank, js_trim

STATUSES = ("pending", "in_progress", "completed", "cancelled")
PRIORITIES = ("high", "medium", "low")
_HISTORY_KEYS = (
    "confidence_history",
    "understands_user_intent_history",
    "closed_feedback_loop_history",
    "end_to_end_ownership_history",
)


_JSON_NAMES = {"active_form": "activeForm", "blocked_by": "blockedBy"}
"""Fields an agent's own plan tool gives an item, under the names the agents use."""


class _JsonFields:
    def to_json(self) -> dict[str, Any]:
        """Fields in declaration order; None values and empty histories are left out."""
        out = {}
        for key in self.__dataclass_fields__:  # type: ignore[attr-defined]
            value = getattr(self, key)
            if value is None or (key in _HISTORY_KEYS and not value):
                continue
            out[_JSON_NAMES.get(key, key)] = list(value) if isinstance(value, list) else value
        return out


@dataclass
class TodoItem(_JsonFields):
    """One todo. An item of an agent's own plan (docs/agent-conversations.md) has no priority and
    no scores, and may carry what the agent's tool gave it: the in-progress wording, a
    description, the ids of the items it blocks and of those it waits for."""

    content: str
    status: str
    priority: str | None
    id: str
    group: str | None = None
    confidence: int | None = None
    completion_confidence: int | None = None
    confidence_history: list[int] = field(default_factory=list)
    active_form: str | None = None
    description: str | None = None
    blocks: list[str] | None = None
    blocked_by: list[str] | None = None


@dataclass
class TodoPlan(_JsonFields):
    """The plan: what the user wants, and how well the agent says it understands it."""

    user_intention: str | None = None
    understands_user_intent: int | None = None
    understands_user_intent_history: list[int] = field(default_factory=list)


@dataclass
class TodoGoal(_JsonFields):
    """One group's goal-level assessments: its closed feedback loop and end-to-end ownership."""

    group: str | None = None
    closed_feedback_loop: int | None = None
    closed_feedback_loop_history: list[int] = field(default_factory=list)
    feedback_loop: str | None = None
    end_to_end_ownership: int | None = None
    end_to_end_ownership_history: list[int] = field(default_factory=list)


@dataclass
class TodoState:
    """The whole todo state: the items, the plan and the goals."""

    todos: list[TodoItem] = field(default_factory=list)
    plan: TodoPlan = field(default_factory=TodoPlan)
    goals: list[TodoGoal] = field(default_factory=list)
    agent_plan: dict[str, Any] | None = None
    """Set when the list is an agent's own plan: ``agent`` (claude, codex, gemini), the plan
    ``tool``, the ``noun`` an item is called by, and the agent's ``explanation`` where it gave one."""

    def to_json(self) -> dict[str, Any]:
        out = {
            "todos": [t.to_json() for t in self.todos],
            "plan": self.plan.to_json(),
            "goals": [g.to_json() for g in self.goals],
        }
        if self.agent_plan is not None:
            out["agentPlan"] = dict(self.agent_plan)
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
