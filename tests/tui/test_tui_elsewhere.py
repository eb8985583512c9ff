"""Writes that go elsewhere: while the screen shows one session, the agent writes into another
session of the same directory; the header names it and f6 opens it (docs/tui.md#writes-that-go-elsewhere)."""

from __future__ import annotations

from core.cli.demo import counter_ids, write_demo
from core.config.places import pideck_sessions_dir
from tui.models.deck import LOOK_S
from tui.screenshots import CONVERSATION_MS, bound_session, conversation_copy
from tui.widgets.header import DeckHeader
from tui_fixtures import CWD, fixed_clock, make_app, open_deck, pi_session, run, settled, wait_for


def header(app) -> str:
    return "".join(s.text for s in app.deck_screen.query_one(DeckHeader).render_line(0))


async def first_look(pilot, app) -> None:
    """Until the worker has looked at the directory once (a first look only notes what is there)."""
    assert await wait_for(pilot, lambda: app.deck_screen.model._writes is not None)


def pideck_session(name: str):
    folder = pideck_sessions_dir(CWD)
    folder.mkdir(parents=True, exist_ok=True)
    return write_demo(folder / name, cwd=CWD, clock=fixed_clock, ids=counter_ids(), todo_clock=lambda: 0)


def test_a_pi_session_on_screen_names_the_pideck_session_being_written_and_f6_opens_it(tmp_path):
    """pi's session of the directory is on screen (read-only) while the agent's MCP calls go to a
    pideck session: the header says where, f6 switches there."""
    other = pideck_session("2026-11-30T15-00-00-000Z_other.jsonl")
    app = make_app(open_deck(pi_session(tmp_path), writable=False), follow=True, poll=0.02)

    async def scenario(pilot):
        await settled(pilot)
        await first_look(pilot, app)
        assert "writes go to" not in header(app)
        other.apply("/agent-state add w Written by the agent")
        assert await wait_for(pilot, lambda: app.deck_screen.view.elsewhere is not None)
        label = app.deck_screen.view.elsewhere.label
        assert label == f"pideck session {other.log.session_id[:8]}"
        assert f" writes go to {label} · f6 " in header(app)
        await pilot.press("f6")
        assert await wait_for(pilot, lambda: app.deck_screen.view.path == str(other.log.path))
        assert "writes go to" not in header(app)

    run(app, scenario)


def test_a_session_bound_to_a_conversation_is_named_by_it_and_f6_opens_the_conversation(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    here = pideck_session("2026-11-30T14-00-00-000Z_here.jsonl")
    transcript = conversation_copy(tmp_path, "claude-tasks", 67, CONVERSATION_MS - 3000)
    app = make_app(here, follow=True, poll=0.02)

    async def scenario(pilot):
        await settled(pilot)
        await first_look(pilot, app)
        bound_session("claude", "2aa06482-0bcc-4c14-b872-0a0ab0bd714a", transcript)  # the agent's first calls
        assert await wait_for(pilot, lambda: "writes go to Claude Code conversation 2aa06482 · f6" in header(app))
        await pilot.press("f6")
        assert await wait_for(pilot, lambda: app.deck_screen.view.path == str(transcript))
        assert await wait_for(pilot, lambda: app.deck_screen.view.bound is not None)
        screen = app.deck_screen
        await pilot.pause()
        assert ("info", "open", f"Opened {transcript.name}.") in screen.message_log.messages  # (not its cache's name)
        assert screen.query_one("#state").display and screen.query_one("#conversation").display

    run(app, scenario)


def test_the_message_log_says_what_was_opened_and_why(tmp_path):
    here = pideck_session("2026-11-30T14-00-00-000Z_here.jsonl")
    app = make_app(here, why="the newest of this directory")

    async def scenario(pilot):
        await settled(pilot)
        assert app.deck_screen.message_log.messages[-1] == (
            "info", "open", "Opened 2026-11-30T14-00-00-000Z_here.jsonl: the newest of this directory.")

    run(app, scenario)


def test_after_clear_the_ended_conversation_names_the_next_one_of_its_process(tmp_path, monkeypatch):
    """Claude Code's /clear ends the conversation on screen and starts another in the same process,
    whose MCP calls go to a new pideck session. While the screen's conversation runs, another
    conversation's writes are not its agent's; once it has ended, the header names them."""
    import json
    import os

    from core.sources import binding
    from core.catalog.opening import open_deck as open_any

    monkeypatch.setenv("HOME", str(tmp_path))
    transcript = conversation_copy(tmp_path, "claude-tasks", 67, CONVERSATION_MS - 3000)
    live = tmp_path / ".claude" / "sessions" / f"{os.getpid()}.json"
    live.parent.mkdir(parents=True)
    first, after_clear = "2aa06482-0bcc-4c14-b872-0a0ab0bd714a", "1328cc60-7da1-4120-ad87-65a621444814"
    live.write_text(json.dumps({"pid": os.getpid(), "sessionId": first, "cwd": CWD, "status": "busy"}))
    app = make_app(open_any(transcript).deck, follow=True, poll=0.02)

    async def scenario(pilot):
        await settled(pilot)
        await first_look(pilot, app)
        other = binding.Conversation("claude", after_clear, CWD)
        open_deck(binding.session_for(other, create=True)).apply("/agent-state add w Written after /clear")
        await pilot.pause(3 * LOOK_S)
        assert "writes go to" not in header(app)  # (the conversation on screen is still going)
        live.write_text(json.dumps({"pid": os.getpid(), "sessionId": after_clear, "cwd": CWD, "status": "busy"}))
        assert await wait_for(pilot, lambda: "writes go to Claude Code conversation 1328cc60 · f6" in header(app))

    run(app, scenario)
