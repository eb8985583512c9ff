"""The activity view (f3): every change by any writer, newest first, live; changed rows flash."""

from __future__ import annotations

from core.deck.deck import Deck
from core.session.log import SessionLog
from tui.widgets.events import ActivityPanel, EventList
from tui.widgets.keyed_table import KeyedTable
from tui_fixtures import (demo_deck, drawn_lines, make_app, open_deck, pi_session, run, settled, take_in,
                          type_line, wait_for)


def test_f3_shows_the_events_newest_first_with_time_and_source(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        panel = app.query_one(ActivityPanel)
        assert not panel.display
        await pilot.press("f3")
        await pilot.pause()
        assert panel.display
        lines = drawn_lines(app.query_one(EventList))
        assert lines[0] == "14:55:13 person  todo     poke sent (#parse, #crlf … #readme)", lines
        assert lines[1].endswith("todo gates armed")
        assert "agent   todo     todos #parse, #lex … #readme added" in "\n".join(lines)
        assert "agent   handoff  packet bench-handover created" in "\n".join(lines)  # the demo's tool call
        assert panel.border_subtitle == "25 events · enter opens"

    run(app, scenario)


def with_an_agent(tmp_path, **options):
    """The demo in the app, and the same session opened by another writer (the agent)."""
    deck = demo_deck(tmp_path)
    return make_app(deck, **options), Deck(SessionLog.open(deck.log.path))


async def open_activity(pilot) -> None:
    await settled(pilot)
    await pilot.press("f3")


def test_an_append_by_another_writer_lands_on_top(tmp_path):
    app, agent = with_an_agent(tmp_path)

    async def scenario(pilot):
        await open_activity(pilot)
        agent.apply("/agent-state set flag done")
        agent.apply("/agent-progress judge")
        await take_in(pilot)
        lines = drawn_lines(app.query_one(EventList))
        assert lines[0].endswith("progress verdict: progress (+1 milestone)"), lines
        assert lines[1].endswith("state    work item flag: open → done"), lines
        await type_line(pilot, "/agent-handoff remove bench-handover")
        assert drawn_lines(app.query_one(EventList))[0].endswith("packet bench-handover removed")

    run(app, scenario)


def test_rows_stay_in_place_while_reading_further_down(tmp_path):
    app, agent = with_an_agent(tmp_path)

    async def scenario(pilot):
        await open_activity(pilot)
        events = app.query_one(EventList)
        events.focus()
        await pilot.press("down", "down", "down")
        chosen = events.selected
        agent.apply("/agent-state set flag done")
        await take_in(pilot)
        assert events.selected is chosen and events.cursor == 4

    run(app, scenario)


def test_enter_on_an_event_shows_what_it_changed(tmp_path):
    deck = demo_deck(tmp_path)
    deck.apply("/agent-state set flag done")
    app = make_app(deck)

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("f3")
        app.query_one(EventList).focus()
        await pilot.press("enter")  # the newest event
        await pilot.pause()
        body = str(app.screen.query_one("#detail-body").render())
        assert "work item flag: open → done" in body and "~ work item flag status: open → done" in body

    run(app, scenario)


def test_changed_rows_flash_briefly(tmp_path):
    app, agent = with_an_agent(tmp_path, flash=1.5)  # long enough to look at on a busy machine

    async def scenario(pilot):
        await open_activity(pilot)
        table = app.query_one("#work-items", KeyedTable)
        assert not table._flashing
        agent.apply("/agent-state set flag done")
        agent.apply("/agent-state add zed Another")
        await take_in(pilot)
        assert table._flashing == {"flag", "zed"}
        row = table.get_row_index("flag")
        assert table._get_row_style(row, table.rich_style).bgcolor is not None
        assert app.query_one(EventList).flash
        assert await wait_for(pilot, lambda: not table._flashing and not app.query_one(EventList).flash, 6)

    run(app, scenario)


def test_the_activity_of_a_pi_session(tmp_path):
    app = make_app(open_deck(pi_session(tmp_path), writable=False))

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("f3")
        lines = drawn_lines(app.query_one(EventList))
        assert lines[0].endswith("session named parser work (pi)"), lines
        assert any("invalid entry: Agent State reads as empty" in line for line in lines), lines

    run(app, scenario)
