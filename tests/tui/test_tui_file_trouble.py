"""The session file deleted, emptied or made read-only under a running app (issue 9, items 3 and
5): the header says so, the app keeps running and keeps showing what it read, nothing is
appended, and a crash is never exit status 0."""

from __future__ import annotations

import asyncio
import os

import pytest
from file_faults import not_writable, opening_to_write_fails

from core.catalog.opening import Opened
from core.session.errors import FILE_GONE, NO_HEADER, cannot_write
from tui.app import PideckApp
from tui.models.thread import error_log
from tui.launcher import run_tui
from tui.widgets.header import DeckHeader, badges
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.message_log import MessageLog
from tui_fixtures import demo_deck, make_app, run, settled, type_line, wait_for

FAR_FUTURE = 10**13  # long after the demo's newest entry: the watchdog wants to poke


def messages(app: PideckApp) -> list[tuple[str, str, str]]:
    return list(app.query_one(MessageLog).messages)


def labels(app: PideckApp) -> list[str]:
    info = app.query_one(DeckHeader).info
    assert info is not None
    return [label.strip() for label, _ in badges(info)]


def test_a_deleted_file_is_gone_in_the_header_and_nothing_crashes(tmp_path):
    deck = demo_deck(tmp_path)
    path = deck.log.path
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        work = app.query_one("#work-items", KeyedTable)
        shown = list(work.keys)
        assert labels(app)[0] == "LIVE"
        path.unlink()
        assert await wait_for(pilot, lambda: labels(app)[0] == "FILE GONE")
        # the watchdog tick that used to end the app, then a command: both refused, nothing written
        deck.todo.clock = lambda: FAR_FUTURE
        app.deck_screen.run_on_deck(lambda d: d.watchdog_tick())
        await settled(pilot)
        await type_line(pilot, "/agent-state add late Too late")
        assert not path.exists()
        assert any(message == FILE_GONE for _, _, message in messages(app))
        assert not any(level == "error" and "Errno" in message for level, _, message in messages(app))
        assert work.keys == shown  # still showing what it read
        assert app.is_running
        # the file comes back (restored from a backup): following resumes
        deck.log.path.write_bytes(b"")
        assert await wait_for(pilot, lambda: labels(app)[0] == "LIVE")

    run(app, scenario)


def test_a_file_made_read_only_says_read_only_and_takes_no_write(tmp_path, monkeypatch):
    deck = demo_deck(tmp_path)  # open todos, auto-poke armed
    path = deck.log.path
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        before = path.read_bytes()
        not_writable(monkeypatch, path)
        os.chmod(path, 0o444)  # (the mode change is what the worker notices)
        assert await wait_for(pilot, lambda: labels(app) == ["LIVE", "READ-ONLY"])
        await type_line(pilot, "/agent-state add a Try to write")
        assert path.read_bytes() == before
        assert any(message == cannot_write("permission denied") for _, _, message in messages(app))
        assert not any(level == "error" for level, _, _ in messages(app))
        assert app.is_running

    run(app, scenario)


def test_a_permission_error_at_the_append_itself_is_a_refusal_not_a_crash(tmp_path, monkeypatch):
    deck = demo_deck(tmp_path)
    path = deck.log.path
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        before = path.read_bytes()
        opening_to_write_fails(monkeypatch, path)
        await type_line(pilot, "/agent-state add a Try to write")
        assert any(message == cannot_write("permission denied") for _, _, message in messages(app))
        assert path.read_bytes() == before and app.is_running

    run(app, scenario)


def test_a_file_emptied_under_the_app_gets_no_headerless_entry(tmp_path):
    deck = demo_deck(tmp_path)
    path = deck.log.path
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        os.truncate(path, 0)
        assert await wait_for(pilot, lambda: app.query_one(DeckHeader).info.entries == 0)
        await type_line(pilot, "/agent-state add a Do it")
        assert path.read_bytes() == b""
        assert any(message == NO_HEADER for _, _, message in messages(app))

    run(app, scenario)


def test_an_unexpected_error_is_reported_and_logged_and_the_screen_goes_on(tmp_path, monkeypatch):
    """An error nothing expects while following the file (here the Deck's refresh breaks once) is
    said in the message log with where its traceback went, the traceback is in pideck's error log,
    and the screen and its thread go on: the next command is applied and drawn."""
    deck = demo_deck(tmp_path)
    refresh = deck.refresh
    broken: list[bool] = []  # (armed once the first view is drawn: its own take-in goes through)

    def broken_once():
        if broken:
            broken.clear()
            raise RuntimeError("boom")
        return refresh()

    monkeypatch.setattr(deck, "refresh", broken_once)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        await settled(pilot)
        broken.append(True)
        with deck.log.path.open("a") as out:  # another writer's line: the model takes it in
            out.write("\n")
        assert await wait_for(pilot, lambda: any("unexpected error" in m for _, _, m in messages(app)))
        said = next(m for _, _, m in messages(app) if "unexpected error" in m)
        log = error_log()
        assert said == f"deck {deck.log.path.name}, following the files: unexpected error RuntimeError: boom " \
                       f"(traceback in {log})"
        assert "Traceback (most recent call last)" in log.read_text() and "RuntimeError: boom" in log.read_text()
        await type_line(pilot, "/agent-state add after-boom Still here")
        assert await wait_for(pilot, lambda: "after-boom" in [i["id"] for i in app.deck_screen.view.state["workItems"]])

    run(app, scenario)


def test_a_failing_model_never_ends_the_app_with_status_0_or_1(tmp_path, monkeypatch):
    """The app goes on after an unexpected error and quits with status 0 when the person quits."""
    deck = demo_deck(tmp_path)
    monkeypatch.setattr("tui.models.thread.file_key", lambda path: object())  # every poll sees a change

    def broken_refresh():
        raise RuntimeError("boom")

    monkeypatch.setattr(deck, "refresh", broken_refresh)

    async def headless(app: PideckApp) -> None:
        async def quit_later() -> None:
            await asyncio.sleep(0.5)
            assert app.is_running  # (the errors did not end it)
            app.exit()

        later = asyncio.ensure_future(quit_later())
        await app.run_async(headless=True, size=(120, 40))
        await later

    monkeypatch.setattr(PideckApp, "run", lambda self, **kw: asyncio.run(headless(self)))
    assert run_tui(Opened(deck)) == 0
    assert error_log().read_text().count("RuntimeError: boom") >= 1


@pytest.mark.parametrize("problem, badge", [("the session file is gone (deleted or moved)", "FILE GONE"),
                                            ("the session file is not readable", "UNREADABLE")])
def test_the_header_badge_names_the_trouble_instead_of_live(problem, badge):
    from tui.widgets.header import HeaderInfo

    info = HeaderInfo(name="s", cwd="/", entries=1, following=True, writable=True, warnings=0, problem=problem)
    assert [label.strip() for label, _ in badges(info)] == [badge]
