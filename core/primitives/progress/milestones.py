"""``add`` and ``withdraw`` of one milestone, as the command and the tools both run them: the
core's mutation and the verbatim texts that answer it (``mutations.py``, ``messages.py``)."""

# (No ``from __future__ import annotations``: typing would compile the string annotations of the
# NamedTuples below, and inspect, run, tool and the hooks compile nothing: core/slotted.py.)

from collections.abc import Callable
from typing import Any, NamedTuple

from core.primitives.progress import messages
from core.primitives.progress.mutations import Mutation, ProgressState, add_milestone, withdraw_milestone


class MilestoneChange(NamedTuple):  # (a NamedTuple, as in core/primitives/host.py: made quickly at start-up)
    """How one milestone command or tool changes the state, and what it answers."""

    mutate: Callable[[ProgressState, Any], Mutation]
    rejected: Callable[[Any], str]  # why an unchanged mutation of a valid milestone was turned down
    done: Callable[[Any], str]

    def answer(self, result: Mutation, milestone: Any) -> str:
        """``done`` on a change, else why not."""
        if result.changed:
            return self.done(milestone)
        return messages.INVALID_MILESTONE if result.reason == "invalid" else self.rejected(milestone)


ADD = MilestoneChange(add_milestone, messages.duplicate_milestone, messages.added_milestone)
WITHDRAW = MilestoneChange(withdraw_milestone, messages.unknown_milestone, messages.withdrew_milestone)
