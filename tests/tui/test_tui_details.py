"""A detail view for every row: full wrapped text and its history in this session; c copies it."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from tui.screens.detail import DetailScreen
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.todos import GoalTable
from tui_fixtures import demo_deck, make_app, run, settled, type_line

LONG = " ".join(f"word{n}" for n in range(40))


def body(app) -> str:
    return str(app.screen.query_one("#detail-body").render())


def history_lines(app) -> str:
    return str(app.screen.query_one("#detail-history").render())


def test_a_work_item_shows_its_whole_text_and_its_history(tmp_path):
    deck = demo_deck(tmp_path)
    deck.apply(f"/agent-state add long {LONG}")
    deck.apply("/agent-state set long in_progress")
    app = make_app(deck)

    async def scenario(pilot):
        await settled(pilot)
        table = app.query_one("#work-items", KeyedTable)
        table.focus()
        table.move_cursor(row=table.get_row_index("long"))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        assert LONG in body(app).replace("\n", " ")
        assert "Status\nin_progress" in body(app)
        history = history_lines(app)
        assert history.index("work item long: open → in_progress") < history.index("work item long added")

    run(app, scenario, size=(80, 24))


def test_c_copies_the_detail(tmp_path, monkeypatch):
    app = make_app(demo_deck(tmp_path))
    copied = []

    async def scenario(pilot):
        await settled(pilot)
        monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
        app.deck_screen.show_row("decision", "poll")
        await pilot.pause()
        await pilot.press("c")
        assert copied and copied[0].startswith("Decision poll\n\nDecision\nPoll the file every 100 ms")
        assert "History in this session" in copied[0] and "decision poll added" in copied[0]

    run(app, scenario)


@pytest.mark.parametrize("kind, key, title, text", [
    ("milestone", "truncation-detected", "Milestone truncation-detected", "declared, not judged yet"),
    ("milestone", "header-parsed", "Milestone header-parsed", "recorded by a judge, no longer declared"),
    ("todo", "parse", "Todo #parse", "Confidence\n80"),
    ("packet", "review-parser", "Packet review-parser", "Do not change the on-disk format"),
    ("goal", "g:parser", "Goal parser", "pytest tests/session: partial lines"),
])
def test_every_kind_of_row_has_a_detail(tmp_path, kind, key, title, text):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        app.deck_screen.show_row(kind, key)
        await pilot.pause()
        assert str(app.screen.query_one("#detail-box").border_title) == title
        assert text in body(app)

    run(app, scenario)


def test_enter_on_a_goal_and_the_palette_open_details(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        app.query_one(GoalTable).focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert str(app.screen.query_one("#detail-box").border_title) == "Goal cli"
        assert "○ #flag Wire the --follow CLI flag" in body(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+p", *"show todo crlf")
        await app.screen.workers.wait_for_complete()
        await pilot.press("enter")
        await pilot.pause()
        assert str(app.screen.query_one("#detail-box").border_title) == "Todo #crlf"
        assert "👉 named by the last follow-up" in body(app)

    run(app, scenario)
