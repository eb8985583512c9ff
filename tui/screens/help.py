"""Help: every key (from the bindings themselves) and every slash command (from the registry)."""

from __future__ import annotations

from typing import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from core.registry import SUBCOMMANDS
from tui.widgets.command_line import CommandLine

APP_KEYS = (
    ("ctrl+p", "palette: every command, app actions, and e.g. \"set work item X done\""),
    ("ctrl+q", "quit"),
)
"""Keys Textual itself binds on the app."""

ROW_KEYS = (("enter", "on a packet: open it; on a work item: /agent-state set <id>"),)


def key_rows(screen_bindings: Iterable[BindingType]) -> list[tuple[str, str]]:
    """(keys, what they do) for the screen's bindings and the command line's, then the app's."""
    rows = []
    for binding in [*Binding.make_bindings(screen_bindings), *Binding.make_bindings(CommandLine.BINDINGS)]:
        rows.append((binding.key.replace(",", " / "), binding.tooltip or binding.description))
    return [*APP_KEYS[:1], *rows, *ROW_KEYS, *APP_KEYS[1:]]


def help_text(screen_bindings: Iterable[BindingType]) -> Text:
    text = Text()
    text.append("Work item badges  ", "bold")
    text.append("○ open  ▶ in_progress  ■ blocked  ✓ done\n\n")
    text.append("Keys\n", "bold underline")
    for key, what in key_rows(screen_bindings):
        text.append(f"  {key:<12}", "bold cyan")
        text.append(f"{what}\n")
    text.append("\nCommands\n", "bold underline")
    for command in SUBCOMMANDS:
        text.append(f"  {command.usage}\n", "bold")
        text.append(f"      {command.help}\n", "dim")
    return text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1", "dismiss", "Close")]

    def __init__(self, screen_bindings: Iterable[BindingType]) -> None:
        super().__init__()
        self.screen_bindings = list(screen_bindings)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            with VerticalScroll():
                yield Static(help_text(self.screen_bindings), id="help-body", markup=False)
            yield Static("esc closes", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-box").border_title = "pideck help"
