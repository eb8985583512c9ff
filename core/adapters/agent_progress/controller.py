"""The Agent Progress controller: the shared one (``core/adapters/controller.py``) plus what a
judge leaves behind in this process.

A judge's verdict is only the text the caller reads (upstream appends an entry only when the
baseline was set or grew), so the Deck, which records every verdict (docs/session-format.md), asks
the adapter for the last one and how many judges settled. Both move only once the judgment's entry,
if any, was appended: a refused append leaves them as they were.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, TypeVar

from core.adapters.controller import Controller, Outcome, changed_state

from .mutations import Judgment, State

R = TypeVar("R")


@dataclass(frozen=True)
class Judged(Outcome[R, State]):
    """The outcome of a judge that succeeded: also its ``verdict``."""

    verdict: dict[str, Any] = field(default_factory=dict, kw_only=True)


def judged(judgment: Judgment, reply: R) -> Judged[R]:
    """The outcome of a judgment: its state when the baseline was set or grew, and its verdict."""
    return Judged(reply, changed_state(judgment), verdict=judgment.verdict)


class ProgressController(Controller[State]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_verdict: dict[str, Any] | None = None
        self.judged = 0  # judgments settled: a host that records verdicts appends one per judge

    def settle(self, outcome: Outcome[R, State]) -> R:
        reply = super().settle(outcome)
        if isinstance(outcome, Judged):
            self.last_verdict = copy.deepcopy(outcome.verdict)
            self.judged += 1
        return reply
