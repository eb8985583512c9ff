"""The `/todos` overlay as a Markdown document (docs/todo-views.md#the-todos-overlay)."""

from __future__ import annotations

import math
import re
from typing import Callable, Mapping

from core.jsutil import is_blank
from core.primitives.todo.display import icon
from core.primitives.todo.model import (
    TodoGoal,
    TodoItem,
    TodoState,
    display_confidence,
    find_goal,
    groups_in_order,
    priority_weight,
    weighted_average,
)
from core.untrusted import visible_controls

EMPTY = "# Todos\n\nNo todos yet. The agent can create them with the `todo` tool."
_SECTIONS = (
    ("in_progress", "In progress"),
    ("pending", "Pending"),
    ("completed", "Completed"),
    ("cancelled", "Cancelled"),
)
_PRIORITY_ORDER = {"high": 0, "medium": 1, "low": 2}
_NOT_PENDING = ("in_progress", "completed", "cancelled")  # anything else is listed as pending


Literal = Callable[[str], str]
"""Turns an untrusted value into Markdown source that shows it literally (the TUI's overlay)."""

Spent = Mapping[tuple[str, str], str]
"""What each item cost, by (id, content), as one line of words (``core/views/costs.py``): the TUI's
overlay says it under the item; the template's own document (export, inspect) has no such line."""


def _verbatim(value: str) -> str:
    return value


def code_span(text: str) -> str:
    """A Markdown code span showing ``text`` literally, whatever backticks it holds."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _pct(value: int | None) -> str:
    return "**unknown**" if value is None else f"**{value}%**"


def _goal_lines(goal: TodoGoal | None, lit: Literal = _verbatim) -> list[str]:
    if goal is None:
        return []
    lines = []
    if goal.closed_feedback_loop is not None:
        lines.append(f"- Closed feedback loop: **{goal.closed_feedback_loop}%**")
    if goal.feedback_loop is not None:
        lines.append(f"- Feedback loop: {lit(goal.feedback_loop)}")
    if goal.end_to_end_ownership is not None:
        lines.append(f"- End-to-end ownership: **{goal.end_to_end_ownership}%**")
    return lines


def _item_lines(item: TodoItem, lit: Literal = _verbatim, spent: Spent | None = None) -> list[str]:
    conf = "?" if item.confidence is None else f"{item.confidence}%"
    ref = f"`#{item.id}`" if lit is _verbatim else code_span(visible_controls(f"#{item.id}"))
    lines = [
        f"- {icon(item.status)} {ref} {lit('[' + (item.priority or '') + ']')} {lit(item.content)}",
        f"  - confidence: `{conf}`",
    ]
    if item.completion_confidence is not None:
        lines.append(f"  - completion confidence: `{item.completion_confidence}%`")
    if len(item.confidence_history) >= 2:
        lines.append(f"  - history: `{' → '.join(str(v) for v in item.confidence_history)}`")
    if spent and (words := spent.get((item.id, item.content))):
        lines.append(f"  - spent: {words}")
    return lines


def _status_blocks(items: list[TodoItem], level: str, lit: Literal = _verbatim,
                   spent: Spent | None = None) -> list[str]:
    blocks = []
    for status, title in _SECTIONS:
        if status == "pending":
            members = [t for t in items if t.status not in _NOT_PENDING]
        else:
            members = [t for t in items if t.status == status]
        if not members:
            continue
        members.sort(key=lambda t: (_PRIORITY_ORDER.get(t.priority or '', 3), t.content, t.id))
        lines = [f"{level} {title}"]
        for t in members:
            lines += _item_lines(t, lit, spent)
        blocks.append("\n".join(lines))
    return blocks


def _done(items: list[TodoItem]) -> str:
    return f"{sum(1 for t in items if t.status == 'completed')}/{len(items)}"


def overlay_markdown(state: TodoState, armed: bool, literal: Literal | None = None, spent: Spent | None = None) -> str:
    """The overlay document. With ``literal`` (a display that renders the Markdown), every value from
    the todo state goes through it, so the agent's text cannot format the document; without it the
    values are inserted verbatim, as the template says (export, inspect, the /todos reply).
    ``spent``: what items cost, said under each (the TUI's overlay)."""
    lit = literal or _verbatim
    todos = state.todos
    if state.agent_plan is not None:
        return agent_plan_markdown(state, lit, spent)
    if not todos:
        return EMPTY
    completed = [t for t in todos if t.status == "completed"]
    count = lambda s: sum(1 for t in todos if t.status == s)  # noqa: E731
    pending = sum(1 for t in todos if t.status not in _NOT_PENDING)
    missing = sum(1 for t in completed if t.completion_confidence is None)
    weighted = weighted_average(
        [
            (score, priority_weight(t.priority))
            for t in todos
            if t.status != "cancelled" and (score := display_confidence(t)) is not None
        ]
    )
    scores = [t.completion_confidence for t in completed if t.completion_confidence is not None]
    pct = math.floor(len(completed) * 100 / len(todos) + 0.5)
    blocks = [
        "# Todos",
        "\n".join(
            [
                f"- Progress: **{len(completed)}/{len(todos)} completed** ({pct}%)",
                f"- In progress: {count('in_progress')}",
                f"- Pending: {pending}",
                f"- Cancelled: {count('cancelled')}",
                f"- Weighted confidence: {_pct(weighted)}",
                f"- Lowest completed confidence: {_pct(min(scores) if scores else None)}",
                f"- Missing completion confidence: {missing}",
                f"- Auto-poke: {'ON' if armed else 'OFF'}",
            ]
        ),
    ]
    plan = state.plan
    intention = plan.user_intention if plan.user_intention is not None and not is_blank(plan.user_intention) else None
    if intention is not None or plan.understands_user_intent is not None:
        lines = ["## Plan"]
        if intention is not None:
            lines.append(f"- User intention: {lit(intention)}")
        if plan.understands_user_intent is not None:
            lines.append(f"- Understands user intent: **{plan.understands_user_intent}%**")
        blocks.append("\n".join(lines))
    groups = groups_in_order(todos)
    if any(g is not None for g in groups):
        ordered = [g for g in groups if g is not None] + ([None] if None in groups else [])
        for group in ordered:
            items = [t for t in todos if t.group == group]
            title = "Other" if group is None else lit(group)
            goal_lines = _goal_lines(find_goal(state.goals, group), lit)
            blocks.append("\n".join([f"## {title} ({_done(items)})", *goal_lines]))
            blocks += _status_blocks(items, "###", lit, spent)
    else:
        ungrouped = _goal_lines(find_goal(state.goals, None), lit)
        if ungrouped:
            blocks.append("\n".join(ungrouped))
        blocks += _status_blocks(todos, "##", lit, spent)
    orphans = [g for g in state.goals if g.group not in groups]
    if orphans:
        blocks.append("## Goals without todos")
        for goal in orphans:
            title = "(ungrouped)" if goal.group is None else lit(goal.group)
            blocks.append("\n".join([f"### {title}", *_goal_lines(goal, lit)]))
    return "\n\n".join(blocks)


def agent_plan_markdown(state: TodoState, literal: Literal | None = None, spent: Spent | None = None) -> str:
    """The overlay of an agent's own plan (docs/agent-conversations.md#the-plan-as-todos): the items
    in the agent's order with what its tool gave them, and no scores, which such a plan has not."""
    from core.sources.plan import NO_SCORES, plan_title, status_words

    lit = literal or _verbatim
    agent_plan = state.agent_plan or {}
    todos = state.todos
    noun = str(agent_plan.get("noun") or "todo")
    tool = str(agent_plan.get("tool") or "")
    title = lit(plan_title(agent_plan))
    if not todos:
        return f"# {title}\n\nThe plan is empty."
    completed = sum(1 for t in todos if t.status == "completed")
    pct = math.floor(completed * 100 / len(todos) + 0.5)
    count = lambda s: sum(1 for t in todos if t.status == s)  # noqa: E731
    summary = [
        f"- Progress: **{completed}/{len(todos)} completed** ({pct}%)",
        f"- In progress: {count('in_progress')}",
        f"- Pending: {count('pending')}",
    ]
    for status in ("blocked", "cancelled"):
        if count(status):
            summary.append(f"- {status.capitalize()}: {count(status)}")
    summary.append(f"- Confidence: {NO_SCORES}")
    summary.append(f"- From: the agent's {code_span(visible_controls(tool)) if lit is not _verbatim else '`' + tool + '`'}"
                   " tool, read-only")
    explanation = agent_plan.get("explanation")
    if isinstance(explanation, str) and not is_blank(explanation):
        summary.append(f"- Explanation: {lit(explanation)}")
    lines = [f"## {lit(noun.capitalize())}s"]
    for t in todos:
        ref = f"`#{t.id}`" if lit is _verbatim else code_span(visible_controls(f"#{t.id}"))
        priority = f", {lit(t.priority)} priority" if t.priority else ""  # (opencode's todos have one)
        lines.append(f"- {icon(t.status, True)} {ref} {lit(t.content)} ({lit(status_words(t.status))}{priority})")
        if t.status == "in_progress" and t.active_form:
            lines.append(f"  - now: {lit(t.active_form)}")
        if t.description:
            lines.append(f"  - {lit(t.description)}")
        if t.blocked_by:
            lines.append(f"  - waits for: {', '.join('#' + lit(i) for i in t.blocked_by)}")
        if t.blocks:
            lines.append(f"  - blocks: {', '.join('#' + lit(i) for i in t.blocks)}")
        if spent and (words := spent.get((t.id, t.content))):
            lines.append(f"  - spent: {words}")
    return "\n\n".join([f"# {title}", "\n".join(summary), "\n".join(lines)])
