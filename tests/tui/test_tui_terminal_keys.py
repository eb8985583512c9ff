"""Keys as terminals send them (docs/tui.md#keys): the bytes go through Textual's own reader of a
terminal's input, as the app's driver reads them, and the right pane takes the focus.

alt+digit arrives as ESC and the digit from tmux, screen, xterm and the Linux console, and as the
Option key's characters (¡ ™ £ ¢ ∞ §) from macOS terminals; Textual reads both as those characters.
They typed junk into the command line; now they focus the panes while the line is empty, and are
typed as text on a line being written. shift+tab goes from the command line into the current
pane's table, and on to the next pane's."""

from __future__ import annotations

from typing import Any

import pytest
from textual._xterm_parser import XTermParser

from tui.widgets.command_line import CommandLine
from tui_fixtures import demo_deck, make_app, run, settled


async def send(pilot: Any, data: str) -> None:
    """``data`` as a terminal writes it to the app: read by Textual's parser into events."""
    for event in XTermParser().feed(data):
        pilot.app.post_message(event)
        await pilot.pause()
    await pilot.pause()


def where(app: Any) -> str:
    """The id of the pane or widget that holds the focus."""
    focused = app.screen.focused
    for node in (focused, *focused.ancestors):
        if node.id in ("state", "progress", "handoff", "goals", "activity", "cmd"):
            return node.id
    return type(focused).__name__


@pytest.mark.parametrize("sent, pane", [
    ("\x1b1", "state"), ("\x1b3", "handoff"), ("\x1b5", "goals"), ("\x1b6", "activity"),  # ESC + digit
    ("¡", "state"), ("£", "handoff"), ("∞", "goals"), ("§", "activity"),  # macOS Option + digit
    ("\x1b[1;3A"[:0] + "\x1b[49;3u", "state"),  # kitty's keyboard protocol: alt+1 itself
])
def test_alt_digit_as_each_terminal_sends_it_focuses_the_pane(tmp_path, sent: str, pane: str) -> None:
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> tuple[str, str]:
        await settled(pilot)
        await send(pilot, sent)
        return where(app), app.screen.query_one(CommandLine).value

    assert run(app, scenario) == (pane, "")


def test_on_a_line_being_typed_an_option_character_is_text(tmp_path) -> None:
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> tuple[str, str]:
        await settled(pilot)
        await send(pilot, "/agent-state decide gbp Costs £3")
        return where(app), app.screen.query_one(CommandLine).value

    assert run(app, scenario) == ("cmd", "/agent-state decide gbp Costs £3")


def test_shift_tab_goes_into_the_current_pane_s_table_and_on(tmp_path) -> None:
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> list[str]:
        await settled(pilot)
        seen = [where(app)]
        for _ in range(3):
            await send(pilot, "\x1b[Z")
            seen.append(where(app))
        await pilot.press("escape")  # back to the command line
        seen.append(where(app))
        return seen

    # (Agent Progress has no table: passed over)
    assert run(app, scenario) == ["cmd", "state", "handoff", "state", "cmd"]


@pytest.mark.parametrize("then", ["\r", "j\r"], ids=["Enter", "j, Enter"])
def test_keys_sent_right_behind_shift_tab_reach_the_table(tmp_path, then: str) -> None:
    """shift+tab and the keys behind it in one read (a busy machine, a fast typist): shift+tab was
    a binding taken only once the key had gone through the command line and back, so the Enter
    behind it had already gone to the empty command line (seen in a real terminal under load)."""
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> str:
        await settled(pilot)
        for event in XTermParser().feed("\x1b[Z" + then):
            app.post_message(event)  # (all queued before the app takes the first)
        await pilot.pause()
        await pilot.pause()
        return app.screen.detail.title

    assert run(app, scenario) == ("Work item parse" if then == "\r" else "Work item flag")


def test_a_burst_that_ends_in_an_option_character_is_all_text(tmp_path) -> None:
    """A line sent at once ("Costs £3" from tmux send-keys, a multiplexer, a fast typist): the £
    was judged while the line still looked empty, focused a pane, and the rest went astray."""
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> tuple[str, str]:
        await settled(pilot)
        for event in XTermParser().feed("/agent-state decide gbp Costs £3"):
            app.post_message(event)  # (all queued before the app takes the first)
        await pilot.pause()
        await pilot.pause()
        return where(app), app.screen.query_one(CommandLine).value

    assert run(app, scenario) == ("cmd", "/agent-state decide gbp Costs £3")
