"""The app's notifications (docs/notifications.md): an ``AttentionWatch`` followed on a thread of
its own, its changes of state told by ``core.notify`` on the UI thread, where the app knows what is
on screen, whether it has focus and when the person last typed.

The thread only looks (reading every session and conversation of the directory takes a while);
it hands each look to the UI thread as a message, never waiting on it. A notifier command runs on
a short-lived thread of its own; a failure of a channel is said once, never raised.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from typing import Any, Callable, Mapping, Protocol

from textual.css.query import NoMatches
from textual.message import Message

from core.attention import AttentionWatch, Seen
from core.notify import Notifier, choose, deliver, notification_text, run_command
from core.todo.config import NotifyConfig
from tui.messages import FileTrouble, ModelFailed, NotifierCall
from tui.models.thread import Model, ModelThread



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

    def post_message(self, message: Message) -> bool: ...

    def notify(self, message: str, *args: Any, **kwargs: Any) -> None: ...

LOOK_S = 0.5
"""How often (seconds) the follower looks at every state: a change is told within about this long."""


class AttentionNotifications:
    """Follows the states of ``cwd``'s sessions and conversations and tells the person of a change
    into one that needs them. Everything that reaches outside is injectable: ``watch`` (made on the
    thread), ``write`` (the terminal's bytes), ``run`` (a notifier's command line, called on a
    thread), the environment, platform and PATH lookup the channels are chosen from, the clock."""

    def __init__(
        self,
        app: NotifyingApp,
        config: NotifyConfig,
        cwd: str | None,
        *,
        watch: Callable[[], AttentionWatch] | None = None,
        every: float = LOOK_S,
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
        self._make_watch = watch or (lambda: AttentionWatch(cwd))
        self._watch: AttentionWatch | None = None
        self._write = write or self._to_terminal
        self._run = run
        self._clock = clock or app.clock
        self.typed_ms: int | None = None
        self.looks = 0  # looks taken on the UI thread (tests wait for them)
        self._said: set[str] = set()  # the failures said already
        self._thread = ModelThread(_Looks(self), self._from_thread, poll=every)

    def start(self) -> None:
        self._thread.start()  # the first look at once (its states are no changes)

    def stop(self) -> None:
        self._thread.stop()

    def typed(self) -> None:
        """The person typed in the app (``quiet_while_typing``)."""
        self.typed_ms = self._clock()

    def describe(self) -> list[str]:
        return self.choice.lines()

    # ------------------------------------------------------------------ the thread

    def _look(self) -> None:
        if self._watch is None:
            self._watch = self._make_watch()
        watch = self._watch
        changed = watch.look()
        present = dict(watch.seen)
        self.app.post_message(NotifierCall(lambda: self.take(changed, present)))

    def _from_thread(self, message: object) -> None:
        """The thread's own messages go to the app as calls; a failure is said once."""
        if isinstance(message, NotifierCall):
            self.app.post_message(message)
        elif isinstance(message, (FileTrouble, ModelFailed)):
            text = message.problem if isinstance(message, FileTrouble) else message.text
            if text is not None:
                self.app.post_message(NotifierCall(lambda: self.say_once(
                    "look", f"Could not read the states of the sessions for notifications: {text}")))

    # ------------------------------------------------------------------ the UI thread

    def take(self, changed: list[Seen], present: Mapping[str, Seen]) -> None:
        self.looks += 1
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
        def run() -> None:
            try:
                self._run(argv)
            except Exception as exc:  # a notifier missing, failing or hanging: said once, never raised
                text = (f"The desktop notifier ({os.path.basename(argv[0])}) failed: {exc}. Notifications "
                        "go on by the other channels.")
                self.app.post_message(NotifierCall(lambda: self.say_once("desktop", text)))

        threading.Thread(target=run, daemon=True, name="notifier").start()

    def say_once(self, key: str, text: str) -> None:
        if key in self._said:
            return
        self._said.add(key)
        try:
            self.app.deck_screen.report(text, "warning", "notify")
        except (LookupError, NoMatches):
            self.app.notify(text, severity="warning", markup=False)


class _Looks(Model):
    """The follower's side on its thread: a look at once, then one every poll."""

    name = "notifications"

    def __init__(self, follower: AttentionNotifications) -> None:
        super().__init__()
        self._follower = follower

    def open(self) -> None:
        self._follower._look()

    def idle(self, look: bool) -> None:
        self._follower._look()
