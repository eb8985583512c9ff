"""The sessions overview: one live row per session of this directory (or of every directory).

The rows come from ``core.overview.Overview`` on the screen's own thread, which re-reads only the
files that changed; Enter opens a session's deck on top of the overview, and Esc there comes back.
The agents' conversations are read within a budget per tick, the most recently changed first: every
row is listed at once, and a conversation not read yet shows ``…`` until the next ticks (which
follow at once while any is left) fill it in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from core.opening import Opened
from core.overview import ENDED, POKED, WAITING, Overview, OverviewRow, ago, row_cells
from core.session.discovery import AGENT_KINDS
from core.todo.config import TodoConfig
from tui.jobs import JobThread
from tui.screens.deck import DeckScreen
from tui.text import one_line
from tui.widgets.command_line import CommandLine
from tui.widgets.keyed_table import KeyedTable

COLUMNS = [("Kind", "kind"), ("Session", "session"), ("Todos", "todos"), ("Conf", "conf"),
           ("o/p/b/d", "items"), ("Miles.", "milestones"), ("Pkts", "packets"), ("Last", "last"), ("Flag", "flag")]
FLAG_STYLES = {POKED: "bold yellow", WAITING: "bold cyan", ENDED: "bold magenta"}
KIND_STYLES = {"pi": "bold magenta", "pideck": "bold cyan"}
AGENT_STYLE = "bold green"
BUDGET_S = 0.1
"""Seconds of conversation reading per tick, so the first rows show at once however many there are."""

Shown = tuple[OverviewRow, str, bool]
"""A row, its "12s ago" at the moment it is drawn, and whether its directory is shown."""


@dataclass
class RowsChanged(Message):
    """The overview's thread read a change: every row now, the most recently active first."""

    rows: list[OverviewRow]
    scope: str


def overview_cells(shown: Shown) -> tuple[Text, ...]:
    """Cells of one row; the directory follows the name only when rows come from many directories."""
    row, last, with_cwd = shown
    kind, name, todos, conf, items, _, packets, _, flag, cwd = row_cells(row, 0)
    session = one_line(name, "bold")
    if with_cwd:
        session.append("  ")
        session.append_text(one_line(cwd, "dim"))
    if row.flag or row.kind not in AGENT_KINDS:
        shown_flag = Text(flag, FLAG_STYLES.get(row.flag or "", "bold red"))
    else:  # a conversation with nothing to flag: what the agent is doing, dim
        shown_flag = Text("…" if row.pending else row.status or "", "dim")
    return (
        Text(kind, KIND_STYLES.get(row.kind, AGENT_STYLE if row.kind in AGENT_KINDS else "bold cyan")),
        session, Text(todos), Text(conf), Text(items), Text(str(row.milestones)), Text(packets), Text(last, "dim"),
        shown_flag,
    )


class ReturningDeckScreen(DeckScreen):
    """A deck opened from the overview: Esc on an empty command line goes back to it."""

    BINDINGS = [Binding("escape", "back", "Overview", show=False,
                        tooltip="back to the command line; from an empty one, back to the sessions overview")]

    def action_back(self) -> None:
        line = self.query_one(CommandLine)
        if line.has_focus and not line.value:
            self.dismiss()
        else:
            self.action_focus_command()


class OverviewScreen(Screen[None]):
    DEFAULT_CSS = """
    #overview-title { height: 1; background: $panel; }
    #overview-filter { height: 1; border: none; padding: 0 1; background: $boost; }
    #overview-rows { height: 1fr; }
    #overview-hint { height: 1; padding: 0 1; }
    """

    BINDINGS = [
        Binding("enter", "open", "Open", tooltip="open the highlighted session's deck"),
        Binding("slash", "filter", "Filter", tooltip="filter the rows by name, directory or kind"),
        Binding("a", "toggle_all", "This dir/All", tooltip="this directory's sessions, or every session"),
        Binding("escape,f9", "back", "Back", tooltip="clear the filter; back to the deck this came from"),
    ]

    def __init__(
        self,
        cwd: str | None,
        *,
        clock: Callable[[], int],
        poll: float = 0.5,
        todo_config: TodoConfig | None = None,
        show_all: bool = False,
    ) -> None:
        super().__init__()
        self.cwd = cwd or os.getcwd()
        self.clock = clock
        self.show_all = show_all
        self.rows: list[OverviewRow] = []
        self.filter_text = ""
        self.scope = ""
        self._todo_config = todo_config
        self._overview: Overview | None = None  # lives on the thread
        self._thread = JobThread("overview", poll, self._tick, self._failed)

    def compose(self) -> ComposeResult:
        yield Static("", id="overview-title")
        yield Input(placeholder="/ filters by name, directory or kind", id="overview-filter")
        yield KeyedTable(COLUMNS, "session", id="overview-rows")
        yield Static("", id="overview-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#overview-filter", Input).display = False
        self.query_one("#overview-rows", KeyedTable).focus()
        self._restart()
        self._thread.start()
        self.set_interval(1.0, self.draw)  # "12 s ago" moves on

    def on_unmount(self) -> None:
        self._thread.stop()

    # -- the thread's side --------------------------------------------------------------------------

    def _restart(self) -> None:
        show_all = self.show_all

        def start() -> None:
            self._overview = Overview(None if show_all else self.cwd, todo_config=self._todo_config, budget_s=BUDGET_S)
            self._tick(force=True)

        self._thread.submit(start)

    def _tick(self, force: bool = False) -> None:
        overview = self._overview
        if overview is None:
            return
        tick = overview.refresh()
        if force or tick.changed or tick.removed:
            scope = "every session pideck knows" if self.show_all else self.cwd
            self.post_message(RowsChanged(overview.rows, scope))
        if tick.pending:
            self._thread.submit(self._tick)  # conversations left to read: on at once, not after a poll

    def _failed(self, exc: Exception) -> None:
        self.app.call_from_thread(self.app.notify, f"Sessions overview: {exc}", severity="error", markup=False)

    @property
    def busy(self) -> bool:
        return not self._thread.idle_now

    # -- the UI's side ------------------------------------------------------------------------------

    @on(RowsChanged)
    def on_rows_changed(self, message: RowsChanged) -> None:
        self.rows, self.scope = message.rows, message.scope
        self.draw()

    def shown_rows(self) -> list[OverviewRow]:
        return [r for r in self.rows if not self.filter_text or r.matches(self.filter_text)]

    def draw(self) -> None:
        now = self.clock()
        rows = self.shown_rows()
        table = self.query_one("#overview-rows", KeyedTable)
        table.show([(r.path, (r, ago(r.last_activity_ms, now, short=True), self.show_all)) for r in rows],
                   overview_cells)
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(" pideck ", "bold reverse")
        title.append(" Sessions overview ", "bold")
        title.append_text(one_line(self.scope, "dim"))
        count = f"{len(rows)} of {len(self.rows)}" if self.filter_text else f"{len(self.rows)}"
        title.append(f"  {count} session{'' if len(self.rows) == 1 else 's'}, by last activity", "dim")
        self.query_one("#overview-title", Static).update(title)
        hint = "enter: open · /: filter · a: all directories · flags: poked, waiting, gave up"
        if any(r.kind in AGENT_KINDS for r in self.rows):
            hint += ", ended · agents: working, waiting, ended"
        if not self.rows:
            hint = "No sessions here yet. " + hint
        self.query_one("#overview-hint", Static).update(Text(hint, "dim"))

    def selected(self) -> OverviewRow | None:
        key = self.query_one("#overview-rows", KeyedTable).selected_key()
        return next((r for r in self.rows if r.path == key), None)

    def action_open(self) -> None:
        row = self.selected()
        if row is not None:
            self.open_session(Path(row.path))

    @on(DataTable.RowSelected, "#overview-rows")
    def on_row_selected(self, event: DataTable.RowSelected) -> None:
        self.open_session(Path(str(event.row_key.value)))

    @work(thread=True, exclusive=True, group="open")
    def open_session(self, path: Path) -> None:
        app = self.app
        try:
            opened = app.open_deck(path)  # type: ignore[attr-defined]
        except Exception as exc:
            app.call_from_thread(app.notify, f"Could not open {path}: {exc}", severity="error", markup=False)
            return
        app.call_from_thread(self._push_deck, opened)

    def _push_deck(self, opened: Opened) -> None:
        screen = self.app.make_deck_screen(opened.deck, opened.warnings, ReturningDeckScreen)  # type: ignore[attr-defined]
        self.app.push_screen(screen)

    def action_filter(self) -> None:
        box = self.query_one("#overview-filter", Input)
        box.display = True
        box.focus()

    @on(Input.Changed, "#overview-filter")
    def on_filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value.strip()
        self.draw()

    @on(Input.Submitted, "#overview-filter")
    def on_filter_submitted(self) -> None:
        self.query_one("#overview-rows", KeyedTable).focus()
        self.action_open()

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.rows = []
        self.draw()
        self._restart()

    def action_back(self) -> None:
        box = self.query_one("#overview-filter", Input)
        if box.has_focus or self.filter_text:
            box.value = ""
            box.display = False
            self.filter_text = ""
            self.query_one("#overview-rows", KeyedTable).focus()
            self.draw()
        elif len(self.app.screen_stack) > 1 and self.app.screen_stack[0] is not self:
            self.dismiss()

