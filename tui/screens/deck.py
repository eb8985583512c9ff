"""The deck screen: one session's panes, todo strip and command line, over a Deck it owns.

Data flows one way: the log file -> the Deck (on the screen's worker thread) -> a ``DeckView`` ->
widgets. A typed command goes to the worker as a job, which appends through the Deck and posts the
new view; the UI thread never waits on the disk or the log's lock, so no keystroke waits either.
"""

from __future__ import annotations

import itertools
import threading
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.containers import Horizontal
from textual.screen import Screen
from textual.notifications import SeverityLevel
from textual.widgets import DataTable, Footer, Input

from core.adapters.host import Notice
from core.deck import ALL_PARTS, HANDOFF, PROGRESS, STATE, TODO, Deck, DeckChange
from core.session.log import SessionLog
from core.view import DeckView, build_view
from tui.commands import PacketProvider
from tui.live import DeckWorker, Job
from tui.messages import DeckUpdated, FileTrouble, JobDone, WorkerFailed
from tui.screens.help import HelpScreen
from tui.screens.packet import PacketScreen
from tui.screens.packet_form import PacketForm
from tui.screens.todos import TodosScreen
from tui.text import clean
from tui.widgets.command_line import CommandLine
from tui.widgets.header import DeckHeader, HeaderInfo
from tui.widgets.message_log import MessageLog
from tui.widgets.panes import HandoffPane, ProgressPane, StatePane
from tui.widgets.todos import GoalTable, TodoStrip

TOAST_LINES = 6
FOLD_IN_WORKER = 10_000
"""From this many entries on, the first view is drawn without the todo fold, which the worker
adds right after: on a long session the fold costs more than the rest of the first view."""


def toast_text(message: str) -> str:
    lines = message.splitlines() or [""]
    if len(lines) <= TOAST_LINES:
        return message
    return "\n".join(lines[:TOAST_LINES]) + f"\n… {len(lines) - TOAST_LINES} more lines (f3: message log)"


class DeckScreen(Screen[None]):
    BINDINGS = [
        Binding("f1", "help", "Help", tooltip="all commands and keys (this help)"),
        Binding("f2", "todos", "Todos", tooltip="the todos overlay: full list, plan, goals, histories"),
        Binding("f3", "toggle_log", "Log", tooltip="show or hide the message log"),
        Binding("f4", "toggle_follow", "Follow/Pause", tooltip="follow the log (LIVE) or pause"),
        Binding("f5", "reload", "Reload", show=False, tooltip="re-read the session from disk"),
        Binding("f6", "open_session", "Open", tooltip="open another session of this directory"),
        Binding("f7", "new_packet", "New packet", tooltip="create a handoff packet (a validated form)"),
        Binding("escape", "focus_command", "Command line", show=False,
                tooltip="back to the command line / close a dialog"),
    ]

    def __init__(
        self,
        deck: Deck[SessionLog],
        *,
        follow: bool = True,
        poll: float = 0.05,
        clock: Callable[[], int],
        show_clock: bool = False,
        path_label: str | None = None,
        warnings: Iterable[str] = (),
    ) -> None:
        super().__init__()
        self.deck = deck  # owned by the worker thread once it runs; the UI reads self.view
        self._todo_later = len(deck.log.records) >= FOLD_IN_WORKER
        self.view: DeckView = build_view(deck, todo=not self._todo_later)
        self.following = follow
        self.clock = clock
        self.show_clock = show_clock
        self.path_label = path_label
        self.problem: str | None = None  # why the file cannot be read now, or None
        self._opening_warnings = list(warnings)
        self._tickets = itertools.count(1)
        self._waiting: dict[int, Callable[[Any], None] | None] = {}
        self._reported: set[str] = set()
        self._cancel = threading.Event()
        self._worker = DeckWorker(deck, self.view, self.post_message, poll=poll, following=lambda: self.following)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield DeckHeader(id="header")
        with Horizontal(id="panes"):
            yield StatePane(id="state", classes="pane")
            yield ProgressPane(id="progress", classes="pane")
            yield HandoffPane(id="handoff", classes="pane")
        yield GoalTable(id="goals")
        yield MessageLog(id="log")
        yield TodoStrip(id="strip")
        yield CommandLine(lambda: self.view, id="cmd")
        yield Footer(show_command_palette=True)

    def on_mount(self) -> None:
        for warning in self._opening_warnings:
            self.message_log.add(warning, "warning", "open")
        self.draw(self.view, ALL_PARTS)
        self.query_one(MessageLog).display = False
        self.action_focus_command()
        self.run_deck_worker()
        if self._todo_later:  # once the first view is on screen (the fold would hold the paint up)
            self.call_after_refresh(self._finish_opening)
        if self.show_clock:
            self.set_interval(1.0, self.update_header)
        self.set_interval(self.deck.todo.config.watchdog_tick_ms / 1000, self.watchdog)

    def on_unmount(self) -> None:
        self.stop()

    def stop(self) -> None:
        """End the worker thread (the screen is going away)."""
        self._cancel.set()
        self._worker.stop()

    def run_deck_worker(self) -> None:
        """A plain daemon thread rather than a Textual worker: it lives as long as the screen, and
        waiting for the app's workers to finish (as tests and the palette do) must not wait on it."""
        self._thread = threading.Thread(target=self._worker.run, args=(self._cancel,), daemon=True,
                                        name=f"deck {self.view.name}")
        self._thread.start()

    # ------------------------------------------------------------------ the worker

    @property
    def busy(self) -> bool:
        """Jobs handed to the worker whose results have not been drawn yet (or about to be)."""
        return bool(self._waiting) or self._todo_later

    def _finish_opening(self) -> None:
        self._todo_later = False
        self.run_on_deck(self._worker.finish_opening)

    def run_on_deck(self, job: Job, then: Callable[[Any], None] | None = None) -> None:
        """Hand ``job(deck)`` to the worker; ``then(outcome)`` runs here once it is drawn."""
        ticket = next(self._tickets)
        self._waiting[ticket] = then
        self._worker.submit(ticket, job)

    @on(JobDone)
    def on_job_done(self, message: JobDone) -> None:
        then = self._waiting.pop(message.ticket, None)
        if message.change is not None:
            self.take(message.view, message.change)
        if message.error is not None:
            self.report(f"{message.error}", "error", "deck")
        elif then is not None:
            then(message.outcome)

    @on(DeckUpdated)
    def on_deck_updated(self, message: DeckUpdated) -> None:
        self.take(message.view, message.change)

    @on(WorkerFailed)
    def on_worker_failed(self, message: WorkerFailed) -> None:
        raise message.error  # the app ends with its traceback and exit status 1, never 0

    @on(FileTrouble)
    def on_file_trouble(self, message: FileTrouble) -> None:
        self.problem = message.problem
        if message.problem is not None:
            self.report(f"{clean(self.view.name)}: {message.problem}. pideck keeps showing what it read.",
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
            self.message_log.add(text, "info", "follow-up sent")
        self.draw(view, change.parts)

    # ------------------------------------------------------------------ drawing

    def draw(self, view: DeckView, parts: Iterable[str]) -> None:
        parts = set(parts)
        self.view = view
        with self.app.batch_update():
            if STATE in parts:
                self.query_one(StatePane).show(view.state)
            if PROGRESS in parts:
                self.query_one(ProgressPane).show(view.progress, view.verdict)
            if HANDOFF in parts:
                self.query_one(HandoffPane).show(view.packets)
            if TODO in parts:
                self.query_one(TodoStrip).show(view.strip)
                self.query_one(GoalTable).show_goals(view.goals)
                if isinstance(self.app.screen, TodosScreen):
                    self.app.screen.show(view.todo_overlay)
            self.report_warnings()
            self.update_header()

    def update_header(self) -> None:
        view = self.view
        clock = ""
        if self.show_clock:
            clock = datetime.fromtimestamp(self.clock() / 1000, timezone.utc).strftime("%H:%M")
        self.query_one(DeckHeader).show(HeaderInfo(
            name=self.path_label or view.name,
            cwd=view.cwd,
            entries=view.entries,
            following=self.following and self.problem is None,
            writable=view.writable,
            warnings=len(view.warnings),
            clock=clock,
            problem=self.problem,
        ))

    def report_warnings(self) -> None:
        """Restore warnings and skipped lines go to the message log once each (the badge counts them)."""
        for source, warnings in (("restore", self.view.restore_warnings), ("session file", self.view.skipped)):
            for warning in warnings:
                if warning not in self._reported:
                    self._reported.add(warning)
                    self.message_log.add(warning, "warning", source)

    @property
    def message_log(self) -> MessageLog:
        return self.query_one(MessageLog)

    def report(self, message: str, level: str = "info", source: str = "") -> None:
        self.message_log.add(message, level, source)
        severity: SeverityLevel = "error" if level in ("error", "refused") else "warning" if level == "warning" else "information"
        self.app.notify(toast_text(clean(message, multiline=True)), severity=severity, markup=False)

    def watchdog(self) -> None:
        """The todo watchdog tick (only while following; the Deck skips read-only logs)."""
        if self.following and self.problem is None and not self.busy:
            self.run_on_deck(lambda deck: deck.watchdog_tick(), self._report_notices("watchdog"))

    def _report_notices(self, source: str) -> Callable[[list[Notice]], None]:
        def report(notices: list[Notice]) -> None:
            for notice in notices:
                self.report(notice.message, notice.level, source)
        return report

    # ------------------------------------------------------------------ the command line

    @on(Input.Submitted, "#cmd")
    def on_command_submitted(self, event: Input.Submitted) -> None:
        line = event.value
        command_line = self.query_one(CommandLine)
        command_line.remember(line)
        command_line.value = ""
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
        self.run_on_deck(lambda deck: deck.apply(line), self._report_notices(stripped.split(" ")[0]))

    def fill_command(self, text: str) -> None:
        command_line = self.query_one(CommandLine)
        command_line.value = text
        command_line.cursor_position = len(text)
        command_line.focus()

    # ------------------------------------------------------------------ actions

    def action_focus_command(self) -> None:
        self.query_one(CommandLine).focus()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.BINDINGS))

    def action_todos(self) -> None:
        self.app.push_screen(TodosScreen(self.view.todo_overlay))

    def action_toggle_log(self) -> None:
        log = self.message_log
        log.display = not log.display

    def action_toggle_follow(self) -> None:
        self.following = not self.following
        self.update_header()
        state = "Following the session file." if self.following else "Paused: appends show again after f4."
        self.message_log.add(state)

    def action_reload(self) -> None:
        def reload(deck: Deck[SessionLog]) -> None:
            deck.refresh()
            deck.reload()

        self.run_on_deck(reload, lambda _: self.report("Reloaded the session from disk.", "info", "reload"))

    def action_export_todos(self) -> None:
        self.run_line("/todos export")

    def action_open_session(self) -> None:
        self.app.action_open_session()  # type: ignore[attr-defined]

    def action_new_packet(self) -> None:
        self.app.push_screen(PacketForm(self.create_packet), self._packet_created)

    def create_packet(self, params: dict[str, Any], done: Callable[[bool, str], None]) -> None:
        """The form's submit: the tool's own validation, on the worker; ``done(created, text)``."""
        self.run_on_deck(lambda deck: deck.call_tool("agent_handoff_create", params),
                         lambda result: done(not result.rejected, result.text))

    def _packet_created(self, message: str | None) -> None:
        if message:
            self.report(message, "info", "agent_handoff_create")

    def show_packet(self, packet_id: str) -> None:
        for packet in self.view.packets:
            if packet["id"] == packet_id:
                self.app.push_screen(PacketScreen(packet))
                return

    def action_pick_packet(self) -> None:
        if not self.view.packets:
            self.app.notify("No handoff packets yet.", markup=False)
            return
        self.app.push_screen(CommandPalette(providers=[PacketProvider], placeholder="Show packet…"))

    @on(DataTable.RowSelected, "#packets")
    def on_packet_selected(self, event: DataTable.RowSelected) -> None:
        self.show_packet(str(event.row_key.value))

    @on(DataTable.RowSelected, "#work-items")
    def on_work_item_selected(self, event: DataTable.RowSelected) -> None:
        self.fill_command(f"/agent-state set {event.row_key.value} ")

    def system_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Open session", "Pick one of pideck's or pi's sessions for this directory (f6)",
                            self.action_open_session)
        yield SystemCommand("Follow / pause", "Follow appends to the session file, or pause (f4)",
                            self.action_toggle_follow)
        yield SystemCommand("Todos overlay", "The full todo list, plan, goals and histories (f2)", self.action_todos)
        yield SystemCommand("Export todos", "Write the todos overlay to todos.md", self.action_export_todos)
        yield SystemCommand("Show packet", "Open one handoff packet", self.action_pick_packet)
        yield SystemCommand("Create handoff packet", "A form validated by the agent_handoff_create tool (f7)",
                            self.action_new_packet)
        yield SystemCommand("Message log", "Show or hide the message log (f3)", self.action_toggle_log)
        yield SystemCommand("Reload", "Re-read the session from disk (f5)", self.action_reload)
        yield SystemCommand("Help", "All commands and keys (f1)", self.action_help)
