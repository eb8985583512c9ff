"""Pure state mutations (docs/primitives.md#append-on-change).

A state (``core.shapes.ProgressState``) is the payload without ``schemaVersion``:
``{"hasBaseline": bool, "currentMilestones": [str], "recordedMilestones": [str]}``.
Nothing here mutates its argument; every returned state is new, so the caller appends exactly
when ``changed`` is true.
"""

# (No ``from __future__ import annotations``: typing would compile the string annotations of the
# NamedTuples below, and inspect, run, tool and the hooks compile nothing: core/slotted.py.)

from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from core.jsutil import is_non_empty_string
from core.primitives.progress.core import judge_progress

if TYPE_CHECKING:
    from core.shapes import ProgressState, Verdict
else:  # Plain dicts at run time, where core.shapes is not loaded: a NamedTuple's annotations are
    # evaluated, and so are the other modules' aliases and base classes that import them from here.
    ProgressState = Verdict = dict


class Mutation(NamedTuple):  # (NamedTuples, as in core/primitives/host.py: made quickly at start-up)
    """``changed`` with the new ``state``, or unchanged with a ``reason``."""

    changed: bool
    state: ProgressState | None = None
    reason: Literal["invalid", "duplicate", "unknown"] | None = None

    @property
    def new_state(self) -> ProgressState:
        """The state a change made (only asked of a changed mutation)."""
        if self.state is None:
            raise ValueError("an unchanged mutation has no new state")
        return self.state


class Judgment(NamedTuple):
    """A judge's outcome: ``changed`` with the ``state`` after it, and its ``verdict``."""

    changed: bool
    state: ProgressState
    verdict: Verdict


def empty_state() -> ProgressState:
    return {"hasBaseline": False, "currentMilestones": [], "recordedMilestones": []}


def copy_state(state: ProgressState) -> ProgressState:
    return {
        "hasBaseline": state["hasBaseline"],
        "currentMilestones": list(state["currentMilestones"]),
        "recordedMilestones": list(state["recordedMilestones"]),
    }


def _with_current(state: ProgressState, current: list[str]) -> ProgressState:
    next_state = copy_state(state)
    next_state["currentMilestones"] = current
    return next_state


def add_milestone(state: ProgressState, milestone: Any) -> Mutation:
    if not is_non_empty_string(milestone):
        return Mutation(False, reason="invalid")
    if milestone in state["currentMilestones"]:
        return Mutation(False, reason="duplicate")
    return Mutation(True, _with_current(state, [*state["currentMilestones"], milestone]))


def withdraw_milestone(state: ProgressState, milestone: Any) -> Mutation:
    if not is_non_empty_string(milestone):
        return Mutation(False, reason="invalid")
    if milestone not in state["currentMilestones"]:
        return Mutation(False, reason="unknown")
    remaining = [m for m in state["currentMilestones"] if m != milestone]
    return Mutation(True, _with_current(state, remaining))


def judge_state(state: ProgressState) -> Judgment:
    """Judge the declared set against the cumulative baseline; raises ProgressError.

    Changed when this judge establishes the baseline or grows the recorded set.
    """
    current = list(state["currentMilestones"])
    recorded = list(state["recordedMilestones"])
    input: dict[str, dict[str, list[str]]] = {"current": {"milestones": current}}  # observation by name
    if state["hasBaseline"]:
        input = {"previous": {"milestones": recorded}, "current": {"milestones": current}}
    verdict = judge_progress(input)
    next_state: ProgressState = {
        "hasBaseline": True,
        "currentMilestones": list(current),
        "recordedMilestones": list(verdict["recordedMilestones"]),
    }
    changed = not state["hasBaseline"] or recorded != next_state["recordedMilestones"]
    return Judgment(changed, next_state, verdict)


def is_fresh_state(state: ProgressState) -> bool:
    """No baseline and nothing declared or recorded; an established empty baseline is not fresh."""
    return (
        not state["hasBaseline"]
        and not state["currentMilestones"]
        and not state["recordedMilestones"]
    )
