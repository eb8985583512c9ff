"""The Deck: one session log joined with the derived state of every primitive.

Reads flow log -> branch -> adapters; mutations flow command/tool -> adapter -> one appended entry.
The Deck keeps no state the log cannot rebuild: ``reload`` re-derives everything from the branch.
It is not thread-safe: a front end uses it from one thread at a time (the TUI from one worker).
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Callable, Generic, Sequence, TypeVar

from core.clock import wall_clock_ms
from core.limits import field_too_long
from core.primitives import handoff as agent_handoff
from core.primitives import progress as agent_progress
from core.primitives import state as agent_state
from core.primitives.host import Notice, ToolResult
from core.primitives.progress import verdicts
from core.primitives.todo.adapter import TodoAdapter
from core.session.access import every_write_refused as every_write_refused  # (the front ends ask the deck)
from core.session.errors import PI_SESSION_READ_ONLY, SERVED_READ_ONLY, ReadOnlySession, StaleState
from core.session.writer import AGENT, PERSON
from core.session.interface import WritableLog
from core.slotted import Slotted

if TYPE_CHECKING:
    from core.config.settings import TodoConfig
    from core.primitives.dispatch import Dispatcher
    from core.primitives.handoff.adapter import AgentHandoffAdapter
    from core.primitives.progress.adapter import AgentProgressAdapter
    from core.primitives.progress.verdicts import Via
    from core.primitives.state.adapter import AgentStateAdapter
    from core.session.records import EntryRecord

READ_ONLY_HINT = PI_SESSION_READ_ONLY
"""The refusal on one of pi's own files. A refusal always says its own reason (the log's
``read_only_reason``): an old or newer format version, a file opened read-only, gone or emptied."""
SERVED_HINT = SERVED_READ_ONLY
"""The refusal of every write in an app ``pideck serve`` started read-only (docs/serve.md)."""

STATE, PROGRESS, HANDOFF, TODO = "state", "progress", "handoff", "todo"
ALL_PARTS = frozenset({STATE, PROGRESS, HANDOFF, TODO})
"""The parts of the derived state a front end shows (one pane each, the todo strip and table)."""

L = TypeVar("L", bound=WritableLog)
_R = TypeVar("_R")
if TYPE_CHECKING:  # (annotations only: at run time typing would compile each name, core/slotted.py)
    Primitive = AgentStateAdapter | AgentProgressAdapter | AgentHandoffAdapter
    _P = TypeVar("_P", AgentStateAdapter, AgentProgressAdapter, AgentHandoffAdapter)


class DeckChange(Slotted):
    """What changed since the Deck last reported: taken in from other writers, or appended by the
    Deck's own commands and tool calls. (A plain class, not a NamedTuple, as the annotations of
    this module are strings: core/slotted.py. ``replace`` makes a changed copy.)"""

    __slots__ = ("parts", "new_entries", "reset", "branch_switched", "followups")

    def __init__(self, parts: frozenset[str], new_entries: int = 0, reset: bool = False, branch_switched: bool = False,
                 followups: tuple[str, ...] = ()) -> None:
        self.parts = parts  # which of ALL_PARTS must be drawn again
        self.new_entries = new_entries
        self.reset = reset  # the file was truncated, replaced or rewritten: everything was re-read
        self.branch_switched = branch_switched  # a new leaf that is not a descendant of the old one
        self.followups = followups  # idle nudges the todo machine sent while taking entries in


class Deck(Generic[L]):
    """Derived state of Agent State, Agent Progress, Agent Handoff (and todos) over one log."""

    host: str | None = None
    """The ``[[hosts]]`` name of the machine the session is on (None: this one). A remote deck
    (core/catalog/remote_deck.py) reads a local copy and sends its writes there."""
    remote_path: str | None = None
    """A remote deck's: the session's path on its host."""

    def __init__(
        self,
        log: L,
        *,
        todo_config: TodoConfig | None = None,
        clock: Callable[[], int] | None = None,
    ) -> None:
        self.log = log
        self.todo = TodoAdapter(log, clock=clock or wall_clock_ms, config=todo_config)
        self._built: dict[str, Primitive] = {}
        """The primitive adapters made so far, by entry type: each is made, and restored from the
        branch, the first time it is asked for. ``pideck gate`` settles the todos alone, and
        loading the three adapters would cost it more than the settle."""
        self._dispatcher: Dispatcher | None = None
        self._warnings: dict[str, list[str]] = {}
        self._restored: dict[str, bool] = {}
        self._pending = _Pending()
        self._derive()  # the first state is the baseline a front end draws; nothing is pending

    # -- deriving -------------------------------------------------------------------------------

    @property
    def state(self) -> AgentStateAdapter:
        from core.primitives.state.adapter import AgentStateAdapter

        return self._primitive(AgentStateAdapter)

    @property
    def progress(self) -> AgentProgressAdapter:
        from core.primitives.progress.adapter import AgentProgressAdapter

        return self._primitive(AgentProgressAdapter)

    @property
    def handoff(self) -> AgentHandoffAdapter:
        from core.primitives.handoff.adapter import AgentHandoffAdapter

        return self._primitive(AgentHandoffAdapter)

    def _primitive(self, adapter_class: type[_P]) -> _P:
        """The adapter of ``adapter_class``, made and restored from the branch when first asked for."""
        adapter = self._built.get(adapter_class.ENTRY_TYPE)
        if adapter is None:
            adapter = self._built[adapter_class.ENTRY_TYPE] = adapter_class(self.log.append_custom)
            self._load_primitive(adapter)
        assert isinstance(adapter, adapter_class)
        return adapter

    @property
    def primitives(self) -> tuple[AgentStateAdapter, AgentProgressAdapter, AgentHandoffAdapter]:
        """The three adapters restored from the newest custom entry of their type."""
        return (self.state, self.progress, self.handoff)

    @property
    def dispatcher(self) -> Dispatcher:
        """Routes command lines and tool calls to the four adapters (which it makes)."""
        if self._dispatcher is None:
            from core.primitives.dispatch import Dispatcher

            self._dispatcher = Dispatcher([self.state, self.progress, self.handoff, self.todo])
        return self._dispatcher

    def reload(self) -> None:
        """Re-derive every primitive from the current branch; every part is reported changed."""
        self._derive()
        self._pending.parts |= ALL_PARTS

    def _derive(self) -> None:
        """session_start for each primitive adapter made so far (the others are restored when
        first asked for; the todo adapter folds the branch itself, on demand)."""
        for adapter in self._built.values():
            self._load_primitive(adapter)
        self._seen = (self.log.generation, len(self.log.records), self.log.leaf_id)

    def _load_primitive(self, adapter: Primitive) -> None:
        newest = self.log.latest_custom(adapter.ENTRY_TYPE)
        notices = adapter.load([newest] if newest is not None else [])
        self._warnings[adapter.ENTRY_TYPE] = [n.message for n in notices]
        self._restored[adapter.ENTRY_TYPE] = newest is not None and not notices

    @property
    def writable(self) -> bool:
        """Whether a command or a tool call here may write (what a front end says before one is
        typed): the log's word, unless the writes go elsewhere."""
        return self.log.writable

    @property
    def read_only_reason(self) -> str | None:
        """Why a write here is refused, in the words a refusal says (None: writable)."""
        return self.log.read_only_reason

    def close(self) -> None:
        """Let go of what the Deck holds beyond its log (a remote deck: its copy's follower)."""

    def problem(self) -> str | None:
        """Why what is shown may not be current beyond the file's own trouble (a remote deck: its
        host cannot be reached), or None."""
        return None

    @property
    def restored(self) -> dict[str, bool]:
        """Per entry type: the branch holds an entry of it and the newest one was valid."""
        return {adapter.ENTRY_TYPE: self._restored[adapter.ENTRY_TYPE] for adapter in self.primitives}

    @property
    def warnings(self) -> list[str]:
        """Restore warnings: an invalid newest entry of a primitive, then the todo replay's."""
        return self.primitive_warnings + [n.message for n in self.todo.load()]

    @property
    def primitive_warnings(self) -> list[str]:
        """The restore warnings of the three primitives alone (no todo fold needed)."""
        return [w for adapter in self.primitives for w in self._warnings[adapter.ENTRY_TYPE]]

    def has_todo_state(self) -> bool:
        """The branch holds a todo state candidate (a ``pi-jtodo/state`` entry, or a ``todo``
        tool result whose details hold a list ``todos``), valid or not."""
        return self.todo.replay().has_candidate

    # -- taking in what was appended ------------------------------------------------------------

    def refresh(self) -> DeckChange | None:
        """Take in what other writers appended (the tail path) and report everything that changed
        since the last report, the Deck's own appends included. None when nothing did."""
        self._take_in(observe=True)
        return self._pending.report()

    def _take_in(self, observe: bool) -> None:
        """Read what the log gained; reload only the adapters whose entry type appeared when the
        new entries extend the current branch (a reset or a branch switch reloads all)."""
        result = self.log.refresh()
        generation, count, leaf = self._seen
        records = self.log.records
        reset = result.reset or self.log.generation != generation or len(records) < count
        new: Sequence[EntryRecord] = records if reset else records[count:]
        if not reset and not new:
            return
        extends = not reset and all(r.parent_id == (new[i - 1].id if i else leaf) for i, r in enumerate(new))
        pending = self._pending
        pending.new_entries += len(new)
        pending.reset |= reset
        pending.branch_switched |= not reset and not extends
        if extends:
            parts = {p for p in map(part_of, new) if p is not None}
            for adapter in self._built.values():  # (one not made yet is restored when it is)
                if adapter.ENTRY_TYPE in {r.custom_type for r in new if r.type == "custom"}:
                    self._load_primitive(adapter)
            self._seen = (self.log.generation, len(records), self.log.leaf_id)
            pending.parts |= parts
        else:
            self.reload()
        if observe and not reset:
            pending.followups.extend(self._observe(list(new) if extends else self._on_branch(new)))

    def _on_branch(self, new: Sequence[EntryRecord]) -> list[EntryRecord]:
        """The new records on the current branch after a switch (pi writes the first message after
        a /tree jump with its parent on the earlier entry): a suffix of the branch, in file order."""
        fresh = {id(r) for r in new}
        branch = self.log.branch()
        return [r for r in branch[max(0, len(branch) - len(new)):] if id(r) in fresh]

    def _observe(self, new: list[EntryRecord]) -> list[str]:
        """Feed the todo machine the agent's messages as they land: a user message re-arms the
        cycle on new work, assistant messages count towards the idle nudge. pideck runs the gates
        only on a log it may write (on a read-only pi session, pi-jtodo itself runs them)."""
        messages = [r for r in new if r.type == "message" and r.role in ("user", "assistant")]
        if not messages or not self.log.writable:
            return []
        sent: list[str] = []
        try:
            with self.log.locked():
                # Decide on everything written so far: another pideck following this log may already
                # have acted on these messages (the next refresh takes in what this one reads here).
                self.log.refresh()
                for record in messages:
                    if record.role == "user":
                        self.todo.after_user_message()
                    elif (text := self.todo.after_assistant_message()) is not None:
                        sent.append(text)
        except ReadOnlySession:  # the file became read-only under us: never crash the tail path
            pass
        return sent

    # -- mutations ------------------------------------------------------------------------------

    def apply(self, line: str) -> list[Notice]:
        """Run one slash-command line, a person's (``pideck run``, the app's command line and
        palette); returns its notifications (a refused write is one notice of level ``refused``)."""
        from core.deck.commands import command_fields  # (the commands' grammar: not on the gate's path)

        if (too_long := field_too_long(command_fields(line))) is not None:
            return [Notice(too_long, "refused")]
        return self._mutating(lambda: self.dispatcher.run_line(line), lambda why: [Notice(why, "refused")],
                              via="command", by=PERSON)

    def call_tool(self, name: str, params: Any, by: str = AGENT) -> ToolResult:
        """Call one model tool: an agent's (``pideck tool``, the MCP server), or a person's where a
        front end calls a tool for them (``by=PERSON``: the app's packet form). Raises
        ``UnknownTool`` for a name no adapter registers."""
        if (too_long := field_too_long(params)) is not None:
            return ToolResult(too_long, rejected=True, refused=True)
        return self._mutating(lambda: self.dispatcher.call_tool(name, params),
                              lambda why: ToolResult(why, rejected=True, refused=True), via="tool", by=by)

    def settle(
        self, *, continued: bool = False, record: tuple[str, Any] | None = None
    ) -> tuple[str | None, Notice | None]:
        """One turn-end settle of the todo gates (what a harness calls when the agent stops).
        ``continued``: the turn was one a Stop hook sent the agent back into. ``record``: a
        ``(custom_type, data)`` entry appended first, under the same lock (the hook's event).
        pideck runs no gates on a log it may not write."""
        def refused(why: str) -> tuple[str | None, Notice | None]:
            return None, Notice(why, "refused")

        if (why := self.log.read_only_reason) is not None:
            return refused(why)

        def run() -> tuple[str | None, Notice | None]:
            if record is not None:
                self.log.append_custom(*record)
            return self.todo.settle(continued)

        return self._mutating(run, refused)

    def watchdog_tick(self, now_ms: int | None = None) -> list[Notice]:
        """One tick of pi-jtodo's watchdog, which appends a follow-up. No pideck front end calls it:
        only pi delivers pi-jtodo's follow-ups, and Claude Code and Codex receive one only as a
        Stop hook's block (the TUI shows the idle state instead, docs/todo-gates.md#the-watchdog)."""
        if not self.log.writable:
            return []
        return self._mutating(lambda: self.todo.watchdog_tick(now_ms), lambda why: [])

    def _mutating(self, run: Callable[[], _R], refused: Callable[[str], _R], via: Via | None = None,
                  by: str | None = None) -> _R:
        """Run a mutation under the log's lock, on state that includes every other writer's
        entries. A read-only log runs reads as usual and refuses appends (``ReadOnlySession``,
        whose text is handed to ``refused``). A judge it ran (``via`` a command or a tool) is
        recorded where the log may be written (``core/primitives/progress/verdicts.py``). Every
        entry it appends is marked as written ``by`` a person or an agent."""
        try:
            with self.log.locked() if self.log.writable else nullcontext(), self.log.written_by(by):
                self._take_in(observe=True)
                try:
                    judged = self.progress.judged if via is not None else 0  # (a settle needs no progress adapter)
                    try:
                        outcome = run()
                    except StaleState:  # a line at the file's end became an entry: decide again from it
                        self._take_in(observe=True)
                        outcome = run()
                    if via is not None:
                        self._record_verdict(via, judged)
                    return outcome
                except ReadOnlySession as exc:
                    self.reload()  # the adapter never moved its state, but stay exact anyway
                    return refused(str(exc))
        except ReadOnlySession as exc:  # the lock itself was refused (the file is gone): nothing ran
            return refused(str(exc))

    def _record_verdict(self, via: Via, judged: int) -> None:
        verdict = self.progress.last_verdict()
        if self.progress.judged != judged and verdict is not None and self.log.writable:
            self.log.append_custom(verdicts.ENTRY_TYPE, verdicts.verdict_data(verdict, via))


class _Pending:
    """What changed since the last ``DeckChange`` was handed out."""

    __slots__ = ("parts", "new_entries", "reset", "branch_switched", "followups")

    def __init__(self) -> None:
        self.parts: frozenset[str] = frozenset()
        self.new_entries = 0
        self.reset = False
        self.branch_switched = False
        self.followups: list[str] = []

    def report(self) -> DeckChange | None:
        if not (self.parts or self.new_entries or self.reset or self.followups):
            return None
        change = DeckChange(frozenset(self.parts), self.new_entries, self.reset, self.branch_switched,
                            tuple(self.followups))
        self.parts, self.new_entries, self.reset, self.branch_switched, self.followups = frozenset(), 0, False, False, []
        return change


def part_of(record: EntryRecord) -> str | None:
    """The part of the derived state an entry feeds, or None (most messages feed none)."""
    custom_type = record.custom_type or ""
    if record.type == "custom":
        part = _PART_BY_TYPE.get(custom_type)
        if part is not None:
            return part
    if record.type in ("custom", "custom_message") and custom_type.startswith("pi-jtodo/"):
        return TODO
    if record.type == "message" and record.role == "toolResult" and record.tool_name == "todo":
        return TODO
    return None


_PART_BY_TYPE = {
    agent_state.ENTRY_TYPE: STATE,
    agent_progress.ENTRY_TYPE: PROGRESS,
    verdicts.ENTRY_TYPE: PROGRESS,
    agent_handoff.ENTRY_TYPE: HANDOFF,
}
