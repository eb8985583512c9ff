"""The deck screen: one session's panes, todo strip and command line, over a Deck it owns.

Data flows one way: the log file -> the Deck (owned by the screen's ``DeckModel`` on its own
thread, ``tui/models/``) -> a ``DeckView`` -> widgets. A typed command goes to the model as a job,
which appends through the Deck and posts the new view; the UI thread never reads the file, never
waits on the log's lock and never touches the Deck, so no keystroke waits either.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.containers import Horizontal
from textual.content import Content
from textual.css.query import NoMatches
from textual.notifications import SeverityLevel
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Input, Static

from core.catalog.opening import SessionDeck
from core.catalog.states import WORKING
from core.config.settings import TodoConfig, TuiConfig
from core.deck.deck import ALL_PARTS, HANDOFF, PERSON, PROGRESS, READ_ONLY_HINT, SERVED_HINT, STATE, TODO, DeckChange, Notice
from core.views.activity import GATE, Event
from core.views.costs import goal_costs, meter
from core.views.items import is_open, open_items, token_text
from core.views.view import DeckView, Glances, Inbox, opening_view
from tui.filtering import Rule, filtered, next_status
from tui.keys import OPTION_DIGITS, key_of, with_key
from tui.messages import CatalogChanged, DeckUpdated, FirstFrame
from tui.models.deck import DeckModel, Job
from tui.models.thread import ModelThread
from tui.screens.base import ModelScreen
from tui.text import clean
from tui.widgets.command_line import CommandLine, FilterBar, FilterRow, InOrderInput
from tui.widgets.conversation import ConversationPane
from tui.widgets.events import ActivityPanel, EventList
from tui.widgets.header import (
    STATE_STYLES,
    DeckHeader,
    HeaderInfo,
    agent_status,
    conversation_badge,
    conversation_detail,
    idle_text,
    inbox_text,
    state_text,
)
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.panes import PANE_TITLES, HandoffPane, ProgressPane, StatePane
from tui.widgets.todos import GoalTable, TodoStrip, gave_up_news, goal_key, more_goals_text

if TYPE_CHECKING:  # (the dialogs' modules are imported when one first opens: not while the app starts)
    from textual.screen import Screen

    from core.catalog.catalog import Record
    from tui.screens.detail import Detail
    from tui.screens.packet_form import PacketParams
    from tui.screens.todos import TodosScreen
    from tui.widgets.message_log import MessageLog

TOAST_LINES = 6
NARROW = 100
"""Below this width the three panes take turns (ctrl+n), so each keeps room for its text."""
PANES = ("state", "progress", "handoff")


def toast_text(message: str) -> str:
    lines = message.splitlines() or [""]
    if len(lines) <= TOAST_LINES:
        return message
    return "\n".join(lines[:TOAST_LINES]) + f"\n… {len(lines) - TOAST_LINES} more lines (ctrl+l: messages)"


class HeldLog:
    """What is said before the message log is mounted (after the screen's first frame), handed to
    the log then."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str, str]] = []  # (level, source, message), as the log's
        self.display = False

    @property
    def count(self) -> int:
        return len(self.messages)

    def add(self, message: str, level: str = "info", source: str = "") -> None:
        self.messages.append((level, source, message))


def reveal(widget: Widget | HeldLog, shown: bool = True) -> None:
    """``widget.display = shown``. Textual (8.2.8) sends a widget shown while its map of the screen
    is out of date neither a Resize nor a Show (Textualize/textual#5024: a widget refreshed while
    hidden leaves the map so), and a RichLog that never had a Resize draws nothing. Reading the
    widget's region first brings the map up to date, while the widget is still hidden."""
    if shown and isinstance(widget, Widget) and not widget.display:
        widget.region  # noqa: B018  (the read is what matters)
    widget.display = shown


def todos_overlay(screen: Screen) -> TodosScreen | None:
    """``screen`` when it is the todos overlay (f2). Until the first overlay opens its module is not
    loaded, and no screen can be one."""
    module = sys.modules.get("tui.screens.todos")
    return screen if module is not None and isinstance(screen, module.TodosScreen) else None


def is_poke(event: Event) -> bool:
    """A follow-up the todo gates sent the agent (not one a person asked for)."""
    return event.source == GATE and (" sent" in event.text or "challenged" in event.text)


@dataclasses.dataclass(frozen=True)
class Newer:
    """A session or conversation that started in the directory the app follows after the one on
    screen (docs/tui.md#following-the-directory): what to call it, and what f6 opens."""

    label: str  # "Claude Code conversation 2aa06482"
    open_path: str


class DeckScreen(ModelScreen):
    BINDINGS = [
        # The keys that open a screen are priority bindings: they act when pressed, not after the keys
        # typed behind them have reached the command line (which applies every key in order).
        Binding("f1", "help", "Help", priority=True,
                tooltip="help: what the scores, icons, markers and badges mean, every key and command"),
        Binding("f2", "todos", "Todos", priority=True,
                tooltip="the todos overlay: the full list, plan, goals with their feedback loops, histories"),
        Binding("f3", "toggle_activity", "Activity",
                tooltip="the activity view: every change by any writer, newest first"),
        Binding("f4", "toggle_follow", "Live", tooltip="follow the log (LIVE) or pause the live tail"),
        Binding("f5", "reload", "Reload", show=False, tooltip="re-read the session from disk"),
        Binding("f6", "open_session", "Open", show=False,
                tooltip="open another session of this directory (the one being written, when the header names one)"),
        Binding("f7", "new_packet", "Packet", priority=True,
                tooltip="create a handoff packet (a validated form)"),
        Binding("ctrl+g", "next_needing", "Next needing you", show=False,
                tooltip="go to the next session or conversation that needs you (the header counts them)"),
        Binding("ctrl+f", "filter", "Filter", priority=True,
                tooltip="filter the panes and the activity by text (also / on a table)"),
        Binding("ctrl+t", "status_filter", "Status", show=False,
                tooltip="status filter of work items and todos: all, open, settled"),
        Binding("ctrl+n", "next_pane", "Next pane", show=False,
                tooltip="next pane (below 100 columns the panes take turns)"),
        Binding("ctrl+o", "zoom", "Zoom", show=False, tooltip="only the current pane, full screen (again: back)"),
        Binding("ctrl+l", "toggle_log", "Messages", show=False,
                tooltip="show or hide the message log (command replies, warnings)"),
        Binding("escape", "focus_command", "Command line", show=False,
                tooltip="back to the command line; leave the zoom; close a dialog"),
        # alt+digit, and what most terminals send for it (``OPTION_DIGITS``; on the command line
        # those are decided in typing order: on an empty line ``alt_digit``, on a line being typed
        # text, a UK £).
        Binding(f"alt+1,{OPTION_DIGITS[0]}", "alt_digit(1)", "Pane 1", show=False, priority=True,
                tooltip="focus the first pane shown (a conversation's own pane, else Agent State); below 100 "
                        "columns it is the one shown. tmux, xterm and the Linux console send alt+digit as ESC "
                        "and the digit, macOS terminals as the Option key's character (¡ ™ £ ¢ ∞ §): each is "
                        "taken while the command line is empty"),
        *(Binding(f"alt+{n},{OPTION_DIGITS[n - 1]}", f"alt_digit({n})", f"Pane {n}", show=False, priority=True,
                  tooltip=f"focus the {word} pane shown")
          for n, word in ((2, "second"), (3, "third"), (4, "fourth"))),
        Binding(f"alt+5,{OPTION_DIGITS[4]}", "alt_digit(5)", "Goals", show=False, priority=True,
                tooltip="focus the goal table"),
        Binding(f"alt+6,{OPTION_DIGITS[5]}", "alt_digit(6)", "Activity list", show=False, priority=True,
                tooltip="focus the activity list (opening the activity view)"),
        # (priority, as the alt+digits: taken as the key arrives, so the keys behind it go where
        # it moved the focus, not through the command line first)
        Binding("shift+tab", "focus_table", "Into the table", show=False, priority=True,
                tooltip="from the command line into the current pane's table; from a table, the next pane's "
                        "(esc: back)"),
    ]
    TABLE_KEYS = {"j": "down", "k": "up", "?": "help"}
    """Keys that act on a focused table or list instead of going to the command line (as in less,
    lazygit and k9s), with ``s`` on the work items (their order); none of them starts a command,
    which begins with "/"."""
    ALLOW_IN_MAXIMIZED_VIEW = "DeckHeader, FilterRow, TodoStrip, CommandLine, Footer"
    FIRST_VIEW_WAIT_S = 0.1
    """How long the screen, about to be shown for the first time, waits for the model's first view
    (started as the widgets were made): usually there in a few milliseconds, it is then in the
    first frame instead of "opening…" (docs/tui.md#the-first-frame)."""

    def __init__(
        self,
        deck: SessionDeck,
        *,
        follow: bool = True,
        poll: float = 0.05,
        clock: Callable[[], int],
        show_clock: bool = False,
        path_label: str | None = None,
        warnings: Iterable[str] = (),
        settings: TuiConfig = TuiConfig(),
        history: list[str] | None = None,
        remember: Callable[[str], None] | None = None,
        flash: float = 1.5,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.flash = flash  # seconds a changed row stays highlighted (0: tests, for stable snapshots)
        self.rule = Rule(max_lines=deck.todo.config.widget_max_lines)
        self.current_pane = "state"
        self.panes: tuple[str, ...] = PANES  # a followed conversation's: its pane first (``lay_out``)
        self._laid_out: tuple[str, ...] | None = None
        self._agent_active = False
        self._history = history if history is not None else []
        self._remember = remember or (lambda line: self._history.append(line))
        # The Deck belongs to the model from here on; the screen keeps what it needs that never
        # changes (where the file is, the todo settings) and draws the views the model posts.
        self.view: DeckView = opening_view(str(deck.log.shown_path), deck.log.shown_path.name)
        self.host = deck.host  # a session on another machine: its name, said in the header
        self.row_path = f"{deck.host}:{deck.remote_path}" if deck.host is not None else None
        """The path the catalog knows a remote session by (``HOST:PATH``), not its local copy's."""
        self.todo_config: TodoConfig = deck.todo.config
        self.opened = False  # the model's first view is drawn
        self.following = follow
        self.clock = clock
        self.show_clock = show_clock
        self.path_label = path_label
        self.problem: str | None = None  # why the file cannot be read now, or None
        self._opening_warnings = list(warnings)
        self._reported: set[str] = set()
        self._idle_ms = self.todo_config.watchdog_idle_ms
        self.inbox: Inbox | None = None  # who needs the person, from the app's catalog (None: not looked yet)
        self.newer: Newer | None = None  # a newer one started in the directory the app follows (the header says so)
        self.record: Record | None = None  # this screen's own record in the app's catalog
        self._real_here: tuple[tuple[str, ...], frozenset[str]] = ((), frozenset())
        self.looked_note = ""  # "5 new since you last looked", until the person presses a key
        self.model = DeckModel(deck)  # (only its methods are handed to the thread)
        self.model_thread = ModelThread(self.model, self.post_message, poll=poll, following=follow, first_paint=True)
        self._started = False
        self._held_log = HeldLog()
        self._log: MessageLog | None = None
        self._later = asyncio.Event()  # the widgets mounted after the first frame are there
        self._mounting = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        if not self._started:  # (the screen waits for its first view as it is mounted: docs/tui.md#the-first-frame)
            self._started = True
            self.model_thread.start()
        yield DeckHeader(id="header")
        with Horizontal(id="panes"):
            yield ConversationPane(id="conversation", classes="pane")
            yield StatePane(id="state", classes="pane -current")
            yield ProgressPane(id="progress", classes="pane")
            yield HandoffPane(id="handoff", classes="pane")
        yield GoalTable(id="goals")
        yield Static("", id="goals-more", markup=False)
        # (here, hidden, after the first frame: the activity view, the message log, the filter's line)
        yield TodoStrip(id="strip")
        yield CommandLine(lambda: self.view, self._history, id="cmd")
        yield Footer(show_command_palette=True)

    def on_mount(self) -> None:
        try:
            self._mounted()
        except NoMatches:  # (the app ended, or another screen replaced this one, as it was mounted)
            return

    def _mounted(self) -> None:
        for warning in self._opening_warnings:
            self.message_log.add(warning, "warning", "open")
        for table in self.query(KeyedTable):
            table.flash_seconds = self.flash
        self.query_one("#goals-more").display = False
        self.lay_out()  # (the panes stay unfilled until the first view: its rows are not news)
        self.update_header()
        self.action_focus_command()
        # The first view, then (on a long session) the todo fold, then the branch's events for the
        # activity view: each is drawn as it comes, so neither of the last two holds the first up.
        # The first view, drawn here, is in the screen's first frame; what follows it waits until
        # that frame is on screen (``first_painted``).
        thread = self.model_thread
        thread.wait_first(self.FIRST_VIEW_WAIT_S)
        held = thread.release()
        while held and isinstance(first := held[0], DeckUpdated):
            held.pop(0)
            self.on_deck_updated(first)
        for message in held:
            self.post_message(message)
        self.take_app_catalog()
        thread.call(self.model.finish_opening)
        thread.call(self.model.start_activity)
        self.set_interval(1.0, self.tick)
        self.call_after_refresh(self.mount_later)

    async def mount_later(self) -> None:
        """The widgets hidden at the start, mounted (their modules imported) after the screen's
        first frame, in their place above the todo strip: the activity view, the message log and
        the filter's line (docs/tui.md#the-first-frame)."""
        if self._mounting or self._later.is_set():
            await self._later.wait()
            return
        self._mounting = True
        from tui.widgets.message_log import MessageLog

        held = self._held_log
        self._log = log = MessageLog(id="log")
        log.messages.extend(held.messages)  # (written once the log knows its width)
        log.display = held.display
        activity, row = ActivityPanel(id="activity"), FilterRow(id="filter-row")
        activity.display = row.display = False
        try:
            await self.mount_all([activity, log, row], before="#strip")
            activity.query_one(EventList).flash_seconds = self.flash
            view = filtered(self.view, self.rule)
            activity.show(view.activity, view.activity_epoch, self.rule.words)
            row.show_rule(self.rule)
        except NoMatches:  # (the app ended meanwhile: the screen's widgets are gone)
            pass
        finally:
            self._later.set()

    async def later_widgets(self) -> None:
        """The widgets mounted after the first frame, there now (a key pressed in its first moments)."""
        if not self._later.is_set():
            await self.mount_later()

    def take_app_catalog(self) -> None:
        """What the app's catalog said last, if it said anything yet."""
        said = getattr(self.app, "catalog", None)
        if isinstance(said, CatalogChanged):
            self.take_catalog(said)

    def take_catalog(self, message: CatalogChanged) -> None:
        """The app's catalog read a change (``PideckApp``): who needs the person (the header's count,
        ctrl+g) and this screen's own state and entry count, as every other view says them."""
        self.inbox = Inbox.of(message.records)
        here = self.real_here()
        self.record = next((r for r in message.records if message.real.get(r.path) in here), None)
        if self.opened:  # (else the first view draws the header)
            try:
                self.update_header()
            except NoMatches:  # (the screen is being taken down)
                pass

    def real_here(self) -> frozenset[str]:
        """``here`` with links resolved, worked out again only when the paths change (a
        conversation's pideck session appears)."""
        here = tuple(self.here())
        if self._real_here[0] != here:
            self._real_here = (here, frozenset(os.path.realpath(p) for p in here))
        return self._real_here[1]

    def first_drawn(self) -> None:
        """The model's first view is on screen: what the person last saw of it can be told."""
        glances = self.glances
        if glances is not None:
            new = glances.new_since(self.shown_path, self.seen_entries())
            self.looked_note = f"{new} new since you last looked" if new else ""
            glances.shown(self.shown_path, self.seen_entries())
            self.update_header()

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < NARROW
        if narrow != self.has_class("narrow"):
            self.set_class(narrow, "narrow")
            self.show_current_pane()

    def on_unmount(self) -> None:  # (``ModelScreen``'s ends the model's thread)
        self._leave()

    def on_screen_resume(self) -> None:
        """A dialog closed: the command line has focus again (Textual would give it back to the
        table the dialog was opened from, and the next keys would drive the table). At once, not
        after the next refresh: a pane key typed right behind the closing key focuses its table,
        and a focus given late would take it back from under the keys that follow."""
        self.take_app_catalog()
        if self.opened and self.glances is not None:
            self.glances.shown(self.shown_path, self.seen_entries())
        self.action_focus_command()

    def on_screen_suspend(self) -> None:
        self._leave()

    @property
    def glances(self) -> Glances | None:
        """The app's memory of what the person last saw (docs/tui.md#since-you-last-looked)."""
        glances = getattr(self.app, "glances", None)
        return glances if isinstance(glances, Glances) else None

    def seen_entries(self) -> int:
        """The entries on screen: the conversation's and its pideck session's."""
        return self.view.entries + (self.view.bound.entries if self.view.bound is not None else 0)

    def _leave(self) -> None:
        glances = self.glances
        if self.opened and glances is not None and self.shown_path in glances.showing:
            glances.hidden(self.shown_path, self.seen_entries())

    @property
    def shown_path(self) -> str:
        """The path every other view (the catalog, the overview's marks) knows this session by."""
        return self.row_path or self.view.path

    async def on_key(self, event: events.Key) -> None:
        """A character typed while a table or pane has focus is not lost: it goes to the end of
        the command line, which takes the focus at once; "/" opens the filter. The keys typed
        behind it were already on their way to the table: they come up here too and go to the
        same line, so every key is applied in the order it was typed (docs/tui.md#keys)."""
        self.seen_changes()
        focused = self.focused
        if isinstance(focused, InOrderInput):
            # Such an input stops every key it has a use for, so one that comes up here was typed
            # before the focus moved to it.
            if await focused.take_key(event):
                event.stop()
            return
        if isinstance(focused, Input) or not event.is_printable or event.character is None:
            return
        event.stop()
        if event.character in self.TABLE_KEYS and isinstance(focused, (DataTable, EventList)):
            self.table_key(self.TABLE_KEYS[event.character])
            return
        if event.character == "s" and focused is not None and focused.id == "work-items":
            self.order_work_items()
            return
        if event.character in "123456" and isinstance(focused, (DataTable, EventList)):
            # (as alt+1 … alt+6: most terminals send alt+digit as a character Textual reads as
            # another key, so on a table the digit alone does it, as in lazygit)
            await self.action_alt_digit(int(event.character))
            return
        if event.character == "/":  # on a table, as in less and htop: find
            await self.action_filter()
            self.set_focus(self.query_one(FilterBar))  # now, not after the keys queued behind "/"
            return
        command_line = self.query_one(CommandLine)
        self.set_focus(command_line)  # now (``focus()`` waits its turn behind the queued keys)
        command_line.cursor_position = len(command_line.value)
        await command_line.take_key(event)

    def table_key(self, what: str) -> None:
        """j and k move the focused table's or list's cursor; ? opens the help."""
        focused = self.focused
        if what == "help":
            self.action_help()
        elif isinstance(focused, EventList):
            focused.action_move(1 if what == "down" else -1)
        elif isinstance(focused, DataTable):
            (focused.action_cursor_down if what == "down" else focused.action_cursor_up)()

    def order_work_items(self) -> None:
        """``s`` on the work items: as written, by status (blocked first), newest change first."""
        pane = self.query_one(StatePane)
        pane.next_order()
        self.draw(self.view, {STATE})
        self.message_log.add(f"Work items {pane.order}.", "info", "s")

    def work_item_recency(self, view: DeckView) -> dict[str, int]:
        """Each work item's last change on the branch (its position), for "newest change first"."""
        if self.query_one(StatePane).order != "newest change first":
            return {}
        return {c.key: e.position for e in view.activity for c in e.changes if c.subject == "work item"}

    def action_focus_pane(self, number: int) -> None:
        """The pane shown ``number``th from the left becomes current (below 100 columns: shown) and
        its first table takes the focus; a pane without one (Agent Progress) is made current."""
        if number > len(self.panes):
            return
        self.current_pane = self.panes[number - 1]
        self.show_current_pane()
        pane = self.query_one(f"#{self.current_pane}")
        target = next((w for w in pane.query("*") if w.focusable and w.display), None)
        if target is not None:
            self.set_focus(target)  # (now: the keys typed behind are the table's)

    async def action_alt_digit(self, number: int) -> None:
        """What alt+``number`` does: panes 1 to 4, the goal table, the activity list; the one place
        that says so, for the alt+digit bindings, the command line (the characters most terminals
        send for alt+digit, tui/keys.py) and a digit on a table."""
        if number <= 4:
            self.action_focus_pane(number)
        elif number == 5:
            self.action_focus_goals()
        else:
            await self.action_focus_activity()

    def action_focus_goals(self) -> None:
        goals = self.query_one(GoalTable)
        if goals.display:
            self.set_focus(goals)

    async def action_focus_activity(self) -> None:
        await self.later_widgets()
        reveal(self.query_one(ActivityPanel))
        self.set_focus(self.query_one(EventList))

    @on(Input.Changed, "#cmd")
    def seen_changes(self) -> None:
        """The person is at the keys: the header's "5 new since you last looked" has done its job."""
        if self.looked_note:
            self.looked_note = ""
            self.update_header()

    # ------------------------------------------------------------------ the model

    @property
    def busy(self) -> bool:
        """The first view is not drawn yet, the widgets that follow the first frame are not there
        yet, or jobs handed to the model have not been answered."""
        return not self.opened or not self._later.is_set() or self.model_thread.busy

    def run_on_deck(self, job: Job, then: Callable[[Any], None] | None = None) -> None:
        """Hand ``job(deck)`` to the model; ``then(outcome)`` runs here once its view is drawn (an
        error is reported instead)."""
        self.model_thread.call(self.model.run, job, then=then, answer=True)

    def say_error(self, text: str) -> None:
        """A job's error or an unexpected one (docs/tui.md#one-thread-per-screen): where the
        person looks; the screen and its thread go on."""
        if not self.opened:
            self.call_after_refresh(self.first_painted)
        self.report(text, "error", "deck")

    @on(DeckUpdated)
    def on_deck_updated(self, message: DeckUpdated) -> None:
        if not self.app.is_running:  # the app is ending: its widgets are going, the activity's list
            return                   # first, or were being mounted and never will be
        first, self.opened = not self.opened, True
        if first:
            self._laid_out = None  # (the first view's panes, its own pane first, as if never laid out)
        self.take(message.view, message.change)
        if first:
            self.first_drawn()
            self.call_after_refresh(self.first_painted)

    def first_painted(self) -> None:
        """The first view is on screen (or why there is none yet): the model goes on (the rest of
        the opening, the looks), and so does the app (docs/tui.md#the-first-frame)."""
        self.model_thread.resume()
        self.app.post_message(FirstFrame())

    def problem_changed(self) -> None:
        if not self.opened:  # (the first read failed: what waits for the first view goes on, once this is shown)
            self.call_after_refresh(self.first_painted)
        if self.problem is not None:
            self.report(f"{clean(self.view.name)}: {self.problem}. pideck keeps showing what it read.",
                        "error", "tail")
        else:
            self.message_log.add("The session file is readable again.", "info", "tail")
        self.update_header()

    def take(self, view: DeckView, change: DeckChange) -> None:
        """Show a new view and say what kind of change brought it."""
        if change.reset:
            self._reported.clear()
            self.report("The session file was truncated or replaced: reloaded from disk.", "warning", "tail")
        elif change.branch_switched:
            self.message_log.add("A new leaf on another branch: every pane redrawn.", "info", "tail")
        for text in change.followups:
            self.report(text, "info", "idle nudge sent")
        self.draw(view, change.parts)

    # ------------------------------------------------------------------ drawing

    def draw(self, view: DeckView, parts: Iterable[str]) -> None:
        """Show ``view`` (filtered by the current rule): only the widgets of ``parts`` are drawn
        again; the activity follows whenever the view's events grew."""
        parts = set(parts)
        before, self.view = self.view, view
        if (before.agent is None, before.writable) != (view.agent is None, view.writable):
            self.refresh_bindings()  # (F7 comes and goes with them: ``check_action``)
        self.lay_out()
        self.placeholder()
        self.ring_for_pokes(before, view)
        if (news := gave_up_news(before, view)) is not None:
            self.report(news, "warning", "todo gates")
        view = filtered(view, self.rule)
        for panel in self.query(ActivityPanel):  # (once it is mounted, after the first frame)
            panel.show(view.activity, view.activity_epoch, self.rule.words)
        with self.app.batch_update():
            if STATE in parts:
                self.query_one(StatePane).show(view.state, self.work_item_recency(view))
            if PROGRESS in parts:
                self.query_one(ProgressPane).show(view)
            if HANDOFF in parts:
                self.query_one(HandoffPane).show(view.packets)
            if view.agent is not None:
                self.query_one(ConversationPane).show(view.agent, view.agent_todos or view.todo_state, view.bound,
                                                      view.usage)
            if TODO in parts:
                self.query_one(TodoStrip).show(view.strip)
            if TODO in parts or view.usage is not before.usage:  # (the goal table and the overlay say what todos cost)
                self.query_one(GoalTable).show_goals(view.goals, goal_costs(view.usage, view.todo_state.todos))
                if (overlay := todos_overlay(self.app.screen)) is not None:
                    overlay.show(view.todo_overlay)
            self.report_warnings()
            self.update_header()

    def lay_out(self) -> None:
        """The panes of this view: the three primitives'; a followed conversation's own pane, and
        the three beside it once its pideck session exists (docs/tui.md#one-screen-per-conversation)."""
        view = self.view
        panes = PANES if view.agent is None else ("conversation", *(PANES if view.bound is not None else ()))
        if panes == self._laid_out:
            return
        if self._laid_out is None or self.current_pane not in panes:
            self.current_pane = panes[0]  # (a conversation's own pane first)
        self.panes = self._laid_out = panes
        for name in ("conversation", *PANES):  # (never shown inline: narrow screens show panes by class)
            if name in panes:
                self.query_one(f"#{name}").styles.clear_rule("display")
            else:
                self.query_one(f"#{name}").display = False
        self.set_class(len(panes) > len(PANES), "-four")
        self.show_current_pane()

    def tick(self) -> None:
        """Every second: the header's clock and agent status; a bell when the agent went quiet
        (on a session where the app shows the idle state: when it sits idle with open todos)."""
        self.update_header()
        todos = self.view.todo_state.todos
        if self.record is not None:  # the catalog's word, the one the header and every other view say
            active = self.record.attention.state == WORKING
            settled, total = self.record.todos
            who = "The agent" if self.view.agent is None else str(self.view.agent.get("name"))
            open_todos = total - settled
        elif self.view.agent is not None and self.view.bound is None:  # the agent's own word on its turn,
            _, active = conversation_badge(self.view.agent, self.clock())  # its plan's items open as the
            who = str(self.view.agent.get("name"))                          # goal row and the overview count them
            open_todos = sum(1 for t in todos if is_open(t))
        elif self.idle_shown:
            active = not self.idle_state()
            who = "The agent" if self.view.agent is None else str(self.view.agent.get("name"))
            open_todos = len(open_items(todos))
        else:
            _, active = agent_status(self.view.agent_at, self.clock(), self._idle_ms)
            who = "The agent"
            open_todos = sum(1 for t in todos if t.status in ("pending", "in_progress"))
        noun = str((self.view.todo_state.agent_plan or {}).get("noun") or "todo")
        if self._agent_active and not active and open_todos:
            self.alert(f"{who} went quiet with {open_todos} open {noun}{'' if open_todos == 1 else 's'}.")
        self._agent_active = active

    def ring_for_pokes(self, before: DeckView, after: DeckView) -> None:
        """A gate poked the agent since the last view (not on the first walk of the events)."""
        if after.activity_epoch != before.activity_epoch or not before.activity:
            return
        for event in after.activity[len(before.activity):]:
            if is_poke(event):
                self.alert(f"The todo gates poked the agent: {event.text}.")

    def alert(self, message: str) -> None:
        if self.settings.bell:
            self.app.bell()
        self.report(message, "info", "agent")

    def update_header(self) -> None:
        view = self.view
        clock = ""
        if self.show_clock:
            clock = datetime.fromtimestamp(self.clock() / 1000, timezone.utc).strftime("%H:%M")
        if view.agent is not None:
            agent, active = conversation_badge(view.agent, self.clock())
            detail = conversation_detail(view.agent)
        else:
            agent, active = agent_status(view.agent_at, self.clock(), self._idle_ms)
            detail = token_text(view.tokens) if view.tokens else ""  # (pi's assistant usage)
        record = self.record
        state = state_text(record.attention.state, record.attention.since_ms, self.clock()) if record is not None else ""
        self.query_one(DeckHeader).show(HeaderInfo(
            opening=not self.opened,
            name=f"{self.host}: {self.path_label or view.name}" if self.host is not None else self.path_label or view.name,
            cwd=view.cwd,
            entries=record.entries if record is not None else view.entries,
            following=self.following and self.problem is None,
            writable=view.writable,
            warnings=len(view.warnings),
            clock=clock,
            problem=self.problem,
            idle="" if state else self.idle_state(),
            state=state,
            state_style=STATE_STYLES.get(record.attention.state, "") if record is not None else "",
            elsewhere=view.elsewhere.label if view.elsewhere is not None else "",
            newer=self.newer.label if self.newer is not None else "",
            agent="" if state else agent,
            agent_active=active,
            filter=self.rule.describe(),
            detail=detail,
            inbox=inbox_text(*self.inbox.others(self.here())) if self.inbox is not None else "",
            looked=self.looked_note,
            meter=meter(view.usage),
        ))

    def show_newer(self, newer: Newer | None) -> None:
        """Say in the header that a newer session or conversation started (None: no longer)."""
        if newer != self.newer:
            self.newer = newer
            if newer is not None:
                self.message_log.add(f"{newer.label} started here: f6 opens it", "info", "follow")
            if self.opened:
                self.update_header()

    @property
    def typing(self) -> bool:
        """The person has a line on the command line (the app does not switch screens under it)."""
        try:
            return bool(self.query_one(CommandLine).value)
        except NoMatches:
            return False

    def here(self) -> list[str]:
        """The paths this screen shows: the session or conversation, and its pideck session."""
        return [self.shown_path, *([self.view.bound.path] if self.view.bound is not None else [])]

    def action_next_needing(self) -> None:
        """Open the next session or conversation that needs the person (the header's count): in
        the inbox's order, after this one, so the key visits each in turn
        (docs/tui.md#who-needs-you)."""
        inbox = self.inbox
        target = inbox.next_after(self.here()) if inbox is not None else None
        if target is None:
            said = ("Nothing else needs you here." if inbox is not None
                    else "Paused (f4): pideck looks at who needs you while it follows." if not self.following
                    else "Still looking at who needs you.")
            self.app.notify(said, markup=False)
            return
        from core.catalog.rows import host_of

        host, there = host_of(target)
        if host is not None:  # (a row of another machine: its deck over a copy, as Enter opens it)
            self.app.open_remote(host, there)  # type: ignore[attr-defined]
        else:
            self.app.open_in_worker(Path(target))  # type: ignore[attr-defined]

    def report_warnings(self) -> None:
        """Restore warnings and skipped lines go to the message log once each (the badge counts them)."""
        for source, warnings in (("restore", self.view.restore_warnings), ("session file", self.view.skipped)):
            for warning in warnings:
                if warning not in self._reported:
                    self._reported.add(warning)
                    self.message_log.add(warning, "warning", source)

    @property
    def message_log(self) -> MessageLog | HeldLog:
        """The message log; before it is mounted (after the first frame), what it will be handed."""
        return self._log if self._log is not None else self._held_log

    def report(self, message: str, level: str = "info", source: str = "") -> None:
        self.message_log.add(message, level, source)
        severity: SeverityLevel = "error" if level in ("error", "refused") else "warning" if level == "warning" else "information"
        self.app.notify(toast_text(clean(message, multiline=True)), severity=severity, markup=False)

    @property
    def idle_shown(self) -> bool:
        """The header shows the idle state on this session: the ``[tui] watchdog`` setting allows
        it (``own``: not on one pi writes, whose pi-jtodo pokes the agent itself), and the app
        follows a readable file (docs/tui.md#the-idle-state)."""
        mode = self.settings.watchdog
        allowed = mode == "all" or (mode == "own" and not self.view.pi_session)
        return allowed and self.following and self.problem is None

    def idle_state(self) -> str:
        """``idle 3 min · 3 open todos`` while the watchdog's condition holds, else ``""``. It is a
        state for the person only: nothing is ever appended for it (docs/todo-gates.md#the-watchdog)."""
        if not self.idle_shown:
            return ""
        return idle_text(self.view.idle_at, self.clock(), len(open_items(self.view.todo_state.todos)), self._idle_ms)

    def _report_notices(self, source: str) -> Callable[[list[Notice]], None]:
        def report(notices: list[Notice]) -> None:
            for notice in notices:
                self.report(notice.message, notice.level, source)
        return report

    # ------------------------------------------------------------------ the command line

    @on(Input.Submitted, "#cmd")
    def on_command_submitted(self, event: Input.Submitted) -> None:
        line = event.value  # (the command line emptied itself on Enter: what is on it now was typed after)
        self._remember(line)
        self.query_one(CommandLine).rewind()
        self.run_line(line)

    def run_line(self, line: str) -> None:
        stripped = line.strip()
        if not stripped:
            return
        if stripped == "/todos":
            self.action_todos()
            return
        if stripped in ("/help", "/?"):
            self.action_help()
            return
        report = self._report_notices(stripped.split(" ")[0])

        def done(notices: list[Notice]) -> None:
            report(notices)
            command_line = self.query_one(CommandLine)
            if any(n.level == "refused" for n in notices) and not command_line.value:
                self.fill_command(line)  # the log refused it (read-only, disk full, ...): kept for editing

        self.run_on_deck(lambda deck: deck.apply(line), done)

    def placeholder(self) -> None:
        """The command line says a session is read-only before anything is typed."""
        command_line = self.query_one(CommandLine)
        if self.opened and self.view.read_only_reason == SERVED_HINT:
            command_line.placeholder = CommandLine.SERVED
        else:
            command_line.placeholder = (CommandLine.READ_ONLY if self.opened and not self.view.writable
                                        else CommandLine.PLACEHOLDER)

    def fill_command(self, text: str) -> None:
        command_line = self.query_one(CommandLine)
        command_line.value = text
        command_line.cursor_position = len(text)
        command_line.focus()

    # ------------------------------------------------------------------ actions

    def action_focus_command(self) -> None:
        if self.maximized is not None:
            self.minimize()
        self.set_focus(self.query_one(CommandLine))

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.BINDINGS, self.app.BINDINGS, self.help_status()))

    def help_status(self) -> str:
        """What the help says about this session: the idle state and where its setting comes from."""
        mode = self.settings.watchdog
        where = {"own": "pideck's own sessions", "all": "pi's sessions too", "off": "no session"}[mode]
        state = ("shown here" if self.idle_shown else "paused (f4)" if not self.following
                 else "not shown on this session")
        return (f"Idle state: {state}. The header says \"⏸ idle 3 min · 3 open todos\" when the agent has sat "
                f"idle with open todos past the watchdog's idle time; pideck sends the agent nothing. [tui] "
                f"watchdog is \"{mode}\" ({where}): pideck config set tui.watchdog own|all|off.")

    async def action_toggle_activity(self) -> None:
        await self.later_widgets()
        panel = self.query_one(ActivityPanel)
        reveal(panel, not panel.display)

    async def action_filter(self) -> None:
        await self.later_widgets()
        reveal(self.query_one(FilterRow))
        self.set_focus(self.query_one(FilterBar))

    async def action_status_filter(self) -> None:
        await self.later_widgets()
        self.set_rule(dataclasses.replace(self.rule, status=next_status(self.rule.status)))
        reveal(self.query_one(FilterRow), self.rule.active or self.focused is self.query_one(FilterBar))

    def set_rule(self, rule: Rule) -> None:
        if rule != self.rule:
            self.rule = rule
            self.draw(self.view, ALL_PARTS)
            for row in self.query(FilterRow):  # (once it is mounted, after the first frame)
                row.show_rule(rule)

    @on(Input.Changed, "#filter")
    def on_filter_changed(self, event: Input.Changed) -> None:
        self.set_rule(dataclasses.replace(self.rule, text=event.value))

    @on(Input.Submitted, "#filter")
    def on_filter_submitted(self) -> None:
        reveal(self.query_one(FilterRow), self.rule.active)
        self.action_focus_command()

    @on(FilterBar.Cleared)
    def on_filter_cleared(self) -> None:
        self.set_rule(Rule(max_lines=self.rule.max_lines))
        self.query_one(FilterRow).display = False
        self.action_focus_command()

    def action_next_pane(self) -> None:
        self.current_pane = self.panes[(self.panes.index(self.current_pane) + 1) % len(self.panes)]
        self.show_current_pane()

    def show_current_pane(self) -> None:
        """Mark the current pane; below ``NARROW`` columns it is the one shown, and every pane's
        title names all three with the current one lit (tabs that cost no line)."""
        narrow = self.has_class("narrow")
        for name in self.panes:
            pane = self.query_one(f"#{name}")
            pane.set_class(name == self.current_pane, "-current")
            if narrow and len(self.panes) > 1:
                tabs = Content("  ").join(Content.styled(f" {PANE_TITLES[n]} ", "reverse bold" if n == name else "dim")
                                          for n in self.panes)
                pane.border_title = tabs + Content.styled("  ctrl+n", "dim")
            else:
                pane.border_title = PANE_TITLES[name]
        if self.maximized is not None and self.maximized.id in self.panes:
            self.maximized = self.query_one(f"#{self.current_pane}")

    def zoom_target(self) -> Widget:
        """The pane that holds focus, else the current pane."""
        focused = self.focused
        for candidate in (*(self.query_one(f"#{n}") for n in self.panes), *self.query(ActivityPanel),
                          self.query_one(GoalTable)):
            if focused is not None and (focused is candidate or candidate in focused.ancestors):
                return candidate
        return self.query_one(f"#{self.current_pane}")

    def action_zoom(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            self.maximized = self.zoom_target()

    def action_todos(self) -> None:
        from tui.screens.todos import TodosScreen

        self.app.push_screen(TodosScreen(self.view.todo_overlay))

    def action_toggle_log(self) -> None:
        log = self.message_log
        reveal(log, not log.display)

    def action_toggle_follow(self) -> None:
        self.following = not self.following
        self.model_thread.follow(self.following)
        self.update_header()
        state = "Following the session file." if self.following else "Paused: appends show again after f4."
        self.message_log.add(state)

    def action_reload(self) -> None:
        self.model_thread.call(self.model.reload, then=lambda _: self.report("Reloaded the session from disk.", "info",
                                                                             "reload"))

    def action_export_todos(self) -> None:
        self.run_line("/todos export")

    def action_open_session(self) -> None:
        """Another session of this directory: the one being written, when the header names one
        (docs/tui.md#writes-that-go-elsewhere), else the one picked from the list; before both,
        a newer one that started in the directory (docs/tui.md#following-the-directory)."""
        if self.newer is not None:
            self.app.open_in_worker(Path(self.newer.open_path), why=f"it started after the one you had: {self.newer.label}")  # type: ignore[attr-defined]
        elif self.view.elsewhere is not None:
            self.app.open_in_worker(Path(self.view.elsewhere.open_path))  # type: ignore[attr-defined]
        else:
            self.app.action_open_session()  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """F7 is not offered on an agent's conversation that no pideck session is bound to: there
        is nothing there a packet could be written to (a typed write says why)."""
        if action == "new_packet" and self.view.agent is not None and not self.view.writable:
            return False
        return True

    def action_focus_table(self) -> None:
        """shift+tab: from the command line (or anything but a pane's table) into the current pane's
        table (or the next one that has a table); from a pane's table into the next pane's. Esc goes
        back to the command line."""
        focused = self.focused
        here = next((n for n in self.panes if focused is not None and self.query_one(f"#{n}") in focused.ancestors),
                    None)
        start = self.panes.index(here) + 1 if here is not None else self.panes.index(self.current_pane)
        for step in range(len(self.panes)):  # (a pane with no table, Agent Progress, is passed over)
            name = self.panes[(start + step) % len(self.panes)]
            if any(w.focusable and w.display for w in self.query_one(f"#{name}").query("*")):
                self.action_focus_pane(self.panes.index(name) + 1)
                return

    def action_new_packet(self) -> None:
        if not self.opened:
            self.app.notify("Still opening the session: f7 in a moment.", markup=False)
            return
        if not self.view.writable:  # said before the person fills a form that would be refused
            self.report(self.view.read_only_reason or READ_ONLY_HINT, "refused", "f7")
            return
        from tui.screens.packet_form import PacketForm

        self.app.push_screen(PacketForm(self.create_packet, [p["id"] for p in self.view.packets]), self._packet_created)

    def create_packet(self, params: PacketParams, done: Callable[[bool, str], None]) -> None:
        """The form's submit: the tool's own validation, on the worker; ``done(created, text)``."""
        self.run_on_deck(lambda deck: deck.call_tool("agent_handoff_create", params, by=PERSON),
                         lambda result: done(not result.rejected, result.text))

    def _packet_created(self, message: str | None) -> None:
        if message:
            self.report(message, "info", "agent_handoff_create")

    def show_packet(self, packet_id: str) -> None:
        from tui.screens.detail import history
        from tui.screens.packet import PacketScreen

        for packet in self.view.packets:
            if packet["id"] == packet_id:
                events = history(self.view, frozenset({("packet", packet_id)}))
                self.app.push_screen(PacketScreen(packet, events), self._detail_closed)
                return

    def show_detail(self, detail: Detail | None) -> None:
        if detail is not None:
            from tui.screens.detail import DetailScreen

            self.app.push_screen(DetailScreen(detail), self._detail_closed)

    def show_row(self, kind: str, key: str) -> None:
        """The detail of one row of the current view (the palette's "Show …", Enter on a row)."""
        from tui.screens.detail import decision_detail, goal_detail, milestone_detail, todo_detail, work_item_detail

        view = self.view
        if kind == "packet":
            self.show_packet(key)
            return
        builders = {"work item": work_item_detail, "decision": decision_detail, "milestone": milestone_detail,
                    "todo": todo_detail}
        if kind == "goal":
            group = next((g.group for g in view.goals if goal_key(g) == key), None)
            self.show_detail(goal_detail(view, group))
        elif kind in builders:
            self.show_detail(builders[kind](view, key))

    def _detail_closed(self, fill: str | None) -> None:
        if fill:
            self.fill_command(fill)

    def action_pick_packet(self) -> None:
        if not self.view.packets:
            self.app.notify("No handoff packets yet.", markup=False)
            return
        from tui.commands import PacketProvider

        self.app.push_screen(CommandPalette(providers=[PacketProvider], placeholder="Show packet…"))

    def action_pick_row(self) -> None:
        from tui.commands import ShowProvider

        self.app.push_screen(CommandPalette(providers=[ShowProvider], placeholder="Show…"))

    @on(GoalTable.Hidden)
    def on_goals_hidden(self, message: GoalTable.Hidden) -> None:
        more = self.query_one("#goals-more", Static)
        more.display = message.count > 0
        more.update(more_goals_text(message.count, key_of(DeckScreen.BINDINGS, "alt_digit(5)")))

    @on(DataTable.RowSelected)
    def on_row_selected(self, event: DataTable.RowSelected) -> None:
        kinds = {"packets": "packet", "work-items": "work item", "decisions": "decision", "goals": "goal"}
        kind = kinds.get(event.data_table.id or "")
        if kind is not None:
            self.show_row(kind, str(event.row_key.value))

    @on(EventList.Chosen)
    def on_event_chosen(self, message: EventList.Chosen) -> None:
        from tui.screens.detail import event_detail

        self.show_detail(event_detail(message.event))

    def hint(self, text: str, action: str) -> str:
        """A palette text with the key of ``action`` from the bindings (never typed twice)."""
        return with_key(text, DeckScreen.BINDINGS, action)  # (a subclass's BINDINGS add to these)

    def system_commands(self) -> Iterable[SystemCommand]:
        hint = self.hint
        yield SystemCommand("Next needing you", hint("Go to the next session or conversation that needs you",
                                                     "next_needing"), self.action_next_needing)
        yield SystemCommand("Open session", hint("Pick one of pideck's or pi's sessions for this directory",
                                                 "open_session"), self.action_open_session)
        yield SystemCommand("Follow / pause", hint("Follow appends to the session file, or pause", "toggle_follow"),
                            self.action_toggle_follow)
        yield SystemCommand("Todos overlay", hint("The full todo list, plan, goals and histories", "todos"),
                            self.action_todos)
        yield SystemCommand("Export todos", "Write the todos overlay to todos.md", self.action_export_todos)
        yield SystemCommand("Show detail", "A work item, decision, milestone, packet, todo or goal: its full "
                            "text and history", self.action_pick_row)
        yield SystemCommand("Show packet", "One handoff packet: every field and its history", self.action_pick_packet)
        yield SystemCommand("Activity", hint("Every change by any writer, newest first", "toggle_activity"),
                            self.action_toggle_activity)
        yield SystemCommand("Filter", hint("Filter the panes and the activity by text", "filter"), self.action_filter)
        yield SystemCommand("Status filter", hint("Work items and todos: all, open, settled", "status_filter"),
                            self.action_status_filter)
        yield SystemCommand("Next pane", hint("The next pane; below 100 columns the panes take turns", "next_pane"),
                            self.action_next_pane)
        yield SystemCommand("Zoom", hint("Only the current pane, full screen", "zoom"), self.action_zoom)
        if self.check_action("new_packet", ()):
            yield SystemCommand("Create handoff packet",
                                hint("Read-only session: creating a packet is refused here" if not self.view.writable
                                     else "A form validated by the agent_handoff_create tool", "new_packet"),
                                self.action_new_packet)
        yield SystemCommand("Message log", hint("Show or hide the message log", "toggle_log"), self.action_toggle_log)
        yield SystemCommand("Reload", hint("Re-read the session from disk", "reload"), self.action_reload)
        yield SystemCommand("Help", hint("All commands and keys", "help"), self.action_help)
