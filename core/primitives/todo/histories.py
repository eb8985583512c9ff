"""Tool-owned, append-only score histories (docs/todo-gates.md#histories-are-tool-owned).

Model-supplied histories never reach these functions: each accepted write appends at most one
value per score, and only when it differs from the last one.
"""

from __future__ import annotations

from core.primitives.todo.model import TodoItem, last_by_id


def record_score_observation(history: list[int], score: int | None) -> list[int]:
    if score is None or (history and history[-1] == score):
        return list(history)
    return [*history, score]


def _observed(item: TodoItem) -> int | None:
    if item.status == "completed" and item.completion_confidence is not None:
        return item.completion_confidence
    return item.confidence


def merge_confidence_history(previous: list[TodoItem], todos: list[TodoItem]) -> list[TodoItem]:
    """One observation per item and write, seeded from a legacy item's stored score."""
    before = last_by_id(previous)
    merged = []
    for item in todos:
        prev = before.get(item.id)
        history: list[int] = list(prev.confidence_history) if prev else []
        if prev is not None and not history:
            history = record_score_observation(history, _observed(prev))
        history = record_score_observation(history, _observed(item))
        merged.append(item.replace(confidence_history=history))
    return merged
