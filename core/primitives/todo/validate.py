"""Validation of a normalised `todo` call with the exact error texts
(docs/todo-gates.md#validation-and-its-error-texts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.jsutil import compact_json, is_non_empty_string
from core.primitives.todo.model import PRIORITIES, STATUSES

ABSENT: Any = object()
"""Marks an optional field the caller did not send (or sent as null)."""


class TodoInputError(ValueError):
    """The text after ``Invalid todo input: ``."""


@dataclass
class IncomingItem:
    content: str
    status: str
    priority: str
    id: str
    group: Any  # ABSENT, or the raw string (blank clears on an existing id)
    confidence: int
    completion_confidence: Any  # ABSENT or int


@dataclass
class IncomingPlan:
    user_intention: Any  # ABSENT or str
    understands_user_intent: Any  # ABSENT or int


@dataclass
class IncomingGoal:
    group: Any  # None or raw string
    closed_feedback_loop: Any
    feedback_loop: Any
    end_to_end_ownership: Any


@dataclass
class IncomingWrite:
    todos: list[IncomingItem] | None
    plan: IncomingPlan | None
    goals: list[IncomingGoal] | None

    @property
    def is_read(self) -> bool:
        return self.todos is None and self.plan is None and self.goals is None


def _is_score(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 100


# ``d`` below is an object of the call as the caller sent it (JSON): each value is checked here.


def _score(d: dict[str, object], key: str, where: str) -> Any:
    value = d.get(key)
    if value is None:
        return ABSENT
    if not _is_score(value):
        raise TodoInputError(
            f"{where}.{key} must be an integer from 0 to 100 (got {compact_json(value)})."
        )
    return value


def _text(d: dict[str, object], key: str, where: str, message: str = "must be a string.") -> Any:
    value = d.get(key)
    if value is None:
        return ABSENT
    if not isinstance(value, str):
        raise TodoInputError(f"{where}.{key} {message}")
    return value


def _item(i: int, raw: Any) -> IncomingItem:
    where = f"todos[{i}]"
    if not isinstance(raw, dict):
        raise TodoInputError(f"{where} must be an object.")
    if raw.get("id") is None:
        raise TodoInputError(f"{where}.id is required.")
    if not is_non_empty_string(raw["id"]):
        raise TodoInputError(f"{where}.id must be a non-empty string.")
    if raw.get("content") is None:
        raise TodoInputError(f"{where}.content is required.")
    if not isinstance(raw["content"], str):
        raise TodoInputError(f"{where}.content must be a string.")
    for key, allowed in (("status", STATUSES), ("priority", PRIORITIES)):
        if raw.get(key) is None:
            raise TodoInputError(f"{where}.{key} is required.")
        if raw[key] not in allowed:
            raise TodoInputError(
                f"{where}.{key} must be one of {', '.join(allowed)} (got {compact_json(raw[key])})."
            )
    group = _text(raw, "group", where)
    if raw.get("confidence") is None:
        raise TodoInputError(f"{where}.confidence is required.")
    confidence = _score(raw, "confidence", where)
    return IncomingItem(
        content=raw["content"],
        status=raw["status"],
        priority=raw["priority"],
        id=raw["id"],
        group=group,
        confidence=confidence,
        completion_confidence=_score(raw, "completion_confidence", where),
    )


def validate_input(params: Any) -> IncomingWrite:
    """Checks a normalised input in the documented order
    (docs/todo-gates.md#validation-and-its-error-texts); the first failure raises."""
    if not isinstance(params, dict):
        raise TodoInputError("the input must be an object.")
    todos = None
    if "todos" in params:
        if not isinstance(params["todos"], list):
            raise TodoInputError("todos must be an array.")
        todos = [_item(i, raw) for i, raw in enumerate(params["todos"])]
        seen: set[str] = set()
        for item in todos:
            if item.id in seen:
                raise TodoInputError(f'todos contains the id "{item.id}" more than once.')
            seen.add(item.id)
    plan = None
    if "plan" in params:
        raw = params["plan"]
        if not isinstance(raw, dict):
            raise TodoInputError("plan must be an object.")
        plan = IncomingPlan(
            user_intention=_text(raw, "user_intention", "plan"),
            understands_user_intent=_score(raw, "understands_user_intent", "plan"),
        )
    goals = None
    if "goals" in params:
        if not isinstance(params["goals"], list):
            raise TodoInputError("goals must be an array.")
        goals = []
        for i, raw in enumerate(params["goals"]):
            where = f"goals[{i}]"
            if not isinstance(raw, dict):
                raise TodoInputError(f"{where} must be an object.")
            group = _text(raw, "group", where, "must be a string or null.")
            goals.append(
                IncomingGoal(
                    group=None if group is ABSENT else group,
                    closed_feedback_loop=_score(raw, "closed_feedback_loop", where),
                    feedback_loop=_text(raw, "feedback_loop", where),
                    end_to_end_ownership=_score(raw, "end_to_end_ownership", where),
                )
            )
    return IncomingWrite(todos=todos, plan=plan, goals=goals)
