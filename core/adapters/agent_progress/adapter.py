"""Wiring of the Agent Progress adapter (``@j1nn0/agent-progress-pi``) onto pideck's host."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from core.adapters.host import AppendCustom, Notice, ToolResult, latest_custom

from . import commands, messages, tools
from .controller import Controller
from .mutations import copy_state, empty_state
from .persistence import ENTRY_TYPE, parse_payload


class AgentProgressAdapter:
    COMMAND = commands.COMMAND
    DESCRIPTION = commands.DESCRIPTION
    ENTRY_TYPE = ENTRY_TYPE
    TOOLS = tools.TOOLS

    def __init__(self, append_custom: AppendCustom) -> None:
        self._controller = Controller(append_custom)

    def load(self, entries: Iterable[Mapping[str, Any]]) -> list[Notice]:
        """Restore from the newest matching entry only: invalid means one warning and a fresh
        state, never a fallback to an older entry. Never appends."""
        self._controller.state = empty_state()
        try:
            entry = latest_custom(entries, ENTRY_TYPE)
            if entry is None:
                return []
            state = parse_payload(entry.get("data"))  # absent data reads as None: invalid
        except Exception:  # an unreadable branch warns like upstream's catch-all
            state = None
        if state is None:
            return [Notice(messages.INVALID_STATE_WARNING, "warning")]
        self._controller.state = state
        return []

    def command(self, args: str) -> list[Notice]:
        return commands.run_command(self._controller, args)

    def call_tool(self, name: str, params: Any) -> ToolResult:
        return tools.call_tool(self._controller, name, params)

    def state(self) -> dict[str, Any]:
        """The current state, ``{hasBaseline, currentMilestones, recordedMilestones}``, as a copy."""
        return copy_state(self._controller.state)

    @property
    def judged(self) -> int:
        """How many judges settled in this process (the Deck records each verdict)."""
        return self._controller.judged

    def last_verdict(self) -> dict[str, Any] | None:
        """A copy of the verdict of the latest successful judge in this process, or None."""
        return copy.deepcopy(self._controller.last_verdict)
