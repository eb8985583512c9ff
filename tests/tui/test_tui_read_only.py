"""Read-only everywhere: the placeholder, the palette and f7 say so before anything is typed, and
a refused command stays on the command line for editing."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette

from core.session.errors import OPENED_READ_ONLY
from tui.commands import SlashCommandProvider
from tui.widgets.command_line import CommandLine
from tui.widgets.message_log import MessageLog
from tui_fixtures import demo_deck, make_app, open_deck, pi_session, run, settled, type_line


def read_only_app(tmp_path):
    return make_app(open_deck(pi_session(tmp_path), writable=False))


def test_the_placeholder_says_read_only(tmp_path):
    app = read_only_app(tmp_path)

    async def scenario(pilot):
        await settled(pilot)
        assert app.query_one(CommandLine).placeholder.startswith("read-only session: commands that append are refused")

    run(app, scenario)
    writable = make_app(demo_deck(tmp_path / "w"))

    async def check(pilot):
        assert writable.query_one(CommandLine).placeholder.startswith("/agent-state add <id> <content>")

    run(writable, check)


def test_the_palette_marks_the_commands_that_would_be_refused(tmp_path):
    app = read_only_app(tmp_path)

    async def scenario(pilot):
        await settled(pilot)
        await app.push_screen(CommandPalette(providers=[SlashCommandProvider]))
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        prompts = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        add = next(p for p in prompts if p.startswith("/agent-state add"))
        status = next(p for p in prompts if p.startswith("/agent-state status"))
        assert "read-only session: refused here" in add
        assert "read-only" not in status

    run(app, scenario)


def test_f7_says_read_only_instead_of_opening_a_form(tmp_path):
    app = read_only_app(tmp_path)

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("f7")
        await pilot.pause()
        assert type(app.screen).__name__ == "DeckScreen"
        # the log's own reason, the one a typed write gets (here: opened read-only)
        assert app.query_one(MessageLog).messages[-1] == ("refused", "f7", OPENED_READ_ONLY)
        await type_line(pilot, "/agent-state add parse Write the parser")
        assert app.query_one(MessageLog).messages[-1][::2] == ("refused", OPENED_READ_ONLY)

    run(app, scenario)


def test_a_refused_command_stays_on_the_command_line(tmp_path):
    app = read_only_app(tmp_path)

    async def scenario(pilot):
        await settled(pilot)
        await type_line(pilot, "/agent-state add parse Write the parser")
        line = app.query_one(CommandLine)
        assert line.value == "/agent-state add parse Write the parser" and app.focused is line
        assert app.query_one(MessageLog).messages[-1][0] == "refused"
        line.value = ""
        await type_line(pilot, "/agent-state status")  # a read is answered, the line is cleared
        assert line.value == ""

    run(app, scenario)
