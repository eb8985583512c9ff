"""Responsive layout: below 100 columns the three panes take turns (ctrl+n) so text keeps room;
ctrl+o zooms the current pane to the whole screen."""

from __future__ import annotations

import pytest

from tui.widgets.command_line import CommandLine
from tui.widgets.events import ActivityPanel, EventList
from tui_fixtures import demo_deck, make_app, run, settled

PANES = ("#state", "#progress", "#handoff")


def shown(app) -> list[str]:
    return [p for p in PANES if app.query_one(p).display and app.query_one(p).region.width]


@pytest.mark.parametrize("width", [80, 99])
def test_narrow_screens_show_one_pane_at_a_time(tmp_path, width):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        assert shown(app) == ["#state"]
        content = app.query_one("#work-items").columns
        assert app.query_one("#work-items").size.width >= 40
        assert content  # the table is there, at full width
        title = str(app.query_one("#state").border_title)
        assert "Agent State" in title and "Agent Progress" in title and "ctrl+n" in title
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert shown(app) == ["#progress"]
        await pilot.press("ctrl+n", "ctrl+n")
        await pilot.pause()
        assert shown(app) == ["#state"]
        assert app.focused is app.query_one(CommandLine)  # switching panes never takes the keys

    run(app, scenario, size=(width, 24))


def test_wide_screens_show_all_three_and_a_resize_switches(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        assert shown(app) == list(PANES)
        assert str(app.query_one("#state").border_title) == "Agent State"
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert shown(app) == ["#state"]
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert shown(app) == list(PANES)

    run(app, scenario)


def test_ctrl_o_zooms_the_current_pane_and_escape_returns(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("ctrl+n", "ctrl+n", "ctrl+o")  # the handoff pane
        await pilot.pause()
        handoff = app.query_one("#handoff")
        assert app.screen.maximized is handoff and handoff.region.width == 120
        assert app.query_one(CommandLine).region.height == 1  # the command line stays
        await pilot.press(*"/agent-h")
        assert app.query_one(CommandLine).value == "/agent-h"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.maximized is None and shown(app) == list(PANES)

    run(app, scenario)


def test_ctrl_o_zooms_the_activity_when_it_has_focus(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("f3")
        app.query_one(EventList).focus()
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen.maximized is app.query_one(ActivityPanel)
        assert app.query_one(EventList).size.height > 20

    run(app, scenario, size=(80, 40))
