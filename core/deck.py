"""The Deck: one session log joined with the derived state of every primitive.

Reads flow log -> branch -> adapters; mutations flow command/tool -> adapter -> one appended entry.
The Deck keeps no state the log cannot rebuild: ``reload`` re-derives everything from the branch.
"""

from __future__ import annotations

from typing import Any, Callable

from core.adapters.agent_handoff import AgentHandoffAdapter
from core.adapters.agent_progress import AgentProgressAdapter
from core.adapters.agent_state import AgentStateAdapter
from core.adapters.dispatch import Dispatcher
from core.adapters.host import EntryLog, Notice, latest_custom

READ_ONLY_HINT = (
    "This session is read-only: it belongs to pi, which keeps its tree in memory, so entries "
    "appended while pi runs would land on a branch pi no longer follows. Nothing was changed. "
    "Open it with --write to append anyway."
)


class Deck:
    """Derived state of Agent State, Agent Progress, Agent Handoff (and todos) over one log."""

    def __init__(self, log: EntryLog, *, read_only_error: type[Exception] | None = None) -> None:
        self.log = log
        self._read_only_error = read_only_error
        self.state = AgentStateAdapter(log.append_custom)
        self.progress = AgentProgressAdapter(log.append_custom)
        self.handoff = AgentHandoffAdapter(log.append_custom)
        self.dispatcher = Dispatcher([self.state, self.progress, self.handoff])
        self.warnings: list[str] = []
        self.restored: dict[str, bool] = {}
        """Per entry type: the branch holds an entry of it and the newest one was valid."""
        self.reload()

    def reload(self) -> None:
        """Re-derive every primitive from the current branch (session_start for each adapter)."""
        branch = self.log.branch_entries()
        warnings: list[str] = []
        self.restored = {}
        for adapter in self.dispatcher.adapters:
            notices = adapter.load(branch)
            warnings.extend(n.message for n in notices)
            found = latest_custom(branch, adapter.ENTRY_TYPE) is not None
            self.restored[adapter.ENTRY_TYPE] = found and not notices
        self.warnings = warnings

    def apply(self, line: str) -> list[Notice]:
        """Run one slash-command line; returns its notifications."""
        return self._mutating(lambda: self.dispatcher.run_line(line), lambda m: [Notice(m, "warning")])

    def call_tool(self, name: str, params: Any) -> str:
        """Call one model tool; returns its result text. Raises ``UnknownTool`` for a bad name."""
        return self._mutating(lambda: self.dispatcher.call_tool(name, params), lambda m: m)

    def _mutating(self, run: Callable[[], Any], refused: Callable[[str], Any]) -> Any:
        try:
            return run()
        except Exception as exc:
            if self._read_only_error is None or not isinstance(exc, self._read_only_error):
                raise
            self.reload()  # the adapter never moved its state, but stay exact anyway
            return refused(READ_ONLY_HINT)
