"""Wiring of the Agent Handoff adapter: holds the state, persists changes, reports notices."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.adapters.agent_handoff import messages as m
from core.adapters.agent_handoff.commands import run_command
from core.adapters.agent_handoff.format import format_handoff_error
from core.adapters.agent_handoff.mutations import HandoffState, copy_state, empty_state
from core.adapters.agent_handoff.persistence import payload, restore_state
from core.adapters.agent_handoff.tools import GET, TOOLS, run_tool
from core.adapters.host import AppendCustom, Notice, ToolDef, ToolResult, latest_custom

_ABSENT = object()


class AgentHandoffAdapter:
    """Port of ``@j1nn0/agent-handoff-pi`` against pideck's host interface."""

    COMMAND = m.COMMAND
    DESCRIPTION = m.DESCRIPTION
    ENTRY_TYPE = m.ENTRY_TYPE
    TOOLS: tuple[ToolDef, ...] = TOOLS

    def __init__(self, append_custom: AppendCustom) -> None:
        self._append_custom = append_custom
        self._state: HandoffState = empty_state()

    def packets(self) -> list[dict[str, Any]]:
        """The current packets, in insertion order, as fresh copies."""
        return copy_state(self._state)["packets"]

    def load(self, entries: Iterable[Mapping[str, Any]]) -> list[Notice]:
        entry = latest_custom(entries, self.ENTRY_TYPE)
        self._state = empty_state()
        if entry is None:
            return []
        restored = restore_state(entry.get("data", _ABSENT))  # absent data is invalid
        if restored is None:
            return [Notice(m.INVALID_PERSISTED, "warning")]  # never a fallback to older entries
        self._state = restored
        return []

    def command(self, args: str) -> list[Notice]:
        try:
            notice, new_state = run_command(self._state, args)
        except Exception as exc:  # noqa: BLE001 (upstream wraps the whole handler)
            return [Notice(format_handoff_error(exc), "warning")]
        self._commit(new_state)
        return [notice]

    def call_tool(self, name: str, params: Any) -> ToolResult:
        try:
            text, new_state = run_tool(self._state, name, params)
        except Exception as exc:  # noqa: BLE001 (errors are text, never raised)
            return ToolResult(format_handoff_error(exc), rejected=True)
        self._commit(new_state)
        return ToolResult(text, rejected=new_state is None and name != GET.name)

    def _commit(self, new_state: HandoffState | None) -> None:
        """Persist a changed state; the in-memory state moves only once the append succeeded.

        Outside the catch-alls: a host's refusal to append (a read-only session) is not an input
        error, so it propagates to the host instead of becoming "invalid handoff input"."""
        if new_state is None:
            return
        self._append_custom(self.ENTRY_TYPE, payload(new_state))
        self._state = new_state
