"""The persisted envelope: build the payload of a state, and restore a state strictly
(docs/primitives.md#restore-rules)."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from core.jsutil import is_schema_version_one
from core.primitives.handoff.core import HandoffError
from core.primitives.handoff.messages import ENTRY_TYPE, SCHEMA_VERSION
from core.primitives.handoff.mutations import HandoffState, empty_state, validated_packet
from core.primitives.host import latest_custom

if TYPE_CHECKING:  # (for the type checker alone: a TypedDict made at run time compiles its annotations)
    from typing import TypedDict

    from core.shapes import Packet

    class Payload(TypedDict):
        """An ``agent-handoff-state`` entry's data."""

        schemaVersion: int
        packets: list[Packet]

_ENVELOPE_KEYS = ("schemaVersion", "packets")
_ABSENT = object()


def payload(state: HandoffState) -> Payload:
    """The whole state as one entry's data, as a fresh copy."""
    return {"schemaVersion": SCHEMA_VERSION, "packets": copy.deepcopy(state["packets"])}


def restore(entries: Iterable[Mapping[str, Any]]) -> HandoffState | None:
    """The state held by the newest matching entry (the empty state when there is none), or None
    when that entry is invalid."""
    entry = latest_custom(entries, ENTRY_TYPE)
    if entry is None:
        return empty_state()
    return restore_state(entry.get("data", _ABSENT))  # absent data is invalid


def restore_state(data: Any) -> HandoffState | None:
    """The state stored in ``data``, or None when anything about it is invalid.

    Unlike the state and progress adapters, an extra envelope key is invalid (upstream asymmetry,
    docs/primitives.md#restore-rules). Each packet goes through the core, so its validator is authoritative.
    """
    if not isinstance(data, dict) or any(key not in _ENVELOPE_KEYS for key in data):
        return None
    if "schemaVersion" not in data or not is_schema_version_one(data["schemaVersion"]):
        return None
    if "packets" not in data or not isinstance(data["packets"], list):
        return None
    packets: list[Packet] = []
    ids: set[str] = set()
    for raw in data["packets"]:
        try:
            packet = validated_packet(raw)
        except HandoffError:
            return None
        if packet["id"] in ids:
            return None
        ids.add(packet["id"])
        packets.append(packet)
    return {"packets": packets}
