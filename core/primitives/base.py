"""The shape every primitive adapter has, so the dispatcher and the Deck treat them alike."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Protocol

from core.primitives.host import Notice, ToolDef, ToolResult


class Adapter(Protocol):
    """A pi adapter ported to pideck. Built as ``Adapter(append_custom)``."""

    COMMAND: str  # slash command name without the slash, e.g. "agent-state"
    DESCRIPTION: str  # the command description shown in pi's (and pideck's) command list
    ENTRY_TYPE: str  # customType of its persisted entries
    TOOLS: tuple[ToolDef, ...]  # in registration order

    def load(self, entries: Iterable[Mapping[str, Any]]) -> list[Notice]:
        """session_start: restore from the newest matching entry of the branch; never appends."""

    def command(self, args: str) -> list[Notice]:
        """Run ``/<COMMAND> <args>``; returns the notifications it emitted, in order."""

    def call_tool(self, name: str, params: Any) -> ToolResult:
        """Execute one of TOOLS; errors come back as text (flagged ``rejected``), never raised;
        only a host's refusal to append propagates."""
