"""Structural, lenient restore of saved todo state from the log
(docs/todo-replay.md#restoring-the-todo-state).

Foreign data (pi-jtodo's own tool results) may hold statuses outside the enum or unknown keys;
those are kept or dropped, but a wrong shape makes the whole candidate invalid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.jsutil import is_non_empty_string, is_schema_version_one
from core.primitives.todo.model import TodoGoal, TodoItem, TodoPlan, TodoState, normalise_group

if TYPE_CHECKING:  # (for the type checker alone: a TypedDict made at run time compiles its annotations)
    from core.shapes import AgentPlanJson, TodoStateJson

    class StateEntryData(TodoStateJson):
        """A ``pi-jtodo/state`` entry's data: ``schemaVersion``, then the state's keys."""

        schemaVersion: int

    Earlier = tuple[list[Any], TodoState]
    """A candidate restored before: its ``todos`` as the log holds them, and the state they gave."""

# The dicts below are read from the log as they were written (JSON): each value is checked before
# it is kept.


class _Invalid(Exception):
    pass


def _score(d: dict[str, object], *keys: str) -> int | None:
    for key in keys:
        value = d.get(key)
        if value is None:
            continue
        if type(value) is not int or not 0 <= value <= 100:
            raise _Invalid(key)
        return value
    return None


def _history(d: dict[str, object], *keys: str) -> list[int]:
    for key in keys:
        value = d.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(type(v) is int and 0 <= v <= 100 for v in value):
            raise _Invalid(key)
        return list(value)
    return []


def _text(d: dict[str, object], key: str) -> str | None:
    value = d.get(key)
    if value is not None and not isinstance(value, str):
        raise _Invalid(key)
    return value


def _item(raw: Any, agent: bool = False) -> TodoItem:
    """One item; ``agent``: an item of an agent's own plan, which has a priority only where the
    agent's tool gives one (opencode's) and may carry the agent tool's fields (docs/agent-conversations.md#the-plan-as-todos)."""
    if not isinstance(raw, dict):
        raise _Invalid("item")
    for key in ("content", "status") if agent else ("content", "status", "priority"):
        if not isinstance(raw.get(key), str):
            raise _Invalid(key)
    if not is_non_empty_string(raw.get("id")):
        raise _Invalid("id")
    item = TodoItem(
        content=raw["content"],
        status=raw["status"],
        priority=_text(raw, "priority") if agent else raw["priority"],
        id=raw["id"],
        group=normalise_group(_text(raw, "group")),
        confidence=_score(raw, "confidence"),
        completion_confidence=_score(raw, "completion_confidence"),
        confidence_history=_history(raw, "confidence_history"),
    )
    if agent:
        item.active_form = _text(raw, "activeForm")
        item.description = _text(raw, "description")
        item.blocks = _ids(raw, "blocks")
        item.blocked_by = _ids(raw, "blockedBy")
        item.made_by = _text(raw, "madeBy")
    return item


def _ids(d: dict[str, object], key: str) -> list[str] | None:
    value = d.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Invalid(key)
    return list(value)


def _plan(raw: dict[str, object]) -> TodoPlan:
    return TodoPlan(
        user_intention=_text(raw, "user_intention"),
        understands_user_intent=_score(
            raw, "understands_user_intent", "alignment_score", "user_intention_alignment"
        ),
        understands_user_intent_history=_history(
            raw,
            "understands_user_intent_history",
            "alignment_score_history",
            "user_intention_alignment_history",
        ),
    )


def _goal(raw: Any) -> TodoGoal:
    if not isinstance(raw, dict):
        raise _Invalid("goal")
    return TodoGoal(
        group=normalise_group(_text(raw, "group")),
        closed_feedback_loop=_score(raw, "closed_feedback_loop", "hill_climbability"),
        closed_feedback_loop_history=_history(
            raw, "closed_feedback_loop_history", "hill_climbability_history"
        ),
        feedback_loop=_text(raw, "feedback_loop"),
        end_to_end_ownership=_score(raw, "end_to_end_ownership"),
        end_to_end_ownership_history=_history(raw, "end_to_end_ownership_history"),
    )


_NUMBERS = frozenset(("confidence", "completion_confidence", "confidence_history"))
"""An item's keys whose values must be integers: where ``==`` is not enough (``_items``)."""


def _items(todos: list[Any], agent: bool, earlier: Earlier | None) -> list[TodoItem]:
    """The items of ``todos``. A plan told again and again (an agent's every plan call restates
    its whole list, most of it unchanged) would be checked item by item each time: an item equal
    to the one at its place in ``earlier``'s list is that one's item again, as ``_item`` is a pure
    function of the item's values. Equality is enough where a value must be a string, a list of
    strings or null (nothing else equals one), but not where it must be an integer (``1.0`` and
    ``True`` equal ``1``): an item with a score or a history is always checked. The items are
    shared, never changed (a state is replaced, not changed, docs/todo-replay.md)."""
    if earlier is None or (earlier[1].agent_plan is not None) != agent:
        return [_item(t, agent) for t in todos]
    raws, items = earlier[0], earlier[1].todos
    known = len(raws)
    return [items[i] if i < known and raw == raws[i] and raw.keys().isdisjoint(_NUMBERS) else _item(raw, agent)
            for i, raw in enumerate(todos)]


def _state(todos: Any, plan: Any, goals: Any, agent_plan: AgentPlanJson | None = None,
           earlier: Earlier | None = None) -> TodoState | None:
    if not isinstance(todos, list) or not isinstance(plan, dict) or not isinstance(goals, list):
        return None
    try:
        return TodoState(
            todos=_items(todos, agent_plan is not None, earlier), plan=_plan(plan), goals=[_goal(g) for g in goals],
            agent_plan=agent_plan,
        )
    except _Invalid:
        return None


def restore_state_data(data: Any) -> TodoState | None:
    """A ``pi-jtodo/state`` entry's data, or None when invalid."""
    if not isinstance(data, dict) or not is_schema_version_one(data.get("schemaVersion")):
        return None
    return _state(data.get("todos"), data.get("plan"), data.get("goals"), _agent_plan(data))


def is_state_details(details: Any) -> bool:
    """A ``todo`` tool result's details that hold a todo state candidate: a dict with a list
    ``todos`` (docs/todo-replay.md#restoring-the-todo-state). Anything else (no details, an
    error's details) is not a candidate."""
    return isinstance(details, dict) and isinstance(details.get("todos"), list)


def restore_tool_details(details: dict[str, object], earlier: Earlier | None = None) -> TodoState | None:
    """A ``todo`` tool result's details (plan and goals may be absent), or None when invalid.
    ``earlier``: a candidate restored before, whose unchanged items are taken over (``_items``):
    the same state, made faster."""
    plan, goals = details.get("plan"), details.get("goals")
    plan = {} if plan is None else plan
    return _state(details.get("todos"), plan, [] if goals is None else goals, _agent_plan(details), earlier)


def _agent_plan(data: dict[str, object]) -> AgentPlanJson | None:
    """``agentPlan``: present only where pideck told an agent's own plan as todos (a conversation's
    plan events, core/sources/reader.py), never in what pi-jtodo writes."""
    value = data.get("agentPlan")
    if not isinstance(value, dict):
        return None
    # Any session can hold such a result: only its words a view builds text from are kept, as
    # strings, and the noun is one of the three the readers write.
    plan: AgentPlanJson = {}
    if isinstance(value.get("agent"), str):
        plan["agent"] = value["agent"]
    if isinstance(value.get("tool"), str):
        plan["tool"] = value["tool"]
    plan["noun"] = value["noun"] if value.get("noun") in ("task", "step", "todo") else "todo"
    if isinstance(value.get("explanation"), str):
        plan["explanation"] = value["explanation"]
    return plan


def state_entry_data(state: TodoState) -> StateEntryData:
    return {"schemaVersion": 1, **state.to_json()}
