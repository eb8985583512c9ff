"""The Agent Progress controller: the shared one (``core/primitives/controller.py``) plus what a
judge leaves behind in this process.

A judge's verdict is only the text the caller reads (upstream appends an entry only when the
baseline was set or grew), so the Deck, which records every verdict (docs/session-format.md), asks
the adapter for the last one and how many judges settled. Both move only once the judgment's entry,
if any, was appended: a refused append leaves them as they were.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, TypeVar

from core.primitives.controller import Controller, Outcome, changed_state
from core.primitives.progress.mutations import Judgment, ProgressState

if TYPE_CHECKING:
    from core.shapes import Verdict

R = TypeVar("R")


def judged(judgment: Judgment, reply: R) -> Outcome[R, ProgressState]:
    """The outcome of a judge that succeeded: its state when the baseline was set or grew, and its
    verdict (an outcome with one is a judged one)."""
    return Outcome(reply, changed_state(judgment), judgment.verdict)


class ProgressController(Controller[ProgressState]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_verdict: Verdict | None = None
        self.judged = 0  # judgments settled: a host that records verdicts appends one per judge

    def settle(self, outcome: Outcome[R, ProgressState]) -> R:
        reply = super().settle(outcome)
        if outcome.verdict is not None:
            self.last_verdict = copy.deepcopy(outcome.verdict)
            self.judged += 1
        return reply
