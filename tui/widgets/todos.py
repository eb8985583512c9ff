"""The todo strip (above the command line) and the goal table (docs/todo-views.md#the-todo-strip)."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.widgets import Static

from core.todo.display import GOAL_COLUMNS, GoalRow, StripLine
from tui.text import clean, one_line
from tui.widgets.keyed_table import KeyedTable

BAND_STYLES = {"success": "bold green", "warning": "bold dark_orange", "error": "bold red", "missing": "dim"}
ACCENT = "bold cyan"


def strip_line_text(line: StripLine) -> Text:
    if line.kind == "header":
        text = Text()
        text.append("● " if line.active else "○ ", ACCENT if line.active else "dim")
        text.append(clean(line.text[2:]), "bold")
        return text
    if line.kind == "overflow":
        return Text(clean(line.text), "dim italic")
    style = {"in_progress": ACCENT, "completed": "dim strike", "cancelled": "dim strike"}.get(line.status or "", "")
    text = Text()
    text.append(f"{line.branch} ", "dim")
    body = line.text[len(line.branch) + 1:]
    if line.targeted:
        body = body.removesuffix(" 👉")
    text.append(clean(body), style)
    if line.targeted:
        text.append(" 👉")
    return text


class TodoStrip(Static):
    """Intention header, ranked items, 👉 on the targets of the last follow-up, `+N more`."""

    DEFAULT_CSS = "TodoStrip { height: auto; }"

    def __init__(self, **kwargs) -> None:
        super().__init__("", markup=False, **kwargs)
        self._lines: list[StripLine] | None = None

    def show(self, lines: Sequence[StripLine]) -> None:
        if list(lines) == self._lines:
            return
        self._lines = list(lines)
        self.display = bool(lines)
        text = Text("\n").join(strip_line_text(line) for line in lines)
        text.no_wrap, text.overflow = True, "ellipsis"
        self.update(text)


def goal_key(row: GoalRow) -> str:
    return "\0ungrouped" if row.group is None else f"g:{row.group}"


class GoalTable(KeyedTable):
    """`Todo Goal | Settled | Conf | Own | Feedback`, scores coloured by band, keyed by group."""

    def __init__(self, **kwargs) -> None:
        keys = ("goal", "settled", "conf", "own", "feedback")
        kwargs.setdefault("cursor_type", "none")
        super().__init__(list(zip(GOAL_COLUMNS, keys)), **kwargs)

    def show_goals(self, rows: Sequence[GoalRow]) -> None:
        self.display = bool(rows)
        self.show([(goal_key(r), r) for r in rows], goal_cells)


def goal_cells(row: GoalRow) -> tuple[Text, ...]:
    label, settled, *scores = row.cells
    label_text = one_line(label, "italic" if row.group is None else "bold")
    done = row.settled == row.total
    cells = [label_text, Text(settled, "green" if done else "")]
    for value, band in zip(scores, row.bands):
        cells.append(Text(value, BAND_STYLES[band]))
    return tuple(cells)
