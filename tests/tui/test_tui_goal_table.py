"""The goal table is updated by diff (keyed rows), never cleared for an ordinary change."""

from __future__ import annotations

import copy

from core.cli.demo import TODOS
from tui.widgets.todos import GoalTable
from tui_fixtures import demo_deck, drawn_lines, make_app, run, settled, take_in


def test_goal_table_updates_changed_cells_without_a_rebuild(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck)

    async def scenario(pilot):
        table = app.query_one(GoalTable)
        assert table.keys == ["g:parser", "g:cli", "\0ungrouped"]
        assert table.get_cell("g:parser", "conf").plain == "80"
        cleared, updated = [], []
        table.clear = lambda *a, **k: cleared.append(a)  # type: ignore[method-assign]
        original = table.update_cell
        table.update_cell = lambda *a, **k: (updated.append(a[:2]), original(*a, **k))  # type: ignore[method-assign]
        todos = copy.deepcopy(TODOS)
        for item in todos["todos"]:
            if item["id"] == "parse":
                item["confidence"] = 85
        text = deck.call_tool("todo", todos).text
        assert "Changes:" in text, text
        await take_in(pilot)
        assert not cleared
        assert table.keys == ["g:parser", "g:cli", "\0ungrouped"]
        assert table.get_cell("g:parser", "conf").plain != "80"
        assert updated and {key for key, _ in updated} == {"g:parser"}, updated

    run(app, scenario)


def test_groups_past_the_cap_are_counted_and_reachable(tmp_path):
    # Six lines were shown with only a faint scrollbar: the other groups looked absent.
    deck = demo_deck(tmp_path)
    todos = [{"id": f"t{n}", "content": f"Task {n}", "status": "pending", "priority": "low", "confidence": 50,
              "group": f"group{n}"} for n in range(9)]
    deck.call_tool("todo", {"todos": todos}).text
    app = make_app(deck)

    async def scenario(pilot):
        await pilot.pause()
        more = app.query_one("#goals-more")
        # (the key it names is the one that focuses the table: shift+tab had long stopped doing so)
        assert more.display and str(more.render()) == "+4 more goals below · alt+5 scrolls · f2 lists all"
        await pilot.press("alt+5")
        assert app.focused is app.query_one(GoalTable)
        await pilot.press(*["down"] * 6)  # the cursor goes past the window: the table scrolls by two
        await pilot.pause()
        assert str(more.render()).startswith("+2 more goals")
        await pilot.press("pagedown")
        await pilot.pause()
        assert not more.display, (str(more.render()), app.query_one(GoalTable).scroll_y, app.query_one(GoalTable).max_scroll_y)
        assert "group8" in " ".join(drawn_lines(app.query_one(GoalTable)))

    run(app, scenario)
