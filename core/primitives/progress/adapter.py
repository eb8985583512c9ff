"""``AgentProgressAdapter``: the pi adapter ``@j1nn0/agent-progress-pi`` wired to pideck's host.

Wired like the other two primitive adapters (``core/primitives/controller.py``): the command and the
tools decide an ``Outcome`` from the live state, the controller appends one entry on a change (and
here also keeps the verdict of each judge, ``controller.py``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from core.primitives.host import AppendCustom, Notice, ToolDef, ToolResult
from core.primitives.progress import commands, messages, persistence, tools
from core.primitives.progress.controller import ProgressController
from core.primitives.progress.mutations import copy_state, empty_state

if TYPE_CHECKING:
    from core.shapes import ProgressState, Verdict


class AgentProgressAdapter:
    COMMAND = commands.COMMAND
    DESCRIPTION = commands.DESCRIPTION
    ENTRY_TYPE = persistence.ENTRY_TYPE
    TOOLS: tuple[ToolDef, ...] = tools.TOOLS

    def __init__(self, append_custom: AppendCustom) -> None:
        self._controller = ProgressController(
            append_custom, self.ENTRY_TYPE, empty=empty_state, restore=persistence.restore,
            payload=persistence.to_payload, invalid=messages.INVALID_STATE_WARNING,
        )

    def load(self, entries: Iterable[Mapping[str, Any]]) -> list[Notice]:
        return self._controller.load(entries)

    def command(self, args: str) -> list[Notice]:
        return self._controller.settle(commands.run_command(self._controller.state, args))

    def call_tool(self, name: str, params: Any) -> ToolResult:
        return self._controller.settle(tools.run_tool(self._controller.state, name, params))

    def state(self) -> ProgressState:
        """The current state, ``{hasBaseline, currentMilestones, recordedMilestones}``, as a copy."""
        return copy_state(self._controller.state)

    @property
    def judged(self) -> int:
        """How many judges settled in this process (the Deck records each verdict)."""
        return self._controller.judged

    def last_verdict(self) -> Verdict | None:
        """A copy of the verdict of the latest successful judge in this process, or None."""
        return copy.deepcopy(self._controller.last_verdict)
