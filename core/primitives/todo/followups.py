"""Texts of the follow-up messages sent to the agent at turn end (docs/todo-gates.md#follow-up-messages)."""

from __future__ import annotations

from core.primitives.todo import constants as c
from core.primitives.todo.gate_checks import ConfidenceSummary
from core.primitives.todo.model import TodoGoal, TodoItem, TodoPlan, find_goal, normalise_group
from core.primitives.todo.observations import Observation


def names(ids: list[str]) -> str:
    shown = ", ".join(f"#{i}" for i in ids[:6])
    more = len(ids) - 6
    return shown + (f" (and {more} more)" if more > 0 else "")


def poke_text(n: int) -> str:
    return c.POKE_TEXT.format(n=n, s=c.plural_s(n))


def completion_text(summary: ConfidenceSummary) -> str:
    text = c.COMPLETION_CONTINUATION
    if not summary.missing and not summary.weak:
        return text + "\n" + c.COMPLETION_TAKEN_TOGETHER
    if summary.missing:
        text += "\n" + c.COMPLETION_MISSING.format(names=names(summary.missing))
    if summary.weak:
        text += "\n" + c.COMPLETION_WEAK.format(names=names(summary.weak))
    return text


def spike_text(summary: ConfidenceSummary) -> str:
    return c.SPIKE_CONTINUATION + "\n" + c.SPIKE_NAMES.format(names=names(summary.spiked))


def _collapse(observations: list[Observation]) -> list[tuple[str, str | None, int]]:
    counts: dict[tuple[str, str | None], int] = {}
    for o in observations:
        key = (o.kind, o.group)
        counts[key] = counts.get(key, 0) + 1
    return [(kind, group, n) for (kind, group), n in counts.items()]


def build_gate_digest(
    observations: list[Observation], plan: TodoPlan, goals: list[TodoGoal]
) -> str | None:
    """One line per weak point; a point whose score cleared later is reworded, not dropped."""
    if not observations:
        return None
    lines = [c.DIGEST_PREFIX]
    for kind, group, n in _collapse(observations):
        if kind == "intent_understanding":
            score = plan.understands_user_intent
            cleared = score is not None and score >= c.QUALITY_BAR
            detail = c.DIGEST_INTENT_CLEARED if cleared else c.DIGEST_INTENT_OPEN
        else:
            goal = find_goal(goals, normalise_group(group))
            score = goal.closed_feedback_loop if goal else None
            cleared = score is not None and score >= c.QUALITY_BAR
            label = "" if group is None else f' for "{group}"'
            detail = (c.DIGEST_LOOP_CLEARED if cleared else c.DIGEST_LOOP_OPEN).format(label=label)
        repeats = f" (flagged {n} times this turn)" if n > 1 else ""
        lines.append(f"- {detail}{repeats}")
    lines.append(c.DIGEST_FOOTER)
    return "\n".join(lines)


def digest_ids(observations: list[Observation], todos: list[TodoItem]) -> list[str]:
    """Items in the groups of flagged loop points (intent points name none)."""
    groups = {o.group for o in observations if o.kind == "closed_feedback_loop"}
    return [t.id for t in todos if t.group in groups]
