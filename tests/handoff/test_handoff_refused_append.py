"""Agent Handoff adapter: a host that refuses the append is not an input
error. The state stays as it was and the host's error reaches the host (the Deck answers a
read-only session with its own hint), instead of ``Agent Handoff: invalid handoff input.``."""

from __future__ import annotations

import pytest

from core.primitives.handoff.adapter import AgentHandoffAdapter
from memory_log import MemoryLog

PACKET = {"schemaVersion": 1, "id": "a", "source": "s", "goal": "g"}


class Refused(Exception):
    """What a host raises when it cannot append (stands in for ReadOnlySession / OSError)."""


def refusing(custom_type, data):
    raise Refused("cannot append")


def seeded() -> AgentHandoffAdapter:
    adapter = AgentHandoffAdapter(refusing)
    entry = MemoryLog.custom("agent-handoff-state", {"schemaVersion": 1, "packets": [PACKET]})
    assert adapter.load([entry]) == []
    return adapter


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("agent_handoff_create", {**PACKET, "id": "b"}),
        ("agent_handoff_remove", {"id": "a"}),
    ],
)
def test_handoff_refused_append_in_a_tool_propagates_and_keeps_state(name, params):
    adapter = seeded()
    with pytest.raises(Refused):
        adapter.call_tool(name, params)
    assert adapter.packets() == [PACKET]


@pytest.mark.parametrize("args", ["remove a", "clear --yes"])
def test_handoff_refused_append_in_a_command_propagates_and_keeps_state(args):
    adapter = seeded()
    with pytest.raises(Refused):
        adapter.command(args)
    assert adapter.packets() == [PACKET]


def test_handoff_core_errors_are_still_text_and_never_reach_the_host():
    adapter = seeded()
    assert adapter.call_tool("agent_handoff_create", {**PACKET, "extra": 1}).text.startswith(
        "Agent Handoff: change rejected as invalid;"
    )
    assert adapter.command(None)[0].message == "Agent Handoff: invalid handoff input."
