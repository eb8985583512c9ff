"""The app's follower (tui/notifications.py), in a Pilot run with a scripted catalog as the app's: one
notification per change on each channel (the terminal's bytes as the app's driver got them, the
notifier's command line recorded), one message log line each, none for the conversation on screen
while the app has focus, held while the person types; the help says what was chosen."""

from __future__ import annotations

from collections import deque
from typing import Any

from textual import events
from textual.widgets import Static

from notify_helpers import CLAUDE, TOLD, open_work, seen, working
from tui_fixtures import demo_deck, make_app, run, wait_for

from core.catalog.states import NEEDS_YOU
from core.config.settings import NotifyConfig
from tui.notifications import AttentionNotifications

LINUX = {"TERM": "foot", "DISPLAY": ":0"}


def which(name: str) -> str | None:
    return "/usr/bin/notify-send" if name == "notify-send" else None


class ScriptedWatch:
    """The members of ``Catalog`` the app's catalog model reads; each look returns the next
    scripted changes (none when the script is out)."""

    rows: list = []
    moved = True  # (every look is posted: the test counts them)
    pending = 0

    def __init__(self, first: list) -> None:
        self.script: deque[list] = deque([first])
        self.records: dict[str, Any] = {}
        self.calls = 0

    def look(self) -> list:
        changed = self.script.popleft() if self.script else []
        for s in changed:
            self.records[s.path] = s
        self.calls += 1
        return changed

    def ranked(self) -> list:
        return list(self.records.values())

    def attentions(self) -> dict:
        return {}


class Rig:
    def __init__(self, first: list, env: dict[str, str] = LINUX, run: Any = None) -> None:
        self.watch = ScriptedWatch(first)
        self.commands: list[list[str]] = []
        self.written: list[str] = []
        self.now = 0
        self.env = env
        self.run = run or self.commands.append
        self.follower: AttentionNotifications | None = None

    def make(self, app: Any) -> AttentionNotifications:
        self.follower = AttentionNotifications(app, NotifyConfig(), run=self.run, env=self.env, platform="linux", which=which,
                                               clock=lambda: self.now)
        return self.follower

    async def start(self, pilot: Any) -> None:
        """Once the first look is taken, the driver's output is recorded (a headless driver writes
        nothing of its own: what it gets is what the terminal would)."""
        assert await wait_for(pilot, lambda: self.follower is not None and self.follower.looks >= 1)
        pilot.app._driver.write = self.wrote

    def wrote(self, data: str) -> None:
        if not data.startswith("\x1b]22;"):  # (Textual's own: the mouse pointer's shape)
            self.written.append(data)

    async def look(self, pilot: Any, *changes: Any) -> None:
        """One look with these changes, taken on the UI thread, and two more without."""
        self.watch.script.extend([list(changes), [], []])
        follower = self.follower
        assert follower is not None
        assert await wait_for(pilot, lambda: not self.watch.script and follower.looks >= self.watch.calls)

    def logged(self, app: Any) -> list[tuple[str, str, str]]:
        return [m for m in app.deck_screen.message_log.messages if m[1] == "notify"]


def app_with(tmp_path, rig: Rig) -> Any:
    return make_app(demo_deck(tmp_path), notifications=rig.make, catalog=lambda scope: rig.watch, overview_poll=0.01)


def test_one_notification_per_change_by_each_channel_through_tmux(tmp_path) -> None:
    rig = Rig([working(previous=None), open_work(previous=None)], env={**LINUX, "TMUX": "/tmp/tmux-1/default,7,0"})

    async def scenario(pilot):
        await rig.start(pilot)
        assert rig.written == [] and rig.commands == []  # the first look's states are no changes
        await rig.look(pilot, seen())
        await rig.look(pilot)
        assert await wait_for(pilot, lambda: len(rig.commands) == 1)
        assert rig.written == [f"\x1bPtmux;\x1b\x1b]777;notify;pideck;{TOLD}\x07\x1b\\"]
        assert rig.commands == [["/usr/bin/notify-send", "--app-name=pideck", "--", "pideck", TOLD]]
        assert rig.logged(pilot.app) == [("info", "notify", f"Notified: {TOLD}")]
        await rig.look(pilot, open_work(previous=None))  # first seen: no change
        assert len(rig.written) == 1

    run(app_with(tmp_path, rig), scenario)


def test_none_for_the_conversation_on_screen_while_the_app_has_focus(tmp_path) -> None:
    rig = Rig([], env={"TERM": "xterm-kitty"})  # no desktop session: the terminal alone

    async def scenario(pilot):
        await rig.start(pilot)
        here = pilot.app.deck_screen.view.path
        await rig.look(pilot, seen(here, kind="pideck"))
        assert rig.written == [] and rig.logged(pilot.app) == []
        pilot.app.post_message(events.AppBlur())
        assert await wait_for(pilot, lambda: not pilot.app.app_focus)
        await rig.look(pilot, working(here, previous=NEEDS_YOU), seen(here, kind="pideck"))
        text = "pideck session demo needs you: Claude needs your permission to use Bash"
        assert rig.written == [f"\x1b]99;;pideck: {text}\x1b\\"]
        assert rig.commands == []

    run(app_with(tmp_path, rig), scenario)


def test_held_while_the_person_types_then_told(tmp_path) -> None:
    rig = Rig([], env={"TERM_PROGRAM": "iTerm.app"})

    async def scenario(pilot):
        await rig.start(pilot)
        rig.now = 10_000
        await pilot.press("x")  # the command line's edit
        assert rig.follower is not None and rig.follower.typed_ms == 10_000
        await rig.look(pilot, seen())
        assert rig.written == []
        rig.now = 15_000
        await rig.look(pilot)
        assert rig.written == [f"\x1b]9;pideck: {TOLD}\x07"]

    run(app_with(tmp_path, rig), scenario)


def test_a_failing_notifier_is_said_once(tmp_path) -> None:
    def failing(argv: list[str]) -> None:
        raise OSError("no bus")

    rig = Rig([], env={"TERM": "xterm", "DISPLAY": ":0"}, run=failing)

    async def scenario(pilot):
        await rig.start(pilot)
        await rig.look(pilot, seen(), open_work())
        warning = ("warning", "notify", "The desktop notifier (notify-send) failed: no bus. Notifications go on by "
                                        "the other channels.")
        assert await wait_for(pilot, lambda: warning in rig.logged(pilot.app))
        await rig.look(pilot)
        assert rig.written == []  # notify-send is chosen: no bell
        assert rig.logged(pilot.app).count(warning) == 1
        assert [m for m in rig.logged(pilot.app) if m[0] == "info"] == [
            ("info", "notify", "Notified: Claude Code conversation 2aa06482 needs you: Claude needs your permission "
                               "to use Bash"),
            ("info", "notify", "Notified: Codex conversation 019a0b7e stopped with open work: its turn ended with 3 "
                               "open")]

    run(app_with(tmp_path, rig), scenario)


def test_the_bell_when_no_channel_is_there(tmp_path) -> None:
    rig = Rig([], env={"TERM": "xterm"})

    async def scenario(pilot):
        await rig.start(pilot)
        await rig.look(pilot, seen(CLAUDE))
        assert rig.written == ["\x07"] and rig.commands == []

    run(app_with(tmp_path, rig), scenario)


def test_the_help_says_what_was_chosen_and_a_test_is_sent(tmp_path) -> None:
    rig = Rig([], env={"TERM": "foot"})

    async def scenario(pilot):
        await rig.start(pilot)
        await pilot.press("f1")
        await pilot.pause()
        body = str(pilot.app.screen.query_one("#help-body", Static).render())
        assert "Notifications ([notify]; the palette's \"Test notification\" sends one)\n" in body
        assert "  terminal: OSC 777 (TERM starts with foot)\n" in body
        assert "  bell: not rung (another channel is chosen)\n" in body
        pilot.app.action_test_notification()  # the palette's "Test notification"
        assert rig.written == ["\x1b]777;notify;pideck;a test notification\x07"]

    run(app_with(tmp_path, rig), scenario)


def test_headless_and_unasked_the_app_follows_nothing(tmp_path) -> None:
    async def scenario(pilot):
        assert pilot.app.attention_notifier is None
        assert pilot.app.notification_lines() == ["None: the app runs without a terminal."]

    run(make_app(demo_deck(tmp_path), follow=True), scenario)


def test_the_real_watch_follows_the_directory(tmp_path) -> None:
    made: list[AttentionNotifications] = []

    def make(app: Any) -> AttentionNotifications:
        made.append(AttentionNotifications(app, NotifyConfig(), env={}))
        return made[0]

    async def scenario(pilot):
        assert await wait_for(pilot, lambda: made[0].looks >= 1 and pilot.app.catalog_thread.model.looks >= 2)
        assert [m for m in pilot.app.deck_screen.message_log.messages if m[1] == "notify"] == []

    run(make_app(demo_deck(tmp_path), notifications=make, overview_poll=0.01), scenario)
