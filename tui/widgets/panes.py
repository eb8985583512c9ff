"""The three primitive panes: Agent State, Agent Progress, Agent Handoff.

Each takes plain data from the core (snapshot dicts) and renders it; nothing is kept that the
log cannot rebuild.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from core.jsutil import plural
from core.shapes import Packet, ProgressState, StateSnapshot
from core.views.view import DeckView
from tui.text import clean, clock_time, one_line, safe
from tui.widgets.keyed_table import KeyedTable

STATUS_BADGES = {
    "open": ("○", "", ""),
    "in_progress": ("▶", "bold cyan", "cyan"),
    "blocked": ("■", "bold red", "red"),
    "done": ("✓", "green", "dim"),
}
"""status -> (icon, icon style, content style); the icon is the badge (narrow panes keep the text)."""


def status_badge(status: str) -> Text:
    icon, style, _ = STATUS_BADGES.get(status, ("?", "", ""))
    return Text(icon, style=style, no_wrap=True)


def work_item_cells(row: tuple[str, str, str]) -> tuple[Text, ...]:
    item_id, status, content = row
    _, _, style = STATUS_BADGES.get(status, ("?", "", ""))
    return status_badge(status), one_line(item_id, "bold"), one_line(content, style)


def decision_cells(row: tuple[str, str]) -> tuple[Text, ...]:
    return one_line(row[0], "bold"), one_line(row[1])


def packet_cells(row: tuple[str, str]) -> tuple[Text, ...]:
    return one_line(row[0], "bold"), one_line(row[1])


class Clamped(Widget):
    """Wrapped text cut to ``max_lines``; when more would follow, the last line ends with "…"
    (a plain height cap cut the text with no sign that more was there)."""

    DEFAULT_CSS = "Clamped { height: auto; }"

    def __init__(self, max_lines: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.max_lines = max_lines
        self.text = Text()

    def update(self, text: Text) -> None:
        self.text = text
        self.refresh(layout=True)

    def clamped(self, width: int) -> Text:
        if width <= 0:
            return Text()
        lines = list(self.text.wrap(self.app.console, width, overflow="fold"))
        if len(lines) > self.max_lines:
            lines = lines[: self.max_lines]
            last = lines[-1]
            last.rstrip()
            last.truncate(width - 1)
            last.append("…")
        text = Text("\n", end="").join(lines)
        text.end = ""
        return text

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.clamped(width).split("\n")) if self.text else 0

    def render(self) -> Text:
        return self.clamped(self.content_region.width)


PANE_TITLES = {"state": "Agent State", "progress": "Agent Progress", "handoff": "Agent Handoff",
               "conversation": "Conversation"}


ORDERS = ("as written", "by status", "newest change first")
"""How the work items can be listed (``s`` on the table moves on): the state's own order; blocked,
in progress, open, done; the one changed last first (from the activity's events)."""
STATUS_ORDER = {"blocked": 0, "in_progress": 1, "open": 2, "done": 3}


def ordered_items(items: list[Any], order: str, recency: Mapping[str, int]) -> list[Any]:
    """``items`` in ``order``; ``recency``: each item's last change (a branch position)."""
    if order == "by status":
        return sorted(items, key=lambda i: STATUS_ORDER.get(i["status"], 9))
    if order == "newest change first":
        return sorted(items, key=lambda i: -recency.get(i["id"], -1))
    return items


class StatePane(Vertical):
    """Objective, work items with status badges, decisions."""

    ALLOW_MAXIMIZE = True

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = PANE_TITLES["state"]
        self._objective: str | None | bool = False  # False: nothing shown yet
        self.order = ORDERS[0]
        self._shown: tuple[StateSnapshot, Mapping[str, int]] | None = None

    def compose(self) -> ComposeResult:
        yield Clamped(2, id="objective")
        yield KeyedTable([("", "status"), ("Id", "id"), ("Work item", "content")], "content",
                         id="work-items")
        yield KeyedTable([("Id", "id"), ("Decision", "content")], "content", id="decisions")

    def next_order(self) -> None:
        self.order = ORDERS[(ORDERS.index(self.order) + 1) % len(ORDERS)]
        if self._shown is not None:
            self.show(*self._shown)

    def show(self, snapshot: StateSnapshot, recency: Mapping[str, int] | None = None) -> None:
        """``recency``: each work item's last change (for "newest change first")."""
        recency = recency or {}
        self._shown = (snapshot, recency)
        objective = snapshot.get("objective")
        if objective != self._objective:
            self._objective = objective
            body = safe(objective, multiline=True) if objective is not None else Text("no objective set", "dim italic")
            self.query_one("#objective", Clamped).update(Text.assemble(("Objective ", "bold"), body))
        items = snapshot.get("workItems", [])
        decisions = snapshot.get("decisions", [])
        self.query_one("#work-items", KeyedTable).show(
            [(i["id"], (i["id"], i["status"], i["content"])) for i in ordered_items(items, self.order, recency)],
            work_item_cells,
        )
        self.query_one("#decisions", KeyedTable).show(
            [(d["id"], (d["id"], d["content"])) for d in decisions], decision_cells
        )
        counts = {s: sum(1 for i in items if i["status"] == s) for s in STATUS_BADGES}
        subtitle = " ".join(f"{STATUS_BADGES[s][0]}{n}" for s, n in counts.items() if n) or "no work items"
        self.border_subtitle = subtitle if self.order == ORDERS[0] else f"{subtitle} · {self.order} (s)"


def milestone_names(progress: ProgressState) -> set[str]:
    return {*progress["currentMilestones"], *progress["recordedMilestones"]}


def progress_text(view: DeckView) -> Text:
    """Declared set, baseline and the newest recorded verdict; new milestones green, withdrawn red.
    Under a text filter the rows are the milestones it keeps, the counts the whole record's, and a
    line says how many the filter hides (as the todo strip's header does)."""
    state, verdict = view.progress, view.verdict
    current, recorded = state["currentMilestones"], state["recordedMilestones"]
    whole = view.unfiltered.progress if view.unfiltered is not None else state
    hidden = len(milestone_names(whole) - milestone_names(state))
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("Baseline ", "bold")
    if state["hasBaseline"]:
        text.append(f"established · {len(whole['recordedMilestones'])} recorded\n", "green")
    else:
        text.append("none yet (judge sets it)\n", "dim")
    text.append(f"Declared ({len(whole['currentMilestones'])})\n", "bold")
    if not whole["currentMilestones"]:
        text.append("  nothing declared\n", "dim italic")
    for milestone in current:
        unjudged = state["hasBaseline"] and milestone not in recorded
        text.append("  + " if unjudged else "  ● ", "green" if unjudged else "dim")
        text.append_text(safe(milestone, "green" if unjudged else ""))
        text.append(" · not judged yet\n" if unjudged else "\n", "dim")
    for milestone in recorded:
        if milestone not in current:
            text.append("  − ", "red")
            text.append_text(safe(milestone, "red strike"))
            text.append(" · recorded, not declared\n", "dim")
    if hidden:
        text.append(f"  the filter hides {hidden} {plural(hidden, 'milestone')}\n", "dim italic")
    text.append("Last verdict ", "bold")
    if verdict is None:  # pideck records the judges it runs (core/primitives/progress/verdicts.py); pi's are in no entry
        text.append("none recorded", "dim")
        if view.pi_session:
            text.append("\n  pi's own judges are not recorded", "dim italic")
        return text
    outcome = verdict["outcome"]
    style = {"progress": "bold green", "no_progress": "bold yellow"}.get(outcome, "bold")
    text.append(clean(outcome), style)
    if view.verdict_at:
        text.append(f" · {clock_time(view.verdict_at)}", "dim")
    if outcome == "unknown":
        text.append(f" ({clean(verdict.get('reason', ''))})", "dim")
    for milestone in verdict.get("newMilestones", []):
        text.append("\n  new ", "green")
        text.append_text(safe(milestone, "bold green"))
    for milestone in verdict.get("withdrawnMilestones", []):
        text.append("\n  withdrawn ", "red")
        text.append_text(safe(milestone, "bold red"))
    if view.pi_session:
        text.append("\n  judged by pideck; pi's own judges are not recorded", "dim italic")
    return text


class ProgressPane(VerticalScroll):
    """Declared milestones, the baseline and the last verdict."""

    ALLOW_MAXIMIZE = True

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = PANE_TITLES["progress"]
        self._shown: tuple | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="progress-body", markup=False)

    def show(self, view: DeckView) -> None:
        whole = view.unfiltered.progress if view.unfiltered is not None else view.progress
        key = (repr(view.progress), repr(view.verdict), view.verdict_at, view.pi_session, repr(whole))
        if key == self._shown:
            return
        self._shown = key
        self.query_one("#progress-body", Static).update(progress_text(view))
        self.border_subtitle = f"{len(whole['currentMilestones'])} declared"


class HandoffPane(Vertical):
    """One line per packet; Enter on a row opens the packet detail screen."""

    ALLOW_MAXIMIZE = True

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = PANE_TITLES["handoff"]

    def compose(self) -> ComposeResult:
        yield KeyedTable([("Id", "id"), ("Goal", "goal")], "goal", id="packets")

    def show(self, packets: Sequence[Packet]) -> None:
        self.query_one("#packets", KeyedTable).show([(p["id"], (p["id"], p["goal"])) for p in packets], packet_cells)
        self.border_subtitle = f"{len(packets)} {plural(len(packets), 'packet')} · enter opens"
