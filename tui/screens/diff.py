"""Two points of a session side by side: what each held where they differ."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from core.views.diff import FIELD_NAMES, Change, side_text
from core.views.timetravel import AsOf
from tui.text import one_line

PART_STYLES = {"state": "cyan", "progress": "green", "handoff": "magenta", "todo": "yellow", "session": "blue"}
"""The colour of each part's name, here and in the timeline."""
SIDE_STYLES = {"added": ("", "green"), "removed": ("red", ""), "changed": ("yellow", "yellow")}


def what_text(change: Change) -> Text:
    name = f"#{change.key}" if change.subject == "todo" else change.key or ("(no group)" if change.subject == "goal" else "")
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(change.subject.replace("recorded milestone", "recorded"), PART_STYLES.get(change.part, ""))
    if name:
        text.append(" ")
        text.append_text(one_line(name, "bold"))
    if change.field:
        text.append(f" {FIELD_NAMES.get(change.field, change.field)}", "italic")
    return text


def diff_rows(changes: Sequence[Change]) -> list[tuple[Text, Text, Text]]:
    rows = []
    for change in changes:
        before, after = SIDE_STYLES[change.kind]
        rows.append((what_text(change), one_line(side_text(change, False) or "—", before or "dim"),
                     one_line(side_text(change, True) or "—", after or "dim")))
    return rows


def point_title(mark: str, as_of: AsOf) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f" {mark} ", "bold reverse")
    text.append(f" {as_of.entry_id} ", "bold")
    text.append(as_of.banner, "dim")
    return text


class DiffScreen(Screen[None]):
    DEFAULT_CSS = """
    #diff-a, #diff-b { height: 1; background: $panel; }
    #diff-table { height: 1fr; }
    #diff-hint { height: 1; padding: 0 1; }
    """

    BINDINGS = [Binding("escape", "dismiss", "Timeline", tooltip="back to the timeline")]

    def __init__(self, a: AsOf, b: AsOf, changes: Sequence[Change]) -> None:
        super().__init__()
        self.a, self.b, self.changes = a, b, list(changes)

    def compose(self) -> ComposeResult:
        with Vertical(id="diff-box"):
            yield Static(point_title("A", self.a), id="diff-a")
            yield Static(point_title("B", self.b), id="diff-b")
            yield DataTable(id="diff-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="diff-hint")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label, key in (("What changed", "what"), ("At A", "a"), ("At B", "b")):
            table.add_column(label, key=key)
        for n, row in enumerate(diff_rows(self.changes)):
            table.add_row(*row, key=str(n))
        count = len(self.changes)
        hint = "No changes between these two points." if not count else f"{count} change{'' if count == 1 else 's'}"
        self.query_one("#diff-hint", Static).update(Text(f"{hint} · esc: timeline", "dim"))
        self.call_after_refresh(self.fit_columns)
        table.focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_columns)

    def fit_columns(self) -> None:
        """Four tenths of the width for what changed; the two sides share the rest."""
        table = self.query_one(DataTable)
        width = table.size.width - 2 * 3 * table.cell_padding - 2
        if width <= 0:
            return
        first = max(width * 4 // 10, 12)
        for key, size in (("what", first), ("a", (width - first) // 2), ("b", width - first - (width - first) // 2)):
            column = table.columns[key]  # type: ignore[index]
            column.auto_width, column.width = False, size
        table._require_update_dimensions = True
        table._clear_caches()  # cells drawn before the widths settled would keep their old width
        table.refresh()
