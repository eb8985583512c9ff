"""Display texts of the registry and of one packet (docs/primitives.md#adapter-texts-are-verbatim); lines
are joined by \\n."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.jsutil import lower_first
from core.primitives.handoff.core import HandoffError
from core.primitives.handoff.messages import POLICY_LINE, PREFIX, PRIVACY_LINE, header
from core.primitives.handoff.mutations import HandoffState

if TYPE_CHECKING:
    from core.shapes import Packet


def format_handoff_state(state: HandoffState) -> str:
    """The one-line-per-packet summary (``status`` and the bare command)."""
    packets = state["packets"]
    lines = [header(len(packets))]
    if not packets:
        lines.append("Packets: none.")
    else:
        lines.append("Packets:")
        for p in packets:
            route = p["source"] + (f" -> {p['destination']}" if "destination" in p else "")
            lines.append(f"- {p['id']}: {route} | goal: {p['goal']}")
    lines += [POLICY_LINE, PRIVACY_LINE]
    return "\n".join(lines)


def format_handoff_packet(packet: Packet) -> str:
    """One packet in detail (``show``); list items are deliberately not indented (upstream)."""
    lines = [
        f"Packet: {packet['id']}",
        f"  Source: {packet['source']}",
        f"  Destination: {packet.get('destination', 'none')}",
        f"  Goal: {packet['goal']}",
    ]
    for items, title in (
        (packet.get("constraints"), "Constraints"),
        (packet.get("openItems"), "Open items"),
        (packet.get("evidenceReferences"), "Evidence references"),
    ):
        if not items:
            lines.append(f"  {title}: none.")
        else:
            lines.append(f"  {title}:")
            lines += [f"- {item}" for item in items]
    return "\n".join(lines)


def format_handoff_state_detailed(state: HandoffState) -> str:
    """Every packet in detail (the get tool); with no packets it equals the summary."""
    packets = state["packets"]
    if not packets:
        return format_handoff_state(state)
    lines = [header(len(packets)), "Packets:"]
    for p in packets:
        lines += ["", format_handoff_packet(p)]
    lines += ["", POLICY_LINE, PRIVACY_LINE]
    return "\n".join(lines)


def format_handoff_error(error: BaseException) -> str:
    """A core error quoted with its first letter lowercased; anything else gets the same text."""
    if isinstance(error, HandoffError):
        message = str(error)
        return f"{PREFIX}: {lower_first(message)}" if message else f"{PREFIX}: invalid input."
    return f"{PREFIX}: {lower_first(HandoffError().args[0])}"
