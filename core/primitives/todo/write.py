"""One `todo` call against the stored state: read, accepted write, rejection or error
(docs/todo-gates.md#how-a-write-merges)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from core.primitives.todo.changes import changes_line
from core.primitives.todo.constants import INTENT_CONTINUATION
from core.primitives.todo.histories import merge_confidence_history
from core.primitives.todo.merge import merge_goals, merge_items, merge_plan
from core.primitives.todo.model import TodoState
from core.primitives.todo.normalize import normalise_input
from core.primitives.todo.observations import needs_severe_intent_nudge
from core.primitives.todo.ownership import failing_groups, rejection_text
from core.primitives.todo.tool_output import accepted_text, state_echo
from core.primitives.todo.validate import IncomingWrite, TodoInputError, validate_input

if TYPE_CHECKING:
    from core.shapes import TodoStateJson

Outcome = Literal["read", "accepted", "rejected", "error"]


@dataclass
class TodoCallResult:
    outcome: Outcome
    text: str
    state: TodoState  # the stored state after the call (unchanged unless accepted)

    @property
    def is_error(self) -> bool:
        return self.outcome == "error"

    @property
    def details(self) -> TodoStateJson:
        return self.state.to_json()


def parse_call(params: Any) -> IncomingWrite:
    """Normalise and validate; raises TodoInputError."""
    return validate_input(normalise_input(params))


def apply_todo_call(stored: TodoState, params: Any) -> TodoCallResult:
    try:
        incoming = parse_call(params)
    except TodoInputError as exc:
        return TodoCallResult("error", f"Invalid todo input: {exc}", stored)
    if incoming.is_read:
        return TodoCallResult("read", state_echo(stored), stored)

    previous = stored.todos
    if incoming.todos is not None:
        todos = merge_items(previous, incoming.todos)
    else:
        todos = [t.replace() for t in previous]
    todos = merge_confidence_history(previous, todos)
    goals = merge_goals(stored.goals, incoming.goals)
    plan = merge_plan(stored.plan, incoming.plan)

    failing = failing_groups(previous, todos, goals)
    if failing:
        return TodoCallResult(
            "rejected", state_echo(stored) + "\n\n" + rejection_text(failing), stored
        )

    new = TodoState(todos=todos, plan=plan, goals=goals)
    nudge = INTENT_CONTINUATION if needs_severe_intent_nudge(plan, todos) else None
    changes = changes_line(previous, todos, incoming.todos)
    return TodoCallResult("accepted", accepted_text(stored, new, changes, nudge), new)
