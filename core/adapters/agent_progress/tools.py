"""The four Agent Progress model tools: definitions and execution
(docs/primitives.md#adapter-texts-are-verbatim)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.adapters.host import ToolDef, ToolResult

from . import messages
from .controller import Controller
from .format import format_progress_state, format_progress_verdict
from .mutations import Mutation, add_milestone, withdraw_milestone


def _no_parameters() -> dict[str, Any]:
    return {"type": "object", "properties": {}, "additionalProperties": False}


def _milestone_parameters() -> dict[str, Any]:
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


def _mutate(
    controller: Controller,
    params: Any,
    mutation: Callable[[dict[str, Any], Any], Mutation],
    rejected: Callable[[str], str],
    done: Callable[[str], str],
) -> ToolResult:
    try:
        milestone = _milestone_param(params)
        result = mutation(controller.state, milestone)
    except Exception as error:
        return ToolResult(messages.format_progress_error(error), rejected=True)
    if not result.changed:
        if result.reason == "invalid":
            return ToolResult(messages.INVALID_MILESTONE, rejected=True)
        return ToolResult(rejected(milestone), rejected=True)
    controller.commit(result.new_state)  # outside the catch-all: a refused append is the host's
    return ToolResult(done(milestone))


def call_tool(controller: Controller, name: str, params: Any) -> ToolResult:
    """Execute one tool; every error of the input or the core comes back as text. A host's
    refusal to append propagates (and leaves the state unchanged)."""
    if name == GET:
        return ToolResult(format_progress_state(controller.state))
    if name == ADD:
        return _mutate(
            controller, params, add_milestone,
            messages.duplicate_milestone, messages.added_milestone,
        )
    if name == WITHDRAW:
        return _mutate(
            controller, params, withdraw_milestone,
            messages.unknown_milestone, messages.withdrew_milestone,
        )
    if name == JUDGE:
        try:
            judgment = controller.judge()
        except Exception as error:
            return ToolResult(messages.format_progress_error(error), rejected=True)
        return ToolResult(format_progress_verdict(controller.settle(judgment)))
    return ToolResult(messages.unknown_tool(name), rejected=True)
