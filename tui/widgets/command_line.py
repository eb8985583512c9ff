"""The command line ("editor"): slash commands with completion and Up/Down history."""

from __future__ import annotations

from functools import partial
from typing import Callable

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.expand_tabs import expand_tabs_inline
from textual.widgets import Input, Static

from core.view import DeckView
from tui.commands import CommandSuggester, complete, words_for
from tui.filtering import Rule
from tui.text import one_to_one


class CommandLine(Input):
    BINDINGS = [
        Binding("up", "history(-1)", "Previous", show=False, tooltip="previous command line (history)"),
        Binding("down", "history(1)", "Next", show=False, tooltip="next command line (history)"),
        Binding("tab", "complete", "Complete", show=False,
                tooltip="complete the command, sub-command or id (focus never moves)"),
    ]

    PLACEHOLDER = "/agent-state add <id> <content>   (ctrl+p: all commands, tab completes)"
    READ_ONLY = "read-only session: commands that append are refused · status, show and export work"

    def __init__(self, view: Callable[[], DeckView], history: list[str] | None = None, **kwargs) -> None:
        kwargs.setdefault("placeholder", self.PLACEHOLDER)
        # Not Input's select-on-focus: after Enter on a work item or a palette choice fills the line
        # and focuses it, the next key must add to the line, not replace all of it.
        kwargs.setdefault("select_on_focus", False)
        super().__init__(suggester=CommandSuggester(view), **kwargs)
        self._view = view
        self.history = history if history is not None else []  # shared with the app, which keeps it
        self._position = len(self.history)  # index into history; len(history) means the line being typed
        self._draft = ""

    @property
    def _value(self) -> Text:
        """The value as drawn: a work item id from the log (Enter on a row) may hold escape
        sequences; they show as ␛ and friends, one cell each, and never reach the terminal."""
        return Text(one_to_one(self.value), no_wrap=True, overflow="ignore", end="")

    def _position_to_cell(self, position: int) -> int:
        return cell_len(expand_tabs_inline(one_to_one(self.value[:position]), 4))

    def rewind(self) -> None:
        """Back to the line being typed, after the last one run (the app added it to ``history``)."""
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

    KEYS_IN_ORDER = {"tab": "complete", "up": "history(-1)", "down": "history(1)"}
    """Keys handled as they arrive, not as bindings: a binding's action runs only once the key has
    bubbled up to the app, so in a burst of keys (a fast typist, a terminal multiplexer) the
    characters after a tab were typed before the tab completed. The bindings above stay as the
    keys' documentation (help lists them)."""

    async def _on_key(self, event: events.Key) -> None:
        action = self.KEYS_IN_ORDER.get(event.key)
        if action is None:
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        if action == "complete":
            self.action_complete()
        else:
            self.action_history(-1 if action.endswith("(-1)") else 1)

    def action_complete(self) -> None:
        """Complete from the registry and the current view right now, not from the inline
        suggestion: that one is computed asynchronously and may not have arrived when a fast
        typist presses tab. With nothing to complete, tab does nothing (focus never moves, so the
        keys that follow still land here)."""
        completed = complete(self.value, partial(words_for, self._view()))
        if completed is not None and self.cursor_position == len(self.value):
            self.value = completed
            self.cursor_position = len(completed)
        else:
            self.app.bell()


class FilterBar(Input):
    """The filter's text (ctrl+f): the panes and the activity follow as it is typed; enter keeps it
    and goes back to the command line, escape clears it."""

    BINDINGS = [Binding("escape", "clear_filter", "Clear filter", show=False)]

    class Cleared(Message):
        pass

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("placeholder", "filter: words to find in ids and text · enter keeps it · esc clears")
        super().__init__(select_on_focus=False, **kwargs)

    def action_clear_filter(self) -> None:
        self.value = ""
        self.post_message(self.Cleared())


class FilterRow(Horizontal):
    """The filter's line above the todo strip: what is filtered, then the text being typed."""


    def compose(self) -> ComposeResult:
        yield Static(self.label(Rule()), id="filter-label", markup=False)
        yield FilterBar(id="filter")

    @staticmethod
    def label(rule: Rule) -> str:
        return f"filter · status {rule.status} (ctrl+t) ·"

    def show_rule(self, rule: Rule) -> None:
        self.query_one("#filter-label", Static).update(self.label(rule))
