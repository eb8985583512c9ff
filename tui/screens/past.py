"""The whole deck as it was at one entry: the live deck's panes over a past ``DeckView``, read-only.

The view was derived on the timeline's thread (``core/views/timetravel.py``); this screen only draws it,
under a banner that says which point it is. There is no command line: the past takes no writes.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from core.views.costs import goal_costs, meter
from core.views.timetravel import AsOf
from core.views.view import DeckView
from tui.screens.packet import PacketScreen
from tui.screens.todos import TodosScreen
from tui.widgets.conversation import ConversationPane
from tui.widgets.header import DeckHeader, HeaderInfo
from tui.widgets.panes import HandoffPane, ProgressPane, StatePane
from tui.widgets.todos import GoalTable, TodoStrip


def banner_text(as_of: AsOf) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(" ◷ ", "bold black on yellow")
    text.append(f" {as_of.banner[:1].upper()}{as_of.banner[1:]}", "bold")
    text.append(" · read-only · esc: timeline · f8: live", "dim")
    text.append(f" · {as_of.entry_id}", "dim")
    return text


class PastScreen(Screen[None]):
    DEFAULT_CSS = """
    #past-banner { height: 1; background: $boost; }
    """

    BINDINGS = [
        Binding("escape", "dismiss", "Timeline", tooltip="back to the timeline"),
        Binding("f8", "live", "Live", tooltip="back to the live deck"),
        Binding("f2", "todos", "Todos", tooltip="the todos overlay as it was"),
    ]

    def __init__(self, view: DeckView, as_of: AsOf) -> None:
        super().__init__()
        self.view = view
        self.as_of = as_of

    def compose(self) -> ComposeResult:
        yield DeckHeader(id="header")
        yield Static(banner_text(self.as_of), id="past-banner")
        with Horizontal(id="panes"):
            yield StatePane(id="state", classes="pane")
            yield ProgressPane(id="progress", classes="pane")
            yield HandoffPane(id="handoff", classes="pane")
            yield ConversationPane(id="conversation", classes="pane")
        yield GoalTable(id="goals")
        yield TodoStrip(id="strip")
        yield Footer()

    def on_mount(self) -> None:
        view = self.view
        self.query_one(DeckHeader).show(HeaderInfo(
            name=view.name, cwd=view.cwd, entries=view.entries, following=False, writable=False,
            warnings=len(view.warnings), past=True, meter=meter(view.usage)))
        self.query_one(StatePane).show(view.state)
        self.query_one(ProgressPane).show(view)
        self.query_one(HandoffPane).show(view.packets)
        self.query_one(TodoStrip).show(view.strip)
        self.query_one(GoalTable).show_goals(view.goals, goal_costs(view.usage, view.todo_state.todos))
        conversation = view.agent is not None  # an agent's conversation: its pane, as the live deck has
        for name in ("state", "progress", "handoff") if conversation else ("conversation",):
            self.query_one(f"#{name}").display = False
        if conversation:
            pane = self.query_one(ConversationPane)
            pane.border_title = "Conversation"
            pane.show(view.agent, view.todo_state, usage=view.usage)
        else:
            self.query_one("#work-items").focus()

    def action_live(self) -> None:
        """Close this screen and the timeline under it."""
        self.dismiss()
        self.app.pop_screen()

    def action_todos(self) -> None:
        self.app.push_screen(TodosScreen(self.view.todo_overlay))

    @on(DataTable.RowSelected, "#packets")
    def on_packet_selected(self, event: DataTable.RowSelected) -> None:
        for packet in self.view.packets:
            if packet["id"] == event.row_key.value:
                self.app.push_screen(PacketScreen(packet))
