"""Issue 19, bugs 6, 9 and 10 in the deck's panes: ids keep the room the text does not need, ctrl+f
filters Agent Progress too, and the todo gates giving up shows in the strip."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.deck.deck import Deck
from core.views.view import build_view
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.panes import ProgressPane
from tui.widgets.todos import TodoStrip, gave_up_news, gave_up_text
from tui_fixtures import demo_deck, drawn_lines, make_app, run, settled


def row_of(table: KeyedTable, start: str) -> str:
    return next(line for line in drawn_lines(table) if start in line)


# -- bug 6: ids are cut to uselessness while the text column has room ---------------------------------


def id_session(folder: Path) -> Deck:
    deck = demo_deck(folder)
    deck.apply("/agent-state add tail-truncation Detect a truncated file")
    deck.apply("/agent-state decide tail-polling Re-read from the start")
    deck.call_tool("agent_handoff_create", {"schemaVersion": 1, "id": "tail-truncation-review", "source": "s",
                                            "goal": "Check it"})
    return deck


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_an_id_keeps_its_width_while_the_text_column_can_give_room(tmp_path, size):
    app = make_app(id_session(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        for selector, key in (("#work-items", "tail-truncation"), ("#decisions", "tail-polling")):
            table = app.query_one(selector, KeyedTable)
            table.move_cursor(row=table.get_row_index(key), animate=False)  # (on screen at 80x24)
            await pilot.pause()
            row = row_of(table, "tail-")
            assert key in row, (selector, row)  # it read "tail-tru…" at 120x40
            assert "Detect a" in row or "Re-read" in row, row  # and the text still shows
        packets = app.query_one("#packets", KeyedTable)
        if packets.size.width:  # (80x24: the packets pane takes its turn)
            row = row_of(packets, "tail-")
            # 22 characters: cut, but far less than to "tail-tru…", and the goal column still shows
            assert "tail-truncation" in row and "Check" in row, row

    run(app, scenario, size=size)


def test_a_long_text_still_keeps_most_of_a_narrow_pane(tmp_path):
    deck = demo_deck(tmp_path)
    long_id = "migrate-db-schema-for-invoice-ledger"
    deck.apply(f"/agent-state add {long_id} Move every invoice of the old schema to the ledger table")
    app = make_app(deck)

    async def scenario(pilot):
        await settled(pilot)
        table = app.query_one("#work-items", KeyedTable)
        widths = {str(k.value): c.get_render_width(table) for k, c in table.columns.items()}
        assert widths["content"] >= widths["id"], widths  # the text keeps at least half the room
        row = row_of(table, "migrate")
        assert "…" in row and "Move every" in row, row

    run(app, scenario, size=(120, 40))


# -- bug 9: ctrl+f does not filter Agent Progress ----------------------------------------------------


def progress_lines(app) -> list[str]:
    return str(app.query_one("#progress-body").render()).splitlines()


def test_the_text_filter_narrows_the_milestones(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        before = "\n".join(progress_lines(app))
        assert "entries-indexed" in before and "tail-follows-appends" in before
        await pilot.press("ctrl+f", *"tail")
        await pilot.pause()
        shown = progress_lines(app)
        text = "\n".join(shown)
        assert "tail-follows-appends" in text, shown
        for hidden in ("entries-indexed", "truncation-detected", "header-parsed"):
            assert hidden not in text, shown
        assert any("the filter hides 3 milestones" in line for line in shown), shown
        assert "Declared (3)" in text and "3 recorded" in text  # the counts are the whole record's
        assert app.query_one(ProgressPane).border_subtitle == "3 declared"
        await pilot.press("escape")  # clears the filter: every milestone is back
        await pilot.pause()
        assert "\n".join(progress_lines(app)) == before
        assert app.query_one(ProgressPane).border_subtitle == "3 declared"

    run(app, scenario)


def test_a_filter_that_hides_every_milestone_says_so(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("ctrl+f", *"zzz")
        await pilot.pause()
        text = "\n".join(progress_lines(app))
        assert "nothing declared" not in text, text  # that would be a lie: 3 are declared
        assert "the filter hides 4 milestones" in text, text

    run(app, scenario)


# -- bug 10: "gave up" is silent in the deck ---------------------------------------------------------


def given_up(folder: Path) -> Deck:
    """The demo (open todos, gates armed by its poke) whose agent, sent back by a Stop hook, stops
    again without touching its todos: the gates give up (a real settle, as ``pideck hook`` runs it)."""
    deck = demo_deck(folder)
    deck.settle(continued=True)
    assert deck.todo.replay().flags.last_disarm_reason == "no_progress"
    return deck


def strip_header(app) -> str:
    return str(app.query_one(TodoStrip).render()).splitlines()[0]


def test_the_strip_says_the_gates_gave_up(tmp_path):
    app = make_app(given_up(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        header = strip_header(app)
        assert "gates gave up: no progress between stops" in header, header
        assert header.index("gave up") < header.index(" — ")  # before the intention a narrow strip cuts
        await pilot.press("ctrl+t")  # a filter keeps the note on the whole list's header
        await pilot.pause()
        assert "gates gave up" in strip_header(app)

    run(app, scenario)


def test_the_note_goes_when_the_gates_are_armed_again(tmp_path):
    deck = given_up(tmp_path)
    deck.apply("/todos poke on")
    app = make_app(deck)

    async def scenario(pilot):
        await settled(pilot)
        assert "gave up" not in strip_header(app)

    run(app, scenario)


def test_the_message_log_is_told_once(tmp_path):
    """``gave_up_news`` is what the deck screen puts in its message log on each new view: a line
    when the gates give up (or a session opens given up), none while they stay so."""
    deck = demo_deck(tmp_path)
    armed = build_view(deck)
    deck.settle(continued=True)
    given = build_view(deck)
    assert given.gave_up == "no_progress" and gave_up_text(given) == "todo gates gave up: no progress between stops"
    news = gave_up_news(armed, given)
    assert news is not None and "gave up on the agent (no progress between stops)" in news
    assert "/todos poke on" in news
    assert gave_up_news(given, build_view(deck, given)) is None  # said once
    assert gave_up_news(armed, armed) is None and gave_up_text(armed) == ""
    deck.apply("/todos poke on")
    assert build_view(deck).gave_up is None


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_gave_up_strip(snap_compare, tmp_path, size):
    app = make_app(given_up(tmp_path))

    async def run_before(pilot):
        await pilot.pause()
        await settled(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
