"""SVG snapshots of the sessions overview, the timeline, a point in the past and a diff, at 80x24
and 120x40 (fixed fixture sessions, follow off, a fixed clock).

Refresh with `uv run pytest tests/tui --snapshot-update` and look at the diff before committing.
"""

from __future__ import annotations

import pytest

from history_fixtures import overview_app, overview_ready, overview_sessions, screen_of, shown, timeline_app, timeline_ready
from tui.screens.diff import DiffScreen
from tui.screens.past import PastScreen
from tui_fixtures import wait_for

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@SIZES
def test_overview(snap_compare, size):
    overview_sessions()

    async def run_before(pilot):
        await pilot.pause()
        await overview_ready(pilot, 2)

    assert snap_compare(overview_app(), terminal_size=size, run_before=run_before)


@SIZES
def test_timeline(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        screen = await timeline_ready(pilot)
        for _ in range(4):
            await pilot.press("down")
        await shown(pilot)
        tree = screen.query_one("#timeline-tree")
        # (the branches box is as tall as its lines: wait until the screen's thread filled it)
        assert await wait_for(pilot, lambda: tree.size.height > 1, 20)
        tree.scroll_home(animate=False)

    assert snap_compare(timeline_app(tmp_path), terminal_size=size, run_before=run_before)


@SIZES
def test_point_in_the_past(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        await timeline_ready(pilot)
        for _ in range(10):  # B8's completion challenge: the 👉 on #parse
            await pilot.press("down")
        await shown(pilot)
        await pilot.press("enter")
        await screen_of(pilot, PastScreen)

    assert snap_compare(timeline_app(tmp_path), terminal_size=size, run_before=run_before)


@SIZES
def test_diff_of_two_points(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        await timeline_ready(pilot)
        for _ in range(24):  # T7
            await pilot.press("down")
        await shown(pilot)
        await pilot.press("m")
        for _ in range(14):  # B4
            await pilot.press("up")
        await shown(pilot)
        await pilot.press("d")
        await screen_of(pilot, DiffScreen)
        pilot.app.clear_notifications()  # the "Marked ..." toast
        await pilot.pause()

    assert snap_compare(timeline_app(tmp_path), terminal_size=size, run_before=run_before)
