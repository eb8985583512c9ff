"""The command line ("editor"): slash commands with completion and Up/Down history."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

from tui.commands import CommandSuggester, IdSource


class CommandLine(Input):
    BINDINGS = [
        Binding("up", "history(-1)", "Previous", show=False),
        Binding("down", "history(1)", "Next", show=False),
        Binding("tab", "complete", "Complete", show=False),
    ]

    def __init__(self, words_for: IdSource, **kwargs) -> None:
        kwargs.setdefault("placeholder", "/agent-state add <id> <content>   (ctrl+p: all commands, tab completes)")
        super().__init__(suggester=CommandSuggester(words_for), **kwargs)
        self.history: list[str] = []
        self._position = 0  # index into history; len(history) means the line being typed
        self._draft = ""

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
