"""The app's start (docs/tui.md#the-first-frame): the first frame shows the first view, nothing
else the model does competes with it, the session is read on a thread while the app's modules are
imported, only what the first frame needs is imported, and the collector is off until then."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.deck.deck import Deck
from core.session.errors import SessionError
from core.session.log import SessionLog
from tui import launcher
from tui.app import PideckApp
from tui.messages import FileTrouble
from tui.models.thread import Model, ModelThread
from tui.screens.deck import DeckScreen
from tui.widgets.command_line import FilterRow
from tui.widgets.events import ActivityPanel, EventList
from tui.widgets.message_log import MessageLog
from tui_fixtures import demo_deck, make_app, open_deck, run, settled

ROOT = Path(__file__).resolve().parents[2]


def test_the_first_frame_shows_the_first_view(tmp_path, monkeypatch):
    """The view is drawn as the screen is mounted, before its first frame, not after an
    `opening…` frame."""
    drawn_at_mount: list[bool] = []
    mounted = DeckScreen.on_mount

    def on_mount(self):
        mounted(self)
        drawn_at_mount.append(self.opened)

    monkeypatch.setattr(DeckScreen, "on_mount", on_mount)
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        assert app.deck_screen.view.entries > 0

    run(app, scenario)
    assert drawn_at_mount == [True]


def test_the_widgets_hidden_at_the_start_come_after_the_first_frame(tmp_path):
    app = make_app(demo_deck(tmp_path), warnings=["config: a warning said while the app starts"])

    async def scenario(pilot):
        await settled(pilot)
        screen = app.deck_screen
        order = [w.id for w in screen.children]
        assert order.index("goals-more") < order.index("activity") < order.index("log") < order.index("filter-row") \
            < order.index("strip")
        assert not any(w.display for w in (app.query_one(ActivityPanel), app.query_one(MessageLog),
                                           app.query_one(FilterRow)))
        log = app.query_one(MessageLog)
        assert ("warning", "open", "config: a warning said while the app starts") in log.messages
        await pilot.press("ctrl+l")
        await pilot.pause()
        await pilot.pause()
        assert log.display and "a warning said while the app starts" in " ".join(line.text for line in log.lines)
        await pilot.press("f3")
        await pilot.pause()
        assert app.query_one(ActivityPanel).display and app.query_one(ActivityPanel).query_one(EventList).events

    run(app, scenario)


def test_a_key_pressed_before_the_later_widgets_are_there_waits_for_them(tmp_path, monkeypatch):
    """f3 and ctrl+f in the first moments: the widget they need is mounted first."""
    monkeypatch.setattr(DeckScreen, "on_mount", _without_later(DeckScreen.on_mount))
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        screen = app.deck_screen
        assert not screen.query(ActivityPanel) and screen.busy  # (nothing mounted them yet)
        await pilot.press("f3")
        await pilot.pause()
        assert screen.query_one(ActivityPanel).display
        await pilot.press("ctrl+f", *"par")
        await pilot.pause()
        assert screen.query_one(FilterRow).display and screen.rule.text == "par"

    run(app, scenario)


def _without_later(on_mount):
    """``on_mount`` as it is, but nothing mounts the later widgets on its own."""

    def wrapped(self):
        calls = []
        original = self.call_after_refresh

        def call_after_refresh(callback, *args, **kwargs):
            if callback == self.mount_later:
                calls.append(callback)
                return True
            return original(callback, *args, **kwargs)

        self.call_after_refresh = call_after_refresh
        try:
            on_mount(self)
        finally:
            del self.call_after_refresh
        assert calls

    return wrapped


def test_an_append_while_the_app_starts_is_in_the_first_view(tmp_path):
    """Another writer appends after the session was read and before its first view is built: the
    first view has it (the model takes in what was appended; the file's key is taken before)."""
    deck = demo_deck(tmp_path)
    opened = open_deck(deck.log.path)
    Deck(SessionLog.open(deck.log.path)).apply("/agent-state add late Appended while the app started")
    app = make_app(opened, follow=False)

    async def scenario(pilot):
        await settled(pilot)
        assert "late" in [i["id"] for i in app.deck_screen.view.state["workItems"]]
        assert app.deck_screen.view.entries == len(SessionLog.open(deck.log.path).records)

    run(app, scenario)


class _Opens(Model):
    def __init__(self) -> None:
        super().__init__()
        self.ran: list[str] = []

    def open(self) -> None:
        self.ran.append("open")
        self.post(FileTrouble("a problem, said first"))


def test_the_model_holds_its_messages_and_waits_for_the_first_paint():
    posted: list[object] = []
    model = _Opens()
    thread = ModelThread(model, posted.append, poll=0.01, following=False, first_paint=True)
    thread.start()
    thread.call(lambda: model.ran.append("next"))
    assert thread.wait_first(5)
    time.sleep(0.1)
    assert model.ran == ["open"] and posted == []  # held, and the next job waits for the paint
    held = thread.release()
    assert [type(m) for m in held] == [FileTrouble]
    thread.resume()
    for _ in range(200):
        if model.ran == ["open", "next"]:
            break
        time.sleep(0.01)
    assert model.ran == ["open", "next"]
    thread.call(lambda: None, answer=True)
    for _ in range(200):
        if posted:
            break
        time.sleep(0.01)
    assert posted  # from now on posted as they come
    thread.stop()


def test_a_model_never_shown_goes_on_after_a_while(monkeypatch):
    monkeypatch.setattr(ModelThread, "FIRST_PAINT_S", 0.05)
    model = _Opens()
    thread = ModelThread(model, lambda message: None, poll=0.01, following=False, first_paint=True)
    thread.start()
    thread.call(lambda: model.ran.append("next"))
    for _ in range(300):
        if model.ran == ["open", "next"]:
            break
        time.sleep(0.01)
    assert model.ran == ["open", "next"]
    thread.stop()


def test_the_session_is_read_on_a_thread_and_its_error_raised_where_the_result_is_taken():
    where: list[str] = []

    def fails():
        where.append(threading.current_thread().name)
        raise SessionError("not a session")

    opening = launcher.Opening(fails)
    with pytest.raises(SessionError, match="not a session"):
        opening.result()
    assert where == ["pideck-opening"]


def test_the_collector_is_off_while_the_app_starts_and_on_again_after(tmp_path, monkeypatch):
    path = demo_deck(tmp_path).log.path
    seen: list[bool] = []

    def no_terminal() -> bool:
        seen.append(gc.isenabled())
        return False

    monkeypatch.setattr(launcher, "has_terminal", no_terminal)
    assert gc.isenabled()
    assert launcher.main(["--session", str(path)]) == 2
    assert seen == [False] and gc.isenabled()
    seen.clear()
    try:
        launcher.main(["--version"])  # a headless command: never turned off
    except SystemExit:
        pass
    assert gc.isenabled()


@pytest.mark.parametrize("words, collecting", [
    (["inspect", "--json"], False), (["diff", "a", "b"], False), (["gate"], False), (["hook", "claude"], False),
    (["run", "/todos"], False), (["tool", "todo"], False),
    (["status"], True), (["sessions"], True), (["usage"], True), (["watch"], True), (["mcp"], True), (["serve"], True),
])
def test_a_command_that_reads_one_session_and_exits_runs_without_the_collector(monkeypatch, words, collecting):
    """Its objects go at the exit; a command that reads a whole folder, or goes on, collects."""
    import core.cli.main

    seen: list[bool] = []
    monkeypatch.setattr(core.cli.main, "main", lambda argv, tui: seen.append(gc.isenabled()) or 0)
    assert launcher.main(words) == 0
    assert seen == [collecting] and gc.isenabled()


def test_the_app_is_told_of_its_first_frame(tmp_path):
    told: list[int] = []
    app = PideckApp(demo_deck(tmp_path), follow=False, flash=0, started=lambda: told.append(1))

    async def scenario(pilot):
        await settled(pilot)
        assert app.first_frame_shown
        await pilot.pause(0.05)
        assert told == [1]

    run(app, scenario)


FIRST_FRAME_UNLOADED = ("markdown_it", "rich.pretty", "tui.screens.todos", "tui.screens.timeline",
                        "tui.screens.overview", "tui.screens.help", "tui.screens.detail", "tui.screens.packet_form",
                        "tui.screens.picker", "tui.notifications", "tui.widgets.message_log", "core.catalog.attention",
                        "core.sources.log")
"""What the app's start never imports: later screens and dialogs, the notifications' follower, the
message log's widget (Rich's pretty printer with it), the inbox's and a conversation's modules."""


def test_the_app_imports_only_what_its_first_frame_needs():
    code = ("import json, sys; import tui.launcher, core.cli.main, core.catalog.opening; import tui.app; "
            f"print(json.dumps([m for m in {list(FIRST_FRAME_UNLOADED)!r} if m in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
