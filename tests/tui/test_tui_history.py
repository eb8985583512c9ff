"""Pilot tests of the timeline, a point in the past, the diff of two points and the sessions overview."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli.main import main as cli_main
from textual.widgets import DataTable, Static, Tree
from history_fixtures import (
    branched_copy, overview_app, overview_ready, overview_sessions, screen_of, shown, timeline_app, timeline_ready,
)
from tui.screens.deck import DeckScreen
from tui.screens.diff import DiffScreen
from tui.screens.overview import OverviewScreen, ReturningDeckScreen
from tui.screens.past import PastScreen
from tui.screens.timeline import TimelineScreen
from tui_fixtures import demo_deck, make_app, open_deck, run, wait_for


def table_texts(screen, selector: str, column: int) -> list[str]:
    table = screen.query_one(selector, DataTable)
    return [str(table.get_row_at(i)[column]) for i in range(table.row_count)]


def timeline_column(screen, name: str) -> list[str]:
    """One column of the timeline's list as its lines read, newest first (``COLUMNS``' widths)."""
    from tui.screens.timeline import COLUMNS, TimelineEvents, timeline_line

    events = screen.query_one(TimelineEvents)
    start = 0
    for column, width in COLUMNS:
        if column == name:
            break
        start += width
    end = start + width if width else None
    lines = [timeline_line(events.event_at(row)).plain for row in range(len(events.shown))]
    return [line[start:end].rstrip() for line in lines]


def tree_labels(screen) -> list[str]:
    tree = screen.query_one("#timeline-tree", Tree)
    out = []

    def walk(node, depth):
        for child in node.children:
            out.append("  " * depth + str(child.label))
            walk(child, depth + 1)

    walk(tree.root, 0)
    return out


def test_f8_shows_the_branch_events_newest_first_and_pis_tree(tmp_path):
    async def scenario(pilot):
        screen = await timeline_ready(pilot)
        texts = timeline_column(screen, "Event")
        assert texts[:5] == ["label cleared on 5b1e7958", "session named Streaming parser",
                             "label streaming-start on 505aa600",
                             "branch summary: Tried a late experiment and abandoned it.", "packet h1 removed"]
        assert texts[-1] == "todos #parse, #cli added" and len(texts) == 32
        assert timeline_column(screen, "By")[4] == "unknown"  # no tool call open: the entry does not say who
        assert tree_labels(screen) == [
            "● current branch: 27 entries, leaf 83e8628a",
            "  🏷 streaming-start on 505aa600",
            "  ≡ summary Tried a late experiment and abandoned it.",
            "  ○ branch from fa8ee7f1: +5 entries, leaf b6231bac",
            "  ○ branch from 69bb99f3: +5 entries, leaf bab39169",
        ]
        assert screen.query_one("#timeline-tree", Tree).border_subtitle == "named Parser work → Streaming parser"
        await pilot.press("escape")
        assert isinstance(await screen_of(pilot, DeckScreen), DeckScreen)

    run(timeline_app(tmp_path), scenario)


def test_moving_the_cursor_previews_the_point(tmp_path):
    async def scenario(pilot):
        screen = await timeline_ready(pilot)
        preview = str(screen.query_one("#timeline-preview", Static).render())
        assert preview.startswith("◷ As of 2026-11-30 15:50:53 UTC, entry 37 of 37 (the live state) · 83e8628a")
        for _ in range(5):
            await pilot.press("down")
        await shown(pilot)
        lines = str(screen.query_one("#timeline-preview", Static).render()).splitlines()
        assert lines == ["◷ As of 2026-11-30 15:50:53 UTC, entry 26 of 37 · 09353a65 · enter: the deck as it was",
                         "todos 1/3 · items 1 open, 1 in progress · milestones 2 (1 recorded) · packets 0"
                         " · this turn 30 tokens · $0.0000"]  # (the fixture's answers say they cost nothing)

    run(timeline_app(tmp_path), scenario)


def test_enter_shows_the_whole_deck_as_it_was_read_only_and_f8_returns_to_live(tmp_path):
    async def scenario(pilot):
        screen = await timeline_ready(pilot)
        for _ in range(26):  # T6: the first Agent State entry (the objective is set there)
            await pilot.press("down")
        await shown(pilot)
        assert screen.selected_event().entry_id == "a6a7dde9"
        await pilot.press("enter")
        past = await screen_of(pilot, PastScreen)
        banner = str(past.query_one("#past-banner", Static).render())
        assert banner == " ◷  As of 2026-11-30 15:50:53 UTC, entry 6 of 37 · read-only · esc: timeline · f8: live · a6a7dde9"
        assert str(past.query_one("#objective").render()) == "Objective Ship the session parser"
        assert table_texts(past, "#work-items", 1) == ["parse", "cli"]
        assert table_texts(past, "#packets", 0) == []  # H1 is written after T6
        assert not past.query("#cmd")  # no command line: the past takes no writes
        await pilot.press("escape")
        assert await screen_of(pilot, TimelineScreen) is screen
        await pilot.press("enter")
        await screen_of(pilot, PastScreen)
        await pilot.press("f8")
        live = await screen_of(pilot, DeckScreen)
        assert live is pilot.app.screen_stack[0]

    run(timeline_app(tmp_path), scenario)


def test_another_branch_in_the_tree_shows_its_events_and_its_state(tmp_path):
    async def scenario(pilot):
        screen = await timeline_ready(pilot)
        tree = screen.query_one("#timeline-tree", Tree)
        tree.focus()
        await pilot.pause()
        node = next(n for n in tree.root.children[0].children if n.data == ("branch", "bab39169"))
        tree.select_node(node)
        assert await wait_for(pilot, lambda: screen.branch == "bab39169")
        screen.query_one("#timeline-events").focus()
        await shown(pilot)
        title = str(screen.query_one("#timeline-title", Static).render())
        assert "events on the branch ending at bab39169" in title
        assert timeline_column(screen, "Event")[:3] == [  # newest first: L5, then L4's changes
            "todo gates disarmed (abandoned)", "goals parser, (no group) removed", "intent understanding 97 → none"]
        await pilot.press("enter")
        past = await screen_of(pilot, PastScreen)
        assert "(on another branch)" in str(past.query_one("#past-banner", Static).render())
        assert str(past.query_one("#objective").render()) == "Objective Abandoned L"
        assert table_texts(past, "#packets", 0) == ["l1"]

    run(timeline_app(tmp_path), scenario)


def test_a_label_in_the_tree_opens_the_labelled_entry(tmp_path):
    async def scenario(pilot):
        screen = await timeline_ready(pilot)
        tree = screen.query_one("#timeline-tree", Tree)
        tree.select_node(tree.root.children[0].children[0])  # 🏷 streaming-start on 505aa600 (B1)
        past = await screen_of(pilot, PastScreen)
        assert past.as_of.entry_id == "505aa600" and past.as_of.position == 17

    run(timeline_app(tmp_path), scenario)


def test_mark_and_diff_side_by_side(tmp_path):
    async def scenario(pilot):
        screen = await timeline_ready(pilot)
        for _ in range(24):  # T7: milestone parser-skeleton declared
            await pilot.press("down")
        await shown(pilot)
        assert screen.selected_event().entry_id == "fb9f4e14"
        await pilot.press("m")
        for _ in range(14):  # B4: the verdict
            await pilot.press("up")
        await shown(pilot)
        assert screen.selected_event().entry_id == "0c4958b7"
        await pilot.press("d")
        diff = await screen_of(pilot, DiffScreen)
        rows = [[str(cell) for cell in diff.query_one(DataTable).get_row_at(i)]
                for i in range(diff.query_one(DataTable).row_count)]
        assert rows[:5] == [
            ["milestone streaming-reader", "—", "declared"],
            ["baseline", "—", "set"],
            ["recorded parser-skeleton", "—", "recorded"],
            ["packet h1", "—", "Build the parser"],
            ["todo #parse status", "in_progress", "completed"],
        ]
        assert rows[-1] == ["goal (no group)", "—", "closed loop 70, ownership none"] and len(rows) == 14
        assert str(diff.query_one("#diff-a", Static).render()).startswith(" A  fb9f4e14 as of 2026-11-30 15:50:53 UTC, entry 7 of 37")
        await pilot.press("escape")
        assert await screen_of(pilot, TimelineScreen) is screen

    run(timeline_app(tmp_path), scenario)


def test_diff_without_a_mark_starts_at_the_live_leaf(tmp_path):
    async def scenario(pilot):
        await timeline_ready(pilot)
        await pilot.press("d")
        diff = await screen_of(pilot, DiffScreen)
        assert diff.a.is_leaf and diff.b.is_leaf and diff.changes == []
        assert str(diff.query_one("#diff-hint", Static).render()) == "No changes between these two points. · esc: timeline"

    run(timeline_app(tmp_path), scenario)


def append_packet_h9(path: Path) -> None:
    """A packet h9 appended to the branched fixture's current branch, as another writer would."""
    line = {"type": "custom", "customType": "agent-handoff-state", "data": {"schemaVersion": 1, "packets": [
        {"schemaVersion": 1, "id": "h9", "source": "s", "goal": "Later"}]}, "id": "ffff0001",
        "parentId": "83e8628a", "timestamp": "2026-11-30T16:00:00.000Z"}
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")


def test_the_timeline_follows_appends(tmp_path):
    path = branched_copy(tmp_path)

    async def scenario(pilot):
        screen = await timeline_ready(pilot)
        append_packet_h9(path)
        assert await wait_for(pilot, lambda: len(screen.events) == 33)
        await pilot.pause()
        assert timeline_column(screen, "Event")[0] == "packet h9 created"

    run(make_app(open_deck(path, writable=False), follow=True), scenario)


def test_f8_after_the_decks_walk_carries_it_on_and_follows_appends(tmp_path):
    """Once the deck has walked its activity, the timeline takes that walk's events (the same
    events, not found again) and goes on over its own reading of the file."""
    path = branched_copy(tmp_path)

    async def scenario(pilot):
        deck_screen = pilot.app.screen
        assert await wait_for(pilot, lambda: deck_screen.model.walked is not None)
        walked = deck_screen.model.walked.events
        screen = await timeline_ready(pilot)
        assert len(screen.events) == len(walked) == 32
        assert all(shown is event for shown, event in zip(screen.events, walked))
        assert timeline_column(screen, "Event")[:2] == ["label cleared on 5b1e7958", "session named Streaming parser"]
        append_packet_h9(path)
        assert await wait_for(pilot, lambda: len(screen.events) == 33)
        await pilot.pause()
        assert timeline_column(screen, "Event")[0] == "packet h9 created"

    run(make_app(open_deck(path, writable=False), follow=True), scenario)


def test_the_overview_lists_sessions_who_needs_you_first_and_opens_one():
    demo, pi = overview_sessions()

    async def scenario(pilot):
        screen = await overview_ready(pilot, 2)
        # both stopped with open work: the most recently active first (15:50 before 14:55)
        assert [r.name for r in screen.rows] == ["Streaming parser", demo.name]
        assert table_texts(screen, "#overview-rows", 1) == ["open work", "open work"]
        assert table_texts(screen, "#overview-rows", 2) == ["9m", "1h"]
        assert table_texts(screen, "#overview-rows", 3) == ["pi", "pideck"]
        assert table_texts(screen, "#overview-rows", 9) == ["15", "84k"]  # (the last turn's tokens)
        assert table_texts(screen, "#overview-rows", 10) == ["Streaming it is.", "Done: the tests pass."]
        assert "stopped with open work for 9m" in str(screen.query_one("#overview-detail", Static).render())
        await pilot.press("down", "enter")
        deck = await screen_of(pilot, ReturningDeckScreen)
        assert Path(deck.view.path) == demo
        await pilot.press("escape")  # on the empty command line: back to the overview
        assert await screen_of(pilot, OverviewScreen) is screen

    run(overview_app(), scenario)


def test_the_overview_filter():
    overview_sessions()

    async def scenario(pilot):
        screen = await overview_ready(pilot, 2)
        await pilot.press("slash", *"parser")
        await pilot.pause()
        assert table_texts(screen, "#overview-rows", 3) == ["pi"]
        assert "1 of 2 sessions" in str(screen.query_one("#overview-title", Static).render())
        await pilot.press("escape")
        await pilot.pause()
        assert table_texts(screen, "#overview-rows", 3) == ["pi", "pideck"]

    run(overview_app(), scenario)


def test_overview_rows_update_live_and_new_sessions_appear():
    demo, _ = overview_sessions()

    async def scenario(pilot):
        screen = await overview_ready(pilot, 2)
        deck = open_deck(demo)
        deck.apply("/agent-state set flag done")
        assert await wait_for(pilot, lambda: next(r for r in screen.rows if r.path == str(demo)).work_items == (0, 1, 1, 2))
        from tui_fixtures import demo_deck

        demo_deck(demo.parent, "2026-11-30T15-59-00-000Z_new.jsonl")
        await overview_ready(pilot, 3)

    run(overview_app(), scenario)


def test_f9_opens_the_overview_of_the_decks_directory_and_esc_returns(tmp_path):
    overview_sessions()

    async def scenario(pilot):
        await pilot.press("f9")
        screen = await overview_ready(pilot, 2)
        assert screen.cwd == "/home/user/project"
        await pilot.press("escape")
        assert isinstance(await screen_of(pilot, DeckScreen), DeckScreen)

    from tui_fixtures import demo_deck

    run(make_app(demo_deck(tmp_path)), scenario)


def test_pideck_overview_opens_the_tui_on_the_overview(monkeypatch):
    opened = []
    assert cli_main(["--overview"], tui=lambda o: opened.append(o) or 0) == 0
    assert opened == [None]
    assert cli_main(["--overview", "x.jsonl"], tui=lambda o: 0) == 2
    calls = []
    assert cli_main(["--all", "--overview"], tui=lambda o, **shown: calls.append((o, shown)) or 0) == 0
    assert calls == [(None, {"show_all": True})]  # every session pideck knows: the inbox and the header's count


def test_history_keys_show_on_the_deck_only(tmp_path):
    async def scenario(pilot):
        def shown_keys():
            return {b.binding.key: b.enabled for b in pilot.app.screen.active_bindings.values()
                    if b.binding.key in ("f8", "f9")}

        on_deck = shown_keys()
        await pilot.press("f8")
        screen = await shown(pilot)
        return on_deck, {k: v for k, v in shown_keys().items()}, screen

    from tui_fixtures import demo_deck

    on_deck, on_timeline, _ = run(make_app(demo_deck(tmp_path)), scenario)
    assert on_deck == {"f8": True, "f9": True}
    assert on_timeline == {"f8": True}  # the timeline's own f8 (back to live); no overview from here


def test_one_branch_takes_one_line_of_the_branches_box(tmp_path):
    """Issue 29, item 10: at 80x24 the box of a session with one branch took 9 rows for 1 line."""
    async def scenario(pilot):
        screen = await timeline_ready(pilot)
        tree = screen.query_one("#timeline-tree")
        assert await wait_for(pilot, lambda: tree.size.height == 1, 20)  # (the tree is filled by the screen's thread)
        assert tree.outer_size.height == 3  # the line and its border
        assert screen.query_one("#timeline-events").size.height == 24 - 1 - 1 - 2 - 3 - 1

    run(make_app(demo_deck(tmp_path)), scenario, size=(80, 24))
