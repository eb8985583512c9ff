"""The ``/agent-progress`` slash command (docs/primitives.md#command-parsing)."""

from __future__ import annotations

from core.adapters.grammar import CONFIRM, SubCommand, Words, arg
from core.adapters.host import Notice
from core.adapters.parsing import (
    is_blank_rest,
    is_confirmed,
    single_argument,
    split_subcommand,
)

from . import messages
from .controller import Controller
from .format import format_progress_state, format_progress_verdict
from .mutations import add_milestone, empty_state, is_fresh_state, withdraw_milestone

COMMAND = "agent-progress"
DESCRIPTION = "Record and judge caller-declared progress."

SUBCOMMANDS: tuple[SubCommand, ...] = tuple(SubCommand(COMMAND, sub, args, help) for sub, args, help in (
    ("status", (), "Show declared and recorded milestones"),
    ("add", (arg("<milestone>"),), "Declare a milestone"),
    ("withdraw", (arg("<milestone>", words=Words.MILESTONES),), "Withdraw a declared milestone"),
    ("judge", (), "Judge the declared set against the baseline"),
    ("clear", (CONFIRM,), "Clear declared milestones and the baseline"),
))

_USAGE = [Notice(messages.USAGE, "warning")]


def run_command(controller: Controller, args: str) -> list[Notice]:
    """Run ``/agent-progress <args>``; returns the notifications in order."""
    parsed = split_subcommand(args)
    if parsed is None:
        return list(_USAGE)
    sub, rest = parsed
    if sub == "status":
        if not is_blank_rest(rest):
            return list(_USAGE)
        return [Notice(format_progress_state(controller.state))]
    if sub == "add":
        return _add(controller, rest)
    if sub == "withdraw":
        return _withdraw(controller, rest)
    if sub == "judge":
        if not is_blank_rest(rest):
            return list(_USAGE)
        return _judge(controller)
    if sub == "clear":
        return _clear(controller, rest)
    return list(_USAGE)


def _add(controller: Controller, rest: str) -> list[Notice]:
    milestone = single_argument(rest)
    if milestone is None:
        return list(_USAGE)
    result = add_milestone(controller.state, milestone)
    if not result.changed:
        if result.reason == "invalid":
            return [Notice(messages.INVALID_MILESTONE, "warning")]
        return [Notice(messages.duplicate_milestone(milestone), "warning")]
    controller.commit(result.new_state)
    return [Notice(messages.added_milestone(milestone))]


def _withdraw(controller: Controller, rest: str) -> list[Notice]:
    milestone = single_argument(rest)
    if milestone is None:
        return list(_USAGE)
    result = withdraw_milestone(controller.state, milestone)
    if not result.changed:
        if result.reason == "invalid":
            return [Notice(messages.INVALID_MILESTONE, "warning")]
        return [Notice(messages.unknown_milestone(milestone), "warning")]
    controller.commit(result.new_state)
    return [Notice(messages.withdrew_milestone(milestone))]


def _judge(controller: Controller) -> list[Notice]:
    try:
        judgment = controller.judge()
    except Exception as error:
        return [Notice(messages.format_progress_error(error), "warning")]
    return [Notice(format_progress_verdict(controller.settle(judgment)))]


def _clear(controller: Controller, rest: str) -> list[Notice]:
    state = controller.state
    if not is_confirmed(rest):
        declared = len(state["currentMilestones"])
        recorded = len(state["recordedMilestones"])
        return [Notice(messages.clear_would_remove(declared, recorded), "warning")]
    if is_fresh_state(state):
        return [Notice(messages.ALREADY_EMPTY)]
    controller.commit(empty_state())
    return [Notice(messages.CLEARED)]
