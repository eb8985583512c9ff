"""Packet detail: every field of one handoff packet, shown literally, with its history."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text

from core.shapes import Packet
from core.views.activity import Event
from tui.screens.detail import Detail, DetailScreen, field_text
from tui.text import clean, safe

FIELDS = (("source", "Source"), ("destination", "Destination"), ("goal", "Goal"))
LISTS = (("constraints", "Constraints"), ("openItems", "Open items"), ("evidenceReferences", "Evidence references"))


def packet_text(packet: Packet) -> Text:
    fields: dict[str, object] = dict(packet)  # drawn by key, each value shown literally
    text = Text()
    for key, label in FIELDS:
        if key in fields:
            field_text(text, label, fields[key])
    for key, label in LISTS:
        values = fields.get(key) or []
        assert isinstance(values, list)
        text.append(f"{label} ({len(values)})\n", "bold")
        if not values:
            text.append("  none\n", "dim")
        for value in values:
            text.append("  • ")
            text.append_text(safe(value, multiline=True))
            text.append("\n")
        text.append("\n")
    text.append(f"schemaVersion {clean(packet.get('schemaVersion', '?'))}", "dim")
    return text


class PacketScreen(DetailScreen):
    def __init__(self, packet: Packet, events: Sequence[Event] = ()) -> None:
        key = str(packet.get("id", ""))
        super().__init__(Detail("packet", key, f"Packet {clean(key)}", packet_text(packet),
                                frozenset({("packet", key)}), events=tuple(events)))
        self.packet = packet
