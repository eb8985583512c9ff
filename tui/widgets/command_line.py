"""The command line ("editor"): slash commands with completion and Up/Down history."""

from __future__ import annotations

from typing import Callable

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.expand_tabs import expand_tabs_inline
from textual.widgets import Input

from core.view import DeckView
from tui.commands import CommandSuggester
from tui.text import one_to_one


class CommandLine(Input):
    BINDINGS = [
        Binding("up", "history(-1)", "Previous", show=False, tooltip="previous command line (history)"),
        Binding("down", "history(1)", "Next", show=False, tooltip="next command line (history)"),
        Binding("tab", "complete", "Complete", show=False,
                tooltip="complete the command line; tab moves on when nothing to complete"),
    ]

    def __init__(self, view: Callable[[], DeckView], **kwargs) -> None:
        kwargs.setdefault("placeholder", "/agent-state add <id> <content>   (ctrl+p: all commands, tab completes)")
        # Not Input's select-on-focus: after Enter on a work item or a palette choice fills the line
        # and focuses it, the next key must add to the line, not replace all of it.
        kwargs.setdefault("select_on_focus", False)
        super().__init__(suggester=CommandSuggester(view), **kwargs)
        self.history: list[str] = []
        self._position = 0  # index into history; len(history) means the line being typed
        self._draft = ""

    @property
    def _value(self) -> Text:
        """The value as drawn: a work item id from the log (Enter on a row) may hold escape
        sequences; they show as ␛ and friends, one cell each, and never reach the terminal."""
        return Text(one_to_one(self.value), no_wrap=True, overflow="ignore", end="")

    def _position_to_cell(self, position: int) -> int:
        return cell_len(expand_tabs_inline(one_to_one(self.value[:position]), 4))

    def remember(self, line: str) -> None:
        if line.strip() and (not self.history or self.history[-1] != line):
            self.history.append(line)
        self._position = len(self.history)
        self._draft = ""

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        if self._position == len(self.history):
            self._draft = self.value
        self._position = max(0, min(len(self.history), self._position + step))
        self.value = self.history[self._position] if self._position < len(self.history) else self._draft
        self.cursor_position = len(self.value)

    def action_complete(self) -> None:
        """Accept the inline suggestion; with none, move focus on like tab normally does."""
        if self._suggestion and self._suggestion != self.value:
            self.value = self._suggestion
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()
