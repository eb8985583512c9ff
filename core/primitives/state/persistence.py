"""The persisted envelope of the Agent State adapter: payload and strict load
(docs/primitives.md#restore-rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

from core.jsutil import is_schema_version_one
from core.primitives.host import latest_custom
from core.primitives.state import ENTRY_TYPE
from core.primitives.state.core import AgentState, AgentStateError, restore_agent_state

if TYPE_CHECKING:  # (for the type checker alone: a TypedDict made at run time compiles its annotations)
    from typing import TypedDict

    from core.shapes import StateSnapshot

    class Payload(TypedDict):
        """An ``agent-state`` entry's data."""

        schemaVersion: int
        state: StateSnapshot

ADAPTER_SCHEMA_VERSION = 1

_ABSENT: Any = object()


def empty_state() -> AgentState:
    return restore_agent_state({"schemaVersion": 1, "workItems": [], "decisions": []})


def payload(state: AgentState) -> Payload:
    """The whole state as one entry's data; a fresh dict on every call."""
    return {"schemaVersion": ADAPTER_SCHEMA_VERSION, "state": state.snapshot()}


def restore(entries: Iterable[Mapping[str, Any]]) -> AgentState | None:
    """The state held by the newest matching entry (the empty state when there is none), or None
    when that entry is invalid.

    Extra envelope keys are allowed (upstream; the handoff adapter rejects them, see
    docs/primitives.md#restore-rules).
    """
    entry = latest_custom(entries, ENTRY_TYPE)
    if entry is None:
        return empty_state()
    data = entry.get("data", _ABSENT)
    if (
        not isinstance(data, dict)
        or not is_schema_version_one(data.get("schemaVersion", _ABSENT))
        or "state" not in data
    ):
        return None
    try:
        return restore_agent_state(data["state"])
    except AgentStateError:
        return None
