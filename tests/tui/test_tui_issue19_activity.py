"""Issue 19, bugs 7 and 11 in the activity view: "who" says what the log can tell and "unknown"
where it cannot, and a gate's follow-up shows what was said to the agent. pideck's own writes say
who had them written (docs/session-format.md#who-wrote-an-entry): never unknown."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.cli.main import main
from core.deck.deck import Deck
from core.session.log import SessionLog
from tui.widgets.events import EventList
from tui_fixtures import demo_deck, drawn_lines, make_app, open_deck, run, settled

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
TODOS = {"todos": [{"id": "t1", "content": "Ship it", "status": "pending", "priority": "high", "confidence": 60}]}


def who(line: str) -> str:
    """The "who" column of an activity line: ``14:55:13 agent   todo     …``, or with the date
    when the session spans days (``11-30 14:55:13 agent …``: these tests append now)."""
    start = 15 if line[2:3] == "-" and line[5:6] == " " else 9
    return line[start:start + 8].strip()


def activity_lines(app) -> list[str]:
    return [line for line in drawn_lines(app.query_one(EventList)) if line]


async def open_activity(pilot) -> list[str]:
    await settled(pilot)
    await pilot.press("f3")
    await pilot.pause()
    return activity_lines(pilot.app)


def line_with(lines: list[str], text: str) -> str:
    return next(line for line in lines if line.endswith(text))


def test_mcp_writes_to_the_primitives_show_the_agent(tmp_path):
    """An agent's MCP calls reach the session as ``Deck.call_tool`` on its own open of the file (what
    ``pideck mcp`` does): each entry says it was the agent's, where the entry alone could not tell a
    tool call from a command (it once said "unknown")."""
    deck = demo_deck(tmp_path)
    agent = Deck(SessionLog.open(deck.log.path))
    agent.call_tool("agent_state_add_work_item", {"id": "mcp-item", "content": "Written over MCP"})
    agent.call_tool("agent_progress_add_milestone", {"milestone": "mcp-milestone"})
    agent.call_tool("agent_handoff_create", {"schemaVersion": 1, "id": "mcp-packet", "source": "agent",
                                             "goal": "Written over MCP"})
    agent.call_tool("todo", TODOS)
    app = make_app(deck)

    async def scenario(pilot):
        lines = await open_activity(pilot)
        for text in ("work item mcp-item added", "milestone mcp-milestone declared", "packet mcp-packet created"):
            assert who(line_with(lines, text)) == "agent", lines
        assert who(line_with(lines, "todo #t1 added")) == "agent", lines
        assert all(who(line) for line in lines), lines  # never a blank column

    run(app, scenario)


def test_pideck_tool_on_a_pi_file_is_not_a_person(tmp_path, capsys):
    """``pideck tool`` writing into a pi-format file (pi's CLI session of tests/fixtures): no
    assistant message calls the tool there, which once read as a person's slash command."""
    path = tmp_path / "pi.jsonl"
    shutil.copy(FIXTURES / "pi_cli_session.jsonl", path)
    for name, params in (("agent_state_add_work_item", {"id": "from-cli", "content": "Written by pideck tool"}),
                         ("todo", TODOS)):
        assert main(["tool", "--session", str(path), "--write", name, json.dumps(params)]) == 0, capsys.readouterr()
    app = make_app(open_deck(path, writable=False))

    async def scenario(pilot):
        lines = await open_activity(pilot)
        assert who(line_with(lines, "work item from-cli added")) == "agent", lines  # (pideck marked it)
        assert who(line_with(lines, "todo #t1 added")) == "agent", lines
        assert who(line_with(lines, "invalid entry: Agent State reads as empty")) == "unknown", lines  # pi's own

    run(app, scenario)


def test_slash_commands_and_gates_say_so(tmp_path):
    """What the log does tell: ``/todos poke on`` (its cycle entry), the poke it triggers, the gate's
    own cycle entry when it gives up, and ``/todos clear`` (an empty todo state)."""
    deck = demo_deck(tmp_path)
    deck.settle(continued=True)  # the gates give up: the agent came back without touching its todos
    deck.apply("/todos clear --yes")
    app = make_app(deck)

    async def scenario(pilot):
        lines = await open_activity(pilot)
        assert who(line_with(lines, "poke sent (#parse, #crlf … #readme)")) == "person", lines
        assert who(line_with(lines, "todo gates gave up: no progress between stops")) == "gate", lines
        assert who(lines[0]) == "person" and "removed" in lines[0], lines

    run(app, scenario)


# -- bug 11: a poke's detail is empty ---------------------------------------------------------------


@pytest.mark.parametrize("who_pokes", ["gate", "person"])
def test_a_pokes_detail_shows_what_was_said_to_the_agent(tmp_path, who_pokes):
    deck = demo_deck(tmp_path)  # its newest entry: the poke ``/todos poke trigger`` sent
    if who_pokes == "gate":
        deck.settle()  # the gates poke the agent at its turn's end
    app = make_app(deck)

    async def scenario(pilot):
        await open_activity(pilot)
        app.query_one(EventList).focus()
        await pilot.press("enter")  # the newest event: the poke
        await pilot.pause()
        body = str(app.screen.query_one("#detail-body").render())
        assert "poke sent" in body and "Said to the agent" in body, body
        # the follow-up's own text (core/primitives/todo/constants.py POKE_TEXT), which it read as only an id and a time
        assert "You have 4 incomplete todos. Continue working, or update the todo tool." in body, body

    run(app, scenario)


def test_a_digest_detail_keeps_its_lines(tmp_path):
    """A follow-up of several lines (the gates' quality review) shows them all, literally."""
    deck = demo_deck(tmp_path)
    deck.log.append_custom_message("pi-jtodo/followup", "[red]Quality review[/red]\nline two\n\x1b[31mthree",
                                   True, {"kind": "digest", "ids": ["parse"]})
    app = make_app(open_deck(deck.log.path))

    async def scenario(pilot):
        await open_activity(pilot)
        app.query_one(EventList).focus()
        await pilot.press("enter")
        await pilot.pause()
        body = str(app.screen.query_one("#detail-body").render())
        assert "quality review sent (#parse)" in body
        assert "[red]Quality review[/red]\nline two\n␛[31mthree" in body, body

    run(app, scenario)
