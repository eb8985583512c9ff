"""``AgentStateAdapter``: the pi adapter ``@j1nn0/agent-state-pi`` wired to pideck's host.

Wired like the other two primitive adapters (``core/primitives/controller.py``): the command and the
tools decide an ``Outcome`` from the live state, the controller appends one entry on a change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

from core.primitives.controller import Controller
from core.primitives.host import AppendCustom, Notice, ToolDef, ToolResult
from core.primitives.state import messages, persistence
from core.primitives.state.commands import COMMAND, run_command
from core.primitives.state.core import AgentState
from core.primitives.state.tools import TOOLS, run_tool

if TYPE_CHECKING:
    from core.shapes import StateSnapshot


class AgentStateAdapter:
    COMMAND = COMMAND
    DESCRIPTION = "Record and inspect caller-declared Agent State."
    ENTRY_TYPE = persistence.ENTRY_TYPE
    TOOLS: tuple[ToolDef, ...] = TOOLS

    def __init__(self, append_custom: AppendCustom) -> None:
        self._controller: Controller[AgentState] = Controller(
            append_custom, self.ENTRY_TYPE, empty=persistence.empty_state, restore=persistence.restore,
            payload=persistence.payload, invalid=messages.INVALID_PERSISTED,
        )

    def load(self, entries: Iterable[Mapping[str, Any]]) -> list[Notice]:
        return self._controller.load(entries)

    def command(self, args: str) -> list[Notice]:
        return self._controller.settle(run_command(self._controller.state, args))

    def call_tool(self, name: str, params: Any) -> ToolResult:
        """Raises ``KeyError`` only for a name that is not in ``TOOLS`` (a dispatcher bug)."""
        return self._controller.settle(run_tool(self._controller.state, name, params))

    def snapshot(self) -> StateSnapshot:
        return self._controller.state.snapshot()
