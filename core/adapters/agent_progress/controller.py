"""The live adapter state shared by the command and the tools (upstream's StateController)."""

from __future__ import annotations

import copy
from typing import Any

from core.adapters.host import AppendCustom

from .mutations import State, empty_state, judge_state
from .persistence import ENTRY_TYPE, to_payload


class Controller:
    def __init__(self, append_custom: AppendCustom) -> None:
        self._append_custom = append_custom
        self.state: State = empty_state()
        self.last_verdict: dict[str, Any] | None = None

    def commit(self, state: State) -> None:
        """Replace the state and persist all of it as one new entry."""
        self.state = state
        self._append_custom(ENTRY_TYPE, to_payload(state))

    def judge(self) -> dict[str, Any]:
        """Judge the declared set, persisting only when the baseline was set or grew.

        Raises ProgressError (only possible for a state that bypassed validation).
        """
        result = judge_state(self.state)
        if result.changed:
            self.commit(result.state)
        self.last_verdict = copy.deepcopy(result.verdict)
        return result.verdict
