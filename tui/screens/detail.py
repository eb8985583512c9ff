"""The detail of one row: its full text, wrapped, and its history in this session (the activity's
events that touched it); ``c`` copies it (lazygit, posting).

Every kind of row has one: a work item, a decision, a milestone, a packet, a todo, a goal and an
activity event. What is shown is built from the screen's current view, so a detail never reads the
log; all text from the log is shown literally.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from core.views.activity import Event
from core.views.costs import item_of, item_words
from core.views.diff import change_line
from core.views.items import icon as todo_icon
from core.views.view import DeckView
from tui.text import clean, safe, spans_days
from tui.widgets.events import event_line

Subject = tuple[str, str]
"""(change subject, key): a row's identity in the activity's changes ("work item", "parse")."""


@dataclass(frozen=True)
class Detail:
    kind: str  # "work item", "decision", "milestone", "packet", "todo", "goal", "event"
    key: str
    title: str
    body: Text
    subjects: frozenset[Subject] = frozenset()
    fill: str | None = None  # a command line `e` puts on the command line
    events: tuple[Event, ...] = field(default=(), compare=False)

    @property
    def plain(self) -> str:
        """What ``c`` copies: the body and the history as plain text."""
        lines = [self.title, "", self.body.plain.rstrip()]
        if self.events:
            lines += ["", "History in this session"] + [event_line(e).plain for e in self.events]
        return "\n".join(lines) + "\n"


def history(view: DeckView, subjects: frozenset[Subject]) -> tuple[Event, ...]:
    """The view's events whose changes touch any of ``subjects``, oldest first."""
    return tuple(e for e in view.activity if any((c.subject, c.key) in subjects for c in e.changes))


def field_text(text: Text, label: str, value: object, *, style: str = "") -> None:
    text.append(f"{label}\n", "bold")
    text.append_text(safe(value, style, multiline=True))
    text.append("\n\n")


def work_item_detail(view: DeckView, item_id: str) -> Detail | None:
    item = next((i for i in view.state["workItems"] if i["id"] == item_id), None)
    if item is None:
        return None
    body = Text()
    field_text(body, "Status", item["status"])
    field_text(body, "Work item", item["content"])
    subjects = frozenset({("work item", item_id)})
    return Detail("work item", item_id, f"Work item {clean(item_id)}", body, subjects,
                  fill=f"/agent-state set {item_id} ", events=history(view, subjects))


def decision_detail(view: DeckView, decision_id: str) -> Detail | None:
    decision = next((d for d in view.state["decisions"] if d["id"] == decision_id), None)
    if decision is None:
        return None
    body = Text()
    field_text(body, "Decision", decision["content"])
    subjects = frozenset({("decision", decision_id)})
    return Detail("decision", decision_id, f"Decision {clean(decision_id)}", body, subjects,
                  events=history(view, subjects))


def milestone_detail(view: DeckView, name: str) -> Detail | None:
    progress = view.progress
    declared, recorded = name in progress["currentMilestones"], name in progress["recordedMilestones"]
    if not (declared or recorded):
        return None
    body = Text()
    field_text(body, "Milestone", name)
    state = ("declared and recorded by a judge" if declared and recorded else
             "declared, not judged yet" if declared else "recorded by a judge, no longer declared")
    field_text(body, "State", state)
    subjects = frozenset({("milestone", name), ("recorded milestone", name)})
    return Detail("milestone", name, f"Milestone {clean(name)}", body, subjects,
                  fill=f"/agent-progress withdraw {name}" if declared else None, events=history(view, subjects))


def todo_detail(view: DeckView, todo_id: str) -> Detail | None:
    todo = next((t for t in view.todo_state.todos if t.id == todo_id), None)
    if todo is None:
        return None
    body = Text()
    status = f"{todo_icon(todo.status)} {todo.status}" + (" · 👉 named by the last follow-up"
                                                          if todo.id in view.targets else "")
    field_text(body, "Status", status)
    agent_plan = view.todo_state.agent_plan
    if agent_plan is not None:  # an item of the agent's own plan: what its tool gave it, no scores
        from core.views.items import NO_SCORES

        noun = str(agent_plan.get("noun") or "todo")
        field_text(body, noun.capitalize(), todo.content)
        for label, value in (("Doing", todo.active_form), ("Priority", todo.priority), ("Description", todo.description),
                             ("Waits for", ", ".join(f"#{i}" for i in todo.blocked_by or []) or None),
                             ("Blocks", ", ".join(f"#{i}" for i in todo.blocks or []) or None)):
            if value:
                field_text(body, label, value)
        field_text(body, "Confidence", NO_SCORES)
        spent_field(body, view, todo.id, todo.content)
        subjects = frozenset({("todo", todo_id)})
        return Detail("todo", todo_id, f"{noun.capitalize()} #{clean(todo_id)}", body, subjects,
                      events=history(view, subjects))
    field_text(body, "Todo", todo.content)
    field_text(body, "Priority", todo.priority)
    field_text(body, "Group", todo.group if todo.group is not None else "(ungrouped)")
    confidence = "?" if todo.confidence is None else str(todo.confidence)
    if todo.confidence_history:
        confidence += "   (history " + " → ".join(map(str, todo.confidence_history)) + ")"
    field_text(body, "Confidence", confidence)
    if todo.completion_confidence is not None:
        field_text(body, "Completion confidence", todo.completion_confidence)
    spent_field(body, view, todo.id, todo.content)
    subjects = frozenset({("todo", todo_id)})
    return Detail("todo", todo_id, f"Todo #{clean(todo_id)}", body, subjects, events=history(view, subjects))


def spent_field(body: Text, view: DeckView, item_id: str, content: str) -> None:
    """What the item cost while it was in progress: its tokens, dollars and time (none: nothing)."""
    if words := item_words(item_of(view.usage, item_id, content)):
        field_text(body, "Spent", words)


def goal_detail(view: DeckView, group: str | None) -> Detail | None:
    row = next((g for g in view.goals if g.group == group), None)
    if row is None:
        return None
    body = Text()
    field_text(body, "Goal", row.label)
    field_text(body, "Settled", f"{row.settled}/{row.total} todos")
    shown = ["—" if v is None else str(v) for v in (row.conf, row.own, row.feedback)]
    field_text(body, "Scores", f"confidence {shown[0]} · ownership {shown[1]} · closed feedback loop {shown[2]}")
    field_text(body, "Feedback loop", row.feedback_loop or "none declared")
    body.append("Todos\n", "bold")
    for todo in view.todo_state.todos:
        if todo.group == group:
            body.append(f"  {todo_icon(todo.status)} ")
            body.append_text(safe(f"#{todo.id} {todo.content}"))
            if words := item_words(item_of(view.usage, todo.id, todo.content)):
                body.append(f"  {words}", "dim")
            body.append("\n")
    subjects = frozenset({("goal", group or "")} | {("todo", t.id) for t in view.todo_state.todos if t.group == group})
    return Detail("goal", group or "", f"Goal {clean(row.label)}", body, subjects, events=history(view, subjects))


def event_detail(event: Event) -> Detail:
    body = event_line(event)
    body.no_wrap, body.overflow = False, "fold"
    body.append(f"\n\nentry {clean(event.entry_id)} · {clean(event.timestamp or 'no time')}\n", "dim")
    if event.said:  # a follow-up changes no state: its text is all there is to see of it
        body.append("\nSaid to the agent\n", "bold")
        body.append_text(safe(event.said, multiline=True))
        body.append("\n")
    if event.changes:
        body.append("\nChanges\n", "bold")
        for change in event.changes:
            body.append_text(safe(change_line(change), multiline=True))
            body.append("\n")
    return Detail("event", event.entry_id, f"Event at entry {clean(event.entry_id)}", body)


HISTORY_SHOWN = 200
"""Changes a detail lists, newest first: a work item of a long session can have thousands, and the
timeline (f8) lists them all."""


def history_text(events: Sequence[Event]) -> Text:
    text = Text()
    text.append("History in this session\n", "bold")
    if not events:
        text.append("  no change to it on this branch (pideck's own sessions have no source for a\n"
                    "  primitive's entries; the activity view lists every event)\n", "dim")
    dated = spans_days((events[0].timestamp, events[-1].timestamp)) if events else False
    for event in reversed(events[-HISTORY_SHOWN:]):  # newest first, as in the activity view
        line = event_line(event, dated)
        line.no_wrap, line.overflow = False, "fold"
        text.append("  ")
        text.append_text(line)
        text.append("\n")
    if len(events) > HISTORY_SHOWN:
        text.append(f"  … {len(events) - HISTORY_SHOWN:,} older changes: the timeline (f8) lists them all\n", "dim")
    return text


class DetailScreen(ModalScreen[str | None]):
    """Dismissed with a command line to fill (``e``) or None."""

    BINDINGS = [
        Binding("escape,enter", "dismiss(None)", "Close"),
        Binding("c", "copy", "Copy"),
        Binding("e", "fill", "Edit command"),
    ]

    def __init__(self, detail: Detail) -> None:
        super().__init__()
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="detail-box", classes="dialog"):
            with VerticalScroll(id="detail-scroll"):
                body = self.detail.body.copy()
                body.rstrip()
                yield Static(body, id="detail-body", markup=False)
                if self.detail.kind != "event":
                    yield Static(history_text(self.detail.events), id="detail-history", markup=False)
            hint = "c copies · esc closes"
            if self.detail.fill:
                hint = f"e: {clean(self.detail.fill.strip())} … · " + hint
            yield Static(hint, classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#detail-box").border_title = Content(self.detail.title)
        self.query_one("#detail-scroll").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.detail.fill is not None if action == "fill" else True

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.detail.plain)
        self.notify(f"Copied {self.detail.kind} {clean(self.detail.key)} to the clipboard.", markup=False)

    def action_fill(self) -> None:
        self.dismiss(self.detail.fill)
