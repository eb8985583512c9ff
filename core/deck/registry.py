"""Every slash command and model tool pideck offers, read from the adapters' own declarations.

The TUI (completion, palette, help), ``pideck run --help``, ``pideck tool --help`` and the MCP
server list commands and tools from here; nothing else types them again. Importing this module
loads the declarations only, not the adapters' machinery.
"""

from __future__ import annotations

from core.primitives.grammar import SubCommand
from core.primitives.handoff import commands as handoff_commands
from core.primitives.handoff import tools as handoff_tools
from core.primitives.host import ToolDef
from core.primitives.progress import commands as progress_commands
from core.primitives.progress import tools as progress_tools
from core.primitives.state import commands as state_commands
from core.primitives.state import tools as state_tools
from core.primitives.todo import commands as todo_commands
from core.primitives.todo.tool_schema import TODO_TOOL

SUBCOMMANDS: tuple[SubCommand, ...] = (
    *state_commands.SUBCOMMANDS,
    *progress_commands.SUBCOMMANDS,
    *handoff_commands.SUBCOMMANDS,
    *todo_commands.SUBCOMMANDS,
)
"""Every sub-command, in the order help and the palette list them."""

TOOLS: tuple[ToolDef, ...] = (*state_tools.TOOLS, *progress_tools.TOOLS, *handoff_tools.TOOLS, TODO_TOOL)
"""The twelve model tools in registration order, with their upstream descriptions and schemas."""

NAMESPACES: tuple[str, ...] = tuple(dict.fromkeys(c.namespace for c in SUBCOMMANDS))


def subcommands(namespace: str) -> list[SubCommand]:
    return [c for c in SUBCOMMANDS if c.namespace == namespace]


def find(namespace: str, sub: str) -> SubCommand | None:
    for command in SUBCOMMANDS:
        if command.namespace == namespace and command.sub == sub:
            return command
    return None


READING_SUBS = frozenset({"", "status", "show", "export"})
"""Sub-commands that never append to the log (``/todos`` and its export write a file at most)."""


def appends(command: SubCommand) -> bool:
    """The command may append an entry, so a read-only session refuses it."""
    return command.sub not in READING_SUBS


def tool(name: str) -> ToolDef | None:
    return next((t for t in TOOLS if t.name == name), None)
