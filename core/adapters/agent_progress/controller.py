"""The live adapter state shared by the command and the tools (upstream's StateController)."""

from __future__ import annotations

import copy
from typing import Any

from core.adapters.host import AppendCustom

from .mutations import Judgment, State, empty_state, judge_state
from .persistence import ENTRY_TYPE, to_payload


class Controller:
    def __init__(self, append_custom: AppendCustom) -> None:
        self._append_custom = append_custom
        self.state: State = empty_state()
        self.last_verdict: dict[str, Any] | None = None
        self.judged = 0  # judgments settled: a host that records verdicts appends one per judge

    def commit(self, state: State) -> None:
        """Persist all of the new state as one entry, then make it the live state: when the host
        refuses the append (a read-only session), its error propagates and nothing changed."""
        self._append_custom(ENTRY_TYPE, to_payload(state))
        self.state = state

    def judge(self) -> Judgment:
        """Judge the declared set; no side effects. Raises ProgressError (only possible for a
        state that bypassed validation)."""
        return judge_state(self.state)

    def settle(self, judgment: Judgment) -> dict[str, Any]:
        """Persist a judgment only when the baseline was set or grew; returns its verdict.

        Kept apart from ``judge`` so that the callers' catch-alls, which turn core errors into
        text, never swallow a host's refusal to append."""
        if judgment.changed:
            self.commit(judgment.state)
        self.last_verdict = copy.deepcopy(judgment.verdict)
        self.judged += 1
        return judgment.verdict
