"""The timeline of one session: its branch's events, pi's tree of branches, and any point in the past.

Everything that reads the session runs on the screen's own thread (``tui/jobs.py``) over its own
read-only log: the events (``core/activity.py``), the tree (``core/session/tree.py``) and the
deck as of a point (``core/timetravel.py``). Moving the cursor previews the point under it; Enter
shows the whole deck as it was (``PastScreen``); ``m`` marks a point and ``d`` shows what changed
from it to the point under the cursor (``DiffScreen``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static, Tree
from textual.widgets.tree import TreeNode

from core.activity import COMMAND, GATE, TOOL, Activity, Event
from core.diff import Change, diff_points
from core.opening import open_log
from core.points import point_of
from core.session.log import SessionLog
from core.session.tree import SessionTree, read_tree
from core.timetravel import AsOf, TimeMachine
from core.todo.config import TodoConfig
from core.view import DeckView, build_view
from tui.jobs import JobThread
from tui.live import FileKey, watch_key
from tui.screens.diff import PART_STYLES, DiffScreen
from tui.screens.past import PastScreen
from tui.text import clock_time, one_line
from tui.widgets.keyed_table import KeyedTable

EVENT_COLUMNS = [("Time", "time"), ("Entry", "entry"), ("Part", "part"), ("By", "by"), ("Event", "text")]
SOURCE_WORDS = {TOOL: "agent", COMMAND: "person", GATE: "gate"}

EventRow = tuple[str, str, str, str, str]
TreeData = tuple[str, str]  # ("branch" | "label" | "summary", entry id)


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def event_cells(row: EventRow) -> tuple[Text, ...]:
    time, entry, part, by, text = row
    return (Text(time, "dim"), Text(entry, "dim"), Text(part, PART_STYLES.get(part, "")), Text(by, "dim"),
            one_line(text))


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


# -- messages from the thread -----------------------------------------------------------------------


@dataclass
class TimelineChanged(Message):
    events: tuple[Event, ...]  # oldest first
    tree: SessionTree
    name: str
    entries: int
    branch: str | None  # the leaf of the branch shown, None for the current branch


@dataclass
class PointShown(Message):
    ticket: int
    as_of: AsOf
    view: DeckView
    open: bool  # Enter asked for it: show the whole deck


@dataclass
class DiffShown(Message):
    a: AsOf
    b: AsOf
    changes: tuple[Change, ...]


@dataclass
class TimelineFailed(Message):
    problem: str


class TimelineScreen(Screen[None]):
    DEFAULT_CSS = """
    #timeline-title { height: 1; background: $panel; }
    #timeline-events { height: 1fr; }
    #timeline-preview { height: 2; padding: 0 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    #timeline-tree { height: 9; border: round $primary-darken-1; border-title-color: $accent;
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
                 poll: float = 0.2, follow: bool = True) -> None:
        super().__init__()
        self.path = path
        self.clock = clock
        self.follow = follow
        self.events: tuple[Event, ...] = ()
        self.session_tree: SessionTree | None = None
        self.branch: str | None = None
        self.marked: Event | None = None
        self.shown: PointShown | None = None
        self._todo_config = todo_config
        self._ticket = 0
        # what the thread owns
        self._log: SessionLog | None = None
        self._machine: TimeMachine | None = None
        self._activity: Activity | None = None
        self._key: tuple[FileKey | None, ...] | None = None
        self._thread = JobThread("timeline", poll, self._follow, self._failed)

    def compose(self) -> ComposeResult:
        yield Static("", id="timeline-title")
        yield KeyedTable(EVENT_COLUMNS, "text", id="timeline-events")
        yield Static("", id="timeline-preview")
        yield Tree[TreeData]("Branches", id="timeline-tree")
        yield Footer()

    def on_mount(self) -> None:
        tree = self.query_one("#timeline-tree", Tree)
        tree.show_root = False
        tree.border_title = "Branches (pi's tree: labels, summaries)"
        self.query_one("#timeline-events", KeyedTable).focus()
        self._thread.submit(self._load)
        self._thread.start()

    def on_unmount(self) -> None:
        self._thread.stop()

    @property
    def busy(self) -> bool:
        return not self._thread.idle_now

    # -- the thread's side --------------------------------------------------------------------------

    def _failed(self, exc: Exception) -> None:
        self.post_message(TimelineFailed(str(exc)))

    def _load(self) -> None:
        self._log = open_log(self.path, writable=False)  # (an agent's transcript too)
        self._machine = TimeMachine(self._log, todo_config=self._todo_config)
        self._activity = Activity(self._log)
        self._key = watch_key(self._log)
        self._activity.update()
        self._post_timeline(None)

    def _follow(self) -> None:
        """Between jobs: take in what the session gained (when the current branch is shown)."""
        if not self.follow or self._activity is None or self._log is None or self.branch is not None:
            return
        key = watch_key(self._log)
        if key == self._key:
            return
        self._key = key
        update = self._activity.update()
        if update.new or update.reset:
            self._post_timeline(None)

    def _post_timeline(self, branch: str | None) -> None:
        assert self._log is not None and self._activity is not None
        self.post_message(TimelineChanged(tuple(self._activity.events), read_tree(self._log),
                                          self._log.name or self._log.shown_path.name, len(self._log.records),
                                          branch))

    def _show_branch(self, leaf: str) -> None:
        assert self._log is not None and self._machine is not None
        current = leaf == self._log.leaf_id
        self._activity = Activity(self._log if current else self._machine.log_at(leaf))
        self._activity.update()
        self._post_timeline(None if current else leaf)

    def _point(self, ticket: int, entry: str, open_deck: bool) -> None:
        if ticket != self._ticket and not open_deck:
            return  # the cursor moved on before this preview started
        assert self._machine is not None
        view = build_view(self._machine.deck_at(entry))
        self.post_message(PointShown(ticket, self._machine.as_of(entry), view, open_deck))

    def _diff(self, a: str, b: str) -> None:
        machine = self._machine
        assert machine is not None
        changes = diff_points(point_of(machine.deck_at(a)), point_of(machine.deck_at(b)))
        self.post_message(DiffShown(machine.as_of(a), machine.as_of(b), tuple(changes)))

    # -- the UI's side ------------------------------------------------------------------------------

    @on(TimelineFailed)
    def on_timeline_failed(self, message: TimelineFailed) -> None:
        self.app.notify(f"Timeline: {message.problem}", severity="error", markup=False)

    @on(TimelineChanged)
    def on_timeline_changed(self, message: TimelineChanged) -> None:
        self.events, self.branch = message.events, message.branch
        table = self.query_one("#timeline-events", KeyedTable)
        rows = [(self.row_key(e, k), (clock_time(e.timestamp), e.entry_id, e.part, SOURCE_WORDS.get(e.source or "", ""),
                                      e.text)) for e, k in self._numbered()]
        table.show(rows[::-1], event_cells)  # newest first
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(" pideck ", "bold reverse")
        title.append(" Timeline ", "bold")
        title.append_text(one_line(message.name, "bold"))
        where = "the current branch" if message.branch is None else f"the branch ending at {message.branch}"
        title.append(f"  {len(message.events)} events on {where} · {message.entries} entries", "dim")
        self.query_one("#timeline-title", Static).update(title)
        if self.session_tree != message.tree:
            self.session_tree = message.tree
            self._draw_tree(message.tree)
        if not self.events:
            self.query_one("#timeline-preview", Static).update(Text(
                "No state-changing entries on this branch yet.", "dim italic"))
        self._preview()

    def _numbered(self) -> list[tuple[Event, int]]:
        numbered, last, k = [], None, 0
        for event in self.events:
            k = k + 1 if event.position == last else 0
            last = event.position
            numbered.append((event, k))
        return numbered

    @staticmethod
    def row_key(event: Event, k: int) -> str:
        return f"{event.position}.{k}"

    def selected_event(self) -> Event | None:
        key = self.query_one("#timeline-events", KeyedTable).selected_key()
        return next((e for e, k in self._numbered() if self.row_key(e, k) == key), None)

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

    def _preview(self) -> None:
        event = self.selected_event()
        if event is None:
            return
        self._ticket += 1
        ticket, entry = self._ticket, event.entry_id
        self._thread.submit(lambda: self._point(ticket, entry, False))

    @on(DataTable.RowHighlighted, "#timeline-events")
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
        self.query_one("#timeline-preview", Static).update(preview)

    def action_open_point(self) -> None:
        event = self.selected_event()
        if event is not None:
            self.open_point(event.entry_id)

    @on(DataTable.RowSelected, "#timeline-events")
    def on_event_selected(self) -> None:
        self.action_open_point()

    def open_point(self, entry: str) -> None:
        self._thread.submit(lambda: self._point(0, entry, True))

    @on(Tree.NodeSelected, "#timeline-tree")
    def on_tree_selected(self, event: Tree.NodeSelected[TreeData]) -> None:
        data = event.node.data
        if data is None:
            return
        kind, entry = data
        if kind == "branch":
            self._thread.submit(lambda: self._show_branch(entry))
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
        self._thread.submit(lambda: self._diff(start, event.entry_id))

    @on(DiffShown)
    def on_diff_shown(self, message: DiffShown) -> None:
        self.app.push_screen(DiffScreen(message.a, message.b, message.changes))

    def action_back(self) -> None:
        self.dismiss()
