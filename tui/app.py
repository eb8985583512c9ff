"""PideckApp: the deck screen of one session, the session picker, the palette and the app chrome.

The app holds the options every screen shares; each ``DeckScreen`` owns its Deck. Opening another
session builds a new screen (the log is opened on a worker thread) and switches to it.
"""

from __future__ import annotations

import os
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from textual import on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.theme import Theme
from textual.widgets import Input

from core.catalog.opening import Opened, SessionDeck, Waiting
from core.catalog.opening import open_deck as open_session_deck
from core.clock import wall_clock_ms
from core.config.history import append_history, load_history
from core.config.settings import (
    ConfigError,
    HostConfig,
    NotifyConfig,
    TuiConfig,
    load_hosts,
    load_notify_config,
    load_tui_config,
    set_config_value,
)
from core.views.view import Glances
from tui.commands import DetailProvider, ItemCommandProvider, SlashCommandProvider
from tui.keys import with_key
from tui.messages import CatalogChanged, FileTrouble, FirstFrame, HungUp, JobDone, ModelFailed, NotifierFailed
from tui.models.jobs import Jobs
from tui.models.thread import ModelThread
from tui.paste import PASTE_REFUSED, PasteRefused
from tui.screens.deck import DeckScreen, Newer

if TYPE_CHECKING:  # (the other screens and the notifications are imported when first used: not at the start)
    from core.catalog.catalog import Catalog
    from core.catalog.sessions import SessionInfo
    from tui.models.catalog import CatalogModel
    from tui.notifications import AttentionNotifications
    from tui.screens.overview import OverviewScreen

Clock = Callable[[], int]


def default_open_deck(path: Path) -> Opened:
    """The picker's choice, opened exactly as ``pideck PATH`` opens it (the user's config too). It
    was listed as an existing file: one deleted meanwhile is an error, never a new session."""
    return open_session_deck(path, create=False)


def opened_text(deck: SessionDeck, why: str | None) -> str:
    """What the message log says of a session just opened: its file, and why it was the one."""
    name = deck.log.shown_path.name
    return f"Opened {name}: {why}." if why else f"Opened {name}."


class PideckApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "pideck"
    COMMANDS = App.COMMANDS | {SlashCommandProvider, ItemCommandProvider, DetailProvider}
    BINDINGS = [  # kept out of the deck's full footer; the palette and the README list them
        Binding("f8", "timeline", "Timeline", show=False, priority=True,
                tooltip="the session's history: events, branches, any point in the past"),
        Binding("f9", "overview", "Sessions", show=False, priority=True,
                tooltip="every session of this directory, live"),
        # Priority: inside a dialog (the palette, the F7 form) it closes it, which the dialog's own
        # keys would otherwise never let it reach; a selection is still copied first.
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True,
                tooltip="clear the command line; on an empty one, press twice (within 2 s) to quit; with text "
                        "selected, copy it; in a dialog (the palette, a form), close it"),
    ]
    NOTIFICATION_TIMEOUT = 3.0
    """Seconds a toast stays (Textual's default is 5): a burst of replies does not pile up for
    long, and the message log (ctrl+l) keeps every one. Errors stay twice as long."""
    FIRST_FRAME_LATEST_S = 3.0
    """What waits for the first view (the notifications' follower, the launcher's collector) starts
    at the latest this many seconds after the app, should no screen say it was shown."""
    SAVE_WAIT_S = 2.0
    """The longest the app waits, as it ends, for its settings and history to be written."""
    QUIT_WINDOW_S = 2.0
    """How long after a first ctrl+c on an empty line a second one quits."""
    _quit_until = 0.0

    def __init__(
        self,
        deck: SessionDeck | None,
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
        show_all: bool = False,
        notify: NotifyConfig | None = None,
        notifications: Callable[[PideckApp], AttentionNotifications] | None = None,
        started: Callable[[], object] | None = None,
        catalog: Callable[[str | None], Catalog] | None = None,
        waiting: Waiting | None = None,
        follows: str | None = None,
        host: str | None = None,
        hosts: Callable[[], Sequence[HostConfig]] | None = None,
    ) -> None:
        """``deck`` None starts on the sessions overview (``pideck --overview``) of ``cwd`` (default:
        the current directory). ``settings``: the ``[tui]`` table, read from the config file when
        not given, with the command history kept beside it. ``why``: why ``deck`` was the one
        opened, when nothing named it (said once, at the start). ``show_all``: the overview and the
        deck header's count of who needs you cover every session pideck knows (the overview's
        ``a`` switches it). ``notify``: the ``[notify]`` table, read from the config file when not
        given; ``notifications`` makes the follower that tells of changes of state (default: one
        over the directory, when the app follows the files in a real terminal;
        docs/notifications.md), started once the first view is on screen. ``started``: called
        then too (docs/tui.md#the-first-frame). ``catalog(scope)``: the app's one catalog of a
        directory (None: of every session pideck knows), looked at every ``overview_poll`` seconds
        while the app follows the files; every view of who needs the person reads it.
        ``waiting`` (with ``deck`` None): start on the screen that waits for the directory's first
        session, or for the person's first command (``pideck --new``). ``follows``: the directory
        the app follows, as ``pideck`` with no file named does (docs/tui.md#following-the-directory):
        a session or conversation that starts there later opens, or is offered, as ``[tui] follow``
        says. ``host`` (with ``deck`` None): the overview shows that ``[[hosts]]`` machine's rows
        alone (``pideck --host NAME``); ``hosts``: the machines a remote row can be opened on (default:
        the config file's)."""
        super().__init__()
        if settings is None:
            settings, problems = load_tui_config()
            warnings = [*warnings, *(f"config: {p}" for p in problems)]
        if notify is None:
            notify, problems = load_notify_config()
            warnings = [*warnings, *(f"config: {p}" for p in problems)]
        if hosts is None:
            configured, problems = load_hosts()
            warnings = [*warnings, *(f"config: {p}" for p in problems)]
            hosts = lambda: configured  # noqa: E731
        self.settings = settings
        self.notify_settings = notify
        self._make_notifications = notifications
        self.attention_notifier: AttentionNotifications | None = None
        self.flash = flash  # seconds a changed row stays highlighted (tests: 0, for stable snapshots)
        self.history = load_history(settings.history_size)  # shared by every deck screen
        self.first_deck = deck
        self.first_cwd = deck.log.cwd if deck is not None else None  # (read before its model owns the log)
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
        self.waiting = waiting
        self.cwd = cwd or (waiting.cwd if waiting is not None else None)
        self.follows = waiting.cwd if waiting is not None and waiting.follow else follows
        self._rows_seen: frozenset[str] | None = None  # the catalog's rows as the follower last saw them
        self.made_for_first_write: list[Path] = []  # sessions the person's first command made here
        self._opening_first = False  # the first session or conversation that appeared is being opened
        self.show_all = show_all
        self._said: set[str] = set()
        self.catalog_problem: str | None = None  # why the catalog cannot read now (the overview shows it)
        self.glances = Glances()  # what the person last saw of each session (docs/tui.md#since-you-last-looked)
        self._started = started
        self.first_frame_shown = False
        self._make_catalog = catalog or self.default_catalog
        self.catalog_thread: ModelThread[CatalogModel] | None = None
        self.catalog: CatalogChanged | None = None  # what the catalog last said, for the current scope
        self.jobs = ModelThread(Jobs("app"), self.post_message, poll=1.0, following=False)
        self.host = host
        self._hosts = hosts

    def get_default_screen(self) -> Screen:
        if self.first_deck is None and self.waiting is not None:
            from tui.screens.waiting import WaitingScreen

            return WaitingScreen(self.waiting, self.history)
        if self.first_deck is None:
            return self.make_overview_screen(self.cwd)
        screen = self.make_deck_screen(self.first_deck, self._warnings)
        if self._why is not None:
            screen.call_after_refresh(screen.report, opened_text(self.first_deck, self._why), "info", "open")
        return screen

    def on_mount(self) -> None:
        # Never $TEXTUAL_THEME (snapshots): the theme is the config's, remembered when changed.
        self.theme = self.settings.theme  # (validated as it was read: core/config/settings.py THEMES)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.jobs.start()
        if self.first_deck is None:  # (a deck screen says when its first view is on screen)
            self.call_after_refresh(self.post_message, FirstFrame())
        self.set_timer(self.FIRST_FRAME_LATEST_S, lambda: self.post_message(FirstFrame()))  # (whatever happens)

    @on(FirstFrame)
    def _first_frame(self) -> None:
        """The first view is on screen: the notifications' follower starts (its first look reads
        every session of the directory), and the launcher is told."""
        if self.first_frame_shown:
            return
        self.first_frame_shown = True
        make = self._make_notifications
        if make is None and self.following and not self.is_headless:
            make = self.default_notifications
        if make is not None:
            self.attention_notifier = make(self)
        if self.following or self.attention_notifier is not None:
            self.start_catalog()
        if self._started is not None:
            self._started()

    @on(PasteRefused)
    def _paste_refused(self, message: PasteRefused) -> None:
        """A paste holding control characters (tui/paste.py): nothing was typed, and the person is
        told why, whichever widget has the focus."""
        self.bell()
        self.notify(PASTE_REFUSED.format(controls=", ".join(message.controls)), severity="warning", markup=False)

    def on_unmount(self) -> None:
        self.jobs.stop()
        self.jobs.join(self.SAVE_WAIT_S)  # (a line typed last is in the history of the next run)
        if self.attention_notifier is not None:
            self.attention_notifier.stop()
        if self.catalog_thread is not None:
            self.catalog_thread.stop()
        from core.catalog.opening import remove_if_unwritten

        for path in self.made_for_first_write:
            remove_if_unwritten(path)  # (its first command wrote nothing: no file is left behind)

    # ------------------------------------------------------------------ the catalog

    def default_catalog(self, scope: str | None) -> Catalog:
        from core.catalog.catalog import Catalog
        from tui.models.catalog import BUDGET_S

        config = self.first_deck.todo.config if self.first_deck is not None else None
        return Catalog(scope, todo_config=config, now_ms=self.clock, budget_s=BUDGET_S)

    def start_catalog(self) -> None:
        """The app's one catalog, on its own thread, from the first frame on while the app follows
        the files or notifies, else from when the overview is first shown (a paused deck, and the
        snapshots of one, show no states that move by themselves)."""
        if self.catalog_thread is not None:
            return
        from tui.models.catalog import CatalogModel  # (after the first frame: the catalog's modules load now)

        cwd = self.first_cwd or self.cwd or os.getcwd()  # (a Gemini chat does not say its directory)
        model = CatalogModel(cwd, self._make_catalog, show_all=self.show_all)
        self.catalog_thread = ModelThread(model, self.post_message, poll=self.overview_poll)
        self.catalog_thread.start()

    def set_scope(self, show_all: bool) -> None:
        """This directory's sessions, or every one pideck knows: for the overview, the decks' count
        of who needs the person and the notifications alike."""
        if show_all == self.show_all:
            return
        self.show_all = show_all
        self.catalog = None
        if self.catalog_thread is not None:
            self.catalog_thread.call(self.catalog_thread.model.restart, show_all)

    @on(CatalogChanged)
    def _catalog_changed(self, message: CatalogChanged) -> None:
        if message.show_all != self.show_all:
            return  # read for the scope the person just left
        self.catalog = message
        self._hand_catalog(message)
        if self.attention_notifier is not None:
            self.attention_notifier.take(message)
        self.look_for_newer(message)

    # ------------------------------------------------------------------ following the directory

    def look_for_newer(self, message: CatalogChanged) -> None:
        """A session or conversation started in the directory the app follows
        (docs/tui.md#following-the-directory): the newest one is looked up off the UI thread, and
        opened while the app waits for the first one, else opened or offered (``_newest_found``).
        Only a row the catalog had not listed before counts as started."""
        if self.follows is None:
            return
        rows = frozenset(os.path.realpath(row.path) for row in message.rows)
        seen, self._rows_seen = self._rows_seen, rows if self._rows_seen is None else self._rows_seen | rows
        fresh = rows - seen if seen is not None else frozenset()
        if not fresh and not (self.waiting_still and rows):
            return
        from core.catalog.opening import default_choice
        from core.catalog.sessions import label

        cwd, prefer = self.follows, self.settings.prefer_kind

        def newest() -> tuple[str, str] | None:
            found, _ = default_choice(cwd, prefer)
            return (str(found.path), label(found)) if found is not None else None

        self.jobs.call(newest, then=lambda found: self._newest_found(found, fresh), latest="newest")

    @property
    def waiting_still(self) -> bool:
        """No deck is open yet: the app is on the waiting screen."""
        return not any(isinstance(screen, DeckScreen) for screen in self.screen_stack)

    def _newest_found(self, found: tuple[str, str] | None, fresh: frozenset[str]) -> None:
        if found is None:
            return
        path, label = found
        if self.waiting_still:
            if not self._opening_first:  # (once: the looks that follow until it is on screen find it too)
                self._opening_first = True
                self.open_in_worker(Path(path), why=f"it started while pideck waited: {label}")
            return
        screen = self.deck_screen
        if os.path.realpath(path) in screen.real_here():
            screen.show_newer(None)
            return
        if os.path.realpath(path) not in fresh or self.settings.follow == "off":
            return  # (the newest, but not one that started now: the person may have chosen another)
        if self.settings.follow == "newest" and self.screen is screen and not screen.typing:
            self.open_in_worker(Path(path), why=f"a newer one started here: {label} ([tui] follow = newest)")
        else:
            screen.show_newer(Newer(label, path))

    def start_first_session(self, line: str) -> None:
        """The person's first command on the waiting screen: their pideck session is made now, its
        deck opened, and the command run there."""
        from core.catalog.opening import first_write_session

        cwd = self.cwd or os.getcwd()

        def then(outcome: Opened | Exception | None) -> None:
            if isinstance(outcome, Exception):
                self.notify(f"Could not start a session: {outcome}", severity="error", markup=False)
            elif outcome is not None:
                self.made_for_first_write.append(outcome.deck.log.path)
                screen = self.switch_deck(outcome)
                screen.call_after_refresh(screen.run_line, line)

        def made() -> Opened | Exception:
            try:
                return first_write_session(cwd)
            except Exception as exc:  # (said on screen, in the app's words)
                return exc

        self.jobs.call(made, then=then, latest="open")

    def _hand_catalog(self, message: CatalogChanged) -> None:
        """Every screen that shows a state draws the catalog's look."""
        for screen in self.screen_stack:
            take = getattr(screen, "take_catalog", None)
            if take is not None:
                take(message)

    @on(FileTrouble)
    def _catalog_file_trouble(self, message: FileTrouble) -> None:
        """A folder the catalog reads cannot be read (or can again: None), shown on the overview."""
        self.catalog_problem = message.problem
        if self.catalog is not None:
            self._hand_catalog(self.catalog)  # (drawn again, with the problem or without it; told to no one)

    @on(ModelFailed)
    def _catalog_failed(self, message: ModelFailed) -> None:
        """One of the app's own threads failed unexpectedly (the text says which, and where its
        traceback was written): said once."""
        if message.text not in self._said:
            self._said.add(message.text)
            self.notify(message.text, severity="warning", markup=False)

    @on(HungUp)
    def _hung_up(self, message: HungUp) -> None:
        self.exit(None, message.status)

    @on(NotifierFailed)
    def _notifier_failed(self, message: NotifierFailed) -> None:
        if self.attention_notifier is not None:
            self.attention_notifier.say_once("desktop", message.text)

    @on(JobDone)
    def _job_done(self, message: JobDone) -> None:
        """An app job's answer (``Jobs``): its follow-up on the UI thread, or its error said."""
        then = self.jobs.finished(message)
        if message.error is not None:
            self.notify(message.said, severity="warning", markup=False)
        elif then is not None:
            then(message.outcome)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        if timeout is None and severity == "error":
            timeout = 2 * self.NOTIFICATION_TIMEOUT
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def action_interrupt(self) -> None:
        """ctrl+c as in a shell or pi's editor: a typed line is cleared; on an empty one the first
        press says how to quit, and a second within ``QUIT_WINDOW_S`` quits (a reflex ctrl+c never
        ends the app, and a person who means it is not sent looking for ctrl+q)."""
        focused = self.focused
        if isinstance(focused, Input) and focused.selected_text:
            focused.action_copy()  # (Textual's own ctrl+c on an input)
            return
        if isinstance(self.screen, ModalScreen):
            self.screen.dismiss()  # (the palette, the F7 form, a detail: closed, as Textual apps do)
            self._quit_until = 0.0
            return
        if isinstance(focused, Input) and focused.value:
            focused.value = ""
            self._quit_until = 0.0
            return
        now = monotonic()
        if now < self._quit_until:
            self.exit()
            return
        self._quit_until = now + self.QUIT_WINDOW_S
        self.notify("Press ctrl+c again to quit", timeout=self.QUIT_WINDOW_S, markup=False)

    # ------------------------------------------------------------------ notifications

    def default_notifications(self, app: PideckApp) -> AttentionNotifications:
        """Told of the app's catalog's changes (its scope: the directory of the session opened, or
        every session pideck knows with ``show_all``)."""
        from tui.notifications import AttentionNotifications

        return AttentionNotifications(app, self.notify_settings)

    @on(Input.Changed)
    def _typed(self) -> None:
        """Any input's edit is the person typing (``[notify] quiet_while_typing``)."""
        if self.attention_notifier is not None:
            self.attention_notifier.typed()

    def notification_lines(self) -> list[str]:
        """What notifies the person here, and why (the help shows it)."""
        if self.attention_notifier is not None:
            return self.attention_notifier.describe()
        why = "the app runs without a terminal" if self.is_headless else "the app does not follow the session files"
        return [f"None: {why}."]

    def action_test_notification(self) -> None:
        notifier = self.attention_notifier
        if notifier is None:
            self.notify(self.notification_lines()[0], markup=False)
            return
        notifier.tell("a test notification")
        self.notify("\n".join(notifier.describe()), title="Notifications", markup=False)

    def _remember_theme(self, theme: Theme) -> None:
        if theme.name != self.settings.theme:
            self.settings = self.settings._replace(theme=theme.name)
            self.save_in_background(lambda: set_config_value("tui.theme", theme.name))

    def remember_line(self, line: str) -> None:
        """A command line the person ran: kept for up/down here and in the next run."""
        if line.strip() and (not self.history or self.history[-1] != line):
            self.history.append(line)
            excess = len(self.history) - self.settings.history_size
            if excess > 0:
                del self.history[:excess]
            self.save_in_background(lambda: append_history(line))

    def save_in_background(self, save: Callable[[], object]) -> None:
        """Settings and history are written off the UI thread (a slow disk never holds a key); an
        app ``pideck serve`` runs read-only writes neither (a visitor's theme or typed lines are
        not the person's)."""
        from core.deck.deck import every_write_refused

        if every_write_refused() is not None:
            return

        def saved() -> str | None:
            try:
                save()
            except (OSError, ConfigError) as exc:
                return f"Could not save the settings: {exc}"
            return None

        self.jobs.call(saved, then=self._say_unsaved)

    def _say_unsaved(self, problem: str | None) -> None:
        if problem is not None:
            self.notify(problem, severity="warning", markup=False)

    def make_deck_screen(
        self, deck: SessionDeck, warnings: Iterable[str] = (), screen: type[DeckScreen] = DeckScreen,
    ) -> DeckScreen:
        return screen(deck, follow=self.following, poll=self.poll, clock=self.clock,
                      show_clock=self.show_clock, path_label=self.path_label, warnings=warnings,
                      settings=self.settings, history=self.history, remember=self.remember_line, flash=self.flash)

    def make_overview_screen(self, cwd: str | None) -> OverviewScreen:
        from tui.screens.overview import OverviewScreen

        return OverviewScreen(cwd, clock=self.clock, show_all=self.show_all, host=self.host)

    # ------------------------------------------------------------------ history and other sessions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The timeline and the overview open from a deck (their own screens bind f8 and f9)."""
        if action in ("timeline", "overview"):
            return isinstance(self.screen, DeckScreen)
        return True

    def action_timeline(self) -> None:
        if isinstance(self.screen, DeckScreen):
            from tui.screens.timeline import TimelineScreen

            screen = self.screen
            self.push_screen(TimelineScreen(Path(screen.view.path), clock=self.clock, todo_config=screen.todo_config,
                                            follow=self.following, deck=screen.model))

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
        from core.catalog.sessions import list_sessions
        from tui.screens.picker import SessionPicker

        current = self.deck_screen
        cwd = current.view.cwd or "."
        if self.sessions is not None:
            self.push_screen(SessionPicker(self.sessions()), self._open_picked)
            return
        records = self.catalog.records if self.catalog is not None else ()

        def listed() -> list[SessionInfo]:
            """(counting the lines of hundreds of transcripts takes a while) With the entry counts
            of the app's catalog where it has them, as every other view says them."""
            from core.catalog.catalog import with_entries

            return with_entries(list_sessions(cwd), records)

        def pick(sessions: list[SessionInfo]) -> None:
            self.push_screen(SessionPicker(sessions), self._open_picked)

        self.jobs.call(listed, then=pick)

    def _open_picked(self, path: Path | None) -> None:
        if path is not None:
            self.open_in_worker(path)

    def open_remote(self, host: str, remote_path: str) -> None:
        """A session on another machine (a row of the overview): its deck over a local copy kept
        current from there (core/catalog/remote_deck.py), on top of the current screen."""
        def open_there() -> Opened:
            from core.catalog.remote_deck import open_remote_deck

            config = next((h for h in self._hosts() if h.name == host), None)
            if config is None:
                raise LookupError(f"no host named {host} in the [[hosts]] of the config file")
            return open_remote_deck(config, remote_path, clock=self.clock)

        self.open_in_worker(Path(f"{host}:{remote_path}"), on_top=True, opener=open_there)

    def open_in_worker(self, path: Path, on_top: bool = False, why: str | None = None,
                       opener: Callable[[], Opened] | None = None) -> None:
        """Open ``path`` off the UI thread, then switch the deck screen to it (``on_top``: push it
        over the current screen, so Esc comes back: the overview's way). Only the newest of the
        opens asked for while one runs is opened. ``why``: what the message log says of it.
        ``opener``: how it is opened (default: ``open_deck``)."""
        def opened() -> Opened | Exception:
            try:
                return opener() if opener is not None else self.open_deck(path)
            except Exception as exc:  # said where it was asked, in the app's words
                return exc

        def then(outcome: Opened | Exception | None) -> None:
            if outcome is None:
                return  # (a newer open was asked for meanwhile)
            if isinstance(outcome, Exception):
                self._opening_first = False  # (the waiting screen tries again at the next look)
                self._open_failed(path, outcome)
            else:
                outcome.why = why or outcome.why
                if on_top:
                    self.push_deck(outcome)
                else:
                    self.switch_deck(outcome)

        self.jobs.call(opened, then=then, latest="open")

    def _open_failed(self, path: Path, exc: Exception) -> None:
        text = f"Could not open {path}: {exc}"
        if isinstance(self.screen, DeckScreen):
            self.screen.report(text, "error", "open")
        else:
            from tui.text import clean  # (a path and a reason from another machine: literal)

            self.notify(clean(text, multiline=True), severity="error", markup=False)

    def push_deck(self, opened: Opened) -> None:
        """A deck on top of the overview: Esc on its empty command line goes back there."""
        from tui.screens.overview import ReturningDeckScreen

        self.push_screen(self.make_deck_screen(opened.deck, opened.warnings, ReturningDeckScreen))

    def switch_deck(self, opened: Opened) -> DeckScreen:
        try:
            old: Screen = self.deck_screen
        except LookupError:  # (the waiting screen: the first deck goes over it)
            old = self.screen_stack[0]
        kind = type(old) if isinstance(old, DeckScreen) else DeckScreen
        screen = self.make_deck_screen(opened.deck, opened.warnings, kind)  # (Esc still goes back to the overview)
        if old is self.screen_stack[0]:
            # Textual cannot switch its first screen away: it stays underneath, its worker stopped.
            if isinstance(old, DeckScreen):
                old.stop()
            while len(self.screen_stack) > 1:  # (a dialog over the waiting screen)
                self.pop_screen()
            self.push_screen(screen)
        else:
            self.switch_screen(screen)
        screen.call_after_refresh(screen.report, opened_text(opened.deck, opened.why), "info", "open")
        return screen

    # ------------------------------------------------------------------ palette

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, DeckScreen):
            yield from screen.system_commands()
            yield SystemCommand("Timeline", with_key("The session's events, pi's tree of branches, the deck as of "
                                                     "any entry", self.BINDINGS, "timeline"), self.action_timeline)
            yield SystemCommand("Sessions overview", with_key("Every session of this directory, live", self.BINDINGS,
                                                              "overview"), self.action_overview)
        yield SystemCommand("Test notification", "Send one by the channels chosen here, and say which ([notify])",
                            self.action_test_notification)
