"""Every user-visible text of the Agent Handoff adapter, verbatim
(docs/primitives.md#adapter-texts-are-verbatim)."""

from __future__ import annotations

from core.jsutil import plural
from core.primitives.handoff import ENTRY_TYPE

PREFIX = "Agent Handoff"

COMMAND = "agent-handoff"
DESCRIPTION = "Persist and inspect caller-declared handoff packets."
SCHEMA_VERSION = 1

USAGE = "Agent Handoff: Usage: /agent-handoff status | show <id> | remove <id> | clear --yes"
INVALID_PERSISTED = "Agent Handoff: persisted state was invalid; starting with fresh state."
INVALID_MUTATION = (
    "Agent Handoff: change rejected as invalid; common causes include duplicate ids, empty "
    "identifiers, malformed packets, or unknown top-level keys. State was unchanged."
)
ALREADY_CLEAR = "Agent Handoff: packets were already clear."
CLEARED = "Agent Handoff: cleared."
# Exists upstream but is never emitted; kept only so the text is not reinvented by mistake.
UNUSED_CLEAR_REQUIRES_CONFIRMATION = (
    "Agent Handoff: clear requires confirmation; run /agent-handoff clear --yes to wipe all "
    "handoff packets."
)

POLICY_LINE = (
    "Policy: explicit caller-declared packets only; no automatic generation, no successor "
    "selection, no completion judgment."
)
PRIVACY_LINE = (
    "Privacy: all packet fields are caller-controlled and may carry sensitive content; scrub "
    "before transmission. No automatic redaction."
)


def packet_count(count: int) -> str:
    return f"{count} {plural(count, 'packet')}"


def header(count: int) -> str:
    return f"Agent Handoff: {packet_count(count)} in the current session."


def unknown_packet(packet_id: str) -> str:
    return f'Agent Handoff: unknown packet "{packet_id}"; state was unchanged.'


def duplicate_packet(packet_id: str) -> str:
    return f'Agent Handoff: duplicate packet id "{packet_id}"; state was unchanged.'


def created_packet(packet_id: str, count: int) -> str:
    return (
        f'Agent Handoff: created packet "{packet_id}"; {packet_count(count)} '
        "in the current session."
    )


def removed_packet_tool(packet_id: str, count: int) -> str:
    # Upstream grammar kept: "1 packet remain".
    return f'Agent Handoff: removed packet "{packet_id}"; {packet_count(count)} remain.'


def removed_packet_command(packet_id: str) -> str:
    return f'Agent Handoff: removed packet "{packet_id}".'


def clear_would_remove(count: int) -> str:
    return (
        f"Agent Handoff: clear would remove {packet_count(count)}. "
        "Run /agent-handoff clear --yes to confirm."
    )
