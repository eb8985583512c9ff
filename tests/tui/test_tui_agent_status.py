"""Agent status: the header says when another writer last appended and whether the agent looks
active; a bell and a notice when it goes quiet with open todos or a gate pokes it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.deck.deck import Deck
from core.session.log import SessionLog
from core.config.settings import set_config_value
from tui.widgets.header import DeckHeader, agent_status
from tui.widgets.message_log import MessageLog
from tui_fixtures import FIXED_MS, MOMENT, demo_deck, make_app, run, settled, take_in


class Clock:
    def __init__(self) -> None:
        self.ms = FIXED_MS + 12_000

    def __call__(self) -> int:
        return self.ms


def header(app) -> str:
    return "".join(s.text for s in app.query_one(DeckHeader).render_line(0))


def test_agent_status_words():
    stamp = "2026-11-30T14:55:13.000Z"
    assert agent_status(stamp, FIXED_MS + 12_000, 90_000) == ("agent active 12 s ago", True)
    assert agent_status(stamp, FIXED_MS + 5 * 60_000, 90_000) == ("agent idle 5 min", False)
    assert agent_status(stamp, FIXED_MS + 3 * 3_600_000, 90_000) == ("agent idle 3 h", False)
    assert agent_status(None, FIXED_MS, 90_000) == ("", False)
    assert agent_status("[red]not a time", FIXED_MS, 90_000) == ("", False)


def test_the_header_follows_the_agent_and_rings_when_it_goes_quiet(tmp_path):
    clock = Clock()
    deck = demo_deck(tmp_path, answers=False)  # (the agent last wrote at the fixed time)
    app = make_app(deck, clock=clock)
    bells = []

    async def scenario(pilot):
        app.bell = lambda: bells.append("bell")  # type: ignore[method-assign]
        await settled(pilot)
        app.deck_screen.tick()
        assert "● agent active 12 s ago" in header(app)
        clock.ms = FIXED_MS + 100_000  # past the watchdog's idle time (90 s)
        app.deck_screen.tick()
        assert "○ agent idle 1 min" in header(app)
        assert bells == ["bell"]
        assert app.query_one(MessageLog).messages[-1][2] == "The agent went quiet with 4 open todos."
        app.deck_screen.tick()
        assert bells == ["bell"]  # once per quiet spell

    run(app, scenario)


def test_a_write_by_the_agent_makes_it_active_and_the_app_own_commands_do_not(tmp_path):
    clock = Clock()
    clock.ms = FIXED_MS + 600_000
    deck = demo_deck(tmp_path, answers=False)  # (the agent last wrote at the fixed time)
    app = make_app(deck, clock=clock)
    later = MOMENT + timedelta(minutes=9, seconds=55)
    agent = Deck(SessionLog.open(deck.log.path, clock=lambda: later))

    async def scenario(pilot):
        await settled(pilot)
        app.deck_screen.tick()
        assert "agent idle 10 min" in header(app)
        app.deck_screen.run_line("/agent-state status")
        app.deck_screen.run_line("/agent-state add mine Typed by the person")
        await settled(pilot)
        app.deck_screen.tick()
        assert "agent idle 10 min" in header(app)
        agent.apply("/agent-state set parse done")
        await take_in(pilot)
        app.deck_screen.tick()
        assert "agent active 5 s ago" in header(app)

    run(app, scenario)


@pytest.mark.parametrize("bell", [True, False])
def test_a_gate_poke_rings_the_bell_unless_turned_off(tmp_path, bell):
    if not bell:
        set_config_value("tui.bell", "false")
    deck = demo_deck(tmp_path)
    app = make_app(deck)
    gate = Deck(SessionLog.open(deck.log.path), clock=lambda: 10**13)  # a watchdog far in the future
    bells = []

    async def scenario(pilot):
        app.bell = lambda: bells.append("bell")  # type: ignore[method-assign]
        await settled(pilot)
        gate.watchdog_tick()
        await take_in(pilot)
        assert bells == (["bell"] if bell else [])
        assert app.query_one(MessageLog).messages[-1][2].startswith("The todo gates poked the agent: watchdog poke sent")

    run(app, scenario)


def test_with_the_catalogs_record_the_header_and_the_bell_say_its_state(tmp_path):
    """Once the app's catalog has a record of the session on screen, the header shows the
    catalog's state and entry count, and the bell rings when that state leaves "working" with
    items open: the same word the overview, `status` and the notifications say."""
    import os

    from core.catalog.attention import Attention
    from core.catalog.catalog import Record
    from core.catalog.states import OPEN_WORK, WORKING
    from tui.messages import CatalogChanged

    clock = Clock()
    app = make_app(demo_deck(tmp_path), clock=clock)
    bells = []

    def look(state: str, since_ms: int) -> None:
        path = app.deck_screen.view.path
        record = Record(path, "pideck", "demo", Attention(state, since_ms, ""), (1, 4), entries=99)
        app.post_message(CatalogChanged([], "here", False, {}, (record,), (record,), False,
                                        {path: os.path.realpath(path)}))

    async def scenario(pilot):
        app.bell = lambda: bells.append("bell")  # type: ignore[method-assign]
        await settled(pilot)
        look(WORKING, FIXED_MS)
        await pilot.pause()
        app.deck_screen.tick()
        assert "99 entries" in header(app) and "working 12s" in header(app) and "agent active" not in header(app)
        assert bells == []
        look(OPEN_WORK, FIXED_MS + 10_000)
        await pilot.pause()
        app.deck_screen.tick()
        assert "stopped with open work 2s" in header(app)
        assert bells == ["bell"]
        assert app.query_one(MessageLog).messages[-1][2] == "The agent went quiet with 3 open todos."

    run(app, scenario)
