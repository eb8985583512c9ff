"""The deck on an agent's own conversation (Claude Code, Codex, opencode): snapshots at both sizes, the plan
following the transcript as it grows, the overlay and the header (docs/agent-conversations.md)."""

from __future__ import annotations

import pytest

from core.sources.log import ConversationLog
from core.deck.deck import Deck
from core.session.log import SessionLog
from tui.screenshots import CONVERSATION_MS, TRANSCRIPTS, conversation_app, conversation_copy, subagent_app, \
    subagent_copy
from tui.widgets.conversation import ConversationPane
from tui.widgets.header import DeckHeader
from tui.widgets.message_log import MessageLog
from tui.widgets.todos import TodoStrip, strip_line_text
from tui_fixtures import make_app, run, settled, type_line, wait_for

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
SAMPLES = pytest.mark.parametrize("sample, lines", [("claude-tasks", 67), ("codex-update-plan", 30),
                                                   ("opencode-todowrite", 3)],
                                  ids=["claude", "codex", "opencode"])


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


def test_deck_on_a_conversation_whose_subagent_runs(snap_compare, agent_home):
    """The parent waits at its Agent call while the subagent works: the header says a subagent
    runs, the Conversation pane lists it and says which tasks it made (docs/agent-conversations.md#subagents)."""
    assert snap_compare(subagent_app(agent_home), terminal_size=(120, 40))


def test_the_header_and_pane_name_the_running_subagent(agent_home):
    app = subagent_app(agent_home)

    async def scenario(pilot):
        await settled(pilot)
        assert app.query_one(DeckHeader).info.agent.startswith("working (1 subagent running), last line ")
        pane = app.query_one(ConversationPane)._shown
        assert pane is not None
        shown = pane.plain.splitlines()
        assert "Subagents  Add the --session flag (running)" in shown
        at = next(i for i, line in enumerate(shown) if "#3 Find the argument parser" in line)
        assert shown[at + 2] == "    made by Add the --session flag"

    run(app, scenario)


def test_the_deck_follows_a_subagents_transcript(agent_home):
    """The subagent's transcript grows while the parent's does not (the parent waits at its Agent
    call): its lines reach the strip as they come."""
    log = ConversationLog.open_transcript(subagent_copy(agent_home, CONVERSATION_MS - 3000))
    app = make_app(Deck(log, clock=lambda: CONVERSATION_MS), follow=True, poll=0.02, clock=lambda: CONVERSATION_MS)
    sub = log.reading.running_files()[0]
    rest = next((TRANSCRIPTS / "claude-subagent" / "final").rglob(sub.name)).read_bytes().splitlines(keepends=True)[53:]

    async def scenario(pilot):
        await settled(pilot)
        assert "(1/4)" in strip_text(app)
        with sub.open("ab") as out:
            out.writelines(rest)
        assert await wait_for(pilot, lambda: "(2/4)" in strip_text(app))
        assert "✓ #4 Add the --session option" in strip_text(app)

    run(app, scenario)


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
        # the last line's own time (07:15:59.568), not the copy's modification time (3 s ago)
        assert app.query_one(DeckHeader).info.agent == "working, last line 1 min ago"
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
        "files. Nothing was changed. Commands write to its pideck session, which starts with Codex's first "
        "pideck tool call or Stop hook (`pideck install codex` sets them up).", "refused")]


@pytest.mark.parametrize("bound", [False, True], ids=["alone", "with its pideck session"])
def test_f7_is_offered_only_where_a_packet_can_be_written(agent_home, bound):
    """Alone, a conversation has nothing a packet could go to: F7 is neither in the footer nor in
    the palette nor bound; a write typed there gets the conversation's own refusal, never pi's."""
    app = conversation_app("claude-tasks", 67, bound=bound)(agent_home)

    async def scenario(pilot):
        await settled(pilot)
        screen = app.deck_screen
        shown = {b.binding.key for b in screen.active_bindings.values()}
        palette = [c.title for c in screen.system_commands()]
        if not bound:
            await pilot.press("f7")
            await settled(pilot)
            assert app.screen_stack == [screen]  # (no form came up)
            await type_line(pilot, "/agent-state add a Do it")
        log = "\n".join(message for _, _, message in app.query_one(MessageLog).messages)
        return "f7" in shown, "Create handoff packet" in palette, log

    offered, in_palette, log = run(app, scenario)
    assert (offered, in_palette) == (bound, bound)
    assert "belongs to pi" not in log
    if not bound:
        assert "This is Claude Code's own conversation: pideck follows it read-only" in log


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
        overlay = app.screen.query_one("TodosDocument").source
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


# -- one screen per conversation: the agent's own plan beside its pideck session ----------------------

CLAUDE_ID = "2aa06482-0bcc-4c14-b872-0a0ab0bd714a"


def shown_panes(app) -> list[str]:
    return [f"#{name}" for name in ("conversation", "state", "progress", "handoff")
            if app.query_one(f"#{name}").display]


@SIZES
def test_deck_on_a_conversation_with_its_pideck_session(snap_compare, agent_home, size):
    """The agent's status and own plan (its pane) beside its pideck session's Agent State, Progress
    and Handoff; the strip and the goal table show pideck's todos (the list the Stop hook gates)."""
    assert snap_compare(conversation_app("claude-tasks", 67, bound=True)(agent_home), terminal_size=size)


@pytest.mark.parametrize("sample, lines, kind", [("claude-tasks", 67, "claude"), ("codex-update-plan", 30, "codex")],
                         ids=["claude", "codex"])
def test_the_pideck_session_is_picked_up_live_and_the_command_line_writes_there(agent_home, sample, lines, kind):
    """No pideck session yet: the pane says so, commands are refused. The agent's first pideck
    call makes one: its panes appear beside the conversation's, and a command goes into it (never
    into the agent's transcript)."""
    from core.sources import binding
    from tui.widgets.panes import StatePane

    path = conversation_copy(agent_home, sample, lines, CONVERSATION_MS - 3000)
    log = ConversationLog.open_transcript(path)
    app = make_app(Deck(log, clock=lambda: CONVERSATION_MS), follow=True, poll=0.02, clock=lambda: CONVERSATION_MS)
    name = {"claude": "Claude Code", "codex": "Codex"}[kind]
    transcript = path.read_bytes()

    async def scenario(pilot):
        await settled(pilot)
        pane = app.query_one(ConversationPane)._shown.plain
        assert (f"pideck     {name} has not written to pideck yet: its Agent State, Progress, Handoff and "
                "pideck todos show beside this pane from its first pideck tool call.") in pane
        assert shown_panes(app) == ["#conversation"] and "READ-ONLY" in header_line(app)
        session = binding.session_for(binding.Conversation(kind, str(log.session_id), "/home/user/project",
                                                           str(path)), create=True)
        agent = Deck(SessionLog.open(session))
        agent.call_tool("agent_state_add_work_item", {"id": "flag", "content": "Parse --session PATH"})
        assert await wait_for(pilot, lambda: shown_panes(app) == ["#conversation", "#state", "#progress", "#handoff"])
        assert await wait_for(pilot, lambda: "flag" in app.query_one(StatePane).query_one("#work-items").keys)
        short = session.stem.rpartition("_")[2][:8]
        assert f"pideck     session {short}, 2 entries" in app.query_one(ConversationPane)._shown.plain
        assert "READ-ONLY" not in header_line(app)
        await type_line(pilot, "/agent-state add docs Document the flag")
        assert "docs" in app.query_one("#work-items").keys
        assert not any(level == "refused" for level, _, _ in app.query_one(MessageLog).messages)
        assert '"content":"Document the flag"' in session.read_text()
        assert f"pideck     session {short}, 3 entries" in app.query_one(ConversationPane)._shown.plain
        assert path.read_bytes() == transcript

    run(app, scenario)


def header_line(app) -> str:
    return "".join(s.text for s in app.query_one(DeckHeader).render_line(0))


def test_the_overview_has_one_row_per_conversation_with_its_pideck_session(agent_home, monkeypatch):
    """The bound pideck session has no row of its own: its work items, milestones, packets and
    todos are on the conversation's row (pideck's todos, the list the Stop hook gates)."""
    from core.catalog.overview import Overview
    from tui.screenshots import CWD, bound_session

    monkeypatch.delenv("CLAUDE_CONFIG_DIR")  # (~/.claude, where the copy is)
    path = conversation_copy(agent_home, "claude-tasks", 67, CONVERSATION_MS - 3000)
    alone = Overview(CWD)
    alone.refresh()
    [row] = alone.rows
    assert (row.kind, row.todos_settled, row.todos_total, row.work_items, row.packets) == ("claude", 0, 3, (0, 0, 0, 0), 0)
    bound_session("claude", CLAUDE_ID, path)
    overview = Overview(CWD)
    overview.refresh()
    [row] = overview.rows
    assert row.path == str(path) and row.kind == "claude"
    assert (row.todos_settled, row.todos_total, row.lowest_confidence) == (0, 2, 70)
    assert (row.work_items, row.milestones, row.packets) == ((1, 1, 0, 0), 1, 1)


def test_a_zoomed_pane_of_a_conversation_takes_the_whole_width(agent_home):
    app = conversation_app("claude-tasks", 67, bound=True)(agent_home)

    async def scenario(pilot):
        await settled(pilot)
        for name, inside in (("conversation", "#conversation"), ("state", "#work-items")):
            pane = app.query_one(f"#{name}")
            app.query_one(inside).focus()
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert app.screen.maximized is pane and pane.region.width == 120
            await pilot.press("ctrl+o")
            await pilot.pause()
        assert [app.query_one(f"#{n}").region.width for n in ("conversation", "state", "progress", "handoff")] == [40, 26, 27, 27]

    run(app, scenario)


@pytest.mark.parametrize("bound", [False, True], ids=["alone", "with its pideck session"])
def test_the_palette_and_tab_offer_only_what_works_on_a_conversation(agent_home, bound):
    """Alone, a conversation refuses every command that appends: the palette and Tab offer none of
    them (a typed one is still refused, and says what works); with its pideck session they write
    there, and are all offered."""
    from tui.commands import SlashCommandProvider
    from tui.widgets.command_line import CommandLine

    app = conversation_app("claude-tasks", 67, bound=bound)(agent_home)

    async def scenario(pilot):
        await settled(pilot)
        line = app.deck_screen.query_one(CommandLine)
        await pilot.press(*"/agent-handoff ", "tab")
        candidates = line.candidates or (line.value.split(" ")[1],)
        provider = SlashCommandProvider(app.deck_screen)
        await provider.startup()
        return set(candidates), {" ".join(c.usage.split(" ")[:2]) for c in provider.commands}

    candidates, palette = run(app, scenario)
    if bound:
        assert candidates == {"status", "show", "remove", "clear"} and "/agent-state add" in palette
    else:
        assert candidates == {"status", "show"}
        assert "/agent-state add" not in palette and "/todos poke" not in palette
        assert {"/agent-state status", "/agent-handoff show", "/todos export"} <= palette


def test_pideck_opens_a_conversation_named_inside_its_database(agent_home, monkeypatch):
    """``pideck DATABASE#SESSION`` is no file's name, yet the app opens it, as ``--session`` does
    (a name no file has is otherwise taken for a typo)."""
    from tui import launcher
    from tui.app import PideckApp
    from tui.screenshots import opencode_copy

    path, _ = opencode_copy(agent_home, 4)
    opened = []
    monkeypatch.setattr(PideckApp, "run", lambda self: opened.append((self.first_deck.log.path, self.first_deck.log.kind)))
    assert launcher.main([str(path)]) == 0
    assert opened == [(path, "opencode")]
