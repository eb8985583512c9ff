"""The screen ``pideck`` shows while its directory has no session or conversation yet
(docs/tui.md#waiting-for-the-first-session).

It says what it watches and how to start something; the app opens the first session or
conversation that appears (``PideckApp.look_for_newer``), with no key pressed. A command typed here
makes a pideck session for the person (``PideckApp.start_first_session``): nothing is written before
that, so opening, looking and quitting leave no file. ``pideck --new`` shows the same screen without
the watching: the session is made at the first command, whatever the directory holds.
"""

from __future__ import annotations

import os
import re

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from core.catalog.opening import Waiting
from core.catalog.sessions import watched_places
from core.views.view import DeckView, opening_view
from tui.text import clean
from tui.widgets.command_line import CommandLine

AGENTS = ("claude", "codex", "gemini", "qwen", "opencode", "copilot", "pi")
"""The commands that start what the screen waits for."""


HASHED = re.compile(r"\b([0-9a-f]{8})[0-9a-f]{56}\b")
"""A folder named by a SHA-256 (Gemini CLI's project folders), shown by its first 8 digits."""


def shown_path(path: str) -> str:
    """``path`` with the home folder as ``~`` and a hash-named folder cut: the lines stay short
    enough to read at 80 columns."""
    home = os.path.expanduser("~")
    if home not in ("", os.sep) and (path == home or path.startswith(home + os.sep)):
        path = "~" + path[len(home):]
    return HASHED.sub(r"\1…", path)


def waiting_text(waiting: Waiting, places: list[tuple[str, str]]) -> Text:
    """What the screen says: what it waits for, where it looks, and how to start something. Paths
    are the person's own (a directory may hold any character): shown literally."""
    where = clean(shown_path(waiting.cwd))
    text = Text()
    if not waiting.follow:
        text.append("A new pideck session for ", "bold")
        text.append(where, "bold cyan")
        text.append("\n\nIt is made by your first command below: until then nothing is written anywhere.\n")
        text.append("ctrl+p lists the commands; quitting now leaves no file.", "dim")
        return text
    text.append("Nothing has started in ", "bold")
    text.append(where, "bold cyan")
    text.append(" yet.", "bold")
    text.append("\n\npideck watches these folders and opens the first session or conversation that appears:\n\n")
    width = max(len(who) for who, _ in places)
    for who, folder in places:
        text.append(f"  {who:<{width}}  ", "bold")
        text.append(clean(shown_path(folder)) + "\n", "dim")
    text.append("\nStart an agent in this directory: ")
    for n, command in enumerate(AGENTS):
        text.append(("" if n == 0 else " · "))
        text.append(command, "bold green")
    text.append("\nOr type a command below to start a pideck session of your own (ctrl+p lists them).")
    return text


class WaitingScreen(Screen[None]):
    """What ``pideck`` shows before anything exists in its directory (see the module's docstring).
    The palette's slash commands fill its command line, as on a deck."""

    DEFAULT_CSS = """
    WaitingScreen { layout: vertical; }
    #waiting-title { height: 1; background: $panel; padding: 0 1; }
    #waiting-body { height: 1fr; padding: 1 2; }
    WaitingScreen CommandLine { dock: bottom; margin-bottom: 1; }
    """

    BINDINGS = [Binding("escape", "focus_command", "Command line", show=False)]

    def __init__(self, waiting: Waiting, history: list[str] | None = None) -> None:
        super().__init__()
        self.waiting = waiting
        self.view: DeckView = opening_view(waiting.cwd, os.path.basename(waiting.cwd) or waiting.cwd)
        self._history = history
        self._places = watched_places(waiting.cwd) if waiting.follow else []

    def compose(self) -> ComposeResult:
        title = "pideck · waiting for the first session" if self.waiting.follow else "pideck · a new session"
        yield Static(Text(title, "bold"), id="waiting-title")
        yield Static(waiting_text(self.waiting, self._places), id="waiting-body")
        yield CommandLine(lambda: self.view, self._history, id="cmd")
        yield Footer()

    def on_mount(self) -> None:
        self.action_focus_command()

    def action_focus_command(self) -> None:
        self.query_one(CommandLine).focus()

    @on(Input.Submitted, "#cmd")
    def _submitted(self, event: Input.Submitted) -> None:
        self.app.remember_line(event.value)  # type: ignore[attr-defined]
        self.query_one(CommandLine).rewind()
        self.run_line(event.value)

    # -- what the palette's providers use (``tui/commands.py``) ------------------------------------

    def run_line(self, line: str) -> None:
        if line.strip():
            self.app.start_first_session(line)  # type: ignore[attr-defined]

    def fill_command(self, text: str) -> None:
        command_line = self.query_one(CommandLine)
        command_line.value = text
        command_line.cursor_position = len(text)
        command_line.focus()

    def show_row(self, kind: str, key: str) -> None:
        """Nothing has rows yet."""
