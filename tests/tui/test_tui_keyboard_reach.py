"""Every pane and table has a key (alt+1 … alt+6), tables take j/k, and ? opens the help from a
table, as in lazygit and k9s (README's key table)."""

from __future__ import annotations

import pytest

from tui.screens.help import HelpScreen
from tui.widgets.command_line import CommandLine
from tui.widgets.events import EventList
from tui_fixtures import demo_deck, make_app, run, settled, type_line


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_alt_keys_focus_each_pane_and_table(tmp_path, size):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        screen = app.deck_screen
        await pilot.press("alt+1")
        assert app.focused.id == "work-items" and screen.current_pane == "state"
        await pilot.press("alt+3")
        assert app.focused.id == "packets" and screen.current_pane == "handoff"
        assert screen.query_one("#handoff").display  # (below 100 columns: the pane shown now)
        await pilot.press("alt+2")
        assert screen.current_pane == "progress"
        await pilot.press("alt+5")
        assert app.focused.id == "goals"
        await pilot.press("alt+6")
        assert isinstance(app.focused, EventList) and screen.query_one("#activity").display
        await pilot.press("escape")
        assert isinstance(app.focused, CommandLine)

    run(app, scenario, size=size)


def test_j_and_k_move_a_table_and_question_mark_opens_the_help(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("alt+1")
        table = app.focused
        start = table.cursor_row
        await pilot.press("j", "j")
        assert table.cursor_row == start + 2
        await pilot.press("k")
        assert table.cursor_row == start + 1
        assert app.deck_screen.query_one(CommandLine).value == ""  # (not typed into the command line)
        await pilot.press("alt+6", "j")
        assert app.focused.cursor == 1
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)

    run(app, scenario)


def test_s_on_the_work_items_orders_them_by_status_then_by_their_last_change(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        screen = app.deck_screen
        table = screen.query_one("#work-items")
        await pilot.press("alt+1")
        keys = lambda: [str(row.value) for row in table.rows]  # noqa: E731
        assert keys() == ["parse", "flag", "bench", "docs"]
        await pilot.press("s")
        assert keys() == ["bench", "parse", "flag", "docs"]  # blocked first: never out of sight
        assert screen.query_one("#state").border_subtitle.endswith("· by status (s)")
        await type_line(pilot, "/agent-state set flag in_progress")
        await pilot.press("alt+1", "s")
        assert keys()[0] == "flag"  # the one changed last
        await pilot.press("s")
        assert keys() == ["parse", "flag", "bench", "docs"]
        assert app.deck_screen.query_one(CommandLine).value == ""

    run(app, scenario)


def test_digits_on_a_table_reach_the_panes_where_the_terminal_sends_no_alt_digit(tmp_path):
    """A terminal sends alt+1 as ESC 1, which Textual reads as "¡": on a focused table the digit
    alone focuses the pane, and elsewhere it is a digit."""
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("alt+1", "3")
        assert app.focused.id == "packets"
        await pilot.press("5")
        assert app.focused.id == "goals"
        await pilot.press("escape", "3")
        assert app.deck_screen.query_one(CommandLine).value == "3"

    run(app, scenario)
