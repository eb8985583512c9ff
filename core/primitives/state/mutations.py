"""Pure state mutations: each takes the live state, never touches it, and returns whether the
state changed plus the state to keep. The caller appends an entry exactly when ``changed``.

Core errors (``AgentStateError``) propagate; the command and tool layers turn them into text.
"""

# (No ``from __future__ import annotations``: typing would compile the string annotations of the
# NamedTuples below, and inspect, run, tool and the hooks compile nothing: core/slotted.py.)

from typing import TYPE_CHECKING, Any, NamedTuple

from core.primitives.state.core import AgentState, restore_agent_state
from core.primitives.state.persistence import empty_state

if TYPE_CHECKING:
    from core.shapes import StateSnapshot


class Mutation(NamedTuple):  # (a NamedTuple, as in core/primitives/host.py: made quickly at start-up)
    """``changed``, and the state after the call (the same one when nothing changed)."""

    changed: bool
    state: AgentState


def _copy(state: AgentState) -> AgentState:
    return restore_agent_state(state.snapshot())


def _unchanged(state: AgentState) -> Mutation:
    return Mutation(False, state)


def set_objective(state: AgentState, objective: str) -> Mutation:
    """The objective is fixed at creation, so a new one means rebuilding the state."""
    snapshot = state.snapshot()
    rebuilt = restore_agent_state({**snapshot, "objective": objective})
    if snapshot.get("objective") == objective:
        return _unchanged(state)
    return Mutation(True, rebuilt)


def add_work_item(state: AgentState, item: dict[str, object]) -> Mutation:
    """``item`` as the caller sent it: the core checks each of its values."""
    after = _copy(state)
    after.add_work_item(item)
    return Mutation(True, after)


def set_work_item_status(state: AgentState, item_id: Any, status: Any) -> Mutation:
    """Setting the status an item already has succeeds but changes nothing."""
    before = state.get_work_item(item_id)
    after = _copy(state)
    updated = after.set_work_item_status(item_id, status)
    if before is not None and before["status"] == updated["status"]:
        return _unchanged(state)
    return Mutation(True, after)


def remove_work_item(state: AgentState, item_id: str) -> Mutation:
    after = _copy(state)
    return Mutation(True, after) if after.remove_work_item(item_id) else _unchanged(state)


def add_decision(state: AgentState, decision: dict[str, object]) -> Mutation:
    """``decision`` as the caller sent it: the core checks each of its values."""
    after = _copy(state)
    after.add_decision(decision)
    return Mutation(True, after)


def is_empty(snapshot: "StateSnapshot") -> bool:
    return "objective" not in snapshot and not snapshot["workItems"] and not snapshot["decisions"]


def clear(state: AgentState) -> Mutation:
    return _unchanged(state) if is_empty(state.snapshot()) else Mutation(True, empty_state())
