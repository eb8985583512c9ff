"""Agent Progress adapter: the live state never runs ahead of the log.

Append on change (docs/primitives.md#append-on-change) means the state changes exactly when an entry
is appended. When the host refuses the append (a read-only pi session, a full disk), nothing may
change, and the host's error must reach the host (the Deck turns a read-only refusal into its own
hint) instead of being disguised as a core error text such as ``Agent Progress: invalid input.``.
"""

from __future__ import annotations

import pytest

from core.primitives.progress.adapter import AgentProgressAdapter
from memory_log import MemoryLog


class Refused(Exception):
    """What a host raises when it cannot append (stands in for ReadOnlySession / OSError)."""


def refusing(custom_type, data):
    raise Refused("cannot append")


def seeded(data) -> AgentProgressAdapter:
    adapter = AgentProgressAdapter(refusing)
    assert adapter.load([MemoryLog.custom("agent-progress-state", data)]) == []
    return adapter


FRESH = {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": ["a"], "recordedMilestones": []}


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("agent_progress_add_milestone", {"milestone": "b"}),
        ("agent_progress_withdraw_milestone", {"milestone": "a"}),
        ("agent_progress_judge", {}),
    ],
)
def test_progress_refused_append_in_a_tool_changes_nothing_and_propagates(name, params):
    adapter = seeded(FRESH)
    before = adapter.state()
    with pytest.raises(Refused):
        adapter.call_tool(name, params)
    assert adapter.state() == before
    assert adapter.last_verdict() is None


@pytest.mark.parametrize("args", ["add b", "withdraw a", "judge", "clear --yes"])
def test_progress_refused_append_in_a_command_changes_nothing(args):
    adapter = seeded(FRESH)
    before = adapter.state()
    with pytest.raises(Refused):
        adapter.command(args)
    assert adapter.state() == before
    assert adapter.last_verdict() is None
