"""PideckApp: the main screen over one Deck, a polling tail, the command line and the palette.

Data flows one way: the log file -> ``deck.refresh()`` -> derived state -> widgets. A typed command
goes through ``deck.apply`` (which appends to the log) and then takes the same read path.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Sequence

from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input
from textual.worker import get_current_worker

from core.deck import Deck
from core.session.discovery import SessionInfo, list_sessions
from core.todo.display import goal_rows, strip_lines
from tui.commands import POKE_ACTIONS, STATUSES, ItemCommandProvider, PacketProvider, SlashCommandProvider
from tui.live import ALL_PARTS, HANDOFF, PART_BY_NAMESPACE, PROGRESS, STATE, TODO, file_key, parts_touched
from tui.messages import LogChanged
from tui.screens.help import HelpScreen
from tui.screens.packet import PacketScreen
from tui.screens.packet_form import PacketForm
from tui.screens.picker import SessionPicker
from tui.screens.todos import TodosScreen
from tui.text import clean, markdown_literal
from tui.widgets.command_line import CommandLine
from tui.widgets.header import DeckHeader, HeaderInfo
from tui.widgets.message_log import MessageLog
from tui.widgets.panes import HandoffPane, ProgressPane, StatePane
from tui.widgets.todos import GoalTable, TodoStrip

Clock = Callable[[], int]
TOAST_LINES = 6


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


def default_open_deck(path: Path) -> Deck:
    """The picker's choice, opened exactly as ``pideck PATH`` opens it (the user's config too)."""
    from core.cli import open_deck

    return open_deck(str(path))


def toast_text(message: str) -> str:
    lines = message.splitlines() or [""]
    if len(lines) <= TOAST_LINES:
        return message
    return "\n".join(lines[:TOAST_LINES]) + f"\n… {len(lines) - TOAST_LINES} more lines (f3: message log)"


class PideckApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "pideck"
    COMMANDS = App.COMMANDS | {SlashCommandProvider, ItemCommandProvider}
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "todos", "Todos"),
        Binding("f3", "toggle_log", "Log"),
        Binding("f4", "toggle_follow", "Follow/Pause"),
        Binding("f5", "reload", "Reload", show=False),
        Binding("f6", "open_session", "Open"),
        Binding("f7", "new_packet", "New packet"),
        Binding("escape", "focus_command", "Command line", show=False),
    ]

    def __init__(
        self,
        deck: Deck,
        follow: bool = True,
        clock: Clock | None = None,
        show_clock: bool = False,
        *,
        path_label: str | None = None,
        poll: float = 0.05,
        sessions: Callable[[], Sequence[SessionInfo]] | None = None,
        open_deck: Callable[[Path], Deck] = default_open_deck,
    ) -> None:
        super().__init__()
        self.deck = deck
        self.following = follow
        self.clock = clock or wall_clock_ms
        self.show_clock = show_clock
        self.path_label = path_label
        self.poll = poll
        self.sessions = sessions or (lambda: list_sessions(self.deck.log.cwd or "."))
        self.open_deck = open_deck
        self._log_warnings_seen = 0
        self._deck_warnings_seen: list[str] = []
        self._todo_inputs: tuple | None = None  # (state object, targets) the todo views were drawn from
        self._writable_for, self._writable_value = None, True
        self._drawn: tuple = (None, 0, None)  # (records list, count, leaf id) of the last redraw

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
        yield CommandLine(self.words_for, id="cmd")
        yield Footer(show_command_palette=True)

    @property
    def _writable(self) -> bool:
        """Cached per log: the answer needs path resolution and cannot change while it is open."""
        log = self.deck.log
        if self._writable_for is not log:
            self._writable_for, self._writable_value = log, log.writable
        return self._writable_value

    def on_mount(self) -> None:
        self.theme = "textual-dark"  # never inherit $TEXTUAL_THEME (snapshots)
        self.redraw(ALL_PARTS)
        self.query_one("#log").display = False
        self.action_focus_command()
        if self.following:
            self.watch_file()
        if self.show_clock:
            self.set_interval(1.0, self.update_header)
        self.set_interval(self.deck.todo.config.watchdog_tick_ms / 1000, self.watchdog)

    # ------------------------------------------------------------------ drawing

    def redraw(self, parts: Iterable[str]) -> None:
        parts = set(parts)
        deck = self.deck
        with self.batch_update():
            if STATE in parts:
                self.query_one(StatePane).show(deck.state.snapshot())
            if PROGRESS in parts:
                self.query_one(ProgressPane).show(deck.progress.state(), deck.progress.last_verdict())
            if HANDOFF in parts:
                self.query_one(HandoffPane).show(deck.handoff.packets())
            if TODO in parts:
                self.redraw_todos()
            self.report_warnings()
            self.update_header()
        log = self.deck.log
        self._drawn = (log.records, len(log.records), log.leaf_id)

    def redraw_todos(self) -> None:
        """Strip and goal table from one replay; skipped when neither the state nor the 👉
        targets changed (the core's cached replay hands back the same, read-only state)."""
        replay = self.deck.todo.replay()
        inputs = (replay.state, tuple(replay.flags.targets))
        if self._todo_inputs is not None and inputs[0] is self._todo_inputs[0] and inputs[1] == self._todo_inputs[1]:
            return
        limit = self.deck.todo.config.widget_max_lines
        self.query_one(TodoStrip).show(strip_lines(replay.state, replay.flags.targets, limit))
        if self._todo_inputs is None or inputs[0] is not self._todo_inputs[0]:
            self.query_one(GoalTable).show_goals(goal_rows(replay.state))
        self._todo_inputs = inputs

    def update_header(self) -> None:
        log = self.deck.log
        clock = ""
        if self.show_clock:
            clock = datetime.fromtimestamp(self.clock() / 1000, timezone.utc).strftime("%H:%M")
        self.query_one(DeckHeader).show(HeaderInfo(
            name=self.path_label or log.name or log.path.name,
            cwd=log.cwd or "",
            entries=len(log.records),
            following=self.following,
            writable=self._writable,
            warnings=len(self.deck.warnings) + len(log.warnings),
            clock=clock,
        ))

    def report_warnings(self) -> None:
        """Restore warnings and skipped lines go to the message log once each (the badge counts them)."""
        log_warnings = self.deck.log.warnings
        for warning in log_warnings[self._log_warnings_seen:]:
            self.message_log.add(warning, "warning", "session file")
        self._log_warnings_seen = len(log_warnings)
        for warning in self.deck.warnings:
            if warning not in self._deck_warnings_seen:
                self.message_log.add(warning, "warning", "restore")
        self._deck_warnings_seen = list(self.deck.warnings)

    @property
    def message_log(self) -> MessageLog:
        return self.query_one(MessageLog)

    def report(self, message: str, level: str = "info", source: str = "") -> None:
        self.message_log.add(message, level, source)
        severity = {"warning": "warning", "error": "error"}.get(level, "information")
        self.notify(toast_text(clean(message, multiline=True)), severity=severity, markup=False)

    # ------------------------------------------------------------------ live tail

    @work(thread=True, exclusive=True, group="tail")
    def watch_file(self) -> None:
        """Poll the file's (inode, size, mtime); post LogChanged, never touch widgets here."""
        worker = get_current_worker()
        path = self.deck.log.path
        last = None  # the first poll always posts: nothing appended before the worker started is missed
        while not worker.is_cancelled:
            key = file_key(path)
            if key != last:
                last = key
                self.post_message(LogChanged())
            time.sleep(self.poll)

    @on(LogChanged)
    def on_log_changed(self) -> None:
        if self.following:
            self.take_in()

    def take_in(self, extra: Iterable[str] = ()) -> None:
        """Take in what was appended (by us or another writer) and redraw what it touched.

        What to redraw is worked out against what was last drawn, not from the DeckChange alone:
        the Deck also refreshes inside its own mutations, and those changes must show too.
        """
        try:
            change = self.deck.refresh()
        except Exception as exc:  # a file replaced by garbage must not kill the app
            self.report(f"Could not read the session file: {exc}", "error", "tail")
            return
        if change is not None and change.reset:
            self._log_warnings_seen = 0
            self.report("The session file was truncated or replaced: reloaded from disk.", "warning", "tail")
        elif change is not None and change.branch_switched:
            self.message_log.add("A new leaf on another branch: every pane redrawn.", "info", "tail")
        for text in change.followups if change is not None else ():
            self.message_log.add(text, "info", "follow-up sent")
        self.redraw(self.parts_since_drawn() | set(extra))

    def parts_since_drawn(self) -> set[str]:
        """Panes fed by the entries that arrived since the last redraw (all after a reset or a
        new leaf on another branch)."""
        records = self.deck.log.records
        drawn_records, drawn_count, leaf = self._drawn
        if records is not drawn_records or len(records) < drawn_count:
            return set(ALL_PARTS)
        new = records[drawn_count:]
        for record in new:
            if record.parent_id != leaf:
                return set(ALL_PARTS)
            leaf = record.id
        return parts_touched(new)

    def watchdog(self) -> None:
        """The todo watchdog tick (only while following; the Deck skips read-only logs)."""
        if not self.following:
            return
        for notice in self.deck.watchdog_tick():
            self.report(notice.message, notice.level, "watchdog")
        self.take_in()

    # ------------------------------------------------------------------ the command line

    def words_for(self, namespace: str, sub: str, index: int) -> list[str]:
        """Completion words for argument ``index`` of ``/namespace sub``."""
        if index > 1 or (index == 1 and (namespace, sub) != ("agent-state", "set")):
            return []
        if namespace == "agent-state" and sub in ("set", "remove"):
            if index == 1:
                return list(STATUSES)
            return [i["id"] for i in self.deck.state.snapshot()["workItems"]]
        if namespace == "agent-progress" and sub == "withdraw":
            return list(self.deck.progress.state()["currentMilestones"])
        if namespace == "agent-handoff" and sub in ("show", "remove"):
            return [p["id"] for p in self.deck.handoff.packets()]
        if namespace == "todos" and sub == "poke":
            return list(POKE_ACTIONS)
        if sub == "clear":
            return ["--yes"]
        return []

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
        try:
            notices = self.deck.apply(line)
        except Exception as exc:  # an I/O error while appending, say: say it, keep running
            self.report(f"{stripped}: {exc}", "error")
            return
        for notice in notices:
            self.report(notice.message, notice.level, stripped.split(" ")[0])
        namespace = stripped[1:].split(" ")[0] if stripped.startswith("/") else ""
        self.take_in({PART_BY_NAMESPACE[namespace]} if namespace in PART_BY_NAMESPACE else ())

    def fill_command(self, text: str) -> None:
        command_line = self.query_one(CommandLine)
        command_line.value = text
        command_line.cursor_position = len(text)
        command_line.focus()

    # ------------------------------------------------------------------ actions

    def action_focus_command(self) -> None:
        self.query_one(CommandLine).focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_todos(self) -> None:
        self.push_screen(TodosScreen(self.deck.todo.overlay_markdown(markdown_literal)))

    def action_toggle_log(self) -> None:
        log = self.message_log
        log.display = not log.display

    def action_toggle_follow(self) -> None:
        self.following = not self.following
        if self.following:
            self.watch_file()
            self.take_in()
        else:
            self.workers.cancel_group(self, "tail")
        self.update_header()
        state = "Following the session file." if self.following else "Paused: appends show again after f4."
        self.message_log.add(state)

    def action_reload(self) -> None:
        self.take_in()
        self.deck.reload()
        self._todo_inputs = None
        self.redraw(ALL_PARTS)
        self.report("Reloaded the session from disk.", "info", "reload")

    def action_export_todos(self) -> None:
        self.run_line("/todos export")

    def action_open_session(self) -> None:
        self.push_screen(SessionPicker(self.sessions()), self._open_picked)

    def _open_picked(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            deck = self.open_deck(path)
        except Exception as exc:
            self.report(f"Could not open {path}: {exc}", "error", "open")
            return
        self.switch_deck(deck)

    def switch_deck(self, deck: Deck) -> None:
        self.workers.cancel_group(self, "tail")
        self.deck = deck
        self._log_warnings_seen, self._deck_warnings_seen, self._todo_inputs = 0, [], None
        self.redraw(ALL_PARTS)
        if self.following:
            self.watch_file()
        self.report(f"Opened {deck.log.path.name}.", "info", "open")

    def action_new_packet(self) -> None:
        self.push_screen(PacketForm(self.create_packet), self._packet_created)

    def create_packet(self, params: dict) -> tuple[bool, str]:
        """The form's submit: the tool's own validation; created when the packet count grew."""
        before = len(self.deck.handoff.packets())
        try:
            text = self.deck.call_tool("agent_handoff_create", params)
        except Exception as exc:
            return False, str(exc)
        created = len(self.deck.handoff.packets()) > before
        if created:
            self.take_in({HANDOFF})
        return created, text

    def _packet_created(self, message: str | None) -> None:
        if message:
            self.report(message, "info", "agent_handoff_create")

    def show_packet(self, packet_id: str) -> None:
        for packet in self.deck.handoff.packets():
            if packet["id"] == packet_id:
                self.push_screen(PacketScreen(packet))
                return

    def action_pick_packet(self) -> None:
        packets = self.deck.handoff.packets()
        if not packets:
            self.notify("No handoff packets yet.", markup=False)
            return
        self.push_screen(CommandPalette(providers=[PacketProvider], placeholder="Show packet…"))

    @on(DataTable.RowSelected, "#packets")
    def on_packet_selected(self, event: DataTable.RowSelected) -> None:
        self.show_packet(event.row_key.value)

    @on(DataTable.RowSelected, "#work-items")
    def on_work_item_selected(self, event: DataTable.RowSelected) -> None:
        self.fill_command(f"/agent-state set {event.row_key.value} ")

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
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
