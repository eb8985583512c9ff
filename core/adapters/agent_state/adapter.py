"""``AgentStateAdapter``: the pi adapter ``@j1nn0/agent-state-pi`` wired to pideck's host."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from core.adapters.agent_state import messages, persistence
from core.adapters.agent_state.commands import COMMAND, run_command
from core.adapters.agent_state.mutations import Mutation
from core.adapters.agent_state.tools import GET, TOOLS, run_tool
from core.adapters.host import AppendCustom, Notice, ToolDef, ToolResult


class AgentStateAdapter:
    COMMAND = COMMAND
    DESCRIPTION = "Record and inspect caller-declared Agent State."
    ENTRY_TYPE = persistence.ENTRY_TYPE
    TOOLS: tuple[ToolDef, ...] = TOOLS

    def __init__(self, append_custom: AppendCustom) -> None:
        self._append_custom = append_custom
        self._state = persistence.empty_state()

    def load(self, entries: Iterable[Mapping[str, Any]]) -> list[Notice]:
        self._state, valid = persistence.load_state(entries)
        return [] if valid else [Notice(messages.INVALID_PERSISTED, "warning")]

    def command(self, args: str) -> list[Notice]:
        notice, mutation = run_command(self._state, args)
        self._apply(mutation)
        return [notice]

    def call_tool(self, name: str, params: Any) -> ToolResult:
        """Raises ``KeyError`` only for a name that is not in ``TOOLS`` (a dispatcher bug)."""
        text, mutation = run_tool(self._state, name, params)
        self._apply(mutation)
        return ToolResult(text, rejected=mutation is None and name != GET)

    def snapshot(self) -> dict[str, Any]:
        return self._state.snapshot()

    def _apply(self, mutation: Mutation | None) -> None:
        """Append-on-change: persist the whole new state only when it changed. The live state
        moves only once the append succeeded, so it never runs ahead of the log."""
        if mutation is not None and mutation.changed:
            self._append_custom(self.ENTRY_TYPE, persistence.payload(mutation.state))
            self._state = mutation.state
