"""The items the front ends draw, named in one place: the rows and icons of pi-jtodo's own widget
(``core/primitives/todo/display.py``), which todos are open (``core/primitives/todo/model.py``), the
words for an agent's plan and its token use (``core/sources/plan.py``), and the statuses of Agent
State's work items. A front end reads them here, never from the primitives or the sources
themselves (``tests/test_core_imports.py``), so what it may depend on is this list."""

from core.primitives.state.core import WORK_ITEM_STATUSES
from core.primitives.todo.display import GOAL_COLUMNS, GoalRow, StripLine, icon, strip_lines
from core.primitives.todo.model import TodoItem, TodoState, is_open, open_items
from core.sources.plan import NO_SCORES, cost_text, plan_title, running_text, status_words, subagents_text, token_text

__all__ = [
    "GOAL_COLUMNS", "GoalRow", "NO_SCORES", "StripLine", "TodoItem", "TodoState", "icon", "is_open", "open_items",
    "cost_text", "plan_title", "running_text", "status_words", "strip_lines", "subagents_text", "token_text", "WORK_ITEM_STATUSES",
]
