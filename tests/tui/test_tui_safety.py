"""Read-only refusal and untrusted text: shown literally, never parsed, never a crash."""

from __future__ import annotations

import os
from pathlib import Path

from textual.command import CommandList

from tui.text import clean, safe
from tui.widgets.header import DeckHeader
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.message_log import MessageLog
from tui_fixtures import INJECTED, injected_session, make_app, open_deck, pi_session, run, type_line


def _log_lines(app) -> list[str]:
    return [f"{source} {message}" for _, source, message in app.query_one(MessageLog).messages]


def test_read_only_pi_session_refuses_with_the_reason_and_the_way_out(tmp_path):
    folder = Path(os.environ["PI_CODING_AGENT_DIR"]) / "sessions" / "--home-user-project--"
    folder.mkdir(parents=True)
    deck = open_deck(pi_session(folder))  # read-only because it is in pi's folder
    app = make_app(deck)

    async def scenario(pilot):
        info = app.query_one(DeckHeader).info
        assert not info.writable and info.warnings == 2  # a torn line and an invalid Agent State entry
        size = deck.log.path.stat().st_size
        await type_line(pilot, "/agent-state add a Try to write")
        assert deck.log.path.stat().st_size == size
        assert any("read-only" in line and "--write" in line for line in _log_lines(app))
        assert app.query_one("#work-items", KeyedTable).keys == []

    run(app, scenario)


def test_warnings_are_in_the_message_log(tmp_path):
    app = make_app(open_deck(pi_session(tmp_path), writable=False))

    async def scenario(pilot):
        lines = _log_lines(app)
        assert any("line 6" in line and "skipped" in line for line in lines), lines
        assert any("restore" in line for line in lines), lines

    run(app, scenario)


def test_clean_makes_control_characters_visible():
    assert clean("a\x1b[31mb\x07\x9b") == "a␛[31mb␇\\x9b"
    assert clean("x\ud800y") == "x\\ud800y"
    assert clean("l1\nl2") == "l1␊l2"
    assert clean("l1\nl2\t", multiline=True) == "l1\nl2    "
    assert clean("\u202eevil") == "\\u202eevil"
    assert clean("one\u2028two\u2029") == "one\\u2028two\\u2029"  # (a layout may break the line there)
    assert safe("[red]x[/red]").plain == "[red]x[/red]" and not safe("[red]x[/red]").spans


def test_markup_in_every_pane_is_shown_literally(tmp_path):
    app = make_app(open_deck(injected_session(tmp_path)))

    async def scenario(pilot):
        shown = clean(INJECTED)
        assert shown.startswith("[red]x[/red] [/foo] [link=https://example.com]click[/link] ␛[31m")
        work = app.query_one("#work-items", KeyedTable)
        assert work.get_cell("[/bold]", "content").plain == shown
        assert app.query_one("#decisions", KeyedTable).get_cell("[x]", "content").plain == shown
        objective = app.query_one("#objective")
        assert shown in objective.text.plain  # drawn in two lines, cut with …
        assert str(objective.render()).startswith("Objective [red]x[/red] [/foo]")
        packets = app.query_one("#packets", KeyedTable)
        assert packets.keys == ["[red]sur\ud800"]
        assert packets.get_cell("[red]sur\ud800", "goal").plain == "lone \\ud800 surrogate [/foo]"
        strip = str(app.query_one("#strip").render())
        assert "[red]intent" in strip and shown in strip
        svg = app.export_screenshot()  # renders every visible widget: must not raise
        assert "[red]x[/red]" in svg.replace("&#160;", " ")
        await pilot.press("f2")  # the overlay, as Markdown
        await pilot.pause()
        overlay = app.export_screenshot().replace("&#160;", " ")
        assert "User intention: [red]intent" in overlay and "[/foo]" in overlay
        await pilot.press("escape")
        await pilot.pause()
        app.deck_screen.action_pick_row()  # the palette's "Show …": ids and texts listed literally
        await pilot.pause()
        await app.screen.workers.wait_for_complete()
        prompts = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert "Show packet [red]sur\\ud800  lone \\ud800 surrogate [/foo]" in prompts, prompts
        assert f"Show work item [/bold]  {shown}" in prompts, prompts
        await pilot.press("escape")
        await pilot.pause()
        await type_line(pilot, "/agent-handoff show [red]p[/red]")  # unknown: the warning echoes the id
        assert any("[red]p[/red]" in line for line in _log_lines(app))
        app.query_one("#packets", KeyedTable).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "PacketScreen"
        app.export_screenshot()

    run(app, scenario)
