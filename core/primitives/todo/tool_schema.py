"""The `todo` tool as registered with the host: name, label, description, schema
(docs/todo-gates.md#the-todo-tool)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.primitives.host import ToolDef
from core.primitives.todo.constants import TOOL_LABEL, TOOL_NAME

if TYPE_CHECKING:
    from core.shapes import Schema

DESCRIPTION = "Read or update structured todo items and optional goal-level assessments."

_SCORE: Schema = {"type": "integer", "minimum": 0, "maximum": 100}

PARAMETERS: Schema = {
    "type": "object",
    "properties": {
        "todos": {
            "type": "array",
            "description": "Todo list to save.",
            "items": {
                "type": "object",
                "required": ["content", "status", "priority", "id", "confidence"],
                "properties": {
                    "content": {"type": "string", "description": "Task."},
                    "status": {
                        "type": "string",
                        "enum": ["pending", "in_progress", "completed", "cancelled"],
                        "description": "Status.",
                    },
                    "priority": {
                        "type": "string",
                        "enum": ["high", "medium", "low"],
                        "description": "Priority.",
                    },
                    "id": {"type": "string", "description": "ID."},
                    "group": {
                        "type": "string",
                        "description": "Optional group label. Todos sharing a group render together under one header. Use one group per coherent goal (e.g. 'optimize rendering'). When the user steers into new work, start a new group instead of renaming the existing one. Omit for an ungrouped flat list.",
                    },
                    "confidence": {
                        **_SCORE,
                        "description": "Self-assessed confidence, 0-100, that this todo can be completed correctly. Reassess it as evidence accumulates while working.",
                    },
                    "completion_confidence": {
                        **_SCORE,
                        "description": "Self-assessed confidence, 0-100, that this todo was completed correctly. Use only for completed items.",
                    },
                },
            },
        },
        "plan": {
            "type": "object",
            "description": "Plan-level understanding of the user's request, covering the whole todo list. Send it on the first write and whenever your understanding changes.",
            "required": ["user_intention", "understands_user_intent"],
            "properties": {
                "user_intention": {
                    "type": "string",
                    "description": "Concise statement of what the user actually wants: their underlying reason and desired end state for this work. Omit on later updates to retain the stored intention.",
                },
                "understands_user_intent": {
                    **_SCORE,
                    "description": "Self-assessment, 0-100, of how well you understand what the user actually wants and how faithfully this plan represents it: their underlying goal, what they left implicit, and what outcome would make them consider this done. Before scoring, form a requirement inventory covering outcomes, deliverables, constraints, prohibited actions, integration paths, edge cases, and necessary follow-through, and check that the plan and its feedback loops name an explicit observation or check for each item. A generic instruction to run tests, verify, or review does not establish coverage: tests count only for behaviors they actually enforce, while non-testable requirements such as edit scope, dependency limits, required reporting, branches or commits, and prohibited modifications need separate explicit checks. Score low when interpretations of the request still materially diverge, you are guessing at intent, or any material item is unrepresented. Prefer resolving low understanding by re-reading the request and investigating the conversation and codebase over asking the user, since asking blocks them.",
                },
            },
        },
        "goals": {
            "type": "array",
            "description": "Optional goal-level assessments, one per todo group. Use group: null for an ungrouped list. Stored assessments for groups omitted from an update are retained.",
            "items": {
                "type": "object",
                "required": ["closed_feedback_loop", "feedback_loop"],
                "properties": {
                    "group": {
                        "type": "string",
                        "description": "Group label this goal describes. Omit or null for the ungrouped list.",
                    },
                    "closed_feedback_loop": {
                        **_SCORE,
                        "description": "Self-assessment, 0-100: how much of this goal's correctness the `feedback_loop` below can tell you on its own, without your judgment or the user's.",
                    },
                    "feedback_loop": {
                        "type": "string",
                        "description": "Concrete requirement-to-check process used to compare progress across iterations and detect whether the user's intention is satisfied or violated. Name an explicit observation or check for every material behavior, deliverable, constraint, prohibited action, integration path, edge case, and necessary follow-through. Generic phrases such as run tests, verify, or review count only for requirements those named checks demonstrably enforce; add separate checks for non-testable prompt requirements.",
                    },
                    "end_to_end_ownership": {
                        **_SCORE,
                        "description": "Completion-time self-assessment, 0-100, of whether the full intended user outcome and its necessary follow-through were delivered, rather than only the immediate implementation. Use only when completing the goal.",
                    },
                },
            },
        },
    },
}

TODO_TOOL = ToolDef(name=TOOL_NAME, label=TOOL_LABEL, description=DESCRIPTION, parameters=PARAMETERS)
