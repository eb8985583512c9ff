"""Live behaviour: another writer's appends, a branch switch, truncation, pause."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from core.deck.deck import Deck
from core.session.log import SessionLog
from tui.widgets.header import DeckHeader
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.message_log import MessageLog
from tui_fixtures import (FIXED_MS, demo_deck, fixed_clock, make_app, open_deck, pi_session, run, settled, take_in,
                          type_line, wait_for)


def test_append_by_another_writer_shows_up_without_losing_the_selection(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        table = app.query_one("#work-items", KeyedTable)
        table.move_cursor(row=2)  # select "bench"
        other = Deck(SessionLog.open(deck.log.path))  # a second writer on the same file
        other.apply("/agent-state add w2 Written by another process")
        assert await wait_for(pilot, lambda: "w2" in table.keys)
        assert table.selected_key() == "bench"
        assert app.query_one(DeckHeader).info.entries == len(other.log.records)
        other.apply("/agent-state remove flag")
        assert await wait_for(pilot, lambda: "flag" not in table.keys)
        assert table.selected_key() == "bench"

    run(app, scenario)


def test_branch_switch_redraws_every_pane(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)
    first_state = next(r for r in deck.log.records if r.custom_type == "agent-state-state")

    async def scenario(pilot):
        assert app.query_one("#packets", KeyedTable).keys
        entry = {"type": "custom", "customType": "agent-state-state", "id": "b0b0b0b0",
                 "parentId": first_state.id, "timestamp": "2026-11-30T15:00:00.000Z",
                 "data": {"schemaVersion": 1, "state": {"schemaVersion": 1, "objective": "Other branch",
                          "workItems": [{"id": "only", "content": "Only here", "status": "open"}],
                          "decisions": []}}}
        with deck.log.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")
        work = app.query_one("#work-items", KeyedTable)
        assert await wait_for(pilot, lambda: work.keys == ["only"])
        assert app.query_one("#packets", KeyedTable).keys == []  # no handoff entries on that branch
        assert not app.query_one("#strip").display  # nor todos
        assert "Other branch" in str(app.query_one("#objective").render())

    run(app, scenario)


def test_truncation_reloads_with_a_notice(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        header_line = deck.log.path.read_text(encoding="utf-8").splitlines()[0]
        deck.log.path.write_text(header_line + "\n", encoding="utf-8")
        work = app.query_one("#work-items", KeyedTable)
        assert await wait_for(pilot, lambda: work.keys == [])
        lines = [message for _, _, message in app.query_one(MessageLog).messages]
        assert any("truncated or replaced" in line for line in lines)
        assert app.query_one(DeckHeader).info.entries == 0

    run(app, scenario)


def test_paused_ignores_appends_until_resumed(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        await pilot.press("f4")
        assert app.query_one(DeckHeader).info.following is False
        Deck(SessionLog.open(deck.log.path)).apply("/agent-state add late Arrived while paused")
        await pilot.pause(0.2)
        work = app.query_one("#work-items", KeyedTable)
        assert "late" not in work.keys
        await pilot.press("f4")
        assert await wait_for(pilot, lambda: "late" in work.keys)
        assert app.query_one(DeckHeader).info.following is True

    run(app, scenario)


def test_append_while_a_dialog_is_open_updates_the_main_screen(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        Deck(SessionLog.open(deck.log.path)).apply("/agent-state add bg Behind the dialog")
        work = app.query_one("#work-items", KeyedTable)
        assert await wait_for(pilot, lambda: "bg" in work.keys)
        await pilot.press("escape")
        await pilot.pause()
        assert "bg" in app.query_one("#work-items", KeyedTable).keys

    run(app, scenario)


def test_a_command_also_draws_what_other_writers_appended_before_it(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck)  # not following: only the command's own refresh sees the other writer

    async def scenario(pilot):
        Deck(SessionLog.open(deck.log.path)).apply("/agent-handoff remove bench-handover")
        await type_line(pilot, "/agent-state add mine Typed here")
        assert "mine" in app.query_one("#work-items", KeyedTable).keys
        assert app.query_one("#packets", KeyedTable).keys == ["review-parser"]

    run(app, scenario)


def test_scroll_position_and_selection_survive_appends(tmp_path):
    deck = demo_deck(tmp_path)
    for n in range(60):
        deck.apply(f"/agent-state add x{n:02} Item number {n}")
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        table = app.query_one("#work-items", KeyedTable)
        table.focus()
        table.move_cursor(row=40, animate=False)
        await pilot.pause()
        scroll, key = table.scroll_y, table.selected_key()
        assert scroll > 0 and key == "x36"
        other = Deck(SessionLog.open(deck.log.path))
        other.apply("/agent-state set x50 done")
        other.apply("/agent-state add tail Appended at the end")
        assert await wait_for(pilot, lambda: "tail" in table.keys)
        assert table.get_cell("x50", "status").plain == "✓"
        assert (table.scroll_y, table.selected_key()) == (scroll, key)

    run(app, scenario)


def test_a_verdict_judged_by_another_process_shows_in_the_progress_pane(tmp_path):
    # The pane said "none since opened" after the agent had judged twice through `pideck tool`.
    deck = demo_deck(tmp_path)
    app = make_app(Deck(SessionLog.open(deck.log.path, clock=fixed_clock), clock=lambda: FIXED_MS))
    later = datetime(2026, 11, 30, 15, 0, 0, tzinfo=timezone.utc)
    agent = Deck(SessionLog.open(deck.log.path, clock=lambda: later))

    async def scenario(pilot):
        body = app.query_one("#progress-body")
        assert "Last verdict progress · 14:55:13" in str(body.render())  # the demo's own judge
        agent.call_tool("agent_progress_judge", {})
        await take_in(pilot)
        assert "Last verdict progress · 15:00:00\n  new truncation-detected" in str(body.render())
        agent.call_tool("agent_progress_judge", {})
        await take_in(pilot)
        assert "Last verdict no_progress · 15:00:00" in str(body.render())

    run(app, scenario)


def test_a_pi_session_says_its_own_judges_are_not_recorded(tmp_path):
    app = make_app(open_deck(pi_session(tmp_path), writable=False))

    async def scenario(pilot):
        text = str(app.query_one("#progress-body").render())
        assert "Last verdict none recorded\n  pi's own judges are not recorded" in text

    run(app, scenario)


def test_a_long_session_shows_its_panes_first_and_its_todos_right_after(tmp_path, monkeypatch):
    """On a long session the first view leaves the todo fold out (it costs more than the rest);
    the model's thread folds and draws the todos right after, warnings included. Neither is
    built on the UI thread."""
    import threading

    from core.views.view import build_view
    from tui.models import deck as deck_model

    monkeypatch.setattr(deck_model, "FOLD_LATER", 1)  # every session counts as long here
    deck = demo_deck(tmp_path)
    full = build_view(Deck(SessionLog.open(deck.log.path)))
    folded_on = []
    replay = deck.todo.replay
    monkeypatch.setattr(deck.todo, "replay", lambda *a: folded_on.append(threading.current_thread()) or replay(*a))
    app = make_app(deck)
    drawn = []
    opened = deck_model.DeckModel.open
    monkeypatch.setattr(deck_model.DeckModel, "open", lambda self: (opened(self), drawn.append(self.view)))

    async def scenario(pilot):
        await settled(pilot)
        first = drawn[0]
        assert (first.strip, first.goals, first.todo_overlay, first.has_todos) == ((), (), "", False)
        assert first.state == full.state and first.packets == full.packets and first.entries == full.entries
        view = app.deck_screen.view
        assert (view.strip, view.goals, view.todo_overlay) == (full.strip, full.goals, full.todo_overlay)
        assert view.restore_warnings == full.restore_warnings
        assert app.query_one("#strip").display
        assert folded_on and threading.main_thread() not in folded_on

    run(app, scenario)
