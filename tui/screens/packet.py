"""Packet detail: every field of one handoff packet, shown literally."""

from __future__ import annotations

from core.shapes import Packet

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.text import clean, safe

FIELDS = (("source", "Source"), ("destination", "Destination"), ("goal", "Goal"))
LISTS = (("constraints", "Constraints"), ("openItems", "Open items"), ("evidenceReferences", "Evidence references"))


def packet_text(packet: Packet) -> Text:
    fields: dict[str, object] = dict(packet)  # drawn by key, each value shown literally
    text = Text()
    for key, label in FIELDS:
        if key in fields:
            text.append(f"{label}\n", "bold")
            text.append_text(safe(fields[key], multiline=True))
            text.append("\n\n")
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


class PacketScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,enter", "dismiss", "Close")]

    def __init__(self, packet: Packet) -> None:
        super().__init__()
        self.packet = packet

    def compose(self) -> ComposeResult:
        with Vertical(id="packet-box", classes="dialog"):
            with VerticalScroll():
                yield Static(packet_text(self.packet), id="packet-body", markup=False)
            yield Static("esc closes", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#packet-box").border_title = Content(f"Packet {clean(self.packet.get('id', ''))}")
