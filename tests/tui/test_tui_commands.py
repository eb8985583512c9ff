"""Typing each namespace's commands: the pane changes, the log file grows, the message log grows."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette

from tui.completion import complete
from tui.widgets.command_line import CommandLine
from tui.widgets.header import HeaderInfo, render_header
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.message_log import MessageLog
from tui.widgets.todos import GoalTable, TodoStrip
from tui_fixtures import demo_deck, make_app, run, type_line


def _counts(app):
    return len(app.deck_screen.model.deck.log.records), app.query_one(MessageLog).count


def test_agent_state_add_shows_the_new_work_item(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        entries, messages = _counts(app)
        await type_line(pilot, "/agent-state add zed Ship the zed item")
        table = app.query_one("#work-items", KeyedTable)
        assert "zed" in table.keys
        assert table.get_cell("zed", "content").plain == "Ship the zed item"
        assert _counts(app) == (entries + 1, messages + 1)
        await type_line(pilot, "/agent-state set zed done")
        assert table.get_cell("zed", "status").plain == "✓"
        assert len(app.deck_screen.model.deck.log.records) == entries + 2

    run(app, scenario)


def test_agent_progress_add_and_judge(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        entries, _ = _counts(app)
        await type_line(pilot, "/agent-progress add parser-fuzzed")
        body = str(app.query_one("#progress-body").render())
        assert "parser-fuzzed · not judged yet" in body
        await type_line(pilot, "/agent-progress judge")
        body = str(app.query_one("#progress-body").render())
        assert "new parser-fuzzed" in body and "not judged yet" not in body
        assert len(app.deck_screen.model.deck.log.records) == entries + 3  # the state, then the verdict

    run(app, scenario)


def test_agent_handoff_remove(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        table = app.query_one("#packets", KeyedTable)
        assert table.keys == ["review-parser", "bench-handover"]
        entries, messages = _counts(app)
        await type_line(pilot, "/agent-handoff remove bench-handover")
        assert table.keys == ["review-parser"]
        assert _counts(app) == (entries + 1, messages + 1)

    run(app, scenario)


def test_todos_poke_off_clears_targets_and_clear_empties_the_strip(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        strip = app.query_one(TodoStrip)
        assert "👉" in str(strip.render())
        await type_line(pilot, "/todos poke off")
        assert "👉" not in str(strip.render())
        await type_line(pilot, "/todos clear --yes")
        assert not strip.display and not app.query_one(GoalTable).display

    run(app, scenario)


def test_bare_todos_opens_the_overlay(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await type_line(pilot, "/todos")
        assert type(app.screen).__name__ == "TodosScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "DeckScreen"

    run(app, scenario)


def test_unknown_command_is_a_warning_not_a_crash(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        entries, messages = _counts(app)
        await type_line(pilot, "/nope [red]x")
        assert _counts(app) == (entries, messages + 1)

    run(app, scenario)


def test_history_up_and_down(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await type_line(pilot, "/agent-state status")
        await type_line(pilot, "/agent-handoff status")
        line = app.query_one(CommandLine)
        await pilot.press(*"/dra")
        await pilot.press("up")
        assert line.value == "/agent-handoff status"
        await pilot.press("up", "up")
        assert line.value == "/agent-state status"
        await pilot.press("down", "down")
        assert line.value == "/dra"

    run(app, scenario)


def test_tab_completes_namespace_subcommand_and_ids(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        line = app.query_one(CommandLine)
        await pilot.press(*"/agent-h")
        await pilot.pause()
        await pilot.press("tab")
        assert line.value == "/agent-handoff "  # the next word never glues on
        await pilot.press(*"sh", "tab")
        await pilot.pause()
        assert line.value == "/agent-handoff show "
        await pilot.press(*"be")
        await pilot.pause()
        await pilot.press("tab")
        assert line.value == "/agent-handoff show bench-handover"

    run(app, scenario)


def test_complete_words():
    def words(ns, sub, i):
        return ["parse", "flag"] if (ns, sub, i) == ("agent-state", "set", 0) else ["done"]

    assert complete("/ag", words) == "/agent-"  # agent-state, -progress, -handoff: their common start
    assert complete("/todos po", words) == "/todos poke "
    assert complete("/agent-state status", words) is None  # complete already, nothing follows
    assert complete("/agent-progress ju", words) == "/agent-progress judge"  # takes no argument
    assert complete("/agent-state set fl", words) == "/agent-state set flag "
    assert complete("/agent-state set flag d", words) == "/agent-state set flag done"
    assert complete("/agent-state set ", words) is None
    assert complete("hello", words) is None


def test_palette_fills_the_command_line(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert CommandPalette.is_open(app)
        await pilot.press(*"agent-state decide")
        await app.screen.workers.wait_for_complete()
        prompts = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert any("/agent-state decide" in p for p in prompts), prompts
        await pilot.press("enter")
        await pilot.pause()
        assert not CommandPalette.is_open(app)
        assert app.query_one(CommandLine).value == "/agent-state decide "
        assert app.focused is app.query_one(CommandLine)

    run(app, scenario)


def test_palette_app_action_opens_help(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("ctrl+p", *"help")
        await app.screen.workers.wait_for_complete()
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"

    run(app, scenario)


def test_palette_runs_a_command_on_an_existing_item(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        entries = len(app.deck_screen.model.deck.log.records)
        await pilot.press("ctrl+p", *"set work item bench done")
        await app.screen.workers.wait_for_complete()
        await pilot.press("enter")
        await pilot.pause()
        table = app.query_one("#work-items", KeyedTable)
        assert table.get_cell("bench", "status").plain == "✓"
        assert len(app.deck_screen.model.deck.log.records) == entries + 1

    run(app, scenario)


def test_counts_read_as_words(tmp_path):
    # "1 packets" in the handoff pane, "1 entries" for a one-entry session.
    deck = demo_deck(tmp_path)
    deck.apply("/agent-handoff remove bench-handover")
    app = make_app(deck)

    async def scenario(pilot):
        assert app.query_one("#handoff").border_subtitle == "1 packet · enter opens"
        await type_line(pilot, "/agent-handoff remove review-parser")
        assert app.query_one("#handoff").border_subtitle == "0 packets · enter opens"

    run(app, scenario)
    assert "  1 entry  " in render_header(HeaderInfo("s", "/", 1, True, True, 0), 60).plain


def test_help_and_export_agree_with_the_readme(tmp_path):
    # F1 listed "/todos export [PATH]" where the README says "[md|json] [PATH]"; "/todos export xml"
    # wrote a file named xml.
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("f1")
        await pilot.pause()
        assert "/todos export [md|json] [PATH] [--force]" in str(app.screen.query_one("#help-body").render())
        await pilot.press("escape")
        await type_line(pilot, "/todos export xml")
        assert app.query_one(MessageLog).messages[-1][2].startswith("Usage: /todos [export [md|json] [PATH]")

    run(app, scenario)
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    assert "/todos [export [md|json] [PATH] [--force] |" in readme
