"""Route one slash-command line or one tool call to the adapter that owns it."""

from __future__ import annotations

import re
from typing import Any, Sequence

from core.jsutil import ANY, NON_WS, js_trim, js_trim_start
from core.primitives.base import Adapter
from core.primitives.host import Notice, ToolDef, ToolResult

_COMMAND_LINE = f"/({NON_WS}+)({ANY}*)"  # (compiled by re at its first use and kept: a tool call needs none)


class UnknownTool(LookupError):
    """A tool name no adapter registers (the CLI exits 2 on it)."""


class Dispatcher:
    """Knows every adapter's command and tools; holds no state of its own."""

    def __init__(self, adapters: Sequence[Adapter]) -> None:
        self.adapters = list(adapters)
        self._by_command = {a.COMMAND: a for a in self.adapters}
        self._by_tool = {t.name: a for a in self.adapters for t in a.TOOLS}

    @property
    def commands(self) -> list[tuple[str, str]]:
        """``(name, description)`` of every slash command, in adapter order."""
        return [(a.COMMAND, a.DESCRIPTION) for a in self.adapters]

    @property
    def tools(self) -> list[ToolDef]:
        return [t for a in self.adapters for t in a.TOOLS]

    def tool_names(self) -> list[str]:
        return [t.name for t in self.tools]

    def run_line(self, line: str) -> list[Notice]:
        """Run ``/<command> <args>``. Everything after the command name is passed on as ``args``
        (trailing whitespace and newlines kept, as pi does)."""
        m = re.fullmatch(_COMMAND_LINE, js_trim_start(line))
        if m is None:
            return [Notice(f"Not a command: {js_trim(line)!r}. {self._known_commands()}", "warning")]
        name, args = m.group(1), m.group(2)
        adapter = self._by_command.get(name)
        if adapter is None:
            return [Notice(f'Unknown command "/{name}". {self._known_commands()}{self._nearest(name)}', "warning")]
        return adapter.command(args)

    def call_tool(self, name: str, params: Any) -> ToolResult:
        adapter = self._by_tool.get(name)
        if adapter is None:
            raise UnknownTool(f'Unknown tool "{name}". Tools: {", ".join(self.tool_names())}.')
        return adapter.call_tool(name, params)

    def _nearest(self, name: str) -> str:
        """`` Did you mean /agent-state?`` for a near miss (``/agent-stat``, ``/AGENT-STATE``), else ""."""
        import difflib  # (a mistyped command only)

        names = {a.COMMAND.casefold(): a.COMMAND for a in self.adapters}
        close = [names[name.casefold()]] if name.casefold() in names else \
            [names[n] for n in difflib.get_close_matches(name.casefold(), list(names), n=1, cutoff=0.6)]
        return f" Did you mean /{close[0]}?" if close else ""

    def _known_commands(self) -> str:
        return "Commands: " + ", ".join(f"/{a.COMMAND}" for a in self.adapters) + "."
