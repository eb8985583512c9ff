"""Plain data for the todo strip and the goal table, and their text forms (docs/todo-views.md#the-todo-strip).

The TUI only renders these; colours are named by band, never by number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.jsutil import is_blank
from core.primitives.todo.constants import QUALITY_BAR, SEVERE_INTENT
from core.primitives.todo.model import (
    TodoItem,
    TodoState,
    display_confidence,
    find_goal,
    groups_in_order,
    is_open,
    priority_weight,
    weighted_average,
)

Band = Literal["success", "warning", "error", "missing"]
ICONS = {"in_progress": "▶", "pending": "○", "completed": "✓", "cancelled": "✗"}
BLOCKED_ICON = "⏸"  # Gemini's write_todos has a blocked status (pi-jtodo shows an unknown one as pending)
_RANK = {"in_progress": 0, "pending": 1, "completed": 2, "cancelled": 3}
_FILL = {"in_progress": 0, "pending": 1, "completed": 3, "cancelled": 4}  # other: 2
_COUNT_LABELS = (
    ("in_progress", "in progress"),
    ("pending", "pending"),
    ("completed", "completed"),
    ("cancelled", "cancelled"),
    ("other", "other"),
)


def band(score: int | None) -> Band:
    if score is None:
        return "missing"
    if score >= QUALITY_BAR:
        return "success"
    return "warning" if score >= SEVERE_INTENT else "error"


def icon(status: str, agent_plan: bool = False) -> str:
    if agent_plan and status == "blocked":
        return BLOCKED_ICON
    return ICONS.get(status, "○")


def _status_class(status: str) -> str:
    return status if status in _RANK else "other"


@dataclass(frozen=True)
class StripLine:
    """One strip row. ``kind`` header/item/overflow; item fields are None on other rows."""

    kind: Literal["header", "item", "overflow"]
    text: str
    branch: str = ""
    icon: str = ""
    id: str | None = None
    content: str | None = None
    status: str | None = None
    confidence: int | None = None
    targeted: bool = False
    active: bool = False  # header: some item is open
    scored: bool = True  # False: an item of an agent's own plan, which has no confidence
    doing: str | None = None  # an agent's in-progress item: what the agent says it is doing
    alert: str = ""  # header: what the person must know of the list, after its counts (the gates gave up)


def _item_line(item: TodoItem, branch: str, targets: set[str], scored: bool = True) -> StripLine:
    """One item's row; an agent's own plan (not ``scored``) has no confidence to show, and its
    item in progress says what the agent is doing in the agent's words (``activeForm``)."""
    conf = display_confidence(item)
    shown = "?" if conf is None else str(conf)
    doing = item.active_form if item.status == "in_progress" and item.active_form else None
    mark = icon(item.status, not scored)
    if scored:
        text = f"{branch} {mark} #{item.id} {item.content} · conf {shown}"
    else:
        text = f"{branch} {mark} #{item.id} {item.content}" + (f" · {doing}" if doing else "")
    targeted = item.id in targets
    if targeted:
        text += " 👉"
    return StripLine(
        "item", text, branch, mark, item.id, item.content, item.status, conf, targeted,
        scored=scored, doing=None if scored else doing,
    )


def strip_lines(state: TodoState, targets: list[str], max_lines: int) -> list[StripLine]:
    todos = state.todos
    if not todos:
        return []
    settled = sum(1 for t in todos if not is_open(t))
    active = any(is_open(t) for t in todos)
    from core.sources.plan import plan_title

    title = "Todos" if state.agent_plan is None else plan_title(state.agent_plan)
    header = f"{'●' if active else '○'} {title} ({settled}/{len(todos)})"
    intention = state.plan.user_intention
    if intention is not None and not is_blank(intention):
        header += f" — {intention}"
    lines = [StripLine("header", header, active=active)]
    ranked = sorted(range(len(todos)), key=lambda i: (_RANK.get(todos[i].status, 4), i))
    if len(todos) <= max_lines - 1:
        shown, hidden = ranked, []
    elif max_lines <= 1:
        return lines
    else:
        by_fill = sorted(range(len(todos)), key=lambda i: (_FILL.get(todos[i].status, 2), i))
        keep = set(by_fill[: max_lines - 2])
        shown = [i for i in ranked if i in keep]
        hidden = [i for i in ranked if i not in keep]
    target_set = set(targets)
    for n, i in enumerate(shown):
        last = not hidden and n == len(shown) - 1
        lines.append(_item_line(todos[i], "└─" if last else "├─", target_set, state.agent_plan is None))
    if hidden:
        counts = {label: 0 for label, _ in _COUNT_LABELS}
        for i in hidden:
            counts[_status_class(todos[i].status)] += 1
        parts = ", ".join(f"{counts[k]} {label}" for k, label in _COUNT_LABELS if counts[k])
        lines.append(StripLine("overflow", f"└─ +{len(hidden)} more ({parts})", "└─"))
    return lines


@dataclass(frozen=True)
class GoalRow:
    group: str | None
    label: str  # the group name or "(ungrouped)"
    settled: int
    total: int
    conf: int | None
    own: int | None
    feedback: int | None
    feedback_loop: str | None

    scored: bool = True  # False: an agent's own plan, which has no scores at all

    @property
    def cells(self) -> list[str]:
        def show(v: int | None) -> str:
            return ("—" if self.scored else "n/a") if v is None else str(v)

        scores = [show(self.conf), show(self.own), show(self.feedback)]
        return [self.label, f"{self.settled}/{self.total}", *scores]

    @property
    def bands(self) -> tuple[Band, Band, Band]:
        """Colour bands of Conf, Own and Feedback."""
        return band(self.conf), band(self.own), band(self.feedback)


GOAL_COLUMNS = ("Todo Goal", "Settled", "Conf", "Own", "Feedback")


def goal_rows(state: TodoState) -> list[GoalRow]:
    if state.agent_plan is not None and state.todos:
        # One row for an agent's plan: how far it got, and that it has no scores (not 0).
        from core.sources.plan import plan_title

        settled = sum(1 for t in state.todos if not is_open(t))
        return [GoalRow(None, f"{plan_title(state.agent_plan)} (no scores)", settled, len(state.todos),
                        None, None, None, None, scored=False)]
    rows = []
    for group in groups_in_order(state.todos):
        members = [t for t in state.todos if t.group == group]
        scored = [
            (score, priority_weight(t.priority))
            for t in members
            if t.status != "cancelled" and (score := display_confidence(t)) is not None
        ]
        goal = find_goal(state.goals, group)
        rows.append(
            GoalRow(
                group=group,
                label="(ungrouped)" if group is None else group,
                settled=sum(1 for t in members if not is_open(t)),
                total=len(members),
                conf=weighted_average(scored),
                own=goal.end_to_end_ownership if goal else None,
                feedback=goal.closed_feedback_loop if goal else None,
                feedback_loop=goal.feedback_loop if goal else None,
            )
        )
    return rows


def goal_table_text(rows: list[GoalRow]) -> str:
    if not rows:
        return ""
    table = [list(GOAL_COLUMNS), *(r.cells for r in rows)]
    widths = [max(len(row[i]) for row in table) for i in range(len(GOAL_COLUMNS))]
    return "\n".join(
        " | ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table
    )
