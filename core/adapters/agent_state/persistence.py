"""The persisted envelope of the Agent State adapter: payload and strict load
(docs/primitives.md#restore-rules)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from core.adapters.host import latest_custom
from core.jsutil import is_schema_version_one
from core.state import AgentState, AgentStateError, restore_agent_state

ENTRY_TYPE = "agent-state-state"
ADAPTER_SCHEMA_VERSION = 1

_ABSENT: Any = object()


def empty_state() -> AgentState:
    return restore_agent_state({"schemaVersion": 1, "workItems": [], "decisions": []})


def payload(state: AgentState) -> dict[str, Any]:
    """The whole state as one entry's data; a fresh dict on every call."""
    return {"schemaVersion": ADAPTER_SCHEMA_VERSION, "state": state.snapshot()}


def load_state(entries: Iterable[Mapping[str, Any]]) -> tuple[AgentState, bool]:
    """The state from the newest matching entry and whether it was valid.

    An invalid newest entry gives an empty state: never a fallback to an older entry.
    Extra envelope keys are allowed (upstream; the handoff adapter rejects them, see
    docs/primitives.md#restore-rules).
    """
    entry = latest_custom(entries, ENTRY_TYPE)
    if entry is None:
        return empty_state(), True
    data = entry.get("data", _ABSENT)
    if (
        not isinstance(data, dict)
        or not is_schema_version_one(data.get("schemaVersion", _ABSENT))
        or "state" not in data
    ):
        return empty_state(), False
    try:
        return restore_agent_state(data["state"]), True
    except AgentStateError:
        return empty_state(), False
