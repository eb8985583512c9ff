"""Turn-end checks over the list: confidence summary, spikes, the signature
(docs/todo-gates.md#confidence-summary-spikes-and-the-signature)."""

# (No ``from __future__ import annotations`` here: typing would compile the string annotations of
# the NamedTuples below, and the first compile() of a process costs every command ~1 ms; see
# core/slotted.py.)

import json
from typing import NamedTuple

from core.primitives.todo.constants import CONFIDENCE_SPIKE, QUALITY_BAR
from core.primitives.todo.model import TodoItem, priority_weight, weighted_average


def completed(todos: list[TodoItem]) -> list[TodoItem]:
    return [t for t in todos if t.status == "completed"]


def spikes(item: TodoItem) -> bool:
    if item.status != "completed":
        return False
    hist = item.confidence_history
    if not hist:
        return (
            item.confidence is not None
            and item.completion_confidence is not None
            and item.completion_confidence - item.confidence >= CONFIDENCE_SPIKE
        )
    return len(hist) >= 2 and hist[-1] - hist[-2] >= CONFIDENCE_SPIKE


def spike_completed(todos: list[TodoItem]) -> list[TodoItem]:
    return [t for t in todos if spikes(t)]


class ConfidenceSummary(NamedTuple):  # (a NamedTuple, as in core/primitives/host.py: made quickly at start-up)
    completion_average: int | None
    needs_validation: bool
    spike_detected: bool
    missing: list[str]  # completed ids without completion_confidence
    weak: list[str]  # completed ids whose completion_confidence is low
    spiked: list[str]


def confidence_summary(todos: list[TodoItem]) -> ConfidenceSummary:
    done = completed(todos)
    scored = [(t, score) for t in done if (score := t.completion_confidence) is not None]
    average = weighted_average([(score, priority_weight(t.priority)) for t, score in scored])
    missing = [t.id for t in done if t.completion_confidence is None]
    weak = [t.id for t, score in scored if score < QUALITY_BAR]
    spiked = [t.id for t in spike_completed(todos)]
    return ConfidenceSummary(
        completion_average=average,
        needs_validation=average is None or average < QUALITY_BAR or bool(missing) or bool(weak),
        spike_detected=bool(spiked),
        missing=missing,
        weak=weak,
        spiked=spiked,
    )


def signature(todos: list[TodoItem]) -> list[str]:
    """What a re-validation must move: completed ids, statuses, completion scores, last history."""
    def key(t: TodoItem) -> str:
        last = t.confidence_history[-1] if t.confidence_history else None
        return json.dumps([t.id, t.status, t.completion_confidence, last])

    return sorted(key(t) for t in completed(todos))
