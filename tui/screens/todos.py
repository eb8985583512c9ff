"""The `/todos` overlay: the full list, plan, goals with feedback-loop texts and histories."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from tui.text import clean


class TodosScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f2", "dismiss", "Close")]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with Vertical(id="todos-box", classes="dialog"):
            # A focused scroller: arrows, page up/down, home and end scroll the list from the keyboard.
            with VerticalScroll(id="todos-scroll"):
                # Markdown never parses Rich markup; control characters are made visible first.
                yield Markdown(clean(self.markdown, multiline=True), id="todos-md")
            yield Static("↑↓ pgup pgdn home end scroll · esc closes · /todos export saves it",
                         classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#todos-box").border_title = "Todos"
        self.query_one("#todos-scroll").focus()

    def show(self, markdown: str) -> None:
        """The agent wrote while the overlay is open: show the new list in place."""
        if markdown != self.markdown:
            self.markdown = markdown
            self.query_one(Markdown).update(clean(markdown, multiline=True))
