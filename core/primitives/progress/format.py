"""Display texts of the Agent Progress state and verdicts (docs/primitives.md#adapter-texts-are-verbatim)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.jsutil import plural
from core.primitives.progress.messages import MISSING_BASELINE_HINT, PREFIX

if TYPE_CHECKING:
    from core.shapes import ProgressState, Verdict


def _milestone_block(label: str, milestones: list[str]) -> list[str]:
    if not milestones:
        return [f"{label}: none."]
    return [f"{label}:", *(f"- {m}" for m in milestones)]


def format_progress_state(state: ProgressState) -> str:
    """Status text: the declared milestones, and only the count of recorded ones."""
    declared = len(state["currentMilestones"])
    recorded = len(state["recordedMilestones"])
    baseline = "established" if state["hasBaseline"] else "not established"
    header = (
        f"{PREFIX}{declared} declared {plural(declared, 'milestone')}; baseline {baseline}"
        f" ({recorded} recorded {plural(recorded, 'milestone')})."
    )
    lines = [header, *_milestone_block("Declared milestones", state["currentMilestones"])]
    return "\n".join(lines)


def format_progress_verdict(verdict: Verdict) -> str:
    if verdict["outcome"] == "unknown":
        lines = [f"{PREFIX}unknown ({verdict['reason']})."]
        if verdict["reason"] == "missing_baseline":
            lines.append(MISSING_BASELINE_HINT)
        lines += _milestone_block("Recorded milestones", verdict["recordedMilestones"])
        return "\n".join(lines)

    lines = [f"{PREFIX}{verdict['outcome']}."]
    lines += _milestone_block("New milestones", verdict["newMilestones"])
    if "withdrawnMilestones" in verdict:
        lines += _milestone_block("Withdrawn milestones", verdict["withdrawnMilestones"])
    lines += _milestone_block("Recorded milestones", verdict["recordedMilestones"])
    return "\n".join(lines)
