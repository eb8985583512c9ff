"""A command the disk refuses stays on the command line, and the screen names the cause, never the
errno text (issue 20, item 7)."""

from __future__ import annotations

from disk_faults import disk_full
from tui.widgets.command_line import CommandLine
from tui.widgets.message_log import MessageLog
from tui_fixtures import demo_deck, make_app, run, settled, type_line


def test_a_command_refused_by_a_full_disk_stays_on_the_command_line(tmp_path, monkeypatch):
    deck = demo_deck(tmp_path / "w")
    path = deck.log.path
    before = path.read_bytes()
    app = make_app(deck)

    async def scenario(pilot):
        await settled(pilot)
        disk_full(monkeypatch, path)
        await type_line(pilot, "/agent-state add zz-new Write the parser")
        line = app.query_one(CommandLine)
        assert line.value == "/agent-state add zz-new Write the parser"
        level, _, text = app.query_one(MessageLog).messages[-1]
        assert level == "refused" and "the disk is full" in text and "Errno" not in text
        monkeypatch.undo()

    run(app, scenario)
    assert path.read_bytes() == before
