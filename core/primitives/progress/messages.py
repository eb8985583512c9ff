"""Verbatim texts of the Agent Progress adapter (docs/primitives.md#adapter-texts-are-verbatim)."""

from __future__ import annotations

from core.jsutil import lower_first, plural
from core.primitives.progress.core import ProgressError

PREFIX = "Agent Progress: "
USAGE = (
    f"{PREFIX}Usage: /agent-progress status | add <milestone> | withdraw <milestone> | judge"
    " | clear --yes"
)
INVALID_STATE_WARNING = f"{PREFIX}persisted state was invalid; starting with fresh state."
INVALID_MILESTONE = f"{PREFIX}invalid milestone."
INVALID_INPUT = f"{PREFIX}invalid input."
ALREADY_EMPTY = f"{PREFIX}state is already empty."
CLEARED = f"{PREFIX}cleared."
MISSING_BASELINE_HINT = (
    "Call agent_progress_judge again after the milestone set changes:"
    " this first judgment established the baseline."
)


def duplicate_milestone(milestone: str) -> str:
    return f'{PREFIX}milestone "{milestone}" is already declared.'


def unknown_milestone(milestone: str) -> str:
    return f'{PREFIX}unknown declared milestone "{milestone}".'


def added_milestone(milestone: str) -> str:
    return f'{PREFIX}added milestone "{milestone}".'


def withdrew_milestone(milestone: str) -> str:
    return f'{PREFIX}withdrew milestone "{milestone}".'


def unknown_tool(name: str) -> str:
    """Not an upstream text (pi never routes a foreign name); worded like the Handoff port's."""
    return f'{PREFIX}unknown tool "{name}".'


def clear_would_remove(declared: int, recorded: int) -> str:
    return (
        f"{PREFIX}clear would remove {declared} declared {plural(declared, 'milestone')}"
        f" and {recorded} recorded {plural(recorded, 'milestone')}."
        " Run /agent-progress clear --yes to confirm."
    )


def format_progress_error(error: BaseException) -> str:
    """A core error quoted with its first letter lowercased; anything else is the fallback."""
    if isinstance(error, ProgressError):
        message = str(error)
        return PREFIX + lower_first(message) if message else INVALID_INPUT
    return INVALID_INPUT
