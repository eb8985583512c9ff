"""The four Agent Progress model tools: definitions and execution
(docs/primitives.md#adapter-texts-are-verbatim).

Execution is pure like the command: ``run_tool`` answers with the ``Outcome`` the adapter's
controller settles (``core/primitives/controller.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.primitives.controller import Outcome, changed_state
from core.primitives.host import ToolDef, ToolResult
from core.primitives.progress import messages, milestones
from core.primitives.progress.controller import judged
from core.primitives.progress.format import format_progress_state, format_progress_verdict
from core.primitives.progress.milestones import MilestoneChange
from core.primitives.progress.mutations import ProgressState, judge_state

if TYPE_CHECKING:
    from core.shapes import Schema


def _no_parameters() -> Schema:
    return {"type": "object", "properties": {}, "additionalProperties": False}


def _milestone_parameters() -> Schema:
    return {
        "type": "object",
        "properties": {
            "milestone": {
                "type": "string",
                "description": "Caller-supplied opaque milestone identifier.",
            }
        },
        "required": ["milestone"],
        "additionalProperties": False,
    }


GET = "agent_progress_get"
ADD = "agent_progress_add_milestone"
WITHDRAW = "agent_progress_withdraw_milestone"
JUDGE = "agent_progress_judge"

TOOLS: tuple[ToolDef, ...] = (
    ToolDef(
        name=GET,
        label="Agent Progress: get",
        description=(
            "Read the current caller-declared Agent Progress state as readable text. This reports"
            " what was recorded and does not infer, verify, or assert meaning, truth, progress,"
            " evidence, or completion."
        ),
        parameters=_no_parameters(),
    ),
    ToolDef(
        name=ADD,
        label="Agent Progress: add milestone",
        description=(
            "Add one caller-declared opaque milestone to the current Agent Progress set. This tool"
            " does not infer, verify, or assert the milestone meaning, truth, progress, evidence,"
            " or completion."
        ),
        parameters=_milestone_parameters(),
    ),
    ToolDef(
        name=WITHDRAW,
        label="Agent Progress: withdraw milestone",
        description=(
            "Withdraw one caller-declared opaque milestone from the current Agent Progress set."
            " This changes only the declared set and does not infer, verify, or assert the"
            " milestone meaning, truth, progress, evidence, or completion."
        ),
        parameters=_milestone_parameters(),
    ),
    ToolDef(
        name=JUDGE,
        label="Agent Progress: judge",
        description=(
            "Judge the complete currently declared milestone set supplied by the caller against"
            " the cumulative baseline with the Progress core. This reports whether the declared"
            " set strictly grew; it does not inspect milestone meaning or verify that a milestone"
            " was worth reaching, and does not infer, verify, or assert truth, evidence, or"
            " completion."
        ),
        parameters=_no_parameters(),
    ),
)

_ABSENT = object()


def _milestone_param(params: Any) -> Any:
    """``params.milestone`` as JS reads it (docs/primitives.md#tool-params-that-are-not-dicts): None throws,
    other non-dicts have no key."""
    if params is None:
        raise TypeError("cannot read properties of null")
    if not isinstance(params, dict):
        return _ABSENT
    return params.get("milestone", _ABSENT)


Result = Outcome[ToolResult, ProgressState]


def _mutate(state: ProgressState, params: Any, change: MilestoneChange) -> Result:
    try:
        milestone = _milestone_param(params)
        result = change.mutate(state, milestone)
    except Exception as error:
        return Outcome(ToolResult(messages.format_progress_error(error), rejected=True))
    return Outcome(ToolResult(change.answer(result, milestone), rejected=not result.changed), changed_state(result))


def run_tool(state: ProgressState, name: str, params: Any) -> Result:
    """Execute one tool; every error of the input or the core comes back as text."""
    if name == GET:
        return Outcome(ToolResult(format_progress_state(state)))
    if name == ADD:
        return _mutate(state, params, milestones.ADD)
    if name == WITHDRAW:
        return _mutate(state, params, milestones.WITHDRAW)
    if name == JUDGE:
        try:
            judgment = judge_state(state)
        except Exception as error:
            return Outcome(ToolResult(messages.format_progress_error(error), rejected=True))
        return judged(judgment, ToolResult(format_progress_verdict(judgment.verdict)))
    return Outcome(ToolResult(messages.unknown_tool(name), rejected=True))
