"""What a conversation costs, where the person sees it (issue 31, docs/usage.md): the header's cost,
context bar and compaction mark as the log grows, the overview's Cost and Ctx columns and their
order, what a todo cost in its detail and in the todos overlay, and a turn's cost in the timeline.

The demo session (``core/cli/demo.py``) holds four answers of claude-sonnet-4-5 with pi's own
costs ($0.375037 in all) while #parse is in progress, and one compaction (182,000 tokens before,
40,210 in the next answer's context); its last answer filled 84,100 of a 200,000 window.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from core.cli.demo import answer_usage
from core.deck.deck import Deck
from core.session.log import SessionLog
from history_fixtures import overview_app, overview_ready, overview_sessions, screen_of, shown
from tui.screens.detail import DetailScreen
from tui.widgets.header import DeckHeader
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.todos import GoalTable
from tui_fixtures import MOMENT, demo_deck, drawn_lines, make_app, run, settled, wait_for

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


def answer(entry_id: str, parent: str, seconds: int, counts: tuple[int, int, int, int]) -> str:
    """A pi assistant message of claude-sonnet-4-5 ``seconds`` after the demo's start."""
    return json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                       "timestamp": (MOMENT + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z"),
                       "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}],
                                   "provider": "anthropic", "model": "claude-sonnet-4-5",
                                   "usage": answer_usage(counts)}}) + "\n"


def test_the_header_says_the_cost_context_and_compaction_and_follows_the_log(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        header = app.query_one(DeckHeader)
        assert await wait_for(pilot, lambda: header.info is not None and header.info.meter.cost == "$0.3750")
        second = drawn_lines(header)[1]
        assert second.endswith("$0.3750 · ctx ███░░░░░ 42% · compacted 182k→40k")
        assert second.startswith(" tokens in 1,480 out 3,120 cache 71,900 read 7,600 written")
        # The agent answers again: 170,000 of the window's 200,000 in its context, $0.1016 more.
        with deck.log.path.open("a", encoding="utf-8") as out:
            out.write(answer("0000aaaa", deck.log.leaf_id or "", 120, (1_000, 1_500, 160_000, 7_500)))
        assert await wait_for(pilot, lambda: header.info.meter.cost == "$0.4767")
        assert drawn_lines(header)[1].endswith("$0.4767 · ctx ███████░ 85% · compacted 182k→40k")

    run(app, scenario)


def test_the_header_names_a_model_without_a_price_and_the_context_without_a_window(tmp_path):
    deck = demo_deck(tmp_path)
    line = answer("0000aaaa", deck.log.leaf_id or "", 120, (1_000, 1_500, 160_000, 7_500))
    entry = json.loads(line)
    entry["message"]["model"] = "model-nobody-prices"
    del entry["message"]["usage"]["cost"]
    with deck.log.path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")
    app = make_app(Deck(SessionLog.open(deck.log.path)))

    async def scenario(pilot):
        header = app.query_one(DeckHeader)
        assert await wait_for(pilot, lambda: header.info is not None and header.info.entries == 32)
        assert drawn_lines(header)[1].endswith("$0.3750 + no price for model-nobody-prices · ctx 170k · "
                                               "compacted 182k→40k")

    run(app, scenario, size=(160, 24))


def with_costs(message, costs):
    """The catalog's message with the rows' costs and context shares set (``OverviewRow.cost``), by
    kind of row."""
    rows = [replace(r, cost=costs[r.kind][0], context_share=costs[r.kind][1]) for r in message.rows]
    return replace(message, rows=rows)


async def overview_with_costs(pilot, costs):
    screen = await overview_ready(pilot, 2)
    screen.take_catalog(with_costs(pilot.app.catalog, costs))
    await pilot.pause()
    return screen


def test_s_sorts_the_overview_by_cost_then_by_context(tmp_path):
    demo, pi = overview_sessions()

    async def scenario(pilot):
        table = (await overview_ready(pilot, 2)).query_one("#overview-rows", KeyedTable)
        inbox = table.keys
        assert inbox == [str(pi), str(demo)]
        # The row the inbox puts last costs most; the other has the fuller context.
        screen = await overview_with_costs(pilot, {"pi": (0.0421, 0.93), "pideck": (1.25, 0.1)})
        assert table.keys == inbox
        dear, cheap = str(demo), str(pi)
        await pilot.press("s")
        assert await wait_for(pilot, lambda: table.keys == [dear, cheap])
        assert "by cost" in str(screen.query_one("#overview-title").render())
        await pilot.press("s")
        assert await wait_for(pilot, lambda: table.keys == [cheap, dear])  # 93% before 10%
        await pilot.press("s")
        assert await wait_for(pilot, lambda: table.keys == inbox)

    run(overview_app(), scenario)


@SIZES
def test_overview_with_cost_and_context(snap_compare, size):
    overview_sessions()

    async def run_before(pilot):
        await pilot.pause()
        await overview_with_costs(pilot, {"pideck": (0.375037, 0.4205), "pi": (None, None)})
        await pilot.press("s")

    assert snap_compare(overview_app(), terminal_size=size, run_before=run_before)


async def open_todo_detail(pilot):
    await settled(pilot)
    pilot.app.deck_screen.show_row("todo", "parse")
    await screen_of(pilot, DetailScreen)


@SIZES
def test_todo_detail_says_what_it_cost(snap_compare, tmp_path, size):
    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=open_todo_detail)


def test_todo_detail_overlay_and_goal_table_say_what_a_todo_cost(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await open_todo_detail(pilot)
        body = str(app.screen.query_one("#detail-body").render())
        assert "Spent\n438k tokens · $0.3750 · 1 min 35 s in progress" in body
        await pilot.press("escape")
        overlay = app.deck_screen.view.todo_overlay
        assert "  - confidence: `80%`\n  - spent: 438k tokens · $0.3750 · 1 min 35 s in progress\n" in overlay
        assert overlay.count("spent:") == 1  # (the other todos cost nothing)
        goals = app.query_one(GoalTable)
        assert [str(goals.get_row(key)[-1]) for key in goals.keys] == ["$0.3750", "", ""]  # parser, cli, ungrouped

    run(app, scenario)


def test_the_timeline_preview_says_the_turn_an_event_fell_in(tmp_path):
    deck = demo_deck(tmp_path)
    later = SessionLog.open(deck.log.path, clock=lambda: datetime(2026, 11, 30, 14, 56, 13, tzinfo=timezone.utc))
    Deck(later).apply("/agent-state set parse done")  # a minute in: the second turn (since +50 s)
    app = make_app(Deck(SessionLog.open(deck.log.path)))

    async def scenario(pilot):
        await pilot.press("f8")
        screen = await shown(pilot)
        preview = str(screen.query_one("#timeline-preview").render())
        assert preview.endswith(" · this turn 124k tokens · $0.1565")
        assert "$0.3750 in all" in str(screen.query_one("#timeline-title").render())
        await pilot.press("down")
        await shown(pilot)
        assert "this turn" not in str(screen.query_one("#timeline-preview").render())  # (before the first prompt)

    run(app, scenario)
