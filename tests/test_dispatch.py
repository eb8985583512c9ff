"""Routing a command line or a tool call to its adapter (core/primitives/dispatch.py)."""

from __future__ import annotations

import pytest

from core.primitives.dispatch import UnknownTool
from core.primitives.host import Notice
from memory_log import MemoryLog
from core.deck.deck import Deck


@pytest.fixture
def deck() -> Deck:
    return Deck(MemoryLog())


def test_commands_and_tools_are_listed_in_adapter_and_registration_order(deck: Deck) -> None:
    assert [name for name, _ in deck.dispatcher.commands] == ["agent-state", "agent-progress", "agent-handoff", "todos"]
    assert deck.dispatcher.tool_names() == [
        "agent_state_get", "agent_state_add_work_item", "agent_state_set_work_item_status",
        "agent_state_add_decision", "agent_progress_get", "agent_progress_add_milestone",
        "agent_progress_withdraw_milestone", "agent_progress_judge", "agent_handoff_get",
        "agent_handoff_create", "agent_handoff_remove", "todo"]


def test_args_keep_trailing_whitespace_and_newlines(deck: Deck) -> None:
    assert deck.apply("/agent-state add x  y  ") == [Notice('Agent State: added work item "x".')]
    assert deck.state.snapshot()["workItems"] == [{"id": "x", "content": "y  ", "status": "open"}]
    deck.apply("/agent-state decide d line one\nline two\n")
    assert deck.state.snapshot()["decisions"] == [{"id": "d", "content": "line one\nline two\n"}]


def test_the_command_name_ends_at_javascript_whitespace(deck: Deck) -> None:
    # U+0085 is whitespace to Python but not to JavaScript: it belongs to the command name.
    assert deck.apply("/agent-progress\x85 add m")[0].message.startswith('Unknown command "/agent-progress\x85".')
    # U+FEFF is JavaScript whitespace: it separates the name from the args.
    assert deck.apply("/agent-progress\ufeffadd m") == [Notice('Agent Progress: added milestone "m".')]


def test_unknown_command_and_non_command_lines_warn(deck: Deck) -> None:
    assert deck.apply("/nope") == [Notice(
        'Unknown command "/nope". Commands: /agent-state, /agent-progress, /agent-handoff, /todos.', "warning")]
    assert deck.apply("hello") == [Notice(
        "Not a command: 'hello'. Commands: /agent-state, /agent-progress, /agent-handoff, /todos.", "warning")]


def test_unknown_tool_raises_for_the_cli_to_exit_2(deck: Deck) -> None:
    with pytest.raises(UnknownTool, match='^Unknown tool "nope". Tools: agent_state_get, '):
        deck.call_tool("nope", {})


def test_a_near_miss_is_answered_with_the_command_meant(tmp_path):
    """``/agent-stat`` and ``/AGENT-STATE`` (case-folded) name ``/agent-state``; a word near nothing
    gets the list alone, as before."""
    from core.session.log import SessionLog

    deck = Deck(SessionLog.create(tmp_path / "s.jsonl", cwd=str(tmp_path)))
    known = "Commands: /agent-state, /agent-progress, /agent-handoff, /todos."
    for typed, meant in (("agent-stat", "agent-state"), ("AGENT-STATE", "agent-state"), ("todo", "todos"),
                         ("agent-handof", "agent-handoff")):
        assert [n.message for n in deck.apply(f"/{typed} status")] == [
            f'Unknown command "/{typed}". {known} Did you mean /{meant}?']
    assert [n.message for n in deck.apply("/xyzzy")] == [f'Unknown command "/xyzzy". {known}']


def test_pideck_answers_a_mistyped_command_with_the_one_it_means(capsys):
    from core.cli.main import main

    for typed, meant in (("stauts", "status"), ("STATUS", "status"), ("overveiw", "overview")):
        assert main([typed], tui=lambda *args, **kwargs: 0) == 2
        assert capsys.readouterr().err.rstrip().endswith(f"invalid choice: '{typed}' (choose from 'run', 'tool', "
            "'inspect', 'diff', 'gate', 'mcp', 'hook', 'config', 'demo', 'overview', 'status', 'watch', 'sessions', 'usage', "
            f"'cache', 'install', 'tail', 'serve') (did you mean '{meant}'?)")
