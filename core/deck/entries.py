"""The entries a deck tells apart by their type alone (what the log's index knows): the
primitives' state entries and the tools that write them, the todo gates' entries, and why the gates
gave up. The activity walk and the catalog's flags both read these."""

from __future__ import annotations

from core.primitives.progress import verdicts
from core.primitives.todo import constants as c

PRIMITIVE_TOOLS = {
    "agent-state-state": "agent_state_",
    "agent-progress-state": "agent_progress_",
    "agent-handoff-state": "agent_handoff_",
    c.STATE_CUSTOM_TYPE: c.TOOL_NAME,
}
"""The entry types a tool call writes, with the name (prefix) of the tools that write them."""

GAVE_UP_WHY = {
    "no_progress": "no progress between stops",
    "stalled": "validation still weak",
    "unchanged": "confidence unchanged",
    "watchdog": "the agent stayed idle",
}
"""Why the gates gave up, by disarm reason."""

GATE_GAVE_UP = frozenset(GAVE_UP_WHY)
"""Disarm reasons that mean the gates stopped poking with the work still open."""


SUBAGENT_ENTRY = "pideck/subagent"  # core.sources.reader.SUBAGENT_ENTRY (not imported: start-up)
"""A Claude Code subagent's start or end in a conversation's log (a ``custom_message``)."""


def picked_by_activity(kind: str | None, custom_type: str | None, role: str | None, tool_name: str | None) -> bool:
    """The entries the walk looks at, told apart by what the log's index knows: every message
    (an assistant's tool calls tell a tool's entries from a command's), the state entries, the gate's
    entries, and pi's labels, branch summaries and session names."""
    if kind == "custom":
        return custom_type in PRIMITIVE_TOOLS or custom_type in (c.CYCLE_CUSTOM_TYPE, verdicts.ENTRY_TYPE)
    if kind == "custom_message":
        return custom_type in (c.FOLLOWUP_CUSTOM_TYPE, SUBAGENT_ENTRY)
    return kind in ("message", "label", "branch_summary", "session_info")


PIDECKS_OWN = frozenset({c.CYCLE_CUSTOM_TYPE, c.FOLLOWUP_CUSTOM_TYPE, verdicts.ENTRY_TYPE})
"""The entries pideck writes of its own accord (the todo gates' and the Progress verdicts): never
the agent's, so they do not say when the agent last wrote."""
