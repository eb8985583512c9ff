"""The derived state at one point of a session, as plain data that two points can be compared by.

A ``Point`` holds what a person reads off the deck: Agent State, Agent Progress, the handoff
packets and the todo list. ``point_of`` takes it from a Deck; ``Restorer`` takes in one entry at a
time with the adapters' own restore code, so the activity walk (``core/views/activity.py``) and a Deck
over the same branch always agree on what the state was.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from core.deck.deck import HANDOFF, PROGRESS, STATE, TODO, Deck
from core.primitives.handoff import persistence as handoff_persistence
from core.primitives.handoff.adapter import AgentHandoffAdapter
from core.primitives.progress.adapter import AgentProgressAdapter
from core.primitives.state.adapter import AgentStateAdapter
from core.primitives.todo import constants as c
from core.primitives.todo.model import TodoState
from core.primitives.todo.restore import is_state_details, restore_state_data, restore_tool_details
from core.shapes import Packet, ProgressState, StateSnapshot, TodoStateJson

def _empty_state() -> StateSnapshot:
    return {"schemaVersion": 1, "workItems": [], "decisions": []}


def _empty_progress() -> ProgressState:
    return {"hasBaseline": False, "currentMilestones": [], "recordedMilestones": []}


def _empty_todos() -> TodoStateJson:
    return TodoState().to_json()


@dataclass(frozen=True)
class Point:
    """Agent State, Agent Progress, the packets and the todos at one point (treat as read-only)."""

    state: StateSnapshot = field(default_factory=_empty_state)
    progress: ProgressState = field(default_factory=_empty_progress)
    packets: tuple[Packet, ...] = ()
    todos: TodoStateJson = field(default_factory=_empty_todos)


def point_of(deck: Deck[Any]) -> Point:
    """What ``deck`` shows now."""
    return Point(
        state=deck.state.snapshot(),
        progress=deck.progress.state(),
        packets=tuple(deck.handoff.packets()),
        todos=deck.todo.state.to_json(),
    )


def _refuse(custom_type: str, data: Any) -> None:
    raise AssertionError("restoring a point never appends")


@dataclass(frozen=True)
class Restored:
    """What one entry made of its part: the part, the point after it, and whether the entry was
    valid (an invalid newest entry reads as an empty part, never as an older one)."""

    part: str
    point: Point
    valid: bool


RESTORED_TYPES = (AgentStateAdapter.ENTRY_TYPE, AgentProgressAdapter.ENTRY_TYPE, AgentHandoffAdapter.ENTRY_TYPE)
"""The custom types whose newest entry is the whole state of a primitive (the todos' come from
``pi-jtodo/state`` entries and the todo tool's results)."""


class Restorer:
    """Restores one entry at a time into the point it makes, with the adapters' own restore code."""

    def __init__(self) -> None:
        self._state = AgentStateAdapter(_refuse)
        self._progress = AgentProgressAdapter(_refuse)

    def apply(self, point: Point, entry: Mapping[str, Any]) -> Restored | None:
        """The point after ``entry``, or None when the entry is no state candidate of any part."""
        kind, custom_type = entry.get("type"), entry.get("customType")
        if kind == "custom":
            if custom_type == self._state.ENTRY_TYPE:
                valid = not self._state.load([entry])
                state = self._state.snapshot()
                return Restored(STATE, replace(point, state=state), valid)
            if custom_type == self._progress.ENTRY_TYPE:
                valid = not self._progress.load([entry])
                progress = self._progress.state()
                return Restored(PROGRESS, replace(point, progress=progress), valid)
            if custom_type == AgentHandoffAdapter.ENTRY_TYPE:
                # The adapter's own restore, without its load's copy of every packet for the reader:
                # what it restores is new, and only this point holds it.
                restored = handoff_persistence.restore([entry])
                packets = tuple(restored["packets"]) if restored is not None else ()
                return Restored(HANDOFF, replace(point, packets=packets), restored is not None)
            if custom_type == c.STATE_CUSTOM_TYPE:
                return _todos(point, restore_state_data(entry.get("data")))
            return None
        if kind == "message":
            message = entry.get("message")
            if not isinstance(message, dict) or message.get("role") != "toolResult":
                return None
            if message.get("toolName") != c.TOOL_NAME or not is_state_details(message.get("details")):
                return None
            return _todos(point, restore_tool_details(message["details"]))
        return None


def _todos(point: Point, restored: TodoState | None) -> Restored:
    todos = (restored or TodoState()).to_json()
    return Restored(TODO, replace(point, todos=todos), restored is not None)

