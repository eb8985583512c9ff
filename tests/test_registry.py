"""The command and tool registry: one declaration per adapter feeds every list."""

from __future__ import annotations

import pytest

from core.primitives.handoff.tools import TOOLS as HANDOFF_TOOLS
from core.primitives.handoff import messages as handoff_messages
from core.primitives.progress import messages as progress_messages
from core.primitives.state import messages as state_messages
from core.deck.deck import Deck
from core.primitives.todo import commands as todo_commands
from core.deck.commands import NAMESPACES, SUBCOMMANDS, find
from core.deck.registry import TOOLS
from memory_log import MemoryLog


USAGES = tuple(m.USAGE for m in (state_messages, progress_messages, handoff_messages, todo_commands))


def test_every_declared_subcommand_is_one_its_adapter_runs(tmp_path, monkeypatch) -> None:
    # A sub-command the adapter does not know, or arguments it does not take, answer with usage.
    monkeypatch.chdir(tmp_path)  # /todos export writes a file
    for command in SUBCOMMANDS:
        if not command.sub:
            continue
        filler = {"[PATH]": "x.md"}  # (a bare word is not taken for a path: see /todos export)
        line = " ".join([command.text, *(a.choices[0] if a.choices else filler.get(a.usage, "x") for a in command.args)])
        notices = Deck(MemoryLog()).apply(line)
        assert not any(n.message in USAGES for n in notices), (line, notices)


def test_namespaces_and_tools_are_the_adapters_own() -> None:
    deck = Deck(MemoryLog())
    assert NAMESPACES == tuple(name for name, _ in deck.dispatcher.commands)
    assert [t.name for t in TOOLS] == deck.dispatcher.tool_names()
    assert find("agent-handoff", "show").usage == "/agent-handoff show <id>"
    assert find("todos", "export").usage == "/todos export [md|json] [PATH] [--force]"
    assert TOOLS[8:11] == HANDOFF_TOOLS


REJECTED = [
    ("agent_state_add_work_item", {"id": "", "content": ""}),
    ("agent_state_add_work_item", {"id": "a", "content": "again"}),  # duplicate
    ("agent_state_set_work_item_status", {"id": "nope", "status": "done"}),  # unknown id
    ("agent_state_add_decision", None),
    ("agent_progress_add_milestone", {"milestone": "m"}),  # duplicate
    ("agent_progress_withdraw_milestone", {"milestone": "nope"}),
    ("agent_handoff_create", {"id": "h"}),
    ("agent_handoff_remove", {"id": "nope"}),
    ("todo", {"todos": [{"id": "t"}]}),  # invalid input
]
ACCEPTED = [
    ("agent_state_get", {}),
    ("agent_state_add_work_item", {"id": "b", "content": "new"}),
    ("agent_state_set_work_item_status", {"id": "a", "status": "open"}),  # unchanged, not rejected
    ("agent_state_add_decision", {"id": "d", "content": "c"}),
    ("agent_progress_get", {}),
    ("agent_progress_add_milestone", {"milestone": "n"}),
    ("agent_progress_withdraw_milestone", {"milestone": "m"}),
    ("agent_progress_judge", {}),
    ("agent_handoff_get", {}),
    ("agent_handoff_create", {"schemaVersion": 1, "id": "h2", "source": "s", "goal": "g"}),
    ("agent_handoff_remove", {"id": "h1"}),
    ("todo", {}),
]


def _seeded() -> Deck:
    deck = Deck(MemoryLog())
    deck.apply("/agent-state add a First")
    deck.apply("/agent-progress add m")
    deck.call_tool("agent_handoff_create", {"schemaVersion": 1, "id": "h1", "source": "s", "goal": "g"})
    return deck


@pytest.mark.parametrize(("name", "params"), REJECTED)
def test_a_turned_down_call_is_flagged_rejected_and_appends_nothing(name, params) -> None:
    deck = _seeded()
    before = len(deck.log.entries)
    result = deck.call_tool(name, params)
    assert result.rejected and not result.refused, result
    assert len(deck.log.entries) == before


@pytest.mark.parametrize(("name", "params"), ACCEPTED)
def test_a_read_or_a_change_is_not_rejected(name, params) -> None:
    result = _seeded().call_tool(name, params)
    assert not result.rejected, result


def test_a_write_the_log_refuses_is_rejected_and_refused() -> None:
    deck = _seeded()
    deck.log.writable = False
    result = deck.call_tool("agent_progress_add_milestone", {"milestone": "x"})
    assert result.rejected and result.refused and "read-only" in result.text
    assert not deck.call_tool("agent_progress_get", {}).rejected
