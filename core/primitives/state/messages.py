"""Every text the Agent State adapter shows, verbatim from upstream
(docs/primitives.md#adapter-texts-are-verbatim)."""

from __future__ import annotations

from core.jsutil import lower_first, plural
from core.primitives.state.core import WORK_ITEM_STATUSES, AgentStateError

PREFIX = "Agent State: "

USAGE = (
    "Usage: /agent-state status | objective <text...> | add <id> <content...> | "
    "set <id> <open|in_progress|blocked|done> | remove <id> | decide <id> <content...> | "
    "clear --yes"
)
INVALID_PERSISTED = "Agent State: persisted state was invalid; starting with empty state."
OBJECTIVE_UPDATED = "Agent State: objective updated."
ALREADY_EMPTY = "Agent State: state is already empty."
CLEARED = "Agent State: cleared."
INVALID_INPUT = "Agent State: invalid input."


def objective_already_set(objective: str) -> str:
    return f'Agent State: objective is already set to "{objective}".'


def added_work_item(item_id: str) -> str:
    return f'Agent State: added work item "{item_id}".'


def status_set(item_id: str, status: str) -> str:
    return f'Agent State: work item "{item_id}" is now {status}.'


def invalid_status(status: str) -> str:
    return f'Agent State: invalid status "{status}"; expected {", ".join(WORK_ITEM_STATUSES)}.'


def unknown_work_item(item_id: str) -> str:
    return f'Agent State: unknown work item id "{item_id}".'


def removed_work_item(item_id: str) -> str:
    return f'Agent State: removed work item "{item_id}".'


def added_decision(item_id: str) -> str:
    return f'Agent State: added decision "{item_id}".'


def clear_needs_confirmation(has_objective: bool, items: int, decisions: int) -> str:
    objective = "the objective, " if has_objective else ""
    return (
        f"Agent State: clear would remove {objective}{items} {plural(items, 'work item')} "
        f"and {decisions} {plural(decisions, 'decision')}. "
        "Run /agent-state clear --yes to confirm."
    )


def format_state_error(error: BaseException) -> str:
    """``formatStateError``: a core error with its first letter lowercased, else a fixed text."""
    if isinstance(error, AgentStateError):
        message = str(error)
        return PREFIX + lower_first(message) if message else INVALID_INPUT
    return INVALID_INPUT
