"""The [tui] settings: the theme and the command history outlive a run (kept with the config,
here a temporary PIDECK_CONFIG), and the watchdog runs only where the setting allows it, visibly."""

from __future__ import annotations

import os
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from core.history import history_path
from core.todo.config import TuiConfig, set_config_value, show_config
from tui.widgets.command_line import CommandLine
from tui.widgets.header import DeckHeader
from tui.widgets.message_log import MessageLog
from tui_fixtures import demo_deck, make_app, open_deck, pi_session, run, settled, type_line, wait_for


def config_file() -> Path:
    return Path(os.environ["PIDECK_CONFIG"])


def test_the_theme_is_remembered(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        assert app.theme == "textual-dark"
        app.theme = "nord"  # what the palette's "Change theme" does
        await app.workers.wait_for_complete()

    run(app, scenario)
    assert tomllib.loads(config_file().read_text())["tui"]["theme"] == "nord"
    again = make_app(demo_deck(tmp_path / "other", ))

    async def check(pilot):
        assert again.theme == "nord"

    run(again, check)


def test_command_history_is_remembered(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await type_line(pilot, "/agent-state status")
        await type_line(pilot, "/agent-handoff status")
        await app.workers.wait_for_complete()

    run(app, scenario)
    assert history_path().parent == config_file().parent
    again = make_app(demo_deck(tmp_path / "other"))

    async def check(pilot):
        line = again.query_one(CommandLine)
        await pilot.press("up")
        assert line.value == "/agent-handoff status"
        await pilot.press("up")
        assert line.value == "/agent-state status"

    run(again, check)


def test_history_keeps_the_configured_number_of_lines(tmp_path):
    set_config_value("tui.history_size", "2")
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        for n in range(4):
            await type_line(pilot, f"/agent-progress add m{n}")
        await app.workers.wait_for_complete()
        assert app.history == ["/agent-progress add m2", "/agent-progress add m3"]

    run(app, scenario)
    assert make_app(demo_deck(tmp_path / "other")).history == ["/agent-progress add m2", "/agent-progress add m3"]


def test_settings_are_shown_validated_and_documented():
    with pytest.raises(Exception, match="watchdog must be one of own, all, off"):
        set_config_value("tui.watchdog", "sometimes")
    assert set_config_value("tui.watchdog", "off") == TuiConfig(watchdog="off")
    assert 'watchdog = "off"' in show_config()
    docs = (Path(__file__).parents[2] / "docs" / "tui.md").read_text()
    for key in (f.name for f in fields(TuiConfig)):
        assert f"`{key}`" in docs, key


def _tick(app, deck):
    deck.todo.clock = lambda: 10**13  # long after the newest entry
    app.deck_screen.watchdog()


def header_text(app) -> str:
    return "".join(s.text for s in app.query_one(DeckHeader).render_line(0))


def test_the_watchdog_is_on_for_pideck_sessions_and_says_so(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        assert "WATCHDOG" in header_text(app)
        entries = len(deck.log.records)
        _tick(app, deck)
        await settled(pilot)
        assert len(deck.log.records) == entries + 1
        log = app.query_one(MessageLog).messages
        assert ("info", "watchdog") == log[-1][:2] and "We poked it for you" in log[-1][2]

    run(app, scenario)


@pytest.mark.parametrize("mode, pokes", [("own", False), ("all", True)])
def test_the_watchdog_leaves_pi_sessions_alone_unless_asked(tmp_path, mode, pokes):
    set_config_value("tui.watchdog", mode)
    deck = open_deck(pi_session(tmp_path), writable=True)
    deck.call_tool("todo", {"todos": [{"id": "a", "content": "Open", "status": "pending", "priority": "low",
                                       "confidence": 50}]}).text
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        assert ("WATCHDOG" in header_text(app)) is pokes
        entries = len(deck.log.records)
        _tick(app, deck)
        await settled(pilot)
        assert (len(deck.log.records) > entries) is pokes

    run(app, scenario)


def test_the_watchdog_can_be_turned_off(tmp_path):
    set_config_value("tui.watchdog", "off")
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        assert "WATCHDOG" not in header_text(app)
        entries = len(deck.log.records)
        _tick(app, deck)
        await settled(pilot)
        assert len(deck.log.records) == entries

    run(app, scenario)
