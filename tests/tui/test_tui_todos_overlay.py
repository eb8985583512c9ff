"""The todos overlay (f2) scrolls from the keyboard and follows the log while it is open."""

from __future__ import annotations

from textual.containers import VerticalScroll

from core.deck.deck import Deck
from core.session.log import SessionLog
from tui.screens.todos import TodosScreen
from tui_fixtures import demo_deck, make_app, run, wait_for

MANY = {"todos": [{"id": f"t{n:02}", "content": f"Task number {n}", "status": "pending", "priority": "low",
                   "confidence": 50, "group": f"g{n % 4}"} for n in range(30)]}


def test_the_overlay_scrolls_from_the_keyboard(tmp_path):
    deck = demo_deck(tmp_path)
    deck.call_tool("todo", MANY)
    app = make_app(deck)

    async def scenario(pilot):
        await pilot.press("f2")
        await pilot.pause()
        scroller = app.screen.query_one("#todos-scroll", VerticalScroll)
        assert scroller.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert scroller.scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        assert scroller.scroll_y == scroller.max_scroll_y
        await pilot.press("home", "down")
        await pilot.pause()
        assert scroller.scroll_y == 1

    run(app, scenario, size=(80, 24))


def test_the_overlay_shows_what_the_agent_writes_while_it_is_open(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)
    writer = Deck(SessionLog.open(deck.log.path))

    async def scenario(pilot):
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, TodosScreen)
        assert "Task number 7" not in app.screen.markdown
        writer.call_tool("todo", MANY)

        def shown() -> bool:
            return "Task number 0" in app.export_screenshot().replace("&#160;", " ")

        assert await wait_for(pilot, shown), "the overlay did not follow the log"
        assert isinstance(app.screen, TodosScreen)

    run(app, scenario)
