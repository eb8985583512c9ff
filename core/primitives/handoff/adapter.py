"""``AgentHandoffAdapter``: the pi adapter ``@j1nn0/agent-handoff-pi`` wired to pideck's host.

Wired like the other two primitive adapters (``core/primitives/controller.py``): the command and the
tools decide an ``Outcome`` from the live state, the controller appends one entry on a change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from core.primitives.controller import Controller
from core.primitives.handoff import messages, persistence
from core.primitives.handoff.commands import run_command
from core.primitives.handoff.mutations import HandoffState, copy_state, empty_state
from core.primitives.handoff.tools import TOOLS, run_tool
from core.primitives.host import AppendCustom, Notice, ToolDef, ToolResult

if TYPE_CHECKING:
    from core.shapes import Packet


class AgentHandoffAdapter:
    COMMAND = messages.COMMAND
    DESCRIPTION = messages.DESCRIPTION
    ENTRY_TYPE = messages.ENTRY_TYPE
    TOOLS: tuple[ToolDef, ...] = TOOLS

    def __init__(self, append_custom: AppendCustom) -> None:
        self._controller: Controller[HandoffState] = Controller(
            append_custom, self.ENTRY_TYPE, empty=empty_state, restore=persistence.restore,
            payload=persistence.payload, invalid=messages.INVALID_PERSISTED,
        )

    def load(self, entries: Iterable[Mapping[str, Any]]) -> list[Notice]:
        return self._controller.load(entries)

    def command(self, args: str) -> list[Notice]:
        return self._controller.settle(run_command(self._controller.state, args))

    def call_tool(self, name: str, params: Any) -> ToolResult:
        return self._controller.settle(run_tool(self._controller.state, name, params))

    def packets(self) -> list[Packet]:
        """The current packets, in insertion order, as fresh copies."""
        return copy_state(self._controller.state)["packets"]
