"""Agent Progress core: a port of ``@j1nn0/agent-progress`` 0.1.1 (docs/primitives.md#agent-progress).

``judge_progress`` compares the complete declared milestone set against a cumulative baseline and
says whether the set strictly grew. It is pure: JSON-shaped dicts in, fresh dicts out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.jsutil import is_non_empty_string

if TYPE_CHECKING:
    from core.shapes import Verdict

__all__ = ["ProgressError", "judge_progress"]

_INVALID_INPUT = ("invalid_input", "Invalid progress input.")
_DUPLICATE = ("duplicate_milestone", "Duplicate milestone.")


class ProgressError(Exception):
    """A rejected progress input; ``code`` is ``"invalid_input"`` or ``"duplicate_milestone"``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _error(kind: tuple[str, str]) -> ProgressError:
    return ProgressError(*kind)


def _validate_observation(value: Any) -> list[str]:
    """The observation's milestones as a new list; the first offending element decides
    (docs/primitives.md#order-of-checks)."""
    if not isinstance(value, dict) or "milestones" not in value:
        raise _error(_INVALID_INPUT)
    raw = value["milestones"]
    if not isinstance(raw, list):
        raise _error(_INVALID_INPUT)
    milestones: list[str] = []
    for candidate in raw:
        if not is_non_empty_string(candidate):
            raise _error(_INVALID_INPUT)
        if candidate in milestones:
            raise _error(_DUPLICATE)
        milestones.append(candidate)
    return milestones


def _judge(input: Any) -> Verdict:
    if not isinstance(input, dict) or "current" not in input:
        raise _error(_INVALID_INPUT)
    # current is validated before previous, so its errors always win (docs/primitives.md#order-of-checks).
    current = _validate_observation(input["current"])
    if "previous" not in input:
        return {"outcome": "unknown", "reason": "missing_baseline", "recordedMilestones": current}
    previous = _validate_observation(input["previous"])

    new = [m for m in current if m not in previous]
    withdrawn = [m for m in previous if m not in current]
    recorded = previous + new
    # (keys in upstream's order: withdrawnMilestones, when any were, comes before recordedMilestones)
    if withdrawn:
        return {
            "outcome": "progress" if new else "no_progress",
            "newMilestones": new,
            "withdrawnMilestones": withdrawn,
            "recordedMilestones": recorded,
        }
    return {"outcome": "progress" if new else "no_progress", "newMilestones": new, "recordedMilestones": recorded}


# JS ``undefined``: calling with no argument; None is JS null (docs/primitives.md#absent-is-not-null)
_ABSENT: Any = object()


def judge_progress(input: Any = _ABSENT) -> Verdict:
    """Judge ``{"previous"?: {"milestones": [...]}, "current": {"milestones": [...]}}``.

    Raises ProgressError; any unexpected exception while reading the input becomes
    ``invalid_input`` (docs/primitives.md#errors-and-how-adapters-word-them).
    """
    try:
        return _judge(input)
    except ProgressError:
        raise
    except Exception:
        raise _error(_INVALID_INPUT) from None
