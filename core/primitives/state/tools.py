"""The four model tools: definitions in registration order and their execution
(docs/primitives.md#adapter-texts-are-verbatim)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.primitives.controller import Outcome, changed_state
from core.primitives.host import ToolDef, ToolResult
from core.primitives.state import messages, mutations
from core.primitives.state.core import WORK_ITEM_STATUSES, AgentState
from core.primitives.state.format import format_agent_state
from core.primitives.state.mutations import Mutation

if TYPE_CHECKING:
    from core.shapes import Schema

_ABSENT: Any = object()
"""A missing params key: upstream reads it as ``undefined``, which the core always rejects."""


def _string(description: str) -> Schema:
    return {"type": "string", "description": description}


def _status_property() -> Schema:
    return {
        "type": "string",
        "enum": list(WORK_ITEM_STATUSES),
        "description": "Exact caller-declared work item status.",
    }


def _object(properties: dict[str, Schema], required: list[str] | None = None) -> Schema:
    schema: Schema = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


GET = "agent_state_get"
ADD_WORK_ITEM = "agent_state_add_work_item"
SET_WORK_ITEM_STATUS = "agent_state_set_work_item_status"
ADD_DECISION = "agent_state_add_decision"

TOOLS: tuple[ToolDef, ...] = (
    ToolDef(
        name=GET,
        label="Agent State: get",
        description=(
            "Read the current caller-declared Agent State as readable text. This reports what "
            "was recorded and asserts nothing about truth, progress, evidence, or completion."
        ),
        parameters=_object({}),
    ),
    ToolDef(
        name=ADD_WORK_ITEM,
        label="Agent State: add work item",
        description=(
            "Record one caller-declared work item in Agent State. The content and status are "
            "claims supplied by the caller; this tool does not infer, verify, or assert their "
            "truth, progress, evidence, or completion."
        ),
        parameters=_object(
            {
                "id": _string("Caller-supplied work item id."),
                "content": _string("Caller-declared description of the work item."),
                "status": _status_property(),
            },
            ["id", "content"],
        ),
    ),
    ToolDef(
        name=SET_WORK_ITEM_STATUS,
        label="Agent State: set work item status",
        description=(
            "Set the exact caller-declared status of an existing Agent State work item. This "
            "records a claim and does not infer, verify, or assert truth, progress, evidence, "
            "or completion."
        ),
        parameters=_object(
            {"id": _string("Caller-supplied work item id."), "status": _status_property()},
            ["id", "status"],
        ),
    ),
    ToolDef(
        name=ADD_DECISION,
        label="Agent State: add decision",
        description=(
            "Record one caller-declared decision in Agent State. The content is a claim "
            "supplied by the caller; this tool does not infer, verify, or assert its truth, "
            "progress, evidence, or completion."
        ),
        parameters=_object(
            {
                "id": _string("Caller-supplied decision id."),
                "content": _string("Caller-declared description of the decision."),
            },
            ["id", "content"],
        ),
    ),
)

TOOL_NAMES = tuple(tool.name for tool in TOOLS)


# ``params`` below are the tool's arguments as the caller sent them (JSON): the core checks each
# value, and raises before a text quotes one it refused.


def _present(params: dict[str, object], *keys: str) -> dict[str, object]:
    """The input the upstream tool builds: a key missing from params stays missing."""
    return {key: params[key] for key in keys if key in params}


def _add_work_item(state: AgentState, params: dict[str, object]) -> tuple[str, Mutation]:
    mutation = mutations.add_work_item(state, _present(params, "id", "content", "status"))
    item_id = params["id"]
    assert isinstance(item_id, str)  # (the core accepted it)
    return messages.added_work_item(item_id), mutation


def _set_work_item_status(state: AgentState, params: dict[str, object]) -> tuple[str, Mutation]:
    item_id, status = params.get("id", _ABSENT), params.get("status", _ABSENT)
    mutation = mutations.set_work_item_status(state, item_id, status)
    assert isinstance(item_id, str) and isinstance(status, str)  # (the core accepted them)
    return messages.status_set(item_id, status), mutation


def _add_decision(state: AgentState, params: dict[str, object]) -> tuple[str, Mutation]:
    mutation = mutations.add_decision(state, _present(params, "id", "content"))
    item_id = params["id"]
    assert isinstance(item_id, str)  # (the core accepted it)
    return messages.added_decision(item_id), mutation


_MUTATING = {
    ADD_WORK_ITEM: _add_work_item,
    SET_WORK_ITEM_STATUS: _set_work_item_status,
    ADD_DECISION: _add_decision,
}


def run_tool(state: AgentState, name: str, params: Any) -> Outcome[ToolResult, AgentState]:
    """Execute one tool; a mutating tool that made no mutation was turned down."""
    text, mutation = _execute(state, name, params)
    return Outcome(ToolResult(text, rejected=mutation is None and name != GET), changed_state(mutation))


def _execute(state: AgentState, name: str, params: Any) -> tuple[str, Mutation | None]:
    """The tool's text and mutation; every error comes back as text, with no mutation.

    Params that are not a dict (docs/primitives.md#tool-params-that-are-not-dicts): ``None`` fails
    like a property read on JS ``null``; any other non-dict reads as ``{}``.
    """
    if name == GET:
        return format_agent_state(state.snapshot()), None
    execute = _MUTATING[name]
    if params is None:
        return messages.INVALID_INPUT, None
    try:
        return execute(state, params if isinstance(params, dict) else {})
    except Exception as error:  # upstream catches everything: a core error or "invalid input."
        return messages.format_state_error(error), None
