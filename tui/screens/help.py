"""Help: what the screen shows (scores, icons, markers, badges), every key (from the bindings
themselves, one source) and every slash command (from the registry)."""

from __future__ import annotations

from typing import Iterable

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from core.deck.commands import SUBCOMMANDS
from tui.widgets.command_line import CommandLine, FilterBar

APP_KEYS = (
    ("ctrl+p", "palette: every command, app actions, \"Show …\" and e.g. \"set work item X done\""),
    ("ctrl+q", "quit"),
)
"""Keys Textual itself binds on the app."""

ROW_KEYS = (
    ("enter", "on a row (work item, decision, packet, goal, event): its detail and history"),
    ("c / e", "in a detail: copy it / put its command on the command line"),
    ("/", "on a table: filter, as ctrl+f"),
    ("1 … 6", "on a table or list: as alt+1 … alt+6"),
    ("j / k", "on a table or list: down / up"),
    ("?", "on a table or list: this help"),
    ("s", "on the work items: list them as written, by status (blocked first) or newest change first"),
)

SCREEN = (
    ("The panes", [
        ("Agent State", "the objective, the work items (○ open  ▶ in progress  ■ blocked  ✓ done) and "
                        "the decisions; the subtitle counts work items by status"),
        ("Agent Progress", "the declared milestones (+ declared since the last judge, − recorded but "
                           "withdrawn), the baseline, and the newest verdict pideck recorded"),
        ("Agent Handoff", "one row per handoff packet"),
        ("Activity (f3)", "every change by any writer, newest first: time, who (agent = a tool call, "
                          "person = a command, gate = the todo gates, unknown = the log does not tell: pi's own entries), part "
                          "and what changed; times carry the date when the session spans days"),
    ]),
    ("The todo strip", [
        ("● / ○", "the header: some todo is open / every todo is settled; then settled/total and the "
                  "user's intention"),
        ("▶ ○ ✓ ✗", "in progress, pending, completed, cancelled"),
        ("👉", "the poke marker: the todos the gates' last follow-up named"),
        ("conf N", "the todo's confidence (? when it has none)"),
    ]),
    ("The goal table", [
        ("Settled", "settled todos of the group / all its todos"),
        ("Conf", "the weighted confidence of its todos (priority weighs)"),
        ("Own", "end-to-end ownership the agent declared for the goal"),
        ("Feedback", "how closed the goal's feedback loop is (its test or check)"),
        ("colours", "green: good enough; amber: weak; red: too weak; — none declared"),
    ]),
    ("The header", [
        ("LIVE / PAUSED", "following the session file or not (f4)"),
        ("⏸ idle …", "the agent has sat idle with open todos past the watchdog's idle time (a state for "
                    "you: pideck sends the agent nothing; [tui] watchdog setting)"),
        ("writes go to …", "another session of this directory is being written, not this one; f6 opens it"),
        ("READ-ONLY", "commands that append are refused (pi's own sessions, unless --write)"),
        ("WARNINGS (N)", "lines or entries pideck skipped or could not restore (ctrl+l lists them)"),
        ("● agent …", "when another writer last appended; active until the watchdog's idle time passes"),
        ("FILTER", "the panes and the activity show only what the filter keeps (ctrl+f, ctrl+t)"),
    ]),
)


def shown_key(key: str) -> str:
    """A key as a person reads it: ``alt+1``, and a character's name as the character (``¡``)."""
    from textual.keys import key_to_character

    character = key_to_character(key) if "+" not in key and len(key) > 1 else None
    return character if character is not None and character.isprintable() else key


def key_rows(screen_bindings: Iterable[BindingType], app_bindings: Iterable[BindingType] = ()) -> list[tuple[str, str]]:
    """(keys, what they do) for the screen's bindings, the app's, the command line's and the
    lists', then Textual's own."""
    rows = []
    sources = (screen_bindings, app_bindings, CommandLine.BINDINGS, FilterBar.BINDINGS)
    for bindings in sources:
        for binding in bindings:  # (not made into one Binding per key: a row names all of its keys)
            if isinstance(binding, Binding) and binding.tooltip:
                rows.append((" / ".join(shown_key(k.strip()) for k in binding.key.split(",")), binding.tooltip))
    return [*APP_KEYS[:1], *rows, *ROW_KEYS, *APP_KEYS[1:]]


INTRODUCTION = ("pideck shows what an agent has declared in this session, live: its todos with their scores "
                "and gates (the strip above the command line, the goal table), and the panes of Agent State, "
                "Agent Progress and Agent Handoff. Type a slash command below (Tab completes it, ctrl+p lists "
                "every command); the agent calls the same tools. Below: what each part shows, every key, "
                "every command.")
"""The help's first words: what the screen is, before its parts, keys and commands."""


def help_text(screen_bindings: Iterable[BindingType], app_bindings: Iterable[BindingType] = (),
              status: str = "", notifications: Iterable[str] = ()) -> Text:
    text = Text()
    text.append(INTRODUCTION + "\n\n")
    if status:
        text.append("This session\n", "bold underline")
        text.append(f"  {status}\n\n", "italic")
    for title, rows in SCREEN:
        text.append(f"{title}\n", "bold underline")
        for name, what in rows:
            text.append(f"  {name}" + " " * max(15 - cell_len(name), 1), "bold cyan")  # 👉 is two cells
            text.append(f"{what}\n")
        text.append("\n")
    text.append("Keys\n", "bold underline")
    for key, what in key_rows(screen_bindings, app_bindings):
        text.append(f"  {key:<15}", "bold cyan")
        text.append(f"{what}\n")
    text.append("\nCommands\n", "bold underline")
    for command in SUBCOMMANDS:
        text.append(f"  {command.usage}\n", "bold")
        text.append(f"      {command.help}\n", "dim")
    notifications = list(notifications)
    if notifications:  # what the app chose here, and why (docs/notifications.md)
        text.append("\nNotifications ([notify]; the palette's \"Test notification\" sends one)\n", "bold underline")
        for line in notifications:
            text.append(f"  {line}\n")
    return text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1", "dismiss", "Close")]

    def __init__(self, screen_bindings: Iterable[BindingType], app_bindings: Iterable[BindingType] = (),
                 status: str = "") -> None:
        super().__init__()
        self.screen_bindings = list(screen_bindings)
        self.app_bindings = list(app_bindings)
        self.status = status

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            with VerticalScroll(id="help-scroll"):
                notifications: list[str] = getattr(self.app, "notification_lines", list)()
                yield Static(help_text(self.screen_bindings, self.app_bindings, self.status, notifications),
                             id="help-body", markup=False)
            yield Static("↑↓ pgup pgdn scroll · esc closes", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-box").border_title = "pideck help"
        self.query_one("#help-scroll").focus()
        self.app.clear_notifications()  # (a toast would cover the help's first lines)

