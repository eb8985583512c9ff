"""The command line stays on screen whatever else is shown."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tui.widgets.command_line import CommandLine
from tui.widgets.todos import TodoStrip
from tui_fixtures import demo_deck, drawn_lines, make_app, run, settled, take_in


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (60, 16)])
def test_command_line_stays_visible_with_the_message_log_open(tmp_path, size):
    # At 80x24 the message log (8 rows) pushed the todo strip's end and the command line below
    # the bottom of the screen: the user typed blind.
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("ctrl+l")
        await pilot.pause()
        width, height = size
        cmd = app.query_one(CommandLine)
        assert cmd.region.y == height - 2 and cmd.region.height == 1, cmd.region  # footer below it
        assert app.screen.find_widget(cmd).region.y == height - 2
        if height >= 24:  # room for everything: the log shows and the strip sits right above the line
            strip, log = app.query_one(TodoStrip), app.query_one("#log")
            assert strip.region.bottom == cmd.region.y, (strip.region, cmd.region)
            assert log.region.height >= 4 and log.region.bottom <= strip.region.y
            assert app.screen.max_scroll_y == 0

    run(app, scenario, size=size)


def test_message_log_lines_fit_its_width_and_rewrap_on_resize(tmp_path):
    # RichLog renders at least 78 columns wide by default: on an 80-column screen (76 columns inside
    # the border and scrollbar) every long message lost its end behind a horizontal scrollbar.
    app = make_app(demo_deck(tmp_path))
    words = " ".join(f"word{n:02}" for n in range(40))

    async def scenario(pilot):
        await pilot.press("ctrl+l")
        await pilot.pause()
        log = app.query_one("#log")
        log.add(words, "warning", "test")
        await pilot.pause()
        width = log.scrollable_content_region.width
        assert width < 78
        assert max(line.cell_length for line in log.lines) <= width
        assert log.max_scroll_x == 0
        shown = " ".join(line.text for line in log.lines)
        assert all(f"word{n:02}" in shown for n in range(40))
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        wide = log.scrollable_content_region.width
        assert wide > width
        assert max(line.cell_length for line in log.lines) <= wide
        assert max(len(line.text.rstrip()) for line in log.lines) > width  # wrapped again, wider
        assert log.max_scroll_x == 0

    run(app, scenario, size=(80, 24))


def test_strip_shows_the_configured_line_budget_with_its_overflow_row(tmp_path):
    # widget_max_lines may be above 6 (any value of at least 1 is valid,
    # docs/todo-views.md#configuration); the strip's CSS capped it at 6 lines, so with 10 configured
    # the `+N more` row and four item rows were cut off.
    deck = demo_deck(tmp_path)
    deck.todo.config = deck.todo.config._replace(widget_max_lines=10)
    deck.call_tool("todo", {"todos": [{"id": f"t{n:02}", "content": f"Task {n}", "status": "pending",
                                       "priority": "low", "confidence": 50} for n in range(14)]}).text
    app = make_app(deck)

    async def scenario(pilot):
        strip = app.query_one(TodoStrip)
        lines = str(strip.render()).splitlines()
        assert len(lines) == 10 and lines[-1].startswith("└─ +6 more"), lines
        assert strip.region.height == 10, strip.region

    run(app, scenario)


def test_strip_markers_stay_visible_and_the_text_is_cut(tmp_path):
    # The poke marker and "conf N" sat at the end of each row, so a long todo lost them off the
    # right edge: they lead the row now, and the todo's text is what gets the ellipsis.
    deck = demo_deck(tmp_path)
    words = " ".join(f"step{n}" for n in range(40))
    deck.call_tool("todo", {"todos": [{"id": "long", "content": words, "status": "in_progress",
                                       "priority": "high", "confidence": 80}]}).text
    deck.apply("/todos poke trigger")
    app = make_app(deck)

    async def scenario(pilot):
        await pilot.pause()
        row = drawn_lines(app.query_one(TodoStrip))[1]
        assert row.lstrip().startswith("└─ ▶ 👉 conf 80 · #long step0 step1"), row
        assert row.endswith("…") and len(row) <= 80, row

    run(app, scenario, size=(80, 24))
