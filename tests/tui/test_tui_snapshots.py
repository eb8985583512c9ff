"""SVG snapshots of every screen at 80x24 and 120x40 (fixed fixture sessions, follow off, fixed clock).

Refresh with `uv run pytest tests/tui --snapshot-update` and look at the diff before committing.
"""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Input

from tui.commands import SlashCommandProvider
from tui.screens.picker import SessionPicker
from tui_fixtures import FIXED_MS, SESSIONS, demo_deck, injected_session, make_app, open_deck, pi_session, settled

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@SIZES
def test_main(snap_compare, tmp_path, size):
    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size)


@SIZES
def test_typed_command_with_suggestion(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press(*"/agent-state set br")
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_tab_with_several_candidates_lists_them(snap_compare, tmp_path, size):
    """``/agent-state set `` Tab: the work item ids after the cursor, dim (the completion's candidates)."""
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press(*"/agent-state set ", "tab")
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_palette(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.app.push_screen(CommandPalette(providers=[SlashCommandProvider]))
        pilot.app.screen.query_one(Input).cursor_blink = False
        await pilot.app.screen.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_todos_overlay(snap_compare, tmp_path, size):
    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, press=["f2"])


@SIZES
def test_packet_detail(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        pilot.app.deck_screen.show_packet("review-parser")
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_help(snap_compare, tmp_path, size):
    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, press=["f1"])


@SIZES
def test_session_picker(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.app.push_screen(SessionPicker(SESSIONS, stamps=False))
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_packet_form_with_core_error(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("f7")
        await pilot.pause()
        pilot.app.screen.query_one("#f-id", Input).value = "review-parser"
        pilot.app.screen.query_one("#f-source", Input).value = "me"
        await pilot.press("ctrl+s")
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_message_log(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("ctrl+l")  # shown first, so the lines are laid out at its real size
        await pilot.pause()
        pilot.app.deck_screen.run_line("/agent-state add [red]x[/red] typed [/foo]")
        pilot.app.deck_screen.run_line("/agent-progress judge")
        await settled(pilot)  # notify() posts a message: clearing before it is handled cleared nothing,
        pilot.app.clear_notifications()  # and the toasts (5 s timeout) covered the log in the snapshot
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_read_only_pi_session_with_warnings(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press("ctrl+l")
        await pilot.pause()

    app = make_app(open_deck(pi_session(tmp_path), writable=False))
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@SIZES
def test_markup_injection(snap_compare, tmp_path, size):
    assert snap_compare(make_app(open_deck(injected_session(tmp_path))), terminal_size=size)


@SIZES
def test_activity_view(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await settled(pilot)
        await pilot.press("f3")
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_work_item_detail(snap_compare, tmp_path, size):
    deck = demo_deck(tmp_path)
    deck.apply("/agent-state set flag in_progress")

    async def run_before(pilot):
        await settled(pilot)
        pilot.app.deck_screen.show_row("work item", "flag")
        await pilot.pause()

    assert snap_compare(make_app(deck), terminal_size=size, run_before=run_before)


@SIZES
def test_filter_and_agent_status(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await settled(pilot)
        await pilot.press("f3", "ctrl+f", *"flag")
        await pilot.pause()

    app = make_app(demo_deck(tmp_path), clock=lambda: FIXED_MS + 12_000)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@SIZES
def test_zoomed_pane(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await settled(pilot)
        await pilot.press("ctrl+n", "ctrl+o")
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)


@SIZES
def test_read_only_palette(snap_compare, tmp_path, size):
    async def run_before(pilot):
        await settled(pilot)
        await pilot.app.push_screen(CommandPalette(providers=[SlashCommandProvider]))
        pilot.app.screen.query_one(Input).cursor_blink = False
        await pilot.app.screen.workers.wait_for_complete()
        await pilot.pause()

    app = make_app(open_deck(pi_session(tmp_path), writable=False))
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.fixture
def fixed_homes(monkeypatch):
    """The waiting screen names real folders: under a home that is the same on every machine."""
    for name, value in (("HOME", "/home/user"), ("PIDECK_HOME", "/home/user/.local/state/pideck"),
                        ("PI_CODING_AGENT_DIR", "/home/user/.pi/agent")):
        monkeypatch.setenv(name, value)
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "QWEN_HOME", "QWEN_RUNTIME_DIR", "COPILOT_HOME"):
        monkeypatch.delenv(name, raising=False)


@SIZES
@pytest.mark.parametrize("follow", [True, False], ids=["follow", "new"])
def test_waiting_for_the_first_session(snap_compare, fixed_homes, size, follow):
    """``pideck`` in a directory with nothing yet (follow), and ``pideck --new`` (new)."""
    from core.catalog.opening import Waiting
    from tui.app import PideckApp

    app = PideckApp(None, waiting=Waiting("/home/user/project", follow=follow), follow=False,
                    clock=lambda: FIXED_MS, flash=0)
    assert snap_compare(app, terminal_size=size)


@SIZES
def test_a_newer_conversation_in_the_header(snap_compare, tmp_path, size):
    from tui.screens.deck import Newer

    async def run_before(pilot):
        pilot.app.deck_screen.show_newer(Newer("Claude Code conversation 2aa06482", str(tmp_path / "t.jsonl")))
        await pilot.pause()

    assert snap_compare(make_app(demo_deck(tmp_path)), terminal_size=size, run_before=run_before)
