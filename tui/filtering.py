"""Search and filter (ctrl+f, and a status filter): what the panes show of a view.

The view itself is never changed (completion and the palette still see every id): the screen draws
``filtered(view, rule)`` instead. Words match case-insensitively anywhere in a row's id and text;
every word must match. The status filter keeps open or settled work items and todos.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal, cast

from core.shapes import ProgressState, StateSnapshot, Verdict
from core.views.items import StripLine, TodoItem, strip_lines
from core.views.view import DeckView

Status = Literal["all", "open", "settled"]
STATUSES: tuple[Status, ...] = ("all", "open", "settled")
SETTLED_ITEMS = ("done",)
SETTLED_TODOS = ("completed", "cancelled")


@dataclass(frozen=True)
class Rule:
    text: str = ""
    status: Status = "all"
    max_lines: int = 6  # the strip's line budget, which a filtered strip keeps

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.text.lower().split())

    @property
    def active(self) -> bool:
        return bool(self.words) or self.status != "all"

    def matches(self, *texts: object) -> bool:
        haystack = " ".join(str(t) for t in texts).lower()
        return all(word in haystack for word in self.words)

    def keeps(self, settled: bool) -> bool:
        return self.status == "all" or (self.status == "settled") == settled

    def describe(self) -> str:
        parts = [f'"{self.text.strip()}"'] if self.words else []
        if self.status != "all":
            parts.append(f"status {self.status}")
        return " · ".join(parts)


def next_status(status: Status) -> Status:
    return STATUSES[(STATUSES.index(status) + 1) % len(STATUSES)]


def filtered(view: DeckView, rule: Rule) -> DeckView:
    """The view with only the rows the rule keeps (the activity is filtered by its own widget)."""
    if not rule.active:
        return view
    state = view.state
    items = [i for i in state["workItems"]
             if rule.keeps(i["status"] in SETTLED_ITEMS) and rule.matches(i["id"], i["content"], i["status"])]
    decisions = [d for d in state["decisions"] if rule.matches(d["id"], d["content"])] if rule.words else state["decisions"]
    snapshot = cast(StateSnapshot, {**state, "workItems": items, "decisions": decisions})
    packets = tuple(p for p in view.packets if rule.matches(p["id"], p["goal"], p.get("source", ""),
                                                            p.get("destination", "")))
    progress, verdict = filtered_progress(view, rule)
    todos = [t for t in view.todo_state.todos if keeps_todo(rule, t)]
    groups = {t.group for t in todos}
    goals = tuple(g for g in view.goals if g.group in groups or (rule.words and rule.matches(g.label)))
    strip = filtered_strip(view, todos, rule.max_lines)
    return dataclasses.replace(view, state=snapshot, progress=progress, verdict=verdict, packets=packets,
                               goals=goals, strip=strip, unfiltered=view)


def filtered_progress(view: DeckView, rule: Rule) -> tuple[ProgressState, Verdict | None]:
    """Agent Progress with the milestones the words keep, in every list the pane draws (declared,
    recorded, and the last verdict's new and withdrawn ones); the status filter keeps them all."""
    if not rule.words:
        return view.progress, view.verdict

    def keep(names: object) -> list[str]:
        return [m for m in names if rule.matches(m)] if isinstance(names, list) else []

    progress = view.progress
    kept = cast(ProgressState, {**progress, "currentMilestones": keep(progress["currentMilestones"]),
                                "recordedMilestones": keep(progress["recordedMilestones"])})
    if view.verdict is None:
        return kept, None
    verdict: dict[str, object] = dict(view.verdict)
    for key in ("newMilestones", "withdrawnMilestones"):
        if key in verdict:
            verdict[key] = keep(verdict[key])
    return kept, cast(Verdict, verdict)


def filtered_strip(view: DeckView, todos: list[TodoItem], max_lines: int) -> tuple[StripLine, ...]:
    """The strip of the todos the filter keeps, under the header of the whole list: its counts never
    describe only what is shown, and it says how many the filter hides."""
    every = view.todo_state.todos
    if not every:
        return ()
    kept = strip_lines(view.todo_state.replace(todos=todos), list(view.targets), max_lines)
    # the view's own header when it has one: it may carry an alert (core/views/view.py with_alert)
    header = view.strip[0] if view.strip else strip_lines(view.todo_state, list(view.targets), 1)[0]
    hidden = len(every) - len(todos)
    if hidden:  # (before the plan's intention, which a narrow strip cuts first)
        counts, dash, intention = header.text.partition(" — ")
        header = dataclasses.replace(header, text=f"{counts} · the filter hides {hidden}{dash}{intention}")
    return (header, *kept[1:])


def keeps_todo(rule: Rule, todo: TodoItem) -> bool:
    return rule.keeps(todo.status in SETTLED_TODOS) and rule.matches(todo.id, todo.content, todo.status,
                                                                      todo.group or "")
