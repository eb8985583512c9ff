"""The toggleable message log: command results, warnings and reload notices, as plain text."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from tui.text import safe

LEVEL_STYLES = {"info": "cyan", "warning": "bold yellow", "error": "bold red"}


class MessageLog(RichLog):
    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, highlight=False, wrap=True, max_lines=1000, **kwargs)
        self.border_title = "Messages"
        self.messages: list[tuple[str, str, str]] = []  # (level, source, message), also while hidden

    @property
    def count(self) -> int:
        return len(self.messages)

    def add(self, message: str, level: str = "info", source: str = "") -> None:
        self.messages.append((level, source, message))
        head = Text(f"{level:<7} ", LEVEL_STYLES.get(level, ""))
        if source:
            head.append(f"{source}  ", "dim")
        self.write(Text.assemble(head, safe(message, multiline=True)))
