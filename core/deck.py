"""The Deck: one session log joined with the derived state of every primitive.

Reads flow log -> branch -> adapters; mutations flow command/tool -> adapter -> one appended entry.
The Deck keeps no state the log cannot rebuild: ``reload`` re-derives everything from the branch.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Callable

from core.adapters.agent_handoff import AgentHandoffAdapter
from core.adapters.agent_progress import AgentProgressAdapter
from core.adapters.agent_state import AgentStateAdapter
from core.adapters.dispatch import Dispatcher
from core.adapters.host import EntryLog, Notice, latest_custom
from core.todo import TodoAdapter, TodoConfig
from core.todo.adapter import wall_clock_ms

READ_ONLY_HINT = (
    "This session is read-only: it belongs to pi, which keeps its tree in memory, so entries "
    "appended while pi runs would land on a branch pi no longer follows. Nothing was changed. "
    "Open it with --write to append anyway."
)


@dataclass(frozen=True)
class DeckChange:
    """What one ``Deck.refresh()`` took in."""

    reset: bool  # the file was truncated, replaced or rewritten: everything was re-read
    new_entries: int
    branch_switched: bool = False  # the new leaf is not a descendant of the old one
    followups: list[str] = field(default_factory=list)  # idle nudges the todo machine sent


class Deck:
    """Derived state of Agent State, Agent Progress, Agent Handoff (and todos) over one log."""

    def __init__(
        self,
        log: EntryLog,
        *,
        read_only_error: type[Exception] | None = None,
        todo_config: TodoConfig | None = None,
        clock: Callable[[], int] | None = None,
    ) -> None:
        self.log = log
        self._read_only_error = read_only_error
        self.state = AgentStateAdapter(log.append_custom)
        self.progress = AgentProgressAdapter(log.append_custom)
        self.handoff = AgentHandoffAdapter(log.append_custom)
        self.todo = TodoAdapter(log, clock=clock or wall_clock_ms, config=todo_config)
        self.dispatcher = Dispatcher([self.state, self.progress, self.handoff, self.todo])
        self._warnings: dict[str, list[str]] = {}
        self.restored: dict[str, bool] = {}
        """Per entry type: the branch holds an entry of it and the newest one was valid."""
        self.reload()

    def reload(self) -> None:
        """Re-derive every primitive from the current branch (session_start for each adapter).
        The todo adapter folds the branch itself, on demand."""
        self._warnings = {}
        for adapter in self.primitives:
            self._load_primitive(adapter)
        records = getattr(self.log, "records", None)
        self._count = len(records) if records is not None else 0
        self._generation = getattr(self.log, "generation", 0)
        self._leaf = getattr(self.log, "leaf_id", None)

    @property
    def primitives(self) -> tuple[Any, ...]:
        """The three adapters restored from the newest custom entry of their type."""
        return (self.state, self.progress, self.handoff)

    def _load_primitive(self, adapter: Any) -> None:
        finder = getattr(self.log, "latest_custom", None)  # the session log answers from its index
        newest = finder(adapter.ENTRY_TYPE) if finder else latest_custom(self.log.branch_entries(), adapter.ENTRY_TYPE)
        notices = adapter.load([newest] if newest is not None else [])
        self._warnings[adapter.ENTRY_TYPE] = [n.message for n in notices]
        self.restored[adapter.ENTRY_TYPE] = newest is not None and not notices

    @property
    def warnings(self) -> list[str]:
        """Restore warnings: an invalid newest entry of a primitive, then the todo replay's."""
        restore = [w for ws in self._warnings.values() for w in ws]
        return restore + [n.message for n in self.todo.load()]

    def refresh(self) -> DeckChange | None:
        """Take in what other writers appended (the tail path). None when nothing changed.

        When the new entries extend the current branch, only the adapters whose entry type
        appeared are reloaded, from their newest entry; a reset or a branch switch reloads all.
        """
        if not hasattr(self.log, "refresh"):  # a log without a file (MemoryLog): re-derive
            self.reload()
            return DeckChange(reset=False, new_entries=0)
        result = self.log.refresh()
        records = self.log.records
        reset = result.reset or self.log.generation != self._generation
        new = records[self._count:] if not reset else records
        self._count, self._generation = len(records), self.log.generation
        if not reset and not new:
            return None
        extends = not reset and all(
            r.parent_id == (new[i - 1].id if i else self._leaf) for i, r in enumerate(new)
        )
        self._leaf = self.log.leaf_id
        if extends:
            types = {r.custom_type for r in new if r.type == "custom"}
            for adapter in self.primitives:
                if adapter.ENTRY_TYPE in types:
                    self._load_primitive(adapter)
        else:
            self.reload()
        nudges = [] if reset else self._observe(new if extends else self._on_branch(new))
        return DeckChange(reset=reset, new_entries=len(new), branch_switched=not extends and not reset,
                          followups=nudges)

    def _on_branch(self, new: list[Any]) -> list[Any]:
        """The new records on the current branch after a switch (pi writes the first message after
        a /tree jump with its parent on the earlier entry): a suffix of the branch, in file order."""
        fresh = {id(r) for r in new}
        branch = self.log.branch()
        return [r for r in branch[max(0, len(branch) - len(new)):] if id(r) in fresh]

    def _observe(self, new: list[Any]) -> list[str]:
        """Feed the todo machine the agent's messages as they land: a user message re-arms the
        cycle on new work, assistant messages count towards the idle nudge. pideck runs the gates
        only on a log it may write (a pi session where pi-jtodo runs is read-only unless the user
        asked to write, jtodo.md §10.5)."""
        if not getattr(self.log, "writable", False):
            return []
        messages = [r for r in new if r.type == "message" and getattr(r, "role", None) in ("user", "assistant")]
        if not messages:
            return []
        sent: list[str] = []
        locked = getattr(self.log, "locked", None)
        with locked() if locked is not None else nullcontext():
            # Decide on everything written so far: another pideck following this log may already
            # have acted on these messages (the next refresh() takes in what this one reads here).
            self.log.refresh()
            for record in messages:
                try:
                    if record.role == "user":
                        self.todo.after_user_message()
                    elif (text := self.todo.after_assistant_message()) is not None:
                        sent.append(text)
                except Exception as exc:  # a read-only race: never let the tail path crash
                    if not self._is_read_only(exc):
                        raise
        return sent

    def watchdog_tick(self, now_ms: int | None = None) -> list[Notice]:
        """One watchdog tick (the TUI calls it on its timer, tests with an injected time)."""
        if not getattr(self.log, "writable", False):
            return []
        return self._mutating(lambda: self.todo.watchdog_tick(now_ms), lambda m: [])

    def has_todo_state(self) -> bool:
        """The branch holds a todo state candidate (a ``pi-jtodo/state`` entry, or a ``todo``
        tool result whose details hold a list ``todos``; jtodo.md §10.2), valid or not."""
        return self.todo.replay().has_candidate

    def apply(self, line: str) -> list[Notice]:
        """Run one slash-command line; returns its notifications."""
        return self._mutating(lambda: self.dispatcher.run_line(line), lambda m: [Notice(m, "warning")])

    def call_tool(self, name: str, params: Any) -> str:
        """Call one model tool; returns its result text. Raises ``UnknownTool`` for a bad name."""
        return self._mutating(lambda: self.dispatcher.call_tool(name, params), lambda m: m)

    def settle(self) -> tuple[str | None, Notice | None]:
        """One turn-end settle of the todo gates (what a harness calls when the agent stops).
        pideck runs no gates on a log it may not write (jtodo.md §10.5)."""
        if not getattr(self.log, "writable", True):
            return None, Notice(READ_ONLY_HINT, "warning")
        return self._mutating(self.todo.settle, lambda m: (None, Notice(m, "warning")))

    def _mutating(self, run: Callable[[], Any], refused: Callable[[str], Any]) -> Any:
        """Run a mutation under the log's lock, on state that includes every other writer's
        entries; a read-only log refuses it with a message that says why and how."""
        locked = getattr(self.log, "locked", None)
        try:
            if locked is None or not getattr(self.log, "writable", True):
                return run()
            with locked():
                self.refresh()
                return run()
        except Exception as exc:
            if not self._is_read_only(exc):
                raise
            self.reload()  # the adapter never moved its state, but stay exact anyway
            return refused(READ_ONLY_HINT)

    def _is_read_only(self, exc: Exception) -> bool:
        return self._read_only_error is not None and isinstance(exc, self._read_only_error)
