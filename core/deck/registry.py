"""Every model tool pideck offers, read from the adapters' own declarations, with its upstream
description and schema (the slash commands are in ``commands.py``).

``pideck tool --help`` and the MCP server list tools from here; nothing else types them again.
Importing this module loads the declarations only, not the adapters' machinery.
"""

from __future__ import annotations

from core.primitives.handoff import tools as handoff_tools
from core.primitives.host import ToolDef
from core.primitives.progress import tools as progress_tools
from core.primitives.state import tools as state_tools
from core.primitives.todo.tool_schema import TODO_TOOL

TOOLS: tuple[ToolDef, ...] = (*state_tools.TOOLS, *progress_tools.TOOLS, *handoff_tools.TOOLS, TODO_TOOL)
"""The twelve model tools in registration order, with their upstream descriptions and schemas."""


def tool(name: str) -> ToolDef | None:
    return next((t for t in TOOLS if t.name == name), None)
