"""``formatAgentState``: the readable text of ``status`` and ``agent_state_get``
(docs/primitives.md#adapter-texts-are-verbatim)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.jsutil import plural
from core.primitives.state.core import summarize_agent_state

if TYPE_CHECKING:
    from core.shapes import StateSnapshot


def format_agent_state(snapshot: StateSnapshot) -> str:
    summary = summarize_agent_state(snapshot)
    total = summary["total"]
    decisions = snapshot["decisions"]
    objective = f"objective: {snapshot['objective']}" if "objective" in snapshot else "no objective"
    counts = (
        ""
        if total == 0
        else f" ({summary['open']} open, {summary['in_progress']} in_progress, "
        f"{summary['blocked']} blocked, {summary['done']} done)"
    )
    headline = (
        f"Agent State: {objective}, {total} {plural(total, 'work item')}{counts}, "
        f"{len(decisions)} {plural(len(decisions), 'decision')}."
    )
    lines = [headline]
    if snapshot["workItems"]:
        lines.append("Work items:")
        lines.extend(f"- {i['id']} [{i['status']}]: {i['content']}" for i in snapshot["workItems"])
    if decisions:
        lines.append("Decisions:")
        lines.extend(f"- {d['id']}: {d['content']}" for d in decisions)
    return "\n".join(lines)
