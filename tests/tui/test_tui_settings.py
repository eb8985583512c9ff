"""The [tui] settings: the theme and the command history outlive a run (kept with the config,
here a temporary PIDECK_CONFIG), and the idle state (the watchdog's condition) shows only where the
setting allows it, and is never an entry in the log."""

from __future__ import annotations

import os
import tomllib
from dataclasses import fields
from datetime import timedelta
from pathlib import Path

import pytest

from core.deck.deck import Deck
from core.config.history import history_path
from core.session.log import SessionLog
from core.config.settings import TuiConfig, set_config_value, show_config
from tui.widgets.command_line import CommandLine
from tui.widgets.header import DeckHeader
from tui.widgets.message_log import MessageLog
from tui_fixtures import (FIXED_MS, MOMENT, demo_deck, make_app, open_deck, pi_session, run, settled, type_line,
                          wait_for)


def config_file() -> Path:
    return Path(os.environ["PIDECK_CONFIG"])


def test_the_theme_is_remembered(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        assert app.theme == "textual-dark"
        app.theme = "nord"  # what the palette's "Change theme" does
        assert await wait_for(pilot, lambda: not app.jobs.busy)  # (saved on the app's jobs thread)

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
        assert await wait_for(pilot, lambda: not app.jobs.busy)  # (saved on the app's jobs thread)

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
        assert await wait_for(pilot, lambda: not app.jobs.busy)  # (saved on the app's jobs thread)
        assert app.history == ["/agent-progress add m2", "/agent-progress add m3"]

    run(app, scenario)
    assert make_app(demo_deck(tmp_path / "other")).history == ["/agent-progress add m2", "/agent-progress add m3"]


def test_settings_are_shown_validated_and_documented():
    with pytest.raises(Exception, match="watchdog must be one of own, all, off"):
        set_config_value("tui.watchdog", "sometimes")
    assert set_config_value("tui.watchdog", "off") == TuiConfig(watchdog="off")
    assert 'watchdog = "off"' in show_config()
    docs = (Path(__file__).parents[2] / "docs" / "tui.md").read_text()
    for key in TuiConfig._fields:
        assert f"`{key}`" in docs, key


class Clock:
    def __init__(self) -> None:
        self.ms = FIXED_MS

    def __call__(self) -> int:
        return self.ms


def header_text(app) -> str:
    return "".join(s.text for s in app.query_one(DeckHeader).render_line(0))


async def idle_for(pilot, clock: Clock, ms: int) -> None:
    """The fake clock moves on ``ms``; the screen's one-second tick runs at once, then the worker
    gets a few polls (it would have written by then, if it ever did)."""
    clock.ms += ms
    pilot.app.deck_screen.tick()
    await pilot.pause(0.15)
    await settled(pilot)


def test_the_idle_state_is_shown_on_pideck_sessions_and_nothing_is_appended(tmp_path):
    """The demo's 4 todos are open and its cycle armed: past the watchdog's idle time (90 s) the
    header says so and the bell rings once; no entry is ever appended, nothing claims a poke."""
    deck = demo_deck(tmp_path, answers=False)  # (the agent last wrote at the fixed time)
    before = deck.log.path.read_bytes()
    clock = Clock()
    app = make_app(deck, follow=True, poll=0.02, clock=clock)
    bells = []

    async def scenario(pilot):
        app.bell = lambda: bells.append("bell")  # type: ignore[method-assign]
        await settled(pilot)
        await idle_for(pilot, clock, 12_000)
        assert "idle" not in header_text(app) and "● agent active 12 s ago" in header_text(app)
        await idle_for(pilot, clock, 100_000)  # 112 s after the newest entry
        assert "⏸ idle 1 min · 4 open todos" in header_text(app)
        assert bells == ["bell"]
        assert app.query_one(MessageLog).messages[-1][1:] == ("agent", "The agent went quiet with 4 open todos.")
        await idle_for(pilot, clock, 30 * 60_000)  # many ticks of the old watchdog later
        assert "⏸ idle 31 min · 4 open todos" in header_text(app)
        assert bells == ["bell"]  # once per change into the state
        assert deck.log.path.read_bytes() == before
        assert not any("poked it for you" in text for _, _, text in app.query_one(MessageLog).messages)
        assert "WATCHDOG" not in header_text(app)

    run(app, scenario)


ONE_LEFT = {"todos": [{"id": "a", "content": "One left", "status": "in_progress", "priority": "high",
                       "confidence": 80}]}


@pytest.mark.parametrize("tool, arguments, left", [
    ("todo", ONE_LEFT, "1 open todo"),
    ("agent_state_add_work_item", {"id": "w9", "content": "Not a todo write"}, "4 open todos"),
], ids=["a todo write", "another tool"])
def test_the_idle_state_ends_when_the_agent_writes(tmp_path, tool, arguments, left):
    deck = demo_deck(tmp_path, answers=False)  # (the agent last wrote at the fixed time)
    clock = Clock()
    app = make_app(deck, follow=True, poll=0.02, clock=clock)

    async def scenario(pilot):
        await settled(pilot)
        await idle_for(pilot, clock, 100_000)
        assert "⏸ idle 1 min · 4 open todos" in header_text(app)
        now = lambda: MOMENT + timedelta(milliseconds=clock.ms - FIXED_MS)  # noqa: E731
        agent = Deck(SessionLog.open(deck.log.path, clock=now), clock=clock)
        assert agent.call_tool(tool, arguments).rejected is False
        assert await wait_for(pilot, lambda: "idle" not in header_text(app))
        await idle_for(pilot, clock, 91_000)
        assert f"⏸ idle 1 min · {left}" in header_text(app)

    run(app, scenario)


@pytest.mark.parametrize("mode, shown", [("own", False), ("all", True), ("off", False)])
def test_the_watchdog_setting_says_where_the_idle_state_is_shown(tmp_path, mode, shown):
    """``own``: pideck's sessions (pi-jtodo in pi pokes on pi's own), ``all``: pi's too, ``off``:
    nowhere. Never an entry, whatever the setting."""
    set_config_value("tui.watchdog", mode)
    deck = open_deck(pi_session(tmp_path), writable=True)
    deck.call_tool("todo", {"todos": [{"id": "a", "content": "Open", "status": "pending", "priority": "low",
                                       "confidence": 50}]}).text
    before = deck.log.path.read_bytes()
    clock = Clock()
    app = make_app(deck, follow=True, poll=0.02, clock=clock)

    async def scenario(pilot):
        await settled(pilot)
        await idle_for(pilot, clock, 10**9)
        assert ("⏸ idle" in header_text(app)) is shown
        assert deck.log.path.read_bytes() == before

    run(app, scenario)


def test_config_set_refuses_a_theme_the_app_does_not_have() -> None:
    """At once, with the list, not as a warning at the next start; the list is Textual's own."""
    from textual.theme import BUILTIN_THEMES

    from core.cli.main import main
    from core.config.settings import THEMES, load_tui_config

    assert THEMES == tuple(BUILTIN_THEMES)
    assert main(["config", "set", "tui.theme", "nonexistent-theme"]) == 2
    assert load_tui_config()[0].theme == "textual-dark"
    assert main(["config", "set", "tui.theme", "nord"]) == 0
    assert load_tui_config()[0].theme == "nord"
