"""The overview screen (F9, `pideck --overview`) and the session picker (F6) with the agents'
conversations among the rows."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import DataTable, OptionList

from discovery_helpers import BETWEEN_TURNS, CODEX, GEMINI
from core.catalog.opening import open_log
from core.deck.deck import Deck
from tui.app import PideckApp
from tui.screens.overview import OverviewScreen, ReturningDeckScreen
from tui.screens.picker import SessionPicker

NOW_MS = 1796109600000


def run(app: PideckApp, scenario) -> Any:
    async def main() -> Any:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            return await scenario(pilot)

    return asyncio.run(main())


async def wait_for(pilot, condition, timeout: float = 5.0) -> bool:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return True
        await pilot.pause(0.02)
    return condition()


def cells(screen, column: int) -> list[Any]:
    table = screen.query_one("#overview-rows", DataTable)
    return [table.get_row_at(i)[column] for i in range(table.row_count)]


def test_the_overview_screen_lists_conversations_and_opens_one(homes):
    paths = homes.install_all()
    homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])
    (homes.claude / "sessions").mkdir(parents=True)
    app = PideckApp(None, cwd=str(homes.cwd), overview_poll=0.05, clock=lambda: NOW_MS, follow=False, flash=0)

    async def scenario(pilot):
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        assert await wait_for(pilot, lambda: len(screen.rows) == 4 and not screen.busy
                              and not any(r.pending for r in screen.rows))
        await pilot.pause()
        # who needs you first: Codex stopped between its turns with its plan open
        assert [str(c) for c in cells(screen, 3)] == ["codex", "gemini", "claude", "claude"]
        assert [str(c) for c in cells(screen, 1)] == ["open work", "waiting", "ended", "ended"]
        assert [str(c) for c in cells(screen, 5)] == ["1/4", "4/4", "4/4", "4/4"]
        assert [str(c) for c in cells(screen, 8)] == ["<1%", "<1%", "<1%", "<1%"]
        assert [str(c) for c in cells(screen, 9)] == ["70", "70", "70", "70"]
        assert str(cells(screen, 10)[0]).startswith("TURN-1: planned 4 steps")
        assert "1 stopped with open work · 1 waiting · 2 ended" in str(screen.query_one("#overview-title").render())
        assert [str(c) for c in cells(screen, 7)] == ["$0.0060", "$0.0029", "$0.0054", "$0.0095"]
        # (the cursor keeps the row it was on while the rows ranked in: the top row is chosen)
        screen.query_one("#overview-rows", DataTable).move_cursor(row=0)
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReturningDeckScreen))
        deck_screen = app.screen
        assert deck_screen.model.deck.log.shown_path == paths[CODEX]
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is screen)

    run(app, scenario)


def test_f6_lists_the_directory_s_conversations(homes):
    paths = homes.install_all()
    deck = Deck(open_log(paths[CODEX]))
    app = PideckApp(deck, follow=False, clock=lambda: NOW_MS, flash=0)

    async def scenario(pilot):
        await pilot.press("f6")
        assert await wait_for(pilot, lambda: isinstance(app.screen, SessionPicker))
        await pilot.pause()
        options = app.screen.query_one("#sessions", OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert [label.split()[0] for label in labels] == ["gemini", "codex", "claude", "claude"]
        assert all(label.endswith(path.name) for label, path in zip(labels, [paths[GEMINI], paths[CODEX]]))

    run(app, scenario)
