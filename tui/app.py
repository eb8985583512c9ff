"""PideckApp: the deck screen of one session, the session picker, the palette and the app chrome.

The app holds the options every screen shares; each ``DeckScreen`` owns its Deck. Opening another
session builds a new screen (the log is opened on a worker thread) and switches to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Sequence

from textual import work
from textual.app import App, SystemCommand
from textual.screen import Screen

from core.clock import wall_clock_ms
from core.deck import Deck
from core.opening import Opened
from core.opening import open_deck as open_session_deck
from core.session.discovery import SessionInfo, list_sessions
from core.session.log import SessionLog
from tui.commands import ItemCommandProvider, SlashCommandProvider
from tui.screens.deck import DeckScreen
from tui.screens.picker import SessionPicker

Clock = Callable[[], int]


def default_open_deck(path: Path) -> Opened:
    """The picker's choice, opened exactly as ``pideck PATH`` opens it (the user's config too)."""
    return open_session_deck(path)


class PideckApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "pideck"
    COMMANDS = App.COMMANDS | {SlashCommandProvider, ItemCommandProvider}

    def __init__(
        self,
        deck: Deck[SessionLog],
        follow: bool = True,
        clock: Clock | None = None,
        show_clock: bool = False,
        *,
        path_label: str | None = None,
        poll: float = 0.05,
        sessions: Callable[[], Sequence[SessionInfo]] | None = None,
        open_deck: Callable[[Path], Opened] = default_open_deck,
        warnings: Iterable[str] = (),
    ) -> None:
        super().__init__()
        self.first_deck = deck
        self.following = follow
        self.clock = clock or wall_clock_ms
        self.show_clock = show_clock
        self.path_label = path_label
        self.poll = poll
        self.sessions = sessions
        self.open_deck = open_deck
        self._warnings = list(warnings)

    def get_default_screen(self) -> DeckScreen:
        return self.make_deck_screen(self.first_deck, self._warnings)

    def on_mount(self) -> None:
        self.theme = "textual-dark"  # never inherit $TEXTUAL_THEME (snapshots)

    def make_deck_screen(self, deck: Deck[SessionLog], warnings: Iterable[str] = ()) -> DeckScreen:
        return DeckScreen(deck, follow=self.following, poll=self.poll, clock=self.clock,
                          show_clock=self.show_clock, path_label=self.path_label, warnings=warnings)

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
        sessions = self.sessions() if self.sessions is not None else list_sessions(cwd)
        self.push_screen(SessionPicker(sessions), self._open_picked)

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
        screen.call_after_refresh(screen.report, f"Opened {opened.deck.log.path.name}.", "info", "open")

    # ------------------------------------------------------------------ palette

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, DeckScreen):
            yield from screen.system_commands()
