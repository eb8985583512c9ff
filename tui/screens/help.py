"""Help: every slash command and every key."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.commands import SLASH_COMMANDS

KEYS = (
    ("ctrl+p", "palette: every command, app actions, and e.g. \"set work item X done\""),
    ("f1", "this help"),
    ("f2", "todos overlay"),
    ("f3", "show or hide the message log"),
    ("f4", "follow the log (LIVE) or pause"),
    ("f5", "reload the session from disk"),
    ("f6", "open another session"),
    ("f7", "create a handoff packet"),
    ("tab / right", "complete the command line; tab moves on when nothing to complete"),
    ("up / down", "command history (in the command line)"),
    ("enter", "run the command; on a packet: open it; on a work item: /agent-state set <id>"),
    ("escape", "back to the command line / close a dialog"),
    ("ctrl+q", "quit"),
)


def help_text() -> Text:
    text = Text()
    text.append("Work item badges  ", "bold")
    text.append("○ open  ▶ in_progress  ■ blocked  ✓ done\n\n")
    text.append("Keys\n", "bold underline")
    for key, what in KEYS:
        text.append(f"  {key:<12}", "bold cyan")
        text.append(f"{what}\n")
    text.append("\nCommands\n", "bold underline")
    for command in SLASH_COMMANDS:
        text.append(f"  {command.usage}\n", "bold")
        text.append(f"      {command.help}\n", "dim")
    return text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            with VerticalScroll():
                yield Static(help_text(), markup=False)
            yield Static("esc closes", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-box").border_title = "pideck help"
