"""The pi-jtodo model: a quality-gated todo list with write-time and turn-end gates.

Pure Python; never imports Textual. ``TodoAdapter`` is the entry point for the Deck, the CLI and
the TUI; the configuration functions back ``pideck config``.
"""

from core.todo.adapter import TodoAdapter
from core.todo.config import (
    ConfigError,
    TodoConfig,
    config_path,
    load_config,
    set_config_value,
    show_config,
)
from core.todo.display import GoalRow, StripLine
from core.todo.model import Priority, Status, TodoGoal, TodoItem, TodoPlan, TodoState
from core.todo.tool_schema import TODO_TOOL
from core.todo.write import TodoCallResult

__all__ = [
    "ConfigError",
    "GoalRow",
    "Priority",
    "Status",
    "StripLine",
    "TODO_TOOL",
    "TodoAdapter",
    "TodoCallResult",
    "TodoConfig",
    "TodoGoal",
    "TodoItem",
    "TodoPlan",
    "TodoState",
    "config_path",
    "load_config",
    "set_config_value",
    "show_config",
]
