"""The todo adapter: the `todo` tool, `/todos`, and the turn-end machine on the session log.

All state is replayed from the log's current branch on every call (resuming the fold where the
branch only grew), so a reload, a branch switch or another writer never leaves this object with
stale state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import __version__
from core.clock import wall_clock_ms
from core.collector import paused_collector
from core.config.settings import TodoConfig
from core.jsutil import js_split
from core.primitives.host import Notice, ToolDef, ToolResult
from core.primitives.todo import constants as c
from core.primitives.todo.model import TodoGoal, TodoItem, TodoPlan, TodoState, open_items
from core.primitives.todo.replay import CycleFlags, Replay, Replayer, read_by_fold
from core.primitives.todo.restore import state_entry_data
from core.primitives.todo.tool_schema import TODO_TOOL
from core.primitives.todo.turn_end import (
    Step,
    arm,
    idle_nudge_step,
    poke_followup,
    rearm_on_new_work,
    settle_step,
    watchdog_due_at,
    watchdog_step,
)
from core.session.interface import WritableLog

# What only the tool, `/todos` and the views use is imported where they run: a turn-end settle
# (``pideck gate``, the Stop hooks) needs the replay and the turn-end machine alone.
if TYPE_CHECKING:
    from typing import TypedDict

    from core.primitives.todo.display import GoalRow, StripLine
    from core.primitives.todo.observations import Observation
    from core.primitives.todo.write import TodoCallResult
    from core.shapes import TodoSnapshot

    class FoldKey(TypedDict):
        """What a fold kept with the log's saved index was made under. (For the type checker
        alone: a TypedDict made at run time compiles its annotations.)"""

        pideck: str
        format: int
        config: dict[str, object]  # TodoConfig's fields by name

Clock = Callable[[], int]


def _is_assistant(kind: str | None, custom_type: str | None, role: str | None, tool_name: str | None) -> bool:
    return kind == "message" and role == "assistant"


FOLD = "todo-fold"
"""The name the fold is kept under with the log's saved index (``SessionLog.keep_derived``)."""
FOLD_FORMAT = 1
"""Bumped whenever the fold or what ``Replayer.dump`` holds changes meaning: a fold kept by another
version of pideck, or under another configuration, is never resumed."""


class _Fold:
    """The resumable replay of the current branch and where it stopped."""

    __slots__ = ("config", "replayer", "anchor", "result")

    def __init__(self, config: TodoConfig, replayer: Replayer, anchor: Mapping[str, Any] | None,
                 result: Replay | None) -> None:
        self.config = config
        self.replayer = replayer
        self.anchor = anchor  # the last branch entry fed
        self.result = result

    @property
    def count(self) -> int:
        return self.replayer.count


class TodoAdapter:
    COMMAND = c.COMMAND
    DESCRIPTION = c.DESCRIPTION
    ENTRY_TYPE = c.STATE_CUSTOM_TYPE
    TOOLS: tuple[ToolDef, ...] = (TODO_TOOL,)

    def __init__(
        self,
        log: WritableLog,
        clock: Clock = wall_clock_ms,
        config: TodoConfig | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.log = log
        self.clock = clock
        self.config = config or TodoConfig()
        self.cwd = cwd
        self.busy = False  # set by the host integration while the agent runs a turn
        # (branch length, clock) at our last append: the time of entries without a timestamp
        self._appended_at: tuple[int, int] | None = None
        self._fold: _Fold | None = None

    # ----------------------------------------------------------------- derived state

    def replay(self, entries: Iterable[Mapping[str, Any]] | None = None) -> Replay:
        """The derived state of ``entries`` (default: the log's current branch; treat what it
        returns as read-only).

        The fold picks from the branch only the entries it uses (the log answers from its index)
        and resumes from the last leaf it saw, so a big session costs records for those alone and
        a live refresh O(new entries); a branch switch, a reset or a new config starts it over.
        """
        if entries is not None:
            return self._new_replayer().feed_all(entries)
        select = self.log.branch_select
        fold = self._fold if self._fold is not None else self._kept_fold()
        picked = select(read_by_fold, fold.count, fold.anchor) if fold is not None and fold.config == self.config else None
        if fold is None or picked is None:
            fold = _Fold(self.config, self._new_replayer(), None, None)
            picked = select(read_by_fold)
        self._fold = fold
        assert picked is not None  # a selection from the start of the branch always answers
        entries_picked, length, record_at, last = picked
        if length != fold.count or fold.result is None:
            with paused_collector():  # (a long branch's fold restores thousands of states, nothing cyclic)
                fold.replayer.feed_picked(entries_picked, length, record_at, last)
            fold.anchor = last
            fold.result = fold.replayer.result()
            self.log.keep_derived(FOLD, fold.count, lambda: {**self._fold_key(), "fold": fold.replayer.dump()})
        return fold.result

    def _fold_key(self) -> FoldKey:
        """What a kept fold must have been made under to be resumed."""
        return {"pideck": __version__, "format": FOLD_FORMAT, "config": self.config._asdict()}

    def _kept_fold(self) -> _Fold | None:
        """The fold kept with the log's saved index by an earlier run, when it still applies:
        same pideck, same configuration, and a branch that still starts with what it read."""
        kept = self.log.derived(FOLD)
        if kept is None:
            return None
        value, count, last = kept
        if not isinstance(value, dict) or {k: value.get(k) for k in self._fold_key()} != self._fold_key():
            return None

        def earlier() -> list[Any]:  # the assistant messages among the entries it read
            selection = self.log.branch_select(_is_assistant)
            assert selection is not None  # a selection from the start of the branch always answers
            picked, _, record_at, _ = selection
            return [(record_at, key) for position, _, key in picked if position < count]

        replayer = Replayer.restore(value.get("fold"), self.config.max_gate_observations, count, last, earlier)
        return _Fold(self.config, replayer, last, None) if replayer is not None else None

    def resume(self, replayer: Replayer, anchor: Mapping[str, Any]) -> None:
        """Go on from ``replayer``, a fold (with this adapter's configuration) of the first
        ``replayer.count`` entries of the branch, the last of them ``anchor``: a checkpoint of the
        same branch spares replaying them. A branch that does not start so is folded from scratch."""
        self._fold = _Fold(self.config, replayer, anchor, None)

    def _new_replayer(self) -> Replayer:
        return Replayer(self.config.enabled and self.config.auto_poke, self.config.max_gate_observations)

    @property
    def state(self) -> TodoState:
        return self.replay().state

    @property
    def todos(self) -> list[TodoItem]:
        return self.state.todos

    @property
    def plan(self) -> TodoPlan:
        return self.state.plan

    @property
    def goals(self) -> list[TodoGoal]:
        return self.state.goals

    @property
    def cycle(self) -> CycleFlags:
        return self.replay().flags

    @property
    def observations(self) -> list[Observation]:
        return self.replay().observations

    def strip_lines(self, max_lines: int | None = None) -> list[StripLine]:
        from core.primitives.todo.display import strip_lines

        r = self.replay()
        limit = self.config.widget_max_lines if max_lines is None else max_lines
        return strip_lines(r.state, r.flags.targets, limit)

    def strip_text(self, max_lines: int | None = None) -> str:
        return "\n".join(line.text for line in self.strip_lines(max_lines))

    def goal_rows(self) -> list[GoalRow]:
        from core.primitives.todo.display import goal_rows

        return goal_rows(self.state)

    def goal_table_text(self) -> str:
        from core.primitives.todo.display import goal_table_text

        return goal_table_text(self.goal_rows())

    def overlay_markdown(self, literal: Callable[[str], str] | None = None) -> str:
        from core.primitives.todo.overlay import overlay_markdown

        r = self.replay()
        return overlay_markdown(r.state, r.flags.armed, literal)

    def snapshot(self) -> TodoSnapshot:
        """``{todos, plan, goals, cycle}`` for ``pideck inspect --json``."""
        r = self.replay()
        return {**r.state.to_json(), "cycle": r.flags.to_json()}

    # ----------------------------------------------------------------- adapter protocol

    def load(self, entries: Iterable[Mapping[str, Any]] | None = None) -> list[Notice]:
        """Replay the branch; only warnings come back (the state is never cached)."""
        return [Notice(w, "warning") for w in self.replay(entries).warnings]

    def call_tool(self, name: str, params: Any) -> ToolResult:
        result = self.run_tool(name, params)
        return ToolResult(result.text, rejected=result.outcome in ("rejected", "error"))

    def run_tool(self, name: str, params: Any) -> TodoCallResult:
        """The full result: text, ``is_error`` and ``details`` ({todos, plan, goals})."""
        from core.primitives.todo.write import TodoCallResult, apply_todo_call

        r = self.replay()
        if name != c.TOOL_NAME:
            return TodoCallResult("error", f"Unknown tool: {name}", r.state)
        if not self.config.enabled:
            return TodoCallResult("error", c.DISABLED_ERROR, r.state)
        result = apply_todo_call(r.state, params)
        if result.outcome == "accepted":
            self._append_custom(c.STATE_CUSTOM_TYPE, state_entry_data(result.state))
            cycle = rearm_on_new_work(r, self.config, bool(open_items(result.state.todos)))
            if cycle:
                self._append_custom(c.CYCLE_CUSTOM_TYPE, cycle)
        return result

    def command(self, args: str) -> list[Notice]:
        from core.primitives.todo import commands as cmd

        tokens = js_split(args)
        if not tokens:
            return [Notice(self.overlay_markdown())]
        sub, rest = tokens[0], tokens[1:]
        if sub == "export":
            return self._export(rest)
        if sub == "clear" and len(rest) <= 1:
            return self._clear(rest == ["--yes"], rest)
        if sub == "poke":
            return self._poke(rest)
        return [Notice(cmd.USAGE, "warning")]

    # ----------------------------------------------------------------- turn end

    def settle(self, continued: bool = False) -> tuple[str | None, Notice | None]:
        """One turn-end settle: append what the machine decides; return (follow-up text, notice).
        ``continued``: the turn was one a Stop hook sent the agent back into (``settle_step``)."""
        step = settle_step(self.replay(), self.config, continued)
        self._apply(step)
        return (step.followup.content if step.followup else None), step.notice

    def watchdog_tick(self, now_ms: int | None = None) -> list[Notice]:
        now = self.clock() if now_ms is None else now_ms
        r = self.replay()
        step = watchdog_step(r, self.config, now, self._newest_ms(r))
        self._apply(step)
        return [step.notice] if step.notice else []

    def watchdog_due_at(self) -> int | None:
        """From when the agent counts as idle with open todos (``turn_end.watchdog_due_at``)."""
        r = self.replay()
        return watchdog_due_at(r, self.config, self._newest_ms(r))

    def after_assistant_message(self) -> str | None:
        """Call after a new assistant message entry; returns the nudge text when one was sent."""
        step = idle_nudge_step(self.replay(), self.config)
        self._apply(step)
        return step.followup.content if step.followup else None

    def after_user_message(self) -> bool:
        """Call after a new user message entry; re-arms on new work. True when it appended."""
        r = self.replay()
        cycle = rearm_on_new_work(r, self.config, True)
        if cycle:
            self._append_custom(c.CYCLE_CUSTOM_TYPE, cycle)
        return cycle is not None

    # ----------------------------------------------------------------- internals

    def _newest_ms(self, r: Replay) -> int | None:
        if r.newest_entry_ms is not None:
            return r.newest_entry_ms
        if self._appended_at and self._appended_at[0] == r.entry_count:
            return self._appended_at[1]
        return None

    def _append_custom(self, custom_type: str, data: Any) -> None:
        self.log.append_custom(custom_type, data)
        self._mark_appended()

    def _mark_appended(self) -> None:
        self._appended_at = (self.replay().entry_count, self.clock())

    def _apply(self, step: Step) -> None:
        if step.followup:
            f = step.followup
            self.log.append_custom_message(c.FOLLOWUP_CUSTOM_TYPE, f.content, True, f.details())
            self._mark_appended()
        if step.cycle:
            self._append_custom(c.CYCLE_CUSTOM_TYPE, step.cycle)

    def _export(self, tokens: list[str]) -> list[Notice]:
        from core.primitives.todo import commands as cmd
        from core.primitives.todo.export import write_export
        from core.primitives.todo.tool_output import pretty

        parsed = cmd.parse_export(tokens)
        if parsed is None:
            return [Notice(cmd.USAGE, "warning")]
        fmt, path, force = parsed
        target = ((self.cwd or Path.cwd()) / Path(path or f"todos.{fmt}").expanduser()).absolute()
        text = pretty(self.state.to_json()) if fmt == "json" else self.overlay_markdown()
        problem = write_export(target, text, force)
        if problem is not None:
            return [Notice(f"Could not export todos to {target}: {problem}.", "warning")]
        return [Notice(cmd.EXPORTED.format(path=target.resolve()))]

    def _clear(self, confirmed: bool, rest: list[str]) -> list[Notice]:
        from core.primitives.todo import commands as cmd

        if rest and not confirmed:
            return [Notice(cmd.USAGE, "warning")]
        if self.state.is_empty():
            return [Notice(cmd.ALREADY_EMPTY)]
        if not confirmed:
            return [Notice(cmd.CONFIRM_CLEAR, "warning")]
        self._append_custom(c.STATE_CUSTOM_TYPE, state_entry_data(TodoState()))
        return [Notice(cmd.CLEARED)]

    def _poke(self, tokens: list[str]) -> list[Notice]:
        from core.primitives.todo import commands as cmd

        action = tokens[0] if len(tokens) == 1 else None
        r = self.replay()
        opened = open_items(r.state.todos)
        if action in ("on", "trigger"):
            self._append_custom(c.CYCLE_CUSTOM_TYPE, arm("user"))
            if not opened:
                return [Notice(cmd.POKE_ON_NOTHING_OPEN)]
            if self.busy:
                return [Notice(cmd.POKE_ON_BUSY)]
            self._apply(Step(followup=poke_followup("poke", self.replay())))
            return [Notice(cmd.poke_on_idle(len(opened)))]
        if action == "off":
            if r.flags.armed:
                self._append_custom(c.CYCLE_CUSTOM_TYPE, {"armed": False, "reason": "user"})
            return [Notice(cmd.POKE_OFF)]
        if action == "status":
            return [Notice(cmd.poke_status(r.flags.armed, len(opened), self.busy))]
        return [Notice(cmd.POKE_USAGE, "warning")]
