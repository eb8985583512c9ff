"""``/agent-state`` parsing and handling (docs/primitives.md#command-parsing).

Every sub-command emits exactly one notice; a handler returns it with the mutation it made
(``None`` for reads and refusals), and ``run_command`` answers with the ``Outcome`` the adapter's
controller settles (``core/primitives/controller.py``).
"""

from __future__ import annotations

import re
from typing import Callable

from core.jsutil import ANY, NON_WS, WS, js_trim, js_trim_start
from core.primitives.controller import Outcome, changed_state
from core.primitives.grammar import CONFIRM, SubCommand, Words, arg
from core.primitives.host import Notice
from core.primitives.parsing import is_blank_rest, is_confirmed, single_argument, split_subcommand
from core.primitives.state import messages, mutations
from core.primitives.state.core import WORK_ITEM_STATUSES, AgentState, AgentStateError
from core.primitives.state.format import format_agent_state
from core.primitives.state.mutations import Mutation

Handled = tuple[Notice, Mutation | None]

# ``add``/``decide``: the greedy whitespace run gives back only what the content needs, so
# trailing whitespace and newlines stay in the content (docs/primitives.md#command-parsing).
# (Patterns, compiled by re at their first use and kept: inspect loads this module and parses no
# command line; compiling both costs some 0.5 ms.)
_ID_AND_CONTENT = f"({NON_WS}+){WS}+({ANY}+)"
_ID_AND_STATUS = f"({NON_WS}+){WS}+({NON_WS}+)"


def _info(message: str) -> Notice:
    return Notice(message, "info")


def _warning(message: str) -> Notice:
    return Notice(message, "warning")


def _usage() -> Handled:
    return _warning(messages.USAGE), None


def _status(state: AgentState, rest: str) -> Handled:
    if not is_blank_rest(rest):
        return _usage()
    return _info(format_agent_state(state.snapshot())), None


def _objective(state: AgentState, rest: str) -> Handled:
    objective = js_trim(rest)
    if objective == "":
        return _usage()
    mutation = mutations.set_objective(state, objective)
    if not mutation.changed:
        return _info(messages.objective_already_set(objective)), None
    return _info(messages.OBJECTIVE_UPDATED), mutation


def _adder(
    add: Callable[[AgentState, dict[str, object]], Mutation], done: Callable[[str], str]
) -> Callable[[AgentState, str], Handled]:
    """``add`` and ``decide``: ``<id> <content...>``, content kept as typed
    (docs/primitives.md#command-parsing)."""

    def handle(state: AgentState, rest: str) -> Handled:
        m = re.fullmatch(_ID_AND_CONTENT, js_trim_start(rest))
        if m is None:
            return _usage()
        item_id, content = m.groups()
        mutation = add(state, {"id": item_id, "content": content})
        return _info(done(item_id)), mutation

    return handle


def _set(state: AgentState, rest: str) -> Handled:
    m = re.fullmatch(_ID_AND_STATUS, js_trim(rest))
    if m is None:
        return _usage()
    item_id, status = m.groups()
    if status not in WORK_ITEM_STATUSES:
        return _warning(messages.invalid_status(status)), None
    mutation = mutations.set_work_item_status(state, item_id, status)
    return _info(messages.status_set(item_id, status)), mutation


def _remove(state: AgentState, rest: str) -> Handled:
    item_id = single_argument(rest)
    if item_id is None:
        return _usage()
    mutation = mutations.remove_work_item(state, item_id)
    if not mutation.changed:
        return _warning(messages.unknown_work_item(item_id)), None
    return _info(messages.removed_work_item(item_id)), mutation


def _clear(state: AgentState, rest: str) -> Handled:
    snapshot = state.snapshot()
    if not is_confirmed(rest):
        return _warning(
            messages.clear_needs_confirmation(
                "objective" in snapshot, len(snapshot["workItems"]), len(snapshot["decisions"])
            )
        ), None
    mutation = mutations.clear(state)
    if not mutation.changed:
        return _info(messages.ALREADY_EMPTY), None
    return _info(messages.CLEARED), mutation


COMMAND = "agent-state"
_ID = arg("<id>", words=Words.WORK_ITEMS)

SUBCOMMANDS: tuple[SubCommand, ...] = tuple(SubCommand(COMMAND, sub, args, help) for sub, args, help in (
    ("status", (), "Show the objective, work items and decisions"),
    ("objective", (arg("<text>"),), "Set the objective"),
    ("add", (arg("<id>"), arg("<content>")), "Add a work item (status open)"),
    ("set", (_ID, arg("|".join(WORK_ITEM_STATUSES), *WORK_ITEM_STATUSES)), "Set a work item's status"),
    ("remove", (_ID,), "Remove a work item"),
    ("decide", (arg("<id>"), arg("<content>")), "Record a decision"),
    ("clear", (CONFIRM,), "Clear the objective, work items and decisions"),
))

_HANDLERS: dict[str, Callable[[AgentState, str], Handled]] = {
    "status": _status,
    "objective": _objective,
    "add": _adder(mutations.add_work_item, messages.added_work_item),
    "set": _set,
    "remove": _remove,
    "decide": _adder(mutations.add_decision, messages.added_decision),
    "clear": _clear,
}


def run_command(state: AgentState, args: str) -> Outcome[list[Notice], AgentState]:
    """Handle ``/agent-state <args>``; core errors become a warning via ``formatStateError``."""
    notice, mutation = _handle(state, args)
    return Outcome([notice], changed_state(mutation))


def _handle(state: AgentState, args: str) -> Handled:
    parsed = split_subcommand(args)
    handler = _HANDLERS.get(parsed[0]) if parsed else None
    if parsed is None or handler is None:
        return _usage()
    try:
        return handler(state, parsed[1])
    except AgentStateError as error:
        return _warning(messages.format_state_error(error)), None
