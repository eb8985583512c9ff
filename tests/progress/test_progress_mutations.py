"""The adapter's pure state mutations and formatters, tested directly (docs/primitives.md#append-on-change)."""

from __future__ import annotations

import copy

import pytest

from core.primitives.progress.format import format_progress_state, format_progress_verdict
from core.primitives.progress.mutations import (
    add_milestone, empty_state, is_fresh_state, judge_state, withdraw_milestone,
)
from core.primitives.progress.core import ProgressError


def state(has_baseline=False, current=(), recorded=()):
    return {"hasBaseline": has_baseline, "currentMilestones": list(current), "recordedMilestones": list(recorded)}


@pytest.mark.parametrize("value", [None, 1, "", " ", "\ufeff", ["a"]], ids=repr)
def test_progress_mutation_invalid_milestones(value):
    assert add_milestone(empty_state(), value).reason == "invalid"
    assert withdraw_milestone(empty_state(), value).reason == "invalid"
    assert not add_milestone(empty_state(), value).changed


def test_progress_mutation_add_and_withdraw_return_new_states():
    original = state(True, ["a"], ["a"])
    before = copy.deepcopy(original)
    added = add_milestone(original, " b ")
    assert added.changed and added.reason is None
    assert added.state == state(True, ["a", " b "], ["a"])
    assert added.state["recordedMilestones"] is not original["recordedMilestones"]
    assert add_milestone(original, "a").reason == "duplicate"
    withdrawn = withdraw_milestone(added.state, "a")
    assert withdrawn.changed and withdrawn.state == state(True, [" b "], ["a"])
    assert withdraw_milestone(original, "b").reason == "unknown"
    assert withdraw_milestone(original, " a").reason == "unknown"  # ids are never trimmed
    assert original == before


def test_progress_mutation_judge_state_changed_rules():
    first = judge_state(state(False, ["a"]))
    assert first.changed and first.verdict["outcome"] == "unknown"
    assert first.state == state(True, ["a"], ["a"])
    again = judge_state(first.state)
    assert not again.changed and again.verdict["outcome"] == "no_progress"
    # Establishing an empty baseline is a change; judging it again is not.
    empty = judge_state(empty_state())
    assert empty.changed and empty.state == state(True)
    assert not judge_state(empty.state).changed
    grown = judge_state(state(True, ["b"], ["a"]))
    assert grown.changed and grown.state == state(True, ["b"], ["a", "b"])
    withdrawal_only = judge_state(state(True, [], ["a"]))
    assert not withdrawal_only.changed


def test_progress_mutation_judge_state_raises_core_errors():
    with pytest.raises(ProgressError):
        judge_state(state(True, ["a", "a"]))


def test_progress_mutation_is_fresh_state():
    assert is_fresh_state(empty_state())
    assert not is_fresh_state(state(True))
    assert not is_fresh_state(state(False, ["a"]))
    assert not is_fresh_state(state(False, [], ["a"]))


def test_progress_format_state_plurals():
    assert format_progress_state(state(True, ["a"], ["a"])) == (
        "Agent Progress: 1 declared milestone; baseline established (1 recorded milestone)."
        "\nDeclared milestones:\n- a"
    )
    assert format_progress_state(state(True, ["a", "b"], [])) == (
        "Agent Progress: 2 declared milestones; baseline established (0 recorded milestones)."
        "\nDeclared milestones:\n- a\n- b"
    )


def test_progress_format_verdicts():
    assert format_progress_verdict(
        {"outcome": "no_progress", "newMilestones": [], "withdrawnMilestones": ["x"], "recordedMilestones": ["x"]}
    ) == "Agent Progress: no_progress.\nNew milestones: none.\nWithdrawn milestones:\n- x\nRecorded milestones:\n- x"
    assert format_progress_verdict(
        {"outcome": "unknown", "reason": "missing_baseline", "recordedMilestones": []}
    ) == (
        "Agent Progress: unknown (missing_baseline).\nCall agent_progress_judge again after the"
        " milestone set changes: this first judgment established the baseline.\nRecorded milestones: none."
    )
