"""The ``/agent-progress`` slash command (docs/primitives.md#command-parsing).

Pure: ``run_command`` answers with the ``Outcome`` the adapter's controller settles
(``core/primitives/controller.py``)."""

from __future__ import annotations

from core.primitives.controller import Outcome, changed_state
from core.primitives.grammar import CONFIRM, SubCommand, Words, arg
from core.primitives.host import Notice
from core.primitives.parsing import is_blank_rest, is_confirmed, single_argument, split_subcommand
from core.primitives.progress import messages, milestones
from core.primitives.progress.controller import judged
from core.primitives.progress.format import format_progress_state, format_progress_verdict
from core.primitives.progress.milestones import MilestoneChange
from core.primitives.progress.mutations import ProgressState, empty_state, is_fresh_state, judge_state

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

Reply = Outcome[list[Notice], ProgressState]


def run_command(state: ProgressState, args: str) -> Reply:
    """Run ``/agent-progress <args>``: the notifications in order and the new state, if any."""
    parsed = split_subcommand(args)
    if parsed is None:
        return Outcome(list(_USAGE))
    sub, rest = parsed
    if sub == "status":
        if not is_blank_rest(rest):
            return Outcome(list(_USAGE))
        return Outcome([Notice(format_progress_state(state))])
    if sub == "add":
        return _change(state, rest, milestones.ADD)
    if sub == "withdraw":
        return _change(state, rest, milestones.WITHDRAW)
    if sub == "judge":
        if not is_blank_rest(rest):
            return Outcome(list(_USAGE))
        return _judge(state)
    if sub == "clear":
        return _clear(state, rest)
    return Outcome(list(_USAGE))


def _change(state: ProgressState, rest: str, change: MilestoneChange) -> Reply:
    """``add`` and ``withdraw``: one milestone, then the core's mutation."""
    milestone = single_argument(rest)
    if milestone is None:
        return Outcome(list(_USAGE))
    result = change.mutate(state, milestone)
    notice = Notice(change.answer(result, milestone), "info" if result.changed else "warning")
    return Outcome([notice], changed_state(result))


def _judge(state: ProgressState) -> Reply:
    try:
        judgment = judge_state(state)
    except Exception as error:
        return Outcome([Notice(messages.format_progress_error(error), "warning")])
    return judged(judgment, [Notice(format_progress_verdict(judgment.verdict))])


def _clear(state: ProgressState, rest: str) -> Reply:
    if not is_confirmed(rest):
        declared = len(state["currentMilestones"])
        recorded = len(state["recordedMilestones"])
        return Outcome([Notice(messages.clear_would_remove(declared, recorded), "warning")])
    if is_fresh_state(state):
        return Outcome([Notice(messages.ALREADY_EMPTY)])
    return Outcome([Notice(messages.CLEARED)], empty_state())
