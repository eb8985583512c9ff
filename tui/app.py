"""PideckApp: the deck screen of one session, the session picker, the palette and the app chrome.

The app holds the options every screen shares; each ``DeckScreen`` owns its Deck. Opening another
session builds a new screen (the log is opened on a worker thread) and switches to it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Iterable, Sequence

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.theme import Theme

from core.clock import wall_clock_ms
from core.deck import Deck
from core.opening import Opened
from core.opening import open_deck as open_session_deck
from core.session.discovery import SessionInfo, list_sessions
from core.history import append_history, load_history
from core.session.log import SessionLog
from core.todo.config import ConfigError, TuiConfig, load_tui_config, set_config_value
from tui.commands import DetailProvider, ItemCommandProvider, SlashCommandProvider
from tui.screens.deck import DeckScreen
from tui.screens.overview import OverviewScreen
from tui.screens.picker import SessionPicker
from tui.screens.timeline import TimelineScreen

Clock = Callable[[], int]


def default_open_deck(path: Path) -> Opened:
    """The picker's choice, opened exactly as ``pideck PATH`` opens it (the user's config too)."""
    return open_session_deck(path)


def opened_text(deck: Deck[SessionLog], why: str | None) -> str:
    """What the message log says of a session just opened: its file, and why it was the one."""
    name = deck.log.shown_path.name
    return f"Opened {name}: {why}." if why else f"Opened {name}."


class PideckApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "pideck"
    COMMANDS = App.COMMANDS | {SlashCommandProvider, ItemCommandProvider, DetailProvider}
    BINDINGS = [  # kept out of the deck's full footer; the palette and the README list them
        Binding("f8", "timeline", "Timeline", show=False,
                tooltip="the session's history: events, branches, any point in the past"),
        Binding("f9", "overview", "Sessions", show=False, tooltip="every session of this directory, live"),
    ]

    def __init__(
        self,
        deck: Deck[SessionLog] | None,
        follow: bool = True,
        clock: Clock | None = None,
        show_clock: bool = False,
        *,
        path_label: str | None = None,
        poll: float = 0.05,
        sessions: Callable[[], Sequence[SessionInfo]] | None = None,
        open_deck: Callable[[Path], Opened] = default_open_deck,
        warnings: Iterable[str] = (),
        why: str | None = None,
        overview_poll: float = 0.5,
        cwd: str | None = None,
        settings: TuiConfig | None = None,
        flash: float = 1.5,
    ) -> None:
        """``deck`` None starts on the sessions overview (``pideck --overview``) of ``cwd`` (default:
        the current directory). ``settings``: the ``[tui]`` table, read from the config file when
        not given, with the command history kept beside it. ``why``: why ``deck`` was the one
        opened, when nothing named it (said once, at the start)."""
        super().__init__()
        if settings is None:
            settings, problems = load_tui_config()
            warnings = [*warnings, *(f"config: {p}" for p in problems)]
        self.settings = settings
        self.flash = flash  # seconds a changed row stays highlighted (tests: 0, for stable snapshots)
        self.history = load_history(settings.history_size)  # shared by every deck screen
        self.first_deck = deck
        self.following = follow
        self.clock = clock or wall_clock_ms
        self.show_clock = show_clock
        self.path_label = path_label
        self.poll = poll
        self.sessions = sessions
        self.open_deck = open_deck
        self._warnings = list(warnings)
        self._why = why
        self.overview_poll = overview_poll
        self.cwd = cwd

    def get_default_screen(self) -> Screen:
        if self.first_deck is None:
            return self.make_overview_screen(self.cwd)
        screen = self.make_deck_screen(self.first_deck, self._warnings)
        if self._why is not None:
            screen.call_after_refresh(screen.report, opened_text(self.first_deck, self._why), "info", "open")
        return screen

    def on_mount(self) -> None:
        # Never $TEXTUAL_THEME (snapshots): the theme is the config's, remembered when changed.
        theme = self.settings.theme
        self.theme = theme if theme in self.available_themes else "textual-dark"
        if theme != self.theme:
            self.notify(f"config: unknown theme {theme!r}, using textual-dark", severity="warning", markup=False)
        self.theme_changed_signal.subscribe(self, self._remember_theme)

    def _remember_theme(self, theme: Theme) -> None:
        if theme.name != self.settings.theme:
            self.settings = dataclasses.replace(self.settings, theme=theme.name)
            self.save_in_background(lambda: set_config_value("tui.theme", theme.name))

    def remember_line(self, line: str) -> None:
        """A command line the person ran: kept for up/down here and in the next run."""
        if line.strip() and (not self.history or self.history[-1] != line):
            self.history.append(line)
            excess = len(self.history) - self.settings.history_size
            if excess > 0:
                del self.history[:excess]
            self.save_in_background(lambda: append_history(line))

    @work(thread=True, group="settings")
    def save_in_background(self, save: Callable[[], object]) -> None:
        """Settings and history are written off the UI thread (a slow disk never holds a key)."""
        try:
            save()
        except (OSError, ConfigError) as exc:
            self.call_from_thread(self.notify, f"Could not save the settings: {exc}", severity="warning",
                                  markup=False)

    def make_deck_screen(
        self, deck: Deck[SessionLog], warnings: Iterable[str] = (), screen: type[DeckScreen] = DeckScreen,
    ) -> DeckScreen:
        return screen(deck, follow=self.following, poll=self.poll, clock=self.clock,
                      show_clock=self.show_clock, path_label=self.path_label, warnings=warnings,
                      settings=self.settings, history=self.history, remember=self.remember_line, flash=self.flash)

    def make_overview_screen(self, cwd: str | None) -> OverviewScreen:
        return OverviewScreen(cwd, clock=self.clock, poll=self.overview_poll)

    # ------------------------------------------------------------------ history and other sessions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The timeline and the overview open from a deck (their own screens bind f8 and f9)."""
        if action in ("timeline", "overview"):
            return isinstance(self.screen, DeckScreen)
        return True

    def action_timeline(self) -> None:
        if isinstance(self.screen, DeckScreen):
            deck = self.screen.deck
            self.push_screen(TimelineScreen(deck.log.shown_path, clock=self.clock, todo_config=deck.todo.config,
                                            follow=self.following))

    def action_overview(self) -> None:
        if isinstance(self.screen, DeckScreen):
            self.push_screen(self.make_overview_screen(self.screen.view.cwd or None))

    @property
    def deck_screen(self) -> DeckScreen:
        """The deck screen under any dialogs."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, DeckScreen):
                return screen
        raise LookupError("no deck screen")

    # ------------------------------------------------------------------ opening another session

    def action_open_session(self) -> None:
        current = self.deck_screen
        cwd = current.view.cwd or "."
        if self.sessions is not None:
            self.push_screen(SessionPicker(self.sessions()), self._open_picked)
            return

        def listed() -> None:  # counting the lines of hundreds of transcripts takes a while
            sessions = list_sessions(cwd)
            self.call_from_thread(self.push_screen, SessionPicker(sessions), self._open_picked)

        self.run_worker(listed, thread=True, exclusive=True, group="session-picker")

    def _open_picked(self, path: Path | None) -> None:
        if path is not None:
            self.open_in_worker(path)

    @work(thread=True, exclusive=True, group="open")
    def open_in_worker(self, path: Path) -> None:
        try:
            opened = self.open_deck(path)
        except Exception as exc:
            self.call_from_thread(self.deck_screen.report, f"Could not open {path}: {exc}", "error", "open")
            return
        self.call_from_thread(self.switch_deck, opened)

    def switch_deck(self, opened: Opened) -> None:
        screen = self.make_deck_screen(opened.deck, opened.warnings)
        old = self.deck_screen
        if old is self.screen_stack[0]:
            # Textual cannot switch its first screen away: it stays underneath, its worker stopped.
            old.stop()
            self.push_screen(screen)
        else:
            self.switch_screen(screen)
        screen.call_after_refresh(screen.report, opened_text(opened.deck, opened.why), "info", "open")

    # ------------------------------------------------------------------ palette

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, DeckScreen):
            yield from screen.system_commands()
            yield SystemCommand("Timeline", "The session's events, pi's tree of branches, the deck as of any entry (f8)",
                                self.action_timeline)
            yield SystemCommand("Sessions overview", "Every session of this directory, live (f9)",
                                self.action_overview)
