"""Log text that reaches the command line (Enter on a work item, completion)."""

from __future__ import annotations

from tui.commands import complete
from tui.widgets.command_line import CommandLine
from tui.widgets.keyed_table import KeyedTable
from tui_fixtures import demo_deck, make_app, run, settled, take_in

HOSTILE_ID = "\x1b[2Jclr\x9b\u202e"


def test_a_hostile_work_item_id_in_the_command_line_is_shown_visibly(tmp_path):
    # Enter on a work item fills "/agent-state set <id> ": the Input drew the id raw, so an id
    # holding ESC [2J cleared the user's terminal. The value must keep the real id (the command
    # has to name it), only the drawing changes, one visible cell per character.
    deck = demo_deck(tmp_path)
    deck.apply(f"/agent-state add {HOSTILE_ID} Hostile id")
    app = make_app(deck)

    async def scenario(pilot):
        table = app.query_one("#work-items", KeyedTable)
        table.focus()
        table.move_cursor(row=table.get_row_index(HOSTILE_ID))
        await pilot.press("enter")
        await pilot.pause()
        line = app.query_one(CommandLine)
        assert line.value == f"/agent-state set {HOSTILE_ID} " and app.focused is line
        drawn = "".join(segment.text for segment in line.render_line(0))
        assert "\x1b" not in drawn and "\x9b" not in drawn and "\u202e" not in drawn
        assert "␛[2Jclr" in drawn
        assert line._position_to_cell(len(line.value)) == len(line.value)  # cursor stays in step
        await pilot.press(*"done", "enter")
        await pilot.pause()
        assert table.get_cell(HOSTILE_ID, "status").plain == "✓", app.query_one("#log").messages

    run(app, scenario)


def test_completion_never_suggests_an_id_with_control_characters():
    def words(ns, sub, i):
        return [HOSTILE_ID, "\x1bx", "plain"]

    assert complete("/agent-state set \x1b", words) is None
    assert complete("/agent-state set p", words) == "/agent-state set plain "


def test_typing_after_a_palette_fill_adds_to_the_line(tmp_path):
    # The same guard for the palette's fill (Enter on a work item lost its command this way:
    # Input selected the whole value on focus, so the first typed key replaced it).
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("ctrl+p", *"agent-state decide")
        await app.screen.workers.wait_for_complete()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press(*"d1 Keep it")
        assert app.query_one(CommandLine).value == "/agent-state decide d1 Keep it"

    run(app, scenario)
