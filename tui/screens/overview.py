"""The sessions overview, the inbox: one live row per session and conversation of this directory
(or of every directory), who needs the person first (docs/tui.md#who-needs-you).

The rows and their states are the app's one catalog's (``tui/models/catalog.py``, on its own
thread), which re-reads only the files that changed (a state keeps the time it was entered while it
lasts); the screen only draws what it posts. Enter opens a session's deck on top
of the overview, and Esc there comes back. The agents' conversations are read within a budget per
tick, the most recently changed first: every row is listed at once, and a conversation not read
yet shows ``…`` until the next ticks (which follow at once while any is left) fill it in. A row that
changed since the person last had it on screen is marked ``●`` (``core.views.view.Glances``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from core.catalog import attention as att
from core.catalog import states
from core.catalog.attention import Attention
from core.catalog.rows import OverviewRow
from core.config.places import AGENT_KINDS
from core.views.costs import context_cell, cost_cell, short_count
from core.views.overview_table import HERE, in_state, row_cells
from core.views.view import Glance, Glances
from tui.messages import CatalogChanged
from tui.screens.deck import DeckScreen
from tui.text import clean, one_line
from tui.widgets.command_line import CommandLine
from tui.widgets.header import CONTEXT_STYLES, STATE_STYLES
from tui.widgets.keyed_table import KeyedTable

COLUMNS = [("", "mark"), ("State", "state"), ("In", "in"), ("Kind", "kind"), ("Session", "session"),
           ("Todos", "todos"), ("Conf", "conf"), ("Cost", "cost"), ("Ctx", "ctx"), ("Tokens", "tokens"),
           ("Last message", "message")]
HOST_COLUMNS = [*COLUMNS[:3], ("Host", "host"), *COLUMNS[3:]]
"""The columns once a row is on another machine: which one (``here``: this one, as the CLI's table says)."""
STATE_LABELS = {states.NEEDS_YOU: "needs you", states.OVER_BUDGET: "over budget", states.CONTEXT_FULL: "context full",
                states.OPEN_WORK: "open work", states.WORKING: "working",
                states.WAITING: "waiting", states.ENDED: "ended", states.UNREACHABLE: "unreachable"}
"""The state column's words (the detail line under the table says the state in full)."""
KIND_STYLES = {"pi": "bold magenta", "pideck": "bold cyan"}
AGENT_STYLE = "bold green"
MARK = "●"


@dataclass(frozen=True)
class Shown:
    """What one row is drawn from: the row, its state, how long it has been in it at the moment it
    is drawn, whether its directory is shown, and whether it changed since the person last looked."""

    row: OverviewRow
    attention: Attention | None
    since: str
    with_cwd: bool
    marked: bool
    with_host: bool = False


def overview_cells(shown: Shown) -> tuple[Text, ...]:
    """Cells of one row; the directory follows the name only when rows come from many directories."""
    row, state = shown.row, shown.attention
    kind, name, todos, conf, *_, cwd = row_cells(row, 0)
    session = one_line(name, "bold")
    if shown.with_cwd:
        session.append("  ")
        session.append_text(one_line(cwd, "dim"))
    label = Text("…", "dim") if state is None else Text(STATE_LABELS.get(state.state, state.state),
                                                        STATE_STYLES.get(state.state, ""))
    if row.subagents:  # (a Claude Code conversation whose subagents work on)
        label.append(f" +{row.subagents} sub", "dim")
    host = (one_line(row.host, "bold") if row.host is not None else Text(HERE, "dim"),) if shown.with_host else ()
    return (
        Text(MARK if shown.marked else "", "bold cyan"),
        label,
        Text(shown.since, "dim"),
        *host,
        Text(kind, KIND_STYLES.get(row.kind, AGENT_STYLE if row.kind in AGENT_KINDS else "bold cyan")),
        session, Text(todos), Text(conf), Text(cost_cell(row.cost), "bold"),
        Text(context_cell(row.context_share), context_style(row.context_share)),
        Text("" if row.tokens is None else short_count(row.tokens), "dim"),
        one_line(row.last_message or "", "italic"),
    )


def context_style(share: float | None) -> str:
    """A context nearly full stands out (the header's bar has the same colours)."""
    return "" if share is None else next(style for at, style in CONTEXT_STYLES if share >= at)


SORTS = ("inbox", "cost", "context")
"""What ``s`` cycles the rows' order through: who needs the person first (the catalog's order),
the costliest first, the fullest context first (rows without one last, in the inbox's order)."""


def sorted_rows(rows: list[OverviewRow], by: str) -> list[OverviewRow]:
    if by == "cost":
        return sorted(rows, key=lambda r: -r.cost if r.cost is not None else 1.0)
    if by == "context":
        return sorted(rows, key=lambda r: -r.context_share if r.context_share is not None else 1.0)
    return rows


def glance(row: OverviewRow, state: Attention | None) -> Glance:
    return row.entries, state.state if state is not None else None, row.todos_settled, row.todos_total


class OverviewTable(KeyedTable):
    TEXT_SHARE = 0.3  # (the last message gives way to the session's name, which says which row it is)
    TOP_UNTIL_MOVED = True


class ReturningDeckScreen(DeckScreen):
    """A deck opened from the overview: Esc on an empty command line goes back to it."""

    BINDINGS = [Binding("escape", "back", "Overview", show=False,
                        tooltip="back to the command line; from an empty one, back to the sessions overview")]

    def action_back(self) -> None:
        line = self.query_one(CommandLine)
        if line.has_focus and not line.value:
            self._leave()  # (before the overview resumes: what this deck showed is seen)
            self.dismiss()
        else:
            self.action_focus_command()


class OverviewScreen(Screen[None]):
    DEFAULT_CSS = """
    #overview-title { height: 1; background: $panel; }
    #overview-filter { height: 1; border: none; padding: 0 1; background: $boost; }
    #overview-rows { height: 1fr; }
    #overview-detail { height: 1; padding: 0 1; background: $panel; }
    #overview-hint { height: 1; padding: 0 1; }
    """

    BINDINGS = [
        Binding("enter", "open", "Open", tooltip="open the highlighted session's deck"),
        Binding("slash", "filter", "Filter", tooltip="filter the rows by name, directory, kind or state"),
        Binding("a", "toggle_all", "This dir/All", tooltip="this directory's sessions, or every session"),
        Binding("s", "sort", "Sort", tooltip="order the rows: who needs you first, the costliest, the fullest context"),
        Binding("escape,f9", "back", "Back", tooltip="clear the filter; back to the deck this came from"),
    ]

    def __init__(
        self,
        cwd: str | None,
        *,
        clock: Callable[[], int],
        show_all: bool = False,
        host: str | None = None,
    ) -> None:
        """``host``: only the rows of that ``[[hosts]]`` machine (``pideck --host NAME``)."""
        super().__init__()
        self.cwd = cwd or os.getcwd()
        self.host = host
        self.hosted = False  # the table has the Host column
        self.clock = clock
        self.show_all = show_all
        self.rows: list[OverviewRow] = []
        self.attentions: dict[str, Attention] = {}
        self.marked: set[str] = set()  # rows changed since the person last had them on screen
        self.filter_text = ""
        self.scope = ""
        self.sort = SORTS[0]
        self._own_glances = Glances()  # (an app without one: marks for this screen's life)

    def compose(self) -> ComposeResult:
        yield Static("", id="overview-title")
        yield Input(placeholder="/ filters by name, directory, kind or state", id="overview-filter")
        yield OverviewTable(COLUMNS, "message", id="overview-rows")
        yield Static("", id="overview-detail", markup=False)
        yield Static("", id="overview-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#overview-filter", Input).display = False
        self.query_one("#overview-rows", KeyedTable).focus()
        start = getattr(self.app, "start_catalog", None)
        if start is not None:
            start()  # (the overview is the first screen: the catalog starts with it)
        said = getattr(self.app, "catalog", None)
        if isinstance(said, CatalogChanged):
            self.take_catalog(said)
        self.set_interval(1.0, self.draw)  # "12s" in a state moves on

    def on_screen_resume(self) -> None:
        """Back from a deck: what it showed is seen (its mark goes)."""
        self._mark()
        self.draw()

    @property
    def glances(self) -> Glances:
        glances = getattr(self.app, "glances", None)
        return glances if isinstance(glances, Glances) else self._own_glances

    @property
    def busy(self) -> bool:
        """The app's catalog has a look waiting or running (tests wait for this)."""
        thread = getattr(self.app, "catalog_thread", None)
        return thread is not None and thread.busy

    # -- the UI's side ------------------------------------------------------------------------------

    def take_catalog(self, message: CatalogChanged) -> None:
        """What the app's catalog read (``PideckApp``'s ``CatalogChanged``)."""
        if message.show_all != self.show_all:
            return  # read for the scope the person just left
        self.rows, self.scope, self.attentions = message.rows, message.scope, message.attentions
        self._mark()
        self.draw()

    def _mark(self) -> None:
        self.marked = self.glances.marks(
            (r.path, glance(r, self.attentions.get(r.path))) for r in self.rows if not r.pending)

    @property
    def listed(self) -> list[OverviewRow]:
        """The rows of the screen's scope: every one, or the ``host``'s alone."""
        return self.rows if self.host is None else [r for r in self.rows if r.host == self.host]

    def shown_rows(self) -> list[OverviewRow]:
        if not self.filter_text:
            return sorted_rows(self.listed, self.sort)
        needle = self.filter_text.casefold()
        return sorted_rows([r for r in self.listed if r.matches(self.filter_text)
                            or (r.host is not None and needle in r.host.casefold())
                            or (r.path in self.attentions and needle in self.attentions[r.path].state)], self.sort)

    def draw(self) -> None:
        now = self.clock()
        rows = self.shown_rows()
        table = self.query_one("#overview-rows", KeyedTable)
        hosted = self.host is not None or any(r.host is not None for r in self.rows)
        if hosted != self.hosted:
            self.hosted = hosted
            table.set_columns(HOST_COLUMNS if hosted else COLUMNS)
        table.show([(r.path, Shown(r, state := self.attentions.get(r.path), "…" if state is None else in_state(state, now),
                                   self.show_all, r.path in self.marked, hosted)) for r in rows],
                   overview_cells)
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(" pideck ", "bold reverse")
        title.append(" Who needs you ", "bold")
        if self.host is not None:
            title.append(f"on {self.host} ", "bold")
        title.append_text(one_line(self.scope, "dim"))
        listed = self.listed
        count = f"{len(rows)} of {len(listed)}" if self.filter_text else f"{len(listed)}"
        title.append(f"  {count} session{'' if len(listed) == 1 else 's'}", "dim")
        if self.sort != SORTS[0]:
            title.append(f" · by {self.sort}", "bold")
        summary = att.summary([a for r in listed if (a := self.attentions.get(r.path)) is not None]
                              if self.host is not None else list(self.attentions.values()))
        if summary:
            title.append(f" · {summary}", "dim")
        problem = getattr(self.app, "catalog_problem", None)
        if problem is not None:
            title.append(" ")
            title.append(f" {clean(problem)} ", "bold white on red")
        self.query_one("#overview-title", Static).update(title)
        hint = f"enter: open · /: filter · a: all directories · s: sort · {MARK}: changed since you last looked"
        if not listed:
            hint = "No sessions here yet. " + hint
        self.query_one("#overview-hint", Static).update(Text(hint, "dim"))
        self.show_detail()

    def show_detail(self) -> None:
        """The highlighted row's state in full, since when, and the evidence for it."""
        row = self.selected()
        state = self.attentions.get(row.path) if row is not None else None
        line = Text(no_wrap=True, overflow="ellipsis")
        if row is not None and state is not None:
            line.append(state.state, STATE_STYLES.get(state.state, ""))
            line.append(f" for {in_state(state, self.clock())}: ", "dim")
            line.append_text(one_line(state.evidence))
        elif row is not None:
            line.append("not read yet", "dim")
        self.query_one("#overview-detail", Static).update(line)

    @on(DataTable.RowHighlighted, "#overview-rows")
    def on_row_highlighted(self) -> None:
        self.show_detail()

    def selected(self) -> OverviewRow | None:
        key = self.query_one("#overview-rows", KeyedTable).selected_key()
        return next((r for r in self.rows if r.path == key), None)

    def action_open(self) -> None:
        row = self.selected()
        if row is not None:
            self.open_row(row)

    @on(DataTable.RowSelected, "#overview-rows")
    def on_row_selected(self, event: DataTable.RowSelected) -> None:
        key = str(event.row_key.value)
        row = next((r for r in self.rows if r.path == key), None)
        if row is not None:
            self.open_row(row)
        else:
            self.open_session(Path(key))

    def open_row(self, row: OverviewRow) -> None:
        """A row's deck over this screen; a remote row's is the same screen, on a copy kept current
        from its host (``PideckApp.open_remote``)."""
        if row.host is not None:
            self.app.open_remote(row.host, row.remote_path)  # type: ignore[attr-defined]
        else:
            self.open_session(Path(row.path))

    def open_session(self, path: Path) -> None:
        self.app.open_in_worker(path, on_top=True)  # type: ignore[attr-defined]

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

    def action_sort(self) -> None:
        """The next order of ``SORTS``."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.draw()

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.rows, self.attentions = [], {}
        self.draw()
        set_scope = getattr(self.app, "set_scope", None)
        if set_scope is not None:
            set_scope(self.show_all)  # (the decks' count of who needs you and the notifications follow)

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
