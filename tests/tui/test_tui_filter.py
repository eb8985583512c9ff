"""Search and filter: ctrl+f (or / on a table) filters the panes and the activity by text; ctrl+t
filters work items and todos by status."""

from __future__ import annotations

from tui.widgets.command_line import CommandLine, FilterBar
from tui.widgets.events import EventList
from tui.widgets.header import DeckHeader
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.todos import GoalTable, TodoStrip
from tui_fixtures import demo_deck, drawn_lines, make_app, run, settled


def header(app) -> str:
    return "".join(s.text for s in app.query_one(DeckHeader).render_line(0))


def test_typing_a_filter_narrows_every_pane_and_the_activity(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("f3", "ctrl+f")
        assert app.focused is app.query_one(FilterBar)
        await pilot.press(*"flag")
        await pilot.pause()
        assert app.query_one("#work-items", KeyedTable).keys == ["flag", "docs"]  # "Document the flag …"
        assert app.query_one("#decisions", KeyedTable).keys == []
        assert app.query_one("#packets", KeyedTable).keys == []
        assert app.query_one(GoalTable).keys == ["g:cli", "\0ungrouped"]
        strip = str(app.query_one(TodoStrip).render())
        assert "#flag" in strip and "#readme" in strip and "#parse" not in strip
        events = drawn_lines(app.query_one(EventList))
        assert all("flag" in line for line in events if line), events
        assert 'FILTER "flag"' in header(app)
        await pilot.press("enter")  # keeps the filter, back to the command line
        assert app.focused is app.query_one(CommandLine)
        assert app.query_one("#work-items", KeyedTable).keys == ["flag", "docs"]
        assert app.deck_screen.view.state["workItems"][0]["id"] == "parse"  # the view itself is whole
        await pilot.press("ctrl+f", "escape")  # escape in the filter clears it
        await pilot.pause()
        assert app.query_one("#work-items", KeyedTable).keys == ["parse", "flag", "bench", "docs"]
        assert "FILTER" not in header(app) and not app.query_one("#filter-row").display

    run(app, scenario)


def test_status_filter_cycles_open_settled_all(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        table = app.query_one("#work-items", KeyedTable)
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert table.keys == ["parse", "flag", "bench"] and "FILTER status open" in header(app)
        assert "#lex" not in str(app.query_one(TodoStrip).render())
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert table.keys == ["docs"]
        strip = str(app.query_one(TodoStrip).render())
        assert "#lex" in strip and "#color" in strip and "#parse" not in strip
        # the counts are the whole list's, and the filter says what it hides (it read "(2/2)")
        assert strip.splitlines()[0].startswith("● Todos (2/6) · the filter hides 4 — ")
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert len(table.keys) == 4 and "FILTER" not in header(app)

    run(app, scenario)


def test_slash_on_a_table_opens_the_filter(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        app.query_one("#packets", KeyedTable).focus()
        await pilot.press("/", *"bench")
        await pilot.pause()
        assert app.query_one(FilterBar).value == "bench"
        assert app.query_one("#packets", KeyedTable).keys == ["bench-handover"]
        assert app.query_one(CommandLine).value == ""

    run(app, scenario)
