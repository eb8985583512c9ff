"""The model threads' promises (docs/tui.md#one-thread-per-screen), each one a review found broken:
no append lost while a view is built, no job dropped when a screen goes, a failed first read tried
again, the timeline's file trouble in its title, and keys typed behind a focus move kept in order."""

from __future__ import annotations

import time

from core.deck.deck import Deck
from core.session.log import SessionLog
from history_fixtures import shown, timeline_app
from test_tui_command_line import burst
from tui.models import deck as deck_model
from tui.models.thread import Model, ModelThread
from tui.text import clock_time
from tui.widgets.command_line import CommandLine, FilterBar
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.message_log import MessageLog
from tui_fixtures import demo_deck, make_app, run, settled, type_line, wait_for


def said(app) -> list[str]:
    return [message for _, _, message in app.query_one(MessageLog).messages]


def test_an_append_while_the_view_is_built_is_not_lost(tmp_path, monkeypatch):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)
    other = Deck(SessionLog.open(deck.log.path))
    build, armed = deck_model.build_view, []

    def build_and_append(*args, **kwargs):
        view = build(*args, **kwargs)
        if armed:  # another process appends while the view of the app's own command is built
            armed.clear()
            other.apply("/agent-state add w2 Written by another process meanwhile")
        return view

    monkeypatch.setattr(deck_model, "build_view", build_and_append)

    async def scenario(pilot):
        await settled(pilot)
        table = app.query_one("#work-items", KeyedTable)
        armed.append(True)
        await type_line(pilot, "/agent-state add mine Mine")
        assert await wait_for(pilot, lambda: "w2" in table.keys and "mine" in table.keys)
        assert app.deck_screen.view.entries == len(SessionLog.open(deck.log.path).records)

    run(app, scenario)


def test_every_session_in_the_header_count_opens_without_an_error(tmp_path):
    app = make_app(demo_deck(tmp_path), show_all=True)

    async def scenario(pilot):
        await settled(pilot)
        assert not [m for m in said(app) if "unexpected error" in m]
        assert app.deck_screen.opened

    run(app, scenario)


def test_a_failed_first_view_is_tried_again_and_the_screen_goes_on(tmp_path, monkeypatch):
    deck = demo_deck(tmp_path)
    build, failures = deck_model.build_view, [True]

    def fails_once(*args, **kwargs):
        if failures:
            failures.clear()
            raise RuntimeError("boom")
        return build(*args, **kwargs)

    monkeypatch.setattr(deck_model, "build_view", fails_once)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        assert await wait_for(pilot, lambda: app.deck_screen.opened)
        assert any("unexpected error RuntimeError: boom" in m for m in said(app))
        await settled(pilot)
        await type_line(pilot, "/agent-state add after After the failure")
        assert "after" in [i["id"] for i in app.deck_screen.view.state["workItems"]]

    run(app, scenario)


def test_stopping_runs_the_jobs_handed_over_first():
    """A command typed just before the screen goes away is still applied, and answered."""
    ran: list[str] = []
    posted: list[object] = []
    thread = ModelThread(Model(), posted.append, poll=0.01)
    thread.start()
    thread.call(lambda: (time.sleep(0.05), ran.append("slow")))
    thread.call(lambda: ran.append("answered") or "done", answer=True)
    thread.stop()
    for _ in range(200):
        if not thread._jobs.unfinished_tasks:
            break
        time.sleep(0.01)
    assert ran == ["slow", "answered"]
    assert [getattr(m, "outcome", None) for m in posted] == ["done"]


def test_the_timeline_says_when_its_file_is_gone(tmp_path):
    app = timeline_app(tmp_path, follow=True)

    async def scenario(pilot):
        await pilot.press("f8")
        screen = await shown(pilot)
        for path in tmp_path.glob("*.jsonl"):
            path.unlink()
        assert await wait_for(pilot, lambda: screen.problem is not None)
        assert "gone" in str(screen.query_one("#timeline-title").render())

    run(app, scenario)


def test_keys_typed_behind_a_focus_move_reach_the_widget_they_were_meant_for(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        line, bar = app.query_one(CommandLine), app.query_one(FilterBar)
        await burst(pilot, "ctrl+f", *"pars")
        assert (line.value, bar.value) == ("", "pars")
        await burst(pilot, "enter", *"/agent")
        assert (line.value, bar.value) == ("/agent", "pars")
        await burst(pilot, "ctrl+f", "escape", *"-x")
        assert (line.value, bar.value) == ("/agent-x", "")
        line.value = ""
        table = app.query_one("#work-items", KeyedTable)
        start = table.cursor_row
        await burst(pilot, "alt+1", "j", "j")
        assert (line.value, table.cursor_row) == ("", start + 2)

    run(app, scenario)


def test_a_timestamp_that_is_no_time_is_shown_literally():
    assert "\x1b" not in clock_time("\x1b]0;PWNED") and "\x1b" not in clock_time("\x1b[2J", dated=True)
