"""The todo strip (above the command line) and the goal table (docs/todo-views.md#the-todo-strip)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from core.deck.entries import GAVE_UP_WHY
from core.views.activity import gave_up_words
from core.views.costs import money
from core.views.items import GOAL_COLUMNS, GoalRow, StripLine
from core.views.view import DeckView
from tui.text import clean, one_line
from tui.widgets.keyed_table import KeyedTable

BAND_STYLES = {"success": "bold green", "warning": "bold dark_orange", "error": "bold red", "missing": "dim"}
ACCENT = "bold cyan"
ALERT = "bold dark_orange"


def gave_up_text(view: DeckView) -> str:
    """What a header says while the todo gates stay given up on the agent (``todo gates gave up: no
    progress between stops``), else "". The strip's header says it already (core/views/view.py with_alert)."""
    return gave_up_words(view.gave_up) if view.gave_up else ""


def gave_up_news(before: DeckView, after: DeckView) -> str | None:
    """What the message log says once when the gates give up on the agent (or when a session opens
    given up): the activity row alone went unseen. None while nothing changed."""
    if after.gave_up is None or after.gave_up == before.gave_up:
        return None
    return (f"The todo gates gave up on the agent ({GAVE_UP_WHY[after.gave_up]}) and stopped poking it: "
            "review the todos yourself; /todos poke on arms them again.")


def strip_line_text(line: StripLine, markers: bool = True) -> Text:
    """One strip row. An item row leads with what must stay visible (status icon, the poke marker,
    its confidence, its id) and ends with its text, which is what the ellipsis cuts on a narrow
    screen. ``markers``: keep a column for 👉 (some row is a target)."""
    if line.kind == "header":
        text = Text()
        text.append("● " if line.active else "○ ", ACCENT if line.active else "dim")
        counts, dash, intention = line.text[2:].partition(" — ")
        text.append(clean(counts), "bold")
        if line.alert:  # after the counts, before the intention that a narrow strip cuts first
            text.append(" · ", "bold")
            text.append(f"⚠ {clean(line.alert)}", ALERT)
        text.append(clean(dash + intention), "bold")
        return text
    if line.kind == "overflow":
        return Text(clean(line.text), "dim italic")
    style = {"in_progress": ACCENT, "completed": "dim strike", "cancelled": "dim strike",
             "blocked": "dark_orange"}.get(line.status or "", "")
    text = Text()
    text.append(f"{line.branch} ", "dim")
    text.append(f"{line.icon} ", style)
    if markers:
        text.append("👉 " if line.targeted else "   ")
    if line.scored:
        conf = "?" if line.confidence is None else str(line.confidence)
        text.append(f"conf {conf:>2} · ", "dim")
    text.append(f"#{clean(line.id)} ", "bold")
    text.append(clean(line.content), style)
    if line.doing:
        text.append(f" · {clean(line.doing)}", "italic")
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
        markers = any(line.targeted for line in lines)
        text = Text("\n").join(strip_line_text(line, markers) for line in lines)
        text.no_wrap, text.overflow = True, "ellipsis"
        self.update(text)


def goal_key(row: GoalRow) -> str:
    return "\0ungrouped" if row.group is None else f"g:{row.group}"


class GoalTable(KeyedTable):
    """`Todo Goal | Settled | Conf | Own | Feedback | Cost`, scores coloured by band, keyed by group.

    Its height is capped; it posts ``Hidden`` with the number of groups below the window whenever
    that changes (the screen shows "+N more goals"), and scrolls when focused."""

    @dataclass
    class Hidden(Message):
        count: int

    def __init__(self, **kwargs) -> None:
        keys = ("goal", "settled", "conf", "own", "feedback", "cost")
        super().__init__(list(zip((*GOAL_COLUMNS, "Cost"), keys)), "goal", stretch=False, **kwargs)
        self._hidden = 0
        self.show_cursor = False  # a cursor row only while the person is in the table (Enter: detail)

    def on_focus(self) -> None:
        self.show_cursor = True

    def on_blur(self) -> None:
        self.show_cursor = False

    def show_goals(self, rows: Sequence[GoalRow], costs: Mapping[str | None, float] | None = None) -> None:
        """``costs``: what each group's todos cost (``core.views.costs.goal_costs``), blank for none."""
        self.display = bool(rows)
        self.show([(goal_key(r), (r, money((costs or {}).get(r.group)))) for r in rows], goal_cells)
        self.call_after_refresh(self.count_hidden)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.count_hidden()

    def on_resize(self) -> None:
        super().on_resize()
        self.call_after_refresh(self.count_hidden)

    def count_hidden(self) -> None:
        visible = max(self.size.height - 1, 0)  # the header takes a line
        hidden = max(self.row_count - round(self.scroll_y) - visible, 0) if self.display else 0
        if hidden != self._hidden:
            self._hidden = hidden
            self.post_message(self.Hidden(hidden))


def more_goals_text(hidden: int, key: str | None) -> str:
    """What the line under a capped goal table says; ``key``: the one that focuses the table."""
    scrolls = f" · {key} scrolls" if key else ""
    return f"+{hidden} more goal{'' if hidden == 1 else 's'} below{scrolls} · f2 lists all"


def goal_cells(shown: tuple[GoalRow, str]) -> tuple[Text, ...]:
    row, cost = shown
    label, settled, *scores = row.cells
    label_text = one_line(label, "italic" if row.group is None else "bold")
    done = row.settled == row.total
    cells = [label_text, Text(settled, "green" if done else "")]
    for value, band in zip(scores, row.bands):
        cells.append(Text(value, BAND_STYLES[band]))
    cells.append(Text(cost))
    return tuple(cells)
