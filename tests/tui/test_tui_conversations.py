"""The deck on an agent's own conversation (Claude Code, Codex): snapshots at both sizes, the plan
following the transcript as it grows, the overlay and the header (docs/agent-conversations.md)."""

from __future__ import annotations

import pytest

from core.conversations.log import ConversationLog
from core.deck import Deck
from tui.screenshots import CONVERSATION_MS, TRANSCRIPTS, conversation_app, conversation_copy
from tui.widgets.conversation import ConversationPane
from tui.widgets.header import DeckHeader
from tui.widgets.todos import TodoStrip
from tui_fixtures import make_app, run, settled, wait_for

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
SAMPLES = pytest.mark.parametrize("sample, lines", [("claude-tasks", 67), ("codex-update-plan", 30)],
                                  ids=["claude", "codex"])


@pytest.fixture
def agent_home(tmp_path, monkeypatch):
    """The agent's home and pideck's are tmp_path (monkeypatch puts the real ones back)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "pideck"))
    return tmp_path


@SIZES
@SAMPLES
def test_deck_on_a_conversation(snap_compare, agent_home, sample, lines, size):
    assert snap_compare(conversation_app(sample, lines)(agent_home), terminal_size=size)


@SIZES
def test_overlay_of_an_agent_plan(snap_compare, agent_home, size):
    assert snap_compare(conversation_app("claude-tasks", 67)(agent_home), terminal_size=size, press=["f2"])


def strip_text(app) -> str:
    return "\n".join(line.text for line in app.query_one(TodoStrip)._lines or [])


def test_the_plan_follows_the_transcript_as_it_grows(agent_home):
    """Lines appended to the transcript reach the strip, the pane and the header while the deck
    follows: Claude finishes task 1 and starts task 2, then ends its turn."""
    path = conversation_copy(agent_home, "claude-tasks", 67, CONVERSATION_MS - 3000)
    source = next(iter(sorted((TRANSCRIPTS / "claude-tasks" / "final").rglob("*.jsonl"))))
    rest = source.read_bytes().splitlines(keepends=True)[67:83]
    deck = Deck(ConversationLog.open_transcript(path), clock=lambda: CONVERSATION_MS)
    app = make_app(deck, follow=True, poll=0.02, clock=lambda: CONVERSATION_MS)

    async def scenario(pilot):
        await settled(pilot)
        assert "▶ #1 Read the CLI entry point · Reading the CLI entry point" in strip_text(app)
        assert app.query_one(DeckHeader).info.agent == "working, last line 3 s ago"
        with path.open("ab") as out:
            out.writelines(rest)
        assert await wait_for(pilot, lambda: "(1/4)" in strip_text(app))
        assert strip_text(app).splitlines() == [
            "● Claude Code tasks (1/4)",
            "├─ ▶ #2 Add the --session flag · Adding the --session flag",
            "├─ ○ #3 Test the flag",
            "├─ ○ #4 Document the flag in the README",
            "└─ ✓ #1 Read the CLI entry point",
        ]
        await settled(pilot)
        header = app.query_one(DeckHeader).info
        assert header.agent.startswith("waiting")
        assert header.detail == ("“TURN-1: planned 4 tasks; task 1 is done and task 2 is in progress.”  ·  "
                                 "tokens in 50 out 20 cache 0 read 0 written")
        pane = app.query_one(ConversationPane)
        assert "#4 Document the flag in the README  pending" in pane._shown.plain

    run(app, scenario)


def test_a_command_on_a_conversation_is_refused_and_says_why(agent_home):
    path = conversation_copy(agent_home, "codex-update-plan", 30, CONVERSATION_MS)
    deck = Deck(ConversationLog.open_transcript(path), clock=lambda: CONVERSATION_MS)
    notices = deck.apply("/agent-state add a Do it")
    assert [(n.message, n.level) for n in notices] == [(
        "This is Codex's own conversation: pideck follows it read-only and never writes to an agent's "
        "files. Nothing was changed.", "refused")]
