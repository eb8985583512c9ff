"""What a front end draws of one Deck, as plain immutable data.

The TUI builds a ``DeckView`` on the thread that owns the Deck and hands it to the screen, which
only renders it: widgets never reach into the Deck, so log work can run off the UI thread. A new
view reuses the parts of the previous one that did not change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar, cast

from core.adapters.grammar import Words
from core.deck import ALL_PARTS, HANDOFF, PROGRESS, STATE, TODO, Deck
from core.session.interface import SessionFile
from core.shapes import Packet, ProgressState, StateSnapshot, Verdict
from core.todo.display import GoalRow, StripLine, goal_rows, strip_lines
from core.untrusted import markdown_literal


@dataclass(frozen=True)
class DeckView:
    """One session's derived state and the facts the header shows."""

    path: str
    name: str  # pi's session_info name, else the file name
    cwd: str
    entries: int
    writable: bool
    restore_warnings: tuple[str, ...]  # an invalid newest entry of a primitive, the todo replay's
    skipped: tuple[str, ...]  # what the log skipped or repaired while reading the file
    state: StateSnapshot
    progress: ProgressState
    verdict: Verdict | None
    packets: tuple[Packet, ...]
    strip: tuple[StripLine, ...]
    goals: tuple[GoalRow, ...]
    todo_overlay: str  # the todos overlay as Markdown whose values show literally
    has_todos: bool

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.restore_warnings + self.skipped

    def words(self, kind: Words) -> list[str]:
        """The ids Tab offers for an argument declared with ``kind``."""
        if kind is Words.WORK_ITEMS:
            return [item["id"] for item in self.state["workItems"]]
        if kind is Words.MILESTONES:
            return list(self.progress["currentMilestones"])
        return [packet["id"] for packet in self.packets]


F = TypeVar("F", bound=SessionFile)


def build_view(
    deck: Deck[F],
    previous: DeckView | None = None,
    parts: frozenset[str] = ALL_PARTS,
    *,
    literal: Callable[[str], str] = markdown_literal,
    todo: bool = True,
) -> DeckView:
    """The view of ``deck`` now; with a ``previous`` view only ``parts`` are derived again.

    ``todo=False`` leaves the todo parts empty and their warnings out: a first view that needs no
    todo fold, which on a long branch costs more than everything else (build the rest later with
    ``parts={TODO}``)."""
    log = deck.log
    old = previous
    if old is None or STATE in parts:
        state = cast(StateSnapshot, deck.state.snapshot())
    else:
        state = old.state
    if old is None or PROGRESS in parts:
        progress = cast(ProgressState, deck.progress.state())
        verdict = cast("Verdict | None", deck.progress.last_verdict())
    else:
        progress, verdict = old.progress, old.verdict
    packets = tuple(cast("list[Packet]", deck.handoff.packets())) if old is None or HANDOFF in parts else old.packets
    strip: tuple[StripLine, ...]
    goals: tuple[GoalRow, ...]
    if not todo:
        strip, goals, overlay, has_todos = (), (), "", False
    elif old is None or TODO in parts:
        replay = deck.todo.replay()
        strip = tuple(strip_lines(replay.state, replay.flags.targets, deck.todo.config.widget_max_lines))
        goals = tuple(goal_rows(replay.state))
        overlay, has_todos = deck.todo.overlay_markdown(literal), bool(replay.state.todos)
    else:
        strip, goals, overlay, has_todos = old.strip, old.goals, old.todo_overlay, old.has_todos
    return DeckView(
        path=str(log.path),
        name=log.name or log.path.name,
        cwd=log.cwd or "",
        entries=len(log.records),
        writable=log.writable,
        restore_warnings=tuple(deck.warnings if todo else deck.primitive_warnings),
        skipped=tuple(log.warnings),
        state=state,
        progress=progress,
        verdict=verdict,
        packets=packets,
        strip=strip,
        goals=goals,
        todo_overlay=overlay,
        has_todos=has_todos,
    )
