"""The goal table is updated by diff (keyed rows), never cleared for an ordinary change."""

from __future__ import annotations

import copy

from core.demo import TODOS
from tui.widgets.todos import GoalTable
from tui_fixtures import demo_deck, make_app, run, settled, take_in


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
