"""Log text that reaches the command line (Enter on a work item, completion)."""

from __future__ import annotations

import asyncio

from textual import events

from tui.commands import CommandSuggester, complete
from tui.widgets.command_line import CommandLine
from tui.widgets.keyed_table import KeyedTable
from tui_fixtures import demo_deck, make_app, run, settled, take_in

HOSTILE_ID = "\x1b[2Jclr\x9b\u202e"


def test_a_hostile_work_item_id_in_the_command_line_is_shown_visibly(tmp_path):
    # Enter on a work item, then e in its detail, fills "/agent-state set <id> ": the Input drew the
    # id raw, so an id holding ESC [2J cleared the user's terminal. The value must keep the real id (the command
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
        await pilot.press("e")
        await pilot.pause()
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


def test_tab_completes_at_once_and_never_moves_focus(tmp_path, monkeypatch):
    # Tab pressed before the (asynchronous) suggester answered moved focus to the work-items table:
    # the next keys drove the table and Enter filled "/agent-state set parse ". Here the suggester
    # answers late, as on a busy machine, and every key is pressed without a pause.
    async def late(self, value):
        await asyncio.sleep(0.5)
        return None

    monkeypatch.setattr(CommandSuggester, "get_suggestion", late)
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        await pilot.press(*"/agent-st", "tab", *"se", "tab", *"pa", "tab", *"do", "tab")
        assert line.value == "/agent-state set parse done" and app.focused is line
        await pilot.press("tab", "x")  # nothing left to complete: the key stays on the line
        assert line.value == "/agent-state set parse donex" and app.focused is line
        line.value = "hello"
        await pilot.press("tab", *" world")
        assert line.value == "hello world" and app.focused is line

    run(app, scenario)


def test_focus_comes_back_to_the_command_line_after_a_detail_closes(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        table = app.query_one("#packets", KeyedTable)
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "PacketScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is app.query_one(CommandLine)
        await pilot.press(*"/todos")
        assert app.query_one(CommandLine).value == "/todos"

    run(app, scenario)


def test_keys_typed_on_a_table_go_to_the_command_line(tmp_path):
    # A person who clicked a table and goes on typing loses nothing: the characters land on the
    # command line, which takes focus back ("/" on a table finds, as in less: the filter gets it).
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        app.query_one("#work-items", KeyedTable).focus()
        await pilot.press(*"hello world")
        line = app.query_one(CommandLine)
        assert line.value == "hello world" and app.focused is line

    run(app, scenario)


def test_a_burst_of_keys_completes_in_order(tmp_path):
    # What a terminal multiplexer or a fast typist sends: every key in one read. A binding's action
    # ran only after the key bubbled up to the app, so the characters after each tab were typed
    # first ("/agent-stsepado" in tmux). Keys are posted here the way the driver posts them.
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        for key in ["slash", *"agent-st", "tab", *"se", "tab", *"pa", "tab", *"do", "tab"]:
            character = "/" if key == "slash" else "\t" if key == "tab" else "-" if key == "minus" else key
            app.post_message(events.Key("minus" if key == "-" else key, character))
        await pilot.pause()
        await pilot.pause()
        assert line.value == "/agent-state set parse done"

    run(app, scenario)
