"""Every table budgets its columns: a long id is cut with an ellipsis, the text column keeps at
least half of the room when it needs it and gives the rest to the ids, and the widths follow the
rows that are there now."""

from __future__ import annotations

import pytest

from core.deck.deck import Deck
from core.session.log import SessionLog
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.todos import GoalTable
from tui_fixtures import demo_deck, drawn_lines, make_app, run, take_in, type_line, wait_for

LONG = "migrate-db-schema-for-invoice-ledger"
LONG_TEXT = "Move every invoice of the old schema to the ledger table, then drop the old tables"


def column_widths(table: KeyedTable) -> dict[str, int]:
    return {str(key.value): column.get_render_width(table) for key, column in table.columns.items()}


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)])
def test_a_long_work_item_id_is_cut_and_the_text_keeps_half_of_the_row(tmp_path, size):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        table = app.query_one("#work-items", KeyedTable)
        await type_line(pilot, f"/agent-state add {LONG} {LONG_TEXT}")
        table.move_cursor(row=table.get_row_index(LONG), animate=False)  # scrolled into view
        await pilot.pause()
        widths = column_widths(table)
        assert widths["content"] >= widths["id"], widths
        row = next(line for line in drawn_lines(table) if "migr" in line)
        assert "…" in row and LONG not in row, row
        assert "Move" in row, row  # the text column is visible
        await type_line(pilot, f"/agent-state remove {LONG}")
        await pilot.pause()
        assert column_widths(table)["id"] == max(len("parse"), len("bench")) + 2  # back to the ids there
        assert all("…" not in line for line in drawn_lines(table)[:3])

    run(app, scenario, size=size)


def test_every_table_budgets_its_id_column(tmp_path):
    deck = demo_deck(tmp_path)
    deck.apply(f"/agent-state decide {LONG} Use a ledger table for invoices")
    deck.call_tool("agent_handoff_create", {"schemaVersion": 1, "id": LONG, "source": "me",
                                            "goal": "Review the ledger migration"})
    todos = [{"id": "t1", "content": "Long group", "status": "pending", "priority": "low",
              "confidence": 50, "group": " ".join([LONG] * 4)}]
    deck.call_tool("todo", {"todos": todos})
    app = make_app(deck)

    async def scenario(pilot):
        await pilot.pause()
        for selector, text in (("#decisions", "decision"), ("#packets", "goal")):
            table = app.query_one(selector, KeyedTable)
            widths = column_widths(table)
            fill = widths.pop(text if text == "goal" else "content")
            assert fill >= max(widths.values()), (selector, widths, fill)
            assert any("…" in line for line in drawn_lines(table)), selector
        goals = app.query_one(GoalTable)
        assert sum(column_widths(goals).values()) <= goals.size.width
        assert any("…" in line and "Feedback" not in line for line in drawn_lines(goals))
        assert "Feedback" in drawn_lines(goals)[0]  # every score column stays on screen

    run(app, scenario)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)])
def test_a_row_added_by_another_writer_is_cut_with_an_ellipsis(tmp_path, size):
    deck = demo_deck(tmp_path)
    app = make_app(deck)
    writer = Deck(SessionLog.open(deck.log.path))
    text = "A very long text that cannot fit in the pane at all, whatever the size of the terminal is"

    async def scenario(pilot):
        writer.apply(f"/agent-state add {LONG} {text}")
        writer.apply(f"/agent-state decide {LONG} {text}")
        writer.call_tool("agent_handoff_create", {"schemaVersion": 1, "id": LONG, "source": "s", "goal": text})
        await take_in(pilot)
        for selector, pane in (("#work-items", "state"), ("#decisions", "state"), ("#packets", "handoff")):
            app.deck_screen.current_pane = pane  # below 100 columns the panes take turns
            app.deck_screen.show_current_pane()
            table = app.query_one(selector, KeyedTable)
            table.move_cursor(row=table.get_row_index(LONG), animate=False)
            await pilot.pause()
            await pilot.pause()  # the pane shows, then its table is laid out and its columns fitted
            row = next(line for line in drawn_lines(table) if "A very" in line)
            # the text is cut; the id too, unless it fits in the half the text leaves
            assert row.endswith("…") and row.count("…") == (1 if LONG in row else 2), (selector, row)
            assert len(row) <= table.size.width

    run(app, scenario, size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_long_objective_ends_its_last_line_with_an_ellipsis(tmp_path, size):
    deck = demo_deck(tmp_path)
    deck.apply("/agent-state objective " + " ".join(f"word{n}" for n in range(60)))
    app = make_app(deck)

    async def scenario(pilot):
        await pilot.pause()
        lines = drawn_lines(app.query_one("#objective"))
        assert len(lines) == 2 and lines[0].startswith("Objective word0"), lines
        assert lines[1].endswith("…"), lines

    run(app, scenario, size=size)


def test_a_row_added_live_below_a_squeezed_pane_is_scrolled_into_view(tmp_path):
    """Issue 29, item 10: at 80x24 a work item another writer added landed below what the pane
    shows, with nothing to bring it up."""
    deck = demo_deck(tmp_path)
    app = make_app(deck)
    writer = Deck(SessionLog.open(deck.log.path))

    async def scenario(pilot):
        table = app.query_one("#work-items", KeyedTable)
        for n in range(1, 5):
            writer.apply(f"/agent-state add new{n} Added item number {n}")
        await take_in(pilot)
        assert table.row_count > table.size.height - 1  # (more rows than the pane shows)
        # (the table scrolls after the refresh that lays the new rows out)
        assert await wait_for(pilot, lambda: any("new4" in line for line in drawn_lines(table))), drawn_lines(table)
        assert app.focused is not table and table.selected_key() == "parse"  # (the selection stays)

    run(app, scenario, size=(80, 24))


def test_a_person_in_the_table_keeps_their_row_when_one_is_added(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck)
    writer = Deck(SessionLog.open(deck.log.path))

    async def scenario(pilot):
        table = app.query_one("#work-items", KeyedTable)
        table.focus()
        table.move_cursor(row=0, animate=False)
        writer.apply("/agent-state add new1 Added item")
        await take_in(pilot)
        await pilot.pause()
        assert table.selected_key() == "parse"

    run(app, scenario, size=(80, 24))
