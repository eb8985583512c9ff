"""The app ``pideck serve`` starts without --write (docs/serve.md): every write a visitor can make
in it, a typed slash command, a palette command, the F7 form's tool call, an export, is refused with
the reason and how to allow it, and the session file is left as it was."""

from __future__ import annotations

import pytest
from textual.command import CommandList, CommandPalette

from core.session.access import refuse_every_write
from core.session.errors import SERVED_READ_ONLY
from tui.commands import SlashCommandProvider
from tui.widgets.command_line import CommandLine
from tui.widgets.message_log import MessageLog
from tui_fixtures import demo_deck, make_app, run, settled, type_line, wait_for

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@pytest.fixture
def served_read_only():
    """Turns on the switch ``pideck --read-only`` turns on (once the test's session is written), and
    off again after the test."""
    yield lambda: refuse_every_write(SERVED_READ_ONLY)
    refuse_every_write(None)


def test_every_write_in_the_app_is_refused_and_the_file_is_unchanged(tmp_path, served_read_only):
    deck = demo_deck(tmp_path)  # (a pideck session: writable, were it not served read-only)
    before = deck.log.path.read_bytes()
    served_read_only()
    app = make_app(deck)

    async def scenario(pilot):
        await settled(pilot)
        line = app.query_one(CommandLine)
        assert line.placeholder == ("served read-only (pideck serve): commands that append or export are refused · "
                                    "status and show work")
        messages = app.query_one(MessageLog).messages
        await type_line(pilot, "/agent-state objective X")
        assert messages[-1] == ("refused", "/agent-state", SERVED_READ_ONLY)
        assert SERVED_READ_ONLY == ("This deck is served read-only: start pideck serve with --write to allow writes. "
                                    "Nothing was changed.")
        line.value = ""
        await pilot.press("f7")  # (the packet form's tool call: refused before a form opens)
        await pilot.pause()
        assert type(app.screen).__name__ == "DeckScreen"
        assert messages[-1] == ("refused", "f7", SERVED_READ_ONLY)
        await type_line(pilot, "/todos export")
        assert messages[-1][0] == "warning" and messages[-1][2].endswith(
            "todos.md: this deck is served read-only (start pideck serve with --write to allow writes).")
        line.value = ""
        await type_line(pilot, "/agent-state status")  # (a read is answered)
        assert messages[-1][0] == "info"

    run(app, scenario)
    assert deck.log.path.read_bytes() == before
    assert not (tmp_path / "todos.md").exists()
    from core.config.history import history_path

    assert not history_path().exists()  # (a visitor's typed lines are not the person's history)


def test_a_palette_command_is_marked_and_refused(tmp_path, served_read_only):
    deck = demo_deck(tmp_path)
    before = deck.log.path.read_bytes()
    served_read_only()
    app = make_app(deck)

    async def scenario(pilot):
        await settled(pilot)
        await app.push_screen(CommandPalette(providers=[SlashCommandProvider]))
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        prompts = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert "read-only session: refused here" in next(p for p in prompts if p.startswith("/agent-state add"))
        app.screen.query_one("Input").value = "/agent-progress add"
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("enter")  # (a palette choice fills the command line; Enter runs it)
        await pilot.pause()
        line = app.query_one(CommandLine)
        line.value = "/agent-progress add m9"
        await pilot.press("enter")
        await settled(pilot)
        assert app.query_one(MessageLog).messages[-1] == ("refused", "/agent-progress", SERVED_READ_ONLY)

    run(app, scenario)
    assert deck.log.path.read_bytes() == before


@SIZES
def test_served_read_only_after_a_refused_write(snap_compare, tmp_path, size, served_read_only):
    async def run_before(pilot):
        await settled(pilot)
        await pilot.press("ctrl+l")  # (the message log first: the refused line stays on the command line)
        await type_line(pilot, "/agent-state objective X")
        line = pilot.app.query_one(CommandLine)
        assert await wait_for(pilot, lambda: line.value == "/agent-state objective X")  # (kept for editing)
        # The refusal's toast is drawn in its own time (a snapshot would catch it or not): the message
        # log says the same.
        assert await wait_for(pilot, lambda: bool(pilot.app.screen.query("Toast")))
        pilot.app.clear_notifications()
        assert await wait_for(pilot, lambda: not pilot.app.screen.query("Toast"))
        await pilot.pause()

    deck = demo_deck(tmp_path)
    served_read_only()
    assert snap_compare(make_app(deck), terminal_size=size, run_before=run_before)
