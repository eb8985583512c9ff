"""Log text that reaches the command line (Enter on a work item, completion)."""

from __future__ import annotations

import asyncio

import pytest
from textual import events

from tui.completion import CommandSuggester, Completion, arguments_hint, complete, completion
from tui.widgets.command_line import CommandLine, FilterBar
from tui.widgets.keyed_table import KeyedTable
from tui_fixtures import demo_deck, make_app, run, settled, take_in

HOSTILE_ID = "\x1b[2Jclr\x9b\u202e"
KEY_NAMES = {"/": "slash", "-": "minus", " ": "space"}
CHARACTERS = {"slash": "/", "minus": "-", "space": " ", "tab": "\t"}


async def burst(pilot, *keys: str) -> None:
    """Post every key at once, the way the driver posts what a terminal multiplexer or a fast
    typist sends in one read (Pilot's ``press`` waits for the app to go idle after each key, which
    hides a key handled out of order), then let the app take them in."""
    for key in keys:
        name = KEY_NAMES.get(key, key)
        pilot.app.post_message(events.Key(name, key if len(key) == 1 else CHARACTERS.get(name)))
    await pilot.pause()
    await pilot.pause()


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
        await burst(pilot, *"/agent-st", "tab", *"se", "tab", *"pa", "tab", *"do", "tab")
        assert line.value == "/agent-state set parse done"

    run(app, scenario)


def test_editing_keys_apply_in_the_order_they_were_typed(tmp_path):
    # ctrl+u, home, left and ctrl+w are Input bindings, and a binding's action ran
    # only once its key had bubbled up to the app, after the characters typed behind it ("hello
    # world" home X gave "hello worldX"; ctrl+u then "/agent-progress withdraw e" gave "thdraw e").
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        await burst(pilot, *"hello world", "home", "X")
        assert line.value == "Xhello world"
        await burst(pilot, "end", "ctrl+u", *"/agent-progress withdraw e")
        assert line.value == "/agent-progress withdraw e"
        await burst(pilot, "left", "left", "Z", "end", "ctrl+w", *"m1")
        assert line.value == "/agent-progress withdrawZ m1"
        await burst(pilot, "ctrl+u", *"abc", "left", "left", "ctrl+k", "d")  # (ctrl+k: to the end)
        assert line.value == "ad"

    run(app, scenario)


def test_keys_typed_on_a_table_keep_their_order_with_editing_keys(tmp_path):
    # A table has focus: the screen puts the characters on the command line ("/" opens the
    # filter). The keys typed behind the first one were already queued on the table: they must
    # still land on that line, after it, in order.
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        table = app.query_one("#work-items", KeyedTable)
        line, filter_bar = app.query_one(CommandLine), app.query_one(FilterBar)
        table.focus()
        await pilot.pause()
        await burst(pilot, *"hello world", "home", "X")
        assert line.value == "Xhello world" and app.focused is line
        table.focus()
        await pilot.pause()
        await burst(pilot, *"/parse", "left", "X")
        assert filter_bar.value == "parsXe" and app.focused is filter_bar
        assert line.value == "Xhello world"

    run(app, scenario)


def test_enter_in_a_burst_runs_the_line_typed_before_it_and_keeps_what_follows(tmp_path):
    # Enter is an Input binding too: it ran after the keys behind it, so the line it ran held them,
    # and the screen then emptied the line, losing them.
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        await burst(pilot, *"/todos", "enter", *"/agent")
        assert type(app.screen).__name__ == "TodosScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert line.value == "/agent"
        assert app.history[-1] == "/todos"

    run(app, scenario)


# ------------------------------------------------------------------ Tab with several candidates


def _words(ns, sub, i):
    if (ns, sub, i) == ("agent-state", "set", 0):
        return ["parse", "pack", "flag"]
    return ["open", "in_progress", "blocked", "done"] if (ns, sub, i) == ("agent-state", "set", 1) else []


def test_completion_finds_the_common_prefix_and_the_candidates():
    # The first match was taken silently ("/agent-state s" gave "status", "set"
    # was lost) and nothing completed after "set ".
    assert completion("/agent-state s", _words) == Completion("/agent-state s", ("status", "set"))
    assert completion("/ag", _words) == Completion("/agent-", ("agent-state", "agent-progress", "agent-handoff"))
    assert completion("/agent-state se", _words) == Completion("/agent-state set ", ())
    assert completion("/agent-state set ", _words) == Completion("/agent-state set ", ("parse", "pack", "flag"))
    assert completion("/agent-state set p", _words) == Completion("/agent-state set pa", ("parse", "pack"))
    assert completion("/agent-state set par", _words) == Completion("/agent-state set parse ", ())
    assert completion("/agent-state set", _words) == Completion("/agent-state set ", ())  # the space that follows
    assert completion("/agent-state set parse ", _words).candidates == ("open", "in_progress", "blocked", "done")
    assert completion("/agent-state set parse d", _words) == Completion("/agent-state set parse done", ())
    assert completion("/agent-state status", _words) is None  # nothing follows
    assert completion("/agent-state status ", _words) is None
    assert completion("/nope x", _words) is None
    assert completion("hello", _words) is None
    # the inline suggestion offers only what Tab would add to the line
    assert complete("/agent-state s", _words) is None
    assert complete("/agent-state set p", _words) == "/agent-state set pa"


def test_tab_shows_the_candidates_and_completes_ids_after_set(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        await pilot.press(*"/agent-state s", "tab")
        assert line.value == "/agent-state s" and line.candidates == ("status", "set")
        assert "status · set" in "".join(segment.text for segment in line.render_line(0))
        await pilot.press("e")  # typing on puts the candidates away
        assert line.candidates == ()
        assert "·" not in "".join(segment.text for segment in line.render_line(0))
        await pilot.press("tab")
        assert line.value == "/agent-state set "
        await pilot.press("tab")  # the work items' ids
        assert line.value == "/agent-state set " and set(line.candidates) == {"parse", "flag", "bench", "docs"}
        await pilot.press("p", "tab", "tab")
        assert line.value == "/agent-state set parse " and line.candidates == ("open", "in_progress", "blocked", "done")
        await pilot.press("d", "tab", "enter")
        await settled(pilot)
        assert app.query_one("#work-items", KeyedTable).get_cell("parse", "status").plain == "✓"
        assert app.focused is line

    run(app, scenario)


def test_candidates_from_the_log_are_shown_literally(tmp_path):
    deck = demo_deck(tmp_path)
    deck.apply("/agent-state add [red]x[/red] Markup id")
    deck.apply("/agent-state add [/bold] Closing tag id")
    app = make_app(deck)

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        await pilot.press(*"/agent-state set [", "tab")
        assert line.value == "/agent-state set [" and set(line.candidates) == {"[red]x[/red]", "[/bold]"}
        drawn = "".join(segment.text for segment in line.render_line(0))
        assert "[red]x[/red]" in drawn and "[/bold]" in drawn

    run(app, scenario)


def test_many_candidates_are_cut_to_the_line_with_a_count(tmp_path):
    deck = demo_deck(tmp_path)
    for n in range(40):
        deck.apply(f"/agent-state add item-{n:02} Item {n}")
    app = make_app(deck)

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        await pilot.press(*"/agent-state set i", "tab")
        assert line.value == "/agent-state set item-" and len(line.candidates) == 40
        drawn = "".join(segment.text for segment in line.render_line(0)).rstrip()
        assert "item-00 · item-01" in drawn and drawn.endswith("more") and "item-39" not in drawn
        assert len(drawn) <= line.size.width

    run(app, scenario, size=(80, 24))


# ------------------------------------------------------------------ pasting several lines


def test_a_paste_of_several_lines_is_refused_and_says_why(tmp_path):
    # Input kept the first line of a paste and dropped the rest without a word.
    app = make_app(demo_deck(tmp_path))
    said: list[str] = []

    async def scenario(pilot):
        app.notify = lambda message, **kw: said.append(message)  # type: ignore[method-assign]
        line = app.query_one(CommandLine)
        await pilot.press(*"/agent-state add x ")
        app.post_message(events.Paste("/agent-state add a First\n/agent-state add b Second\n"))
        await pilot.pause()
        assert line.value == "/agent-state add x " and line.cursor_position == len(line.value)
        assert len(said) == 1 and "2 lines" in said[0] and "one" in said[0]
        # one line with its line break (copied as a whole line) is pasted as that line
        app.post_message(events.Paste("\r\nFirst thing\r\n\n"))
        await pilot.pause()
        assert line.value == "/agent-state add x First thing" and len(said) == 1

    run(app, scenario)


def test_tab_on_an_empty_line_or_a_word_without_its_slash_starts_a_command(tmp_path):
    """Issue 29, item 8: Tab did nothing on an empty line or on ``agent``; now it puts the slash in
    and lists the commands that fit, as it does after a slash."""
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        await pilot.press("tab")
        assert line.value == "/" and app.focused is line
        assert line.candidates == ("agent-state", "agent-progress", "agent-handoff", "todos")
        line.value = ""
        await pilot.press(*"agent", "tab")
        assert line.value == "/agent-" and line.candidates == ("agent-state", "agent-progress", "agent-handoff")
        await pilot.press(*"st", "tab", *"add x Do it", "enter")
        await settled(pilot)
        assert "x" in app.deck_screen.view.state["workItems"][-1]["id"]
        await pilot.press(*"hello", "tab")  # no command starts so: the bell, the line as it was
        assert line.value == "hello"

    run(app, scenario)


def test_no_inline_suggestion_is_offered_without_the_slash():
    words = lambda namespace, sub, index: []  # noqa: E731
    assert completion("todo", words) == Completion("/todos ")
    assert complete("todo", words) is None  # (a suggestion only adds to the end of the line)
    assert completion("two words", words) is None


def test_the_arguments_still_to_type_are_shown_after_the_cursor(tmp_path):
    """Issue 29, item 7: the completion shows the parameters of the command being typed."""
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        shown = []
        for typed in ("/agent-state add ", "x", " Do it"):
            await pilot.press(*typed)
            await pilot.pause()
            shown.append("".join(s.text for s in line.render_line(0)).rstrip())
        assert shown == ["/agent-state add  <id> <content>", "/agent-state add x <content>", "/agent-state add x Do it"]

    run(app, scenario)


@pytest.mark.parametrize("value, hint", [
    ("/agent-state add ", "<id> <content>"), ("/agent-state add x", " <content>"), ("/agent-state add x Do", ""),
    ("/agent-state set parse ", "open|in_progress|blocked|done"), ("/agent-progress ", ""), ("/agent", ""), ("x y ", ""),
])
def test_arguments_hint(value, hint):
    assert arguments_hint(value) == hint



@pytest.mark.parametrize("pane_key", ["pound_sign", "alt+3"], ids=["ESC 3 or Option+3", "alt+3"])
def test_a_pane_key_right_behind_the_deck_s_return_keeps_its_table(tmp_path, pane_key):
    # When the deck comes back (a dialog closed; its first showing) the command line takes the
    # focus at once: taken after the next refresh, it came back from under a table that a pane key
    # typed in the meantime had focused, and the Enter behind went to the empty command line (seen
    # in a real terminal on a busy machine, the key typed as the deck first showed).
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        app.query_one("#work-items", KeyedTable).focus()
        await pilot.pause()
        app.deck_screen.post_message(events.ScreenResume())  # as Textual posts it
        await burst(pilot, pane_key)
        assert app.focused is app.query_one("#packets", KeyedTable)
        await pilot.press("enter")
        assert app.screen.detail.title == "Packet review-parser"

    run(app, scenario)
