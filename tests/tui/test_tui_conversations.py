"""The deck on an agent's own conversation (Claude Code, Codex): snapshots at both sizes, the plan
following the transcript as it grows, the overlay and the header (docs/agent-conversations.md)."""

from __future__ import annotations

import pytest

from core.conversations.log import ConversationLog
from core.deck import Deck
from tui.screenshots import CONVERSATION_MS, TRANSCRIPTS, conversation_app, conversation_copy
from tui.widgets.conversation import ConversationPane
from tui.widgets.header import DeckHeader
from tui.widgets.todos import TodoStrip, strip_line_text
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


def test_an_agent_s_words_reach_the_screen_literally(agent_home):
    """A plan step's status and text from the transcript are shown as written: no markup, no
    escape sequence reaches the terminal (the pane, the strip and the overlay alike)."""
    import json

    path = conversation_copy(agent_home, "codex-update-plan", 10, CONVERSATION_MS)
    lines = path.read_bytes().splitlines(keepends=True)
    call = json.loads(lines[9])
    call["payload"]["arguments"] = json.dumps({"plan": [
        {"step": "[red]Read[/red] \x1b[2J", "status": "\x1b]0;PWN\x07 [bold]weird"}]})
    path.write_bytes(b"".join(lines[:9]) + (json.dumps(call) + "\n").encode())
    app = make_app(Deck(ConversationLog.open_transcript(path), clock=lambda: CONVERSATION_MS))

    async def scenario(pilot):
        await settled(pilot)
        pane = app.query_one(ConversationPane)._shown.plain
        assert "[red]Read[/red]" in pane and "[bold]weird" in pane
        assert "\x1b" not in pane and "\x07" not in pane
        shown = "\n".join(strip_line_text(line).plain for line in app.query_one(TodoStrip)._lines or [])
        assert "\x1b" not in shown and "[red]Read[/red]" in shown
        await pilot.press("f2")
        await pilot.pause()
        overlay = app.screen.query_one("Markdown").source
        assert "\x1b" not in overlay and "\x07" not in overlay and "PWN" in overlay

    run(app, scenario)


def test_the_header_follows_claude_going_idle(agent_home):
    """Claude rewrites its live-session file in place when a turn ends (the folder does not
    change): the header says so."""
    import json
    import os

    path = conversation_copy(agent_home, "claude-tasks", 67, CONVERSATION_MS)
    live = agent_home / ".claude" / "sessions"
    live.mkdir()
    session = {"pid": os.getpid(), "sessionId": "2aa06482-0bcc-4c14-b872-0a0ab0bd714a", "status": "busy"}
    (live / f"{os.getpid()}.json").write_text(json.dumps(session))
    app = make_app(Deck(ConversationLog.open_transcript(path), clock=lambda: CONVERSATION_MS),
                   follow=True, poll=0.02, clock=lambda: CONVERSATION_MS)

    async def scenario(pilot):
        await settled(pilot)
        assert app.query_one(DeckHeader).info.agent.startswith("working")
        with open(live / f"{os.getpid()}.json", "r+") as f:  # in place, as Claude writes it
            f.write(json.dumps({**session, "status": "idle"}))
            f.truncate()
        assert await wait_for(pilot, lambda: app.query_one(DeckHeader).info.agent.startswith("waiting"))
        (live / f"{os.getpid()}.json").unlink()  # Claude exits
        assert await wait_for(pilot, lambda: app.query_one(DeckHeader).info.agent.startswith("ended"))

    run(app, scenario)
