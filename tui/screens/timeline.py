"""The timeline of one session: its branch's events, pi's tree of branches, and any point in the past.

Everything that reads the session runs on the screen's own thread, in its ``TimelineModel``
(``tui/models/timeline.py``) over its own read-only log: the events (``core/views/activity.py``), the
tree (``core/views/tree.py``) and the deck as of a point (``core/views/timetravel.py``). Moving the cursor previews the point under it; Enter
shows the whole deck as it was (``PastScreen``); ``m`` marks a point and ``d`` shows what changed
from it to the point under the cursor (``DiffScreen``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static, Tree
from textual.widgets.tree import TreeNode

from core.config.settings import TodoConfig
from core.views.activity import Event
from core.views.costs import cost_words, share_words, turn_at
from core.views.tree import SessionTree
from core.views.view import DeckView
from tui.messages import DiffShown, PointShown, TimelineChanged
from tui.models.thread import ModelThread
from tui.models.timeline import DeckWalk, TimelineModel
from tui.screens.base import ModelScreen
from tui.screens.diff import PART_STYLES, DiffScreen
from tui.screens.past import PastScreen
from tui.text import clean, clock_time, one_line
from tui.widgets.events import EventList, source_word

TreeData = tuple[str, str]  # ("branch" | "label" | "summary", entry id)


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


COLUMNS = (("Time", 9), ("Entry", 9), ("Part", 9), ("By", 8), ("Event", 0))
"""The list's columns and their widths in cells (the event's text takes the rest)."""


DATED = 6
"""Cells the date adds to the time column when the events span days (``11-30 ``)."""


def column_heads(dated: bool = False) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis", style="bold")
    for name, width in COLUMNS:
        width += DATED if dated and name == "Time" else 0
        text.append(f"{name:<{width}}" if width else name)
    return text


def timeline_line(event: Event, dated: bool = False) -> Text:
    """``14:55:13 1a2b3c4d todo     agent   todo #t3 completed``: the text last, so the ellipsis cuts it."""
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    (_, time), (_, entry), (_, part), (_, by), _ = COLUMNS
    text.append(f"{clock_time(event.timestamp, dated):<{time + (DATED if dated else 0)}}", "dim")
    text.append(f"{clean(event.entry_id)[:entry - 1]:<{entry}}", "dim")
    text.append(f"{event.part:<{part}}", PART_STYLES.get(event.part, ""))
    text.append(f"{source_word(event):<{by}}", "dim")
    text.append_text(one_line(event.text))
    return text


class TimelineEvents(EventList):
    """The branch's events, newest first, drawn line by line (``EventList``): a session of 100k
    entries shows its list as fast as a short one, and Home/End go to the newest and the oldest."""

    DEFAULT_CSS = "TimelineEvents { padding: 0 0; }"

    def line(self, event: Event) -> Text:
        return timeline_line(event, self.dated)


def point_summary(view: DeckView) -> Text:
    """One line of counts for the preview: todos, work items by status, milestones, packets."""
    todos = next((line.text for line in view.strip if line.kind == "header"), None)
    items = view.state["workItems"]
    statuses = [(s, sum(1 for i in items if i["status"] == s)) for s in ("open", "in_progress", "blocked", "done")]
    progress = view.progress
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("todos ", "bold")
    text.append(todos.split(" — ")[0].split("(")[-1].rstrip(")") if todos else "none")
    text.append(" · items ", "bold")
    text.append(", ".join(f"{n} {s.replace('_', ' ')}" for s, n in statuses if n) or "none")
    text.append(" · milestones ", "bold")
    text.append(f"{len(progress['currentMilestones'])} ({len(progress['recordedMilestones'])} recorded)")
    text.append(" · packets ", "bold")
    text.append(str(len(view.packets)))
    return text


class TimelineScreen(ModelScreen):
    DEFAULT_CSS = """
    #timeline-title { height: 1; background: $panel; }
    #timeline-heads { height: 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    #timeline-events { height: 1fr; }
    #timeline-preview { height: 2; padding: 0 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    #timeline-tree { height: 2; max-height: 9; border: round $primary-darken-1; border-title-color: $accent;
                     border-subtitle-color: $text-muted; }
    #timeline-tree:focus { border: round $accent; }
    """

    BINDINGS = [
        Binding("enter", "open_point", "Deck as of", tooltip="the whole deck as it was at the highlighted entry"),
        Binding("m", "mark", "Mark A", tooltip="mark the highlighted point as the start of a diff"),
        Binding("d", "diff", "Diff A→here", tooltip="what changed from the marked point (else the live leaf) to here"),
        Binding("escape,f8", "back", "Live", tooltip="back to the live deck"),
    ]

    def __init__(self, path: Path, *, clock: Callable[[], int], todo_config: TodoConfig | None = None,
                 poll: float = 0.2, follow: bool = True, deck: DeckWalk | None = None) -> None:
        super().__init__()
        self.path = path
        self.clock = clock
        self.events: tuple[Event, ...] = ()
        self.session_tree: SessionTree | None = None
        self.branch: str | None = None
        self.marked: Event | None = None
        self.shown: PointShown | None = None
        self.changed: TimelineChanged | None = None  # the events and tree shown
        self.epoch = 0  # bumped when the events shown are no longer those before plus new ones
        self._ticket = 0
        self._previewed: tuple[Event | None, int] | None = None  # (the event, the file's entries) asked for last
        self.model = TimelineModel(path, todo_config, deck)  # (only its methods are handed to the thread)
        self.model_thread = ModelThread(self.model, self.post_message, poll=poll, following=follow, paint_first=True)

    def compose(self) -> ComposeResult:
        yield Static("", id="timeline-title")
        yield Static(column_heads(), id="timeline-heads")
        yield TimelineEvents(id="timeline-events")
        yield Static("", id="timeline-preview")
        yield Tree[TreeData]("Branches", id="timeline-tree")
        yield Footer()

    def on_mount(self) -> None:
        tree = self.query_one("#timeline-tree", Tree)
        tree.show_root = False
        tree.border_title = "Branches (pi's tree: labels, summaries)"
        self._draw_title()
        self.query_one(TimelineEvents).focus()
        self.model_thread.start()

    # -- the UI's side ------------------------------------------------------------------------------

    def problem_changed(self) -> None:
        """Said in the title, which keeps what was read (docs/tui.md#one-thread-per-screen)."""
        self._draw_title()
        self.call_after_refresh(self.model_thread.resume)  # (the open failed: its later tries go on)

    def say_error(self, text: str) -> None:
        super().say_error(f"Timeline: {text}")
        self.call_after_refresh(self.model_thread.resume)

    @on(TimelineChanged)
    def on_timeline_changed(self, message: TimelineChanged) -> None:
        self.events, self.branch = message.events, message.branch
        self.epoch += 1 if message.reset else 0
        events = self.query_one(TimelineEvents)
        events.show(message.events, self.epoch, older=message.older)  # (newest first)
        self.query_one("#timeline-heads", Static).update(column_heads(events.dated))
        self.changed = message
        self._draw_title()
        self.call_after_refresh(self.model_thread.resume)  # (the first rows drawn: the walk goes on)
        if self.session_tree != message.tree:
            self.session_tree = message.tree
            self._draw_tree(message.tree)
        if not self.events:
            self.query_one("#timeline-preview", Static).update(Text(
                "No state-changing entries on this branch yet.", "dim italic"))
        previewed = self._previewed  # (not again for the same row, as older rows come in below it)
        if message.reset or previewed is None or previewed[0] is not self.selected_event() or \
                previewed[1] != message.entries:
            self._preview()

    def _draw_title(self) -> None:
        message = self.changed
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(" pideck ", "bold reverse")
        title.append(" Timeline ", "bold")
        if message is None:
            title.append(" reading the session…", "dim")
        else:
            title.append_text(one_line(message.name, "bold"))
            where = "the current branch" if message.branch is None else f"the branch ending at {message.branch}"
            title.append(f"  {len(message.events)} events on {where} · {message.entries} entries", "dim")
            if message.usage is not None and (cost := cost_words(message.usage)):
                title.append(f" · {cost} in all", "dim")
            if message.loading:
                title.append(" ")
                title.append(f" reading… {message.walked:,} entries so far ", "bold black on yellow")
        if self.problem is not None:
            title.append(" ")
            title.append(f" {clean(self.problem)} ", "bold white on red")
        self.query_one("#timeline-title", Static).update(title)

    def selected_event(self) -> Event | None:
        return self.query_one(TimelineEvents).selected

    def _draw_tree(self, tree: SessionTree) -> None:
        widget: Tree[TreeData] = self.query_one("#timeline-tree", Tree)
        widget.clear()
        nodes: dict[int, TreeNode[TreeData]] = {}
        for index, branch in enumerate(tree.branches):
            parent = nodes.get(branch.parent, widget.root) if branch.parent is not None else widget.root
            label = Text(no_wrap=True, overflow="ellipsis")
            if branch.current:
                label.append("● current branch", "bold green")
                label.append(f": {branch.length} entries, leaf {branch.leaf}", "dim")
            else:
                label.append(f"○ branch from {branch.fork}", "bold")
                label.append(f": +{branch.length - branch.fork_length} entries, leaf {branch.leaf}", "dim")
            node = nodes[index] = parent.add(label, data=("branch", branch.leaf), expand=True)
            for lab in (lab for lab in tree.labels if lab.branch == index):
                text = Text("🏷 ", no_wrap=True, overflow="ellipsis")
                text.append_text(one_line(lab.label, "bold yellow"))
                text.append(f" on {lab.target}", "dim")
                node.add_leaf(text, data=("label", lab.target))
            for summary in (s for s in tree.summaries if s.branch == index):
                text = Text("≡ summary ", "bold", no_wrap=True, overflow="ellipsis")
                text.append_text(one_line(summary.summary))
                node.add_leaf(text, data=("summary", summary.entry))
        names = " → ".join(name for _, name in tree.names)
        widget.border_subtitle = f"named {names}" if names else ""
        # (as tall as its lines, up to max-height: set here because the Tree counts its lines only
        # when it next idles, and a layout taken before that left the box empty under load)
        lines = len(widget.root.children) + sum(len(node.children) for node in nodes.values())  # (all expanded)
        widget.styles.height = lines + 2

    def _preview(self) -> None:
        event = self.selected_event()
        self._previewed = (event, self.changed.entries if self.changed is not None else 0)
        if event is None:
            return
        self._ticket += 1
        self.model_thread.call(self.model.point, self._ticket, event.entry_id, False, latest="preview")

    @on(EventList.Highlighted)
    def on_event_highlighted(self) -> None:
        self._preview()

    @on(PointShown)
    def on_point_shown(self, message: PointShown) -> None:
        if message.open:
            self.app.push_screen(PastScreen(message.view, message.as_of))
            return
        if message.ticket != self._ticket:
            return
        self.shown = message
        preview = Text(no_wrap=True, overflow="ellipsis")
        preview.append("◷ ", "bold")
        preview.append(sentence(message.as_of.banner), "bold")
        preview.append(f" · {message.as_of.entry_id}", "dim")
        if self.marked is not None:
            preview.append(f" · A = {self.marked.entry_id}", "bold yellow")
        preview.append(" · enter: the deck as it was", "dim")
        preview.append("\n")
        preview.append_text(point_summary(message.view))
        event = self.selected_event()
        usage = self.changed.usage if self.changed is not None else None
        if usage is not None and event is not None and (turn := turn_at(usage["turns"], event.timestamp)):
            preview.append(" · this turn ", "bold")  # (the prompt's, as the ledger matched its answers)
            preview.append(share_words(turn))
        self.query_one("#timeline-preview", Static).update(preview)

    def action_open_point(self) -> None:
        event = self.selected_event()
        if event is not None:
            self.open_point(event.entry_id)

    @on(EventList.Chosen)
    def on_event_selected(self) -> None:
        self.action_open_point()

    def open_point(self, entry: str) -> None:
        self.model_thread.call(self.model.point, 0, entry, True)

    @on(Tree.NodeSelected, "#timeline-tree")
    def on_tree_selected(self, event: Tree.NodeSelected[TreeData]) -> None:
        data = event.node.data
        if data is None:
            return
        kind, entry = data
        if kind == "branch":
            self.model_thread.call(self.model.show_branch, entry)
        else:
            self.open_point(entry)

    def action_mark(self) -> None:
        self.marked = self.selected_event()
        if self.marked is not None:
            self.app.notify(f"Marked {self.marked.entry_id} as A: d shows what changed from it.", markup=False)
            self._preview()

    def action_diff(self) -> None:
        event = self.selected_event()
        if event is None:
            return
        start = self.marked.entry_id if self.marked is not None else "leaf"
        self.model_thread.call(self.model.diff, start, event.entry_id)

    @on(DiffShown)
    def on_diff_shown(self, message: DiffShown) -> None:
        self.app.push_screen(DiffScreen(message.a, message.b, message.changes))

    def action_back(self) -> None:
        self.dismiss()
