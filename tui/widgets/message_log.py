"""The toggleable message log: command results, warnings and reload notices, as plain text."""

from __future__ import annotations

from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from tui.text import safe

LEVEL_STYLES = {"info": "cyan", "warning": "bold yellow", "error": "bold red"}
MAX_LINES = 1000


def message_line(level: str, source: str, message: str) -> Text:
    head = Text(f"{level:<7} ", LEVEL_STYLES.get(level, ""))
    if source:
        head.append_text(safe(f"{source}  ", "dim"))
    return Text.assemble(head, safe(message, multiline=True))


class MessageLog(RichLog):
    """Lines wrap at the log's own width (RichLog's default minimum of 78 columns cut them off on
    an 80-column screen) and are wrapped again when that width changes."""

    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, highlight=False, wrap=True, max_lines=MAX_LINES, min_width=1, **kwargs)
        self.border_title = "Messages"
        self.messages: list[tuple[str, str, str]] = []  # (level, source, message), also while hidden
        self._wrapped_at = 0

    @property
    def count(self) -> int:
        return len(self.messages)

    def add(self, message: str, level: str = "info", source: str = "") -> None:
        self.messages.append((level, source, message))
        if self._wrapped_at:  # else the first resize writes it
            self.write(message_line(level, source, message), width=self._wrapped_at)

    def on_resize(self, event: Resize) -> None:
        """Wrap every message again at the new width. The width is passed explicitly: RichLog's
        own measure is capped by the app console's width, fixed when the app started."""
        width = self.scrollable_content_region.width
        if width and width != self._wrapped_at:
            self._wrapped_at = width
            self.clear()
            for level, source, message in self.messages[-MAX_LINES:]:
                self.write(message_line(level, source, message), width=width)
