"""The inbox as a person meets it (docs/tui.md#who-needs-you): the overview sorted by who needs
them, the deck header's count and ctrl+g, and the marks of what changed since they last looked;
on the real transcripts of the agents and the hooks' record of an ask."""

from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone
from textual.widgets import DataTable

from test_conversation_overview_screen import run, wait_for
from discovery_helpers import BETWEEN_TURNS, CLAUDE_TASKS, CODEX, GEMINI, SESSION_IDS
from core.catalog.attention import record_event
from core.deck.deck import Deck
from core.catalog.opening import open_log
from core.session.log import SessionLog
from tui.app import PideckApp
from tui.screens.deck import DeckScreen
from tui.screens.overview import MARK, OverviewScreen, ReturningDeckScreen
from tui.widgets.header import DeckHeader

NOW_MS = 1796109600000


def column(screen, index: int) -> list[str]:
    table = screen.query_one("#overview-rows", DataTable)
    return [str(table.get_row_at(i)[index]) for i in range(table.row_count)]


def codex_asks(path) -> None:
    """Codex's PermissionRequest hook, recorded after the rollout's last line: it needs you."""
    at = os.stat(path).st_mtime_ns // 1_000_000 + 500
    record_event("codex", SESSION_IDS[CODEX], "PermissionRequest", at, {"tool_name": "Bash"})


def pideck_session(homes, name: str, todos: str) -> SessionLog:
    """A pideck session of the directory whose agent wrote its todos two hours before the app's
    clock (``todos``: pending or completed); its file last changed an hour before."""
    log = SessionLog.create_for_cwd(str(homes.cwd),
                                    clock=lambda: datetime.fromtimestamp(NOW_MS / 1000, timezone.utc) - timedelta(hours=2))
    deck = Deck(log)
    done = todos == "completed"  # (a completed todo needs its goal's ownership, else the write is rejected)
    result = deck.call_tool("todo", {"todos": [{"id": "t", "content": name, "status": todos, "priority": "high",
                                                "confidence": 80, **({"completion_confidence": 97} if done else {})}],
                                     **({"goals": [{"group": None, "end_to_end_ownership": 99}]} if done else {})})
    assert not result.rejected
    hour_ago = NOW_MS / 1000 - 3600
    os.utime(log.path, (hour_ago, hour_ago))
    return log


def test_the_overview_puts_who_needs_you_first(homes):
    codex = homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])
    homes.install(GEMINI)
    (homes.claude / "sessions").mkdir(parents=True)
    homes.install(CLAUDE_TASKS)  # no live-session file names it: ended
    codex_asks(codex)
    app = PideckApp(None, cwd=str(homes.cwd), overview_poll=0.05, clock=lambda: NOW_MS, follow=False, flash=0)

    async def scenario(pilot):
        screen = app.screen
        assert await wait_for(pilot, lambda: len(screen.rows) == 3 and not screen.busy and len(screen.attentions) == 3)
        await pilot.pause()
        assert column(screen, 1) == ["needs you", "waiting", "ended"]
        assert column(screen, 3) == ["codex", "gemini", "claude"]
        assert "needs you for" in str(screen.query_one("#overview-detail").render())
        assert "asks to use Bash (PermissionRequest hook)" in str(screen.query_one("#overview-detail").render())
        await pilot.press("down")
        await pilot.pause()
        assert str(screen.query_one("#overview-detail").render()).startswith("waiting for")

    run(app, scenario)


def test_the_deck_header_counts_who_else_needs_you_and_ctrl_g_goes_there(homes):
    codex = homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])
    claude = homes.install(CLAUDE_TASKS)  # ended, with every task done
    codex_asks(codex)
    pideck_session(homes, "Write the parser", "pending")  # stopped with open work
    app = PideckApp(Deck(open_log(claude)), follow=True, poll=0.05, clock=lambda: NOW_MS, flash=0)

    async def scenario(pilot):
        header = app.screen.query_one(DeckHeader)
        # (the app's catalog reads the conversations over a few looks: the count fills in)
        assert await wait_for(pilot, lambda: header.info is not None and header.info.inbox == "1 needs you · 1 stopped")
        await pilot.press("ctrl+g")
        assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen)
                              and app.screen.model.deck.log.shown_path == codex)
        other = app.screen.query_one(DeckHeader)
        # on the conversation that needs you: the others are one stopped session
        assert await wait_for(pilot, lambda: other.info is not None and other.info.inbox == "1 stopped")
        await pilot.press("ctrl+g")  # nothing else needs you: on to the one stopped with open work
        assert await wait_for(pilot, lambda: app.screen.model.deck.log.shown_path.suffix == ".jsonl"
                              and app.screen.model.deck.log.shown_path != codex)
        assert not hasattr(app.screen.model.deck.log, "reading")  # pideck's own session

    run(app, scenario)


def test_a_row_changed_since_you_last_looked_is_marked_until_you_open_it(homes):
    log = pideck_session(homes, "Write the parser", "pending")
    other = pideck_session(homes, "Write the docs", "completed")
    app = PideckApp(None, cwd=str(homes.cwd), overview_poll=0.05, clock=lambda: NOW_MS, follow=False, flash=0)

    def marks(screen) -> dict[str, bool]:
        return {r.path: r.path in screen.marked for r in screen.rows}

    async def scenario(pilot):
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        assert await wait_for(pilot, lambda: len(screen.rows) == 2 and not screen.busy)
        assert column(screen, 0) == ["", ""]  # nothing changed since pideck showed them
        deck = Deck(SessionLog.open(log.path))
        deck.apply("/agent-state add parse Parse the input")
        assert await wait_for(pilot, lambda: marks(screen) == {str(log.path): True, str(other.path): False})
        await pilot.pause()
        row = [r.path for r in screen.rows].index(str(log.path))
        assert column(screen, 0)[row] == MARK
        table = screen.query_one("#overview-rows", DataTable)
        table.move_cursor(row=row)
        await pilot.press("enter")
        opened = None
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReturningDeckScreen))
        opened = app.screen
        assert opened.looked_note == ""  # the first visit: nothing to compare with
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause()
        assert not any(marks(screen).values()) and column(screen, 0) == ["", ""]
        # the deck's side: two entries while away, said when it is opened again, gone at a key
        for line in ("/agent-state add lex Lex the input", "/agent-state add emit Emit the tree"):
            Deck(SessionLog.open(log.path)).apply(line)
        ok = await wait_for(pilot, lambda: marks(screen)[str(log.path)])
        g = app.glances
        assert ok
        table.move_cursor(row=[r.path for r in screen.rows].index(str(log.path)))
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReturningDeckScreen) and app.screen is not opened)
        again = app.screen
        assert again.looked_note == "2 new since you last looked"
        assert again.query_one(DeckHeader).info.looked == "2 new since you last looked"
        await pilot.press("x")
        await pilot.pause()
        assert again.query_one(DeckHeader).info.looked == ""

    run(app, scenario)
