"""The three model tools: definitions (names, labels, descriptions, JSON schemas) and execution.

Execution is pure like the command: it answers with the result and the new state (only on change),
an ``Outcome`` the adapter's controller settles (``core/primitives/controller.py``).
"""

from __future__ import annotations

from typing import Any

from core.primitives.controller import Outcome
from core.primitives.handoff import messages as m
from core.primitives.handoff.format import format_handoff_error, format_handoff_state_detailed
from core.primitives.handoff.mutations import HandoffState, create_packet, remove_packet
from core.primitives.host import ToolDef, ToolResult

_DISCLAIMER = (
    "does not generate packets automatically, summarize context, select successors, judge "
    "completion, or call Evidence/State/Progress/Retry/Context Guard."
)

GET = ToolDef(
    name="agent_handoff_get",
    label="Agent Handoff: get",
    description=(
        "Read the current caller-declared handoff packets as readable text. This reports what was "
        "recorded and asserts nothing about completion, truth, or readiness. It " + _DISCLAIMER
    ),
    parameters={"type": "object", "properties": {}, "additionalProperties": False},
)

CREATE = ToolDef(
    name="agent_handoff_create",
    label="Agent Handoff: create",
    description=(
        "Create one caller-declared handoff packet after validation by the core createHandoff "
        "function. The packet is persisted only when validation and packet-id uniqueness "
        "succeed. This tool " + _DISCLAIMER
    ),
    parameters={
        "type": "object",
        "properties": {
            "schemaVersion": {
                "type": "integer",
                "const": 1,
                "description": "Required schema version; must be 1.",
            },
            "id": {
                "type": "string",
                "description": "Caller-supplied packet identifier, preserved exactly.",
            },
            "source": {
                "type": "string",
                "description": "Caller-supplied source identifier, preserved exactly.",
            },
            "destination": {
                "type": "string",
                "description": "Optional destination identifier, preserved exactly.",
            },
            "goal": {
                "type": "string",
                "description": "Caller-supplied goal prose, preserved exactly.",
            },
            "constraints": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Optional caller-supplied prose restrictions; duplicates allowed.",
            },
            "openItems": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Optional caller-supplied open items prose; duplicates allowed.",
            },
            "evidenceReferences": {
                "type": "array",
                "items": {"type": "string"},
                "description": (
                    "Optional caller-supplied opaque evidence references; exact duplicates are "
                    "rejected."
                ),
            },
        },
        "required": ["schemaVersion", "id", "source", "goal"],
        "additionalProperties": False,
    },
)

REMOVE = ToolDef(
    name="agent_handoff_remove",
    label="Agent Handoff: remove",
    description="Remove one caller-declared handoff packet by identifier. This tool " + _DISCLAIMER,
    parameters={
        "type": "object",
        "properties": {
            "id": {
                "type": "string",
                "description": "Caller-supplied packet identifier to remove.",
            }
        },
        "required": ["id"],
        "additionalProperties": False,
    },
)

TOOLS: tuple[ToolDef, ...] = (GET, CREATE, REMOVE)  # registration order

ToolOutcome = tuple[str, "HandoffState | None"]
"""The text and the new state; no state from a mutating tool means it was turned down."""


def unknown_tool(name: Any) -> str:
    """Not an upstream text: pi never dispatches a name it did not register."""
    return f'Agent Handoff: unknown tool "{name}".'


def run_tool(state: HandoffState, name: str, params: Any) -> Outcome[ToolResult, HandoffState]:
    try:
        text, new_state = _execute(state, name, params)
    except Exception as exc:  # noqa: BLE001 (errors are text, never raised)
        return Outcome(ToolResult(format_handoff_error(exc), rejected=True))
    return Outcome(ToolResult(text, rejected=new_state is None and name != GET.name), new_state)


def _execute(state: HandoffState, name: str, params: Any) -> ToolOutcome:
    if name == GET.name:  # params are ignored
        return format_handoff_state_detailed(state), None
    if name == CREATE.name:
        return _create(state, params)
    if name == REMOVE.name:
        return _remove(state, params)
    return unknown_tool(name), None


def _create(state: HandoffState, params: Any) -> ToolOutcome:
    result = create_packet(state, params)  # a non-dict params is simply rejected by the core
    if result.changed:
        assert result.state is not None
        packet = result.state["packets"][-1]
        return m.created_packet(packet["id"], len(result.state["packets"])), result.state
    if result.reason == "duplicate":
        raw_id = params.get("id") if isinstance(params, dict) else None
        return m.duplicate_packet(raw_id if isinstance(raw_id, str) else "unknown"), None
    return m.INVALID_MUTATION, None


def _remove(state: HandoffState, params: Any) -> ToolOutcome:
    if not isinstance(params, dict) or "id" not in params:
        return m.INVALID_MUTATION, None
    packet_id = params["id"]
    result = remove_packet(state, packet_id)
    if result.changed:
        assert result.state is not None
        return m.removed_packet_tool(packet_id, len(result.state["packets"])), result.state
    if result.reason == "not_found":
        return m.unknown_packet(packet_id), None
    return m.INVALID_MUTATION, None
