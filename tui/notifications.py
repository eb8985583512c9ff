"""The app's notifications (docs/notifications.md): the changes of state the app's one catalog
posts (``tui/models/catalog.py``) told by ``core.catalog.notify`` on the UI thread, where the app
knows what is on screen, whether it has focus and when the person last typed.

A notifier's command line runs as a job of the app's (``PideckApp.jobs``), never on the UI thread;
a failure of a channel is said once, never raised.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any, Callable, Mapping, Protocol

from textual.css.query import NoMatches

from core.catalog.notify import Notifier, choose, deliver, notification_text, run_command
from core.config.settings import NotifyConfig
from tui.messages import CatalogChanged, NotifierFailed
from tui.models.jobs import Jobs
from tui.models.thread import ModelThread


class NotifyingApp(Protocol):
    """What the follower needs of the app (``tui.app.PideckApp``), named here so that the two
    modules do not import each other."""

    clock: Callable[[], int]
    app_focus: bool
    _driver: Any

    @property
    def screen_stack(self) -> list[Any]: ...

    @property
    def deck_screen(self) -> Any: ...

    def notify(self, message: str, *args: Any, **kwargs: Any) -> None: ...

    def post_message(self, message: Any) -> bool: ...


class AttentionNotifications:
    """Tells the person of a change of state into one that needs them, as the app's catalog
    reports them. Everything that reaches outside is injectable: ``write`` (the terminal's bytes),
    ``run`` (a notifier's command line, run as an app job), the environment, platform and PATH
    lookup the channels are chosen from, the clock."""

    def __init__(
        self,
        app: NotifyingApp,
        config: NotifyConfig,
        *,
        write: Callable[[str], object] | None = None,
        run: Callable[[list[str]], object] = run_command,
        env: Mapping[str, str] | None = None,
        platform: str | None = None,
        which: Callable[[str], str | None] = shutil.which,
        clock: Callable[[], int] | None = None,
    ) -> None:
        self.app = app
        self.choice = choose(config, os.environ if env is None else env, platform or sys.platform, which)
        self.notifier = Notifier(config)
        self._write = write or self._to_terminal
        self._run = run
        self._clock = clock or app.clock
        self.typed_ms: int | None = None
        self.looks = 0  # the catalog's looks taken (tests wait for them)
        self._said: set[str] = set()  # the failures said already
        self._commands: ModelThread[Jobs] | None = None  # made at the first notifier command

    def typed(self) -> None:
        """The person typed in the app (``quiet_while_typing``)."""
        self.typed_ms = self._clock()

    def describe(self) -> list[str]:
        return self.choice.lines()

    # ------------------------------------------------------------------ the UI thread

    def take(self, look: CatalogChanged) -> None:
        """One look of the catalog: its changes of state (``Notifier`` tells a first sight from a change)."""
        self.looks += 1
        present = {record.path: record for record in look.records}
        changed = list(look.changed)
        for seen in self.notifier.take(changed, present, self._clock(), self.shown, self.typed_ms):
            self.tell(notification_text(seen))

    def shown(self, path: str) -> bool:
        """The session or conversation is on the deck screen the person sees (a conversation's
        screen shows its pideck session too; not a deck under the overview or the timeline) and the
        app has focus."""
        from textual.screen import ModalScreen

        from tui.screens.deck import DeckScreen

        if not self.app.app_focus:
            return False
        screen = next((s for s in reversed(self.app.screen_stack) if not isinstance(s, ModalScreen)), None)
        if not isinstance(screen, DeckScreen):
            return False
        view = screen.view
        here = {view.path, *((view.bound.path,) if view.bound is not None else ())}
        return os.path.realpath(path) in {os.path.realpath(p) for p in here}

    def tell(self, text: str) -> None:
        """One notification, by every chosen channel, and its line in the message log."""
        deliver(self.choice, text, write=self._write, run=self._run_in_thread)
        try:
            self.app.deck_screen.message_log.add(f"Notified: {text}", "info", "notify")
        except (LookupError, NoMatches):
            pass  # (the overview alone: no message log)

    def _to_terminal(self, data: str) -> None:
        # Through Textual's driver, never sys.stdout or app.console.file: the driver's writer thread
        # writes every frame whole and in order, so a sequence handed to it lands between two frames
        # and never inside one (a write to the file from here could split an escape sequence of a
        # frame being written). It is how Textual itself rings the bell (App.bell) and sets the
        # clipboard (OSC 52). (A headless app's driver drops it: it has no terminal.)
        driver = self.app._driver
        if driver is not None:
            driver.write(data)

    def _run_in_thread(self, argv: list[str]) -> None:
        """A notifier's command line, on the notifications' own thread (one that hangs holds up no
        other job of the app); its failure comes back as a ``NotifierFailed``."""
        if self._commands is None:
            self._commands = ModelThread(Jobs("notifier"), self.app.post_message, poll=1.0, following=False)
            self._commands.start()
        self._commands.call(self._run_command, argv)

    def _run_command(self, argv: list[str]) -> None:
        try:
            self._run(argv)
        except Exception as exc:  # a notifier missing, failing or hanging: said once, never raised
            self.app.post_message(NotifierFailed(
                f"The desktop notifier ({os.path.basename(argv[0])}) failed: {exc}. Notifications go on by "
                "the other channels."))

    def stop(self) -> None:
        if self._commands is not None:
            self._commands.stop()

    def say_once(self, key: str, text: str) -> None:
        if key in self._said:
            return
        self._said.add(key)
        try:
            self.app.deck_screen.report(text, "warning", "notify")
        except (LookupError, NoMatches):
            self.app.notify(text, severity="warning", markup=False)
