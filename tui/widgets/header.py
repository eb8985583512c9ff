"""The one-line header: session name, cwd, entry count, and the badges on the right."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

from core import clock
from core.catalog.states import CONTEXT_FULL, ENDED, NEEDS_YOU, OPEN_WORK, OVER_BUDGET, UNREACHABLE, WAITING, WORKING
from core.clock import iso_ms
from core.jsutil import plural
from core.views.costs import Meter
from core.views.items import running_text, token_text
from tui.text import clean


@dataclass(frozen=True)
class HeaderInfo:
    name: str
    cwd: str
    entries: int
    following: bool
    writable: bool
    warnings: int
    clock: str = ""  # "HH:MM" when the clock is shown
    problem: str | None = None  # why the file cannot be read now (deleted, unreadable)
    idle: str = ""  # "idle 3 min · 3 open todos": the agent sits idle with open todos (the watchdog's condition)
    elsewhere: str = ""  # another session of the directory is being written: what it is (f6 opens it)
    newer: str = ""  # a newer session or conversation started in the directory followed: what it is (f6 opens it)
    agent: str = ""  # "agent 12 s ago", when another writer last appended
    agent_active: bool = False  # it wrote within the idle time
    filter: str = ""  # the filter the panes show, described
    past: bool = False  # the deck as it was at an earlier entry (the timeline's)
    detail: str = ""  # a followed conversation's second line: the agent's last words, its tokens
    inbox: str = ""  # "2 need you · 1 stopped": the directory's others (``inbox_text``; ctrl+g goes there)
    looked: str = ""  # "5 new since you last looked"
    opening: bool = False  # the first view is being read (the count is not known yet)
    state: str = ""  # "stopped with open work 3m": the app's catalog's state of this session (docs/attention.md)
    state_style: str = ""
    meter: Meter = Meter()  # the conversation's cost so far, context and last compaction (on the second line)


class DeckHeader(Widget):
    DEFAULT_CSS = """
    DeckHeader { height: 1; background: $panel; dock: top; }
    DeckHeader.-detail { height: 2; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.info: HeaderInfo | None = None

    def show(self, info: HeaderInfo) -> None:
        if info != self.info:
            self.info = info
            self.set_class(bool(info.detail) or not info.meter.empty, "-detail")
            self.refresh()

    def render(self) -> Text:
        if not self.info:
            return Text()
        line = render_header(self.info, self.size.width)
        if not self.info.detail and self.info.meter.empty:
            return line
        return Text("\n").join([line, render_detail(self.info, self.size.width)])


STATE_STYLES = {NEEDS_YOU: "bold white on red", OVER_BUDGET: "bold red", CONTEXT_FULL: "bold magenta",
                OPEN_WORK: "bold yellow", WORKING: "bold green",
                WAITING: "cyan", ENDED: "dim", UNREACHABLE: "bold white on grey37"}
"""The style of each state, wherever a state is drawn (the header, the overview's rows)."""


def state_text(state: str, since_ms: int | None, now_ms: int) -> str:
    """``stopped with open work 3m``: a state and how long it has held."""
    return f"{state} {clock.ago(since_ms, now_ms, short=True).removesuffix(' ago')}"


def badges(info: HeaderInfo) -> list[tuple[str, str]]:
    """(label, style) of every badge that applies."""
    if info.problem is not None:
        # (a remote deck's host away: what it shows is that host's last word, not its state now)
        label = (" UNREACHABLE " if " cannot be reached since " in info.problem
                 else " FILE GONE " if "gone" in info.problem else " UNREADABLE ")
        out = [(label, "bold white on red")]
    elif info.past:
        out = [(" PAST ", "bold black on yellow")]
    elif info.following:
        out = [(" LIVE ", "bold black on green")]
    else:
        out = [(" PAUSED ", "bold black on yellow")]
    if not info.writable and not info.opening:  # (not known before the first view)
        out.append((" READ-ONLY ", "bold white on blue"))
    if info.warnings:
        out.append((f" WARNINGS ({info.warnings}) ", "bold white on red"))
    return out


def inbox_text(need_you: int, open_work: int) -> str:
    """``2 need you · 1 stopped``: the other sessions and conversations that need the person and
    that stopped with open work; ``""`` when none does."""
    parts = [f"{need_you} {'needs' if need_you == 1 else 'need'} you"] if need_you else []
    if open_work:
        parts.append(f"{open_work} stopped")
    return " · ".join(parts)


CONTEXT_STYLES = ((0.85, "bold red"), (0.6, "bold yellow"), (0.0, "green"))
"""The context bar's colour from the share it reaches: nearly full is red."""


def meter_text(meter: Meter) -> Text:
    """``$0.0094 · ctx ███░░░░░ 42% · compacted 182k→40k``: what the header's second line ends with."""
    parts: list[Text] = []
    if meter.cost:
        parts.append(Text(clean(meter.cost), "bold" if meter.cost.startswith("$") else "yellow"))
    if context := meter.context_text():
        share = meter.share
        parts.append(Text(context, "dim" if share is None else next(s for at, s in CONTEXT_STYLES if share >= at)))
    if meter.compacted:
        parts.append(Text(meter.compacted, "cyan"))
    return Text(" · ", "dim").join(parts)


def render_detail(info: HeaderInfo, width: int) -> Text:
    """The second line: the agent's last words and tokens on the left (cut first), the usage meter
    on the right."""
    right = meter_text(info.meter)
    if right.cell_len:
        right.append(" ")
    right.truncate(width)
    detail = Text(" " + clean(info.detail), "dim", no_wrap=True, overflow="ellipsis")
    detail.truncate(max(width - right.cell_len, 0), overflow="ellipsis", pad=True)
    return Text.assemble(detail, right, no_wrap=True)


def render_header(info: HeaderInfo, width: int) -> Text:
    right = Text()
    if info.inbox:
        right.append(" ")
        right.append(f" {info.inbox} · ^g ", "bold white on red" if "need" in info.inbox else "bold black on yellow")
    if info.looked:
        right.append(f" ✱ {info.looked}", "bold cyan")
    if info.filter:
        right.append(" ")
        right.append(f" FILTER {clean(info.filter)} ", "bold black on magenta")
    if info.newer:
        right.append(" ")
        right.append(f" newer: {clean(info.newer)} · f6 ", "bold black on cyan")
    elif info.elsewhere:
        right.append(" ")
        right.append(f" writes go to {clean(info.elsewhere)} · f6 ", "bold black on yellow")
    if info.state:
        right.append(f" {info.state}", info.state_style)
    elif info.idle:
        right.append(f" ⏸ {info.idle}", "bold yellow")
    elif info.agent:
        right.append(f" {'●' if info.agent_active else '○'} {info.agent}", "green" if info.agent_active else "yellow")
    for label, style in badges(info):
        right.append(" ")
        right.append(label, style)
    if info.clock:
        right.append(f" {info.clock}", "dim")
    right.truncate(width)
    room = max(width - right.cell_len, 0)
    count = "  opening…" if info.opening else f"  {info.entries} {plural(info.entries, 'entry', 'entries')}"
    name, cwd = clean(info.name), clean(info.cwd)
    # What gives way first is the name (cut in its middle: a session file's long id is there),
    # down to a few cells, then the directory (its start); the count and the badges stay whole.
    spare = room - len(" pideck  ") - cell_len(count)
    name = cut_middle(name, max(spare - 2 - cell_len(cwd), min(MIN_PART, max(spare, 1))))
    room_for_cwd = spare - cell_len(name) - 2
    cwd = "  " + cut_start(cwd, room_for_cwd) if cwd and room_for_cwd > 1 else ""
    left = Text(no_wrap=True, overflow="ellipsis")
    left.append(" pideck ", "bold reverse")
    left.append(" ")
    left.append(name, "bold")
    left.append(count)
    left.append(cwd, "dim")
    left.truncate(room, overflow="ellipsis", pad=True)
    return Text.assemble(left, right, no_wrap=True)


MIN_PART = 12
"""Cells the name keeps before the directory gives way (and fewer only when the count needs them)."""


def cut_middle(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` cells, an ellipsis in its middle."""
    if cell_len(text) <= cells:
        return text
    head, tail = text[: max(cells - 1, 0) // 2], text[len(text) - (max(cells - 1, 0) - max(cells - 1, 0) // 2):]
    while cell_len(head) + cell_len(tail) + 1 > cells and (head or tail):
        head, tail = (head[:-1], tail) if len(head) >= len(tail) else (head, tail[1:])
    return f"{head}…{tail}" if cells > 0 else ""


def cut_start(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` cells, its start given up (a path's end says most)."""
    if cell_len(text) <= cells:
        return text
    if cells <= 0:
        return ""
    tail = text[len(text) - cells + 1:]
    while cell_len(tail) + 1 > cells and tail:
        tail = tail[1:]
    return f"…{tail}"


def ago(ms: int) -> str:
    """``12 s``, ``5 min``, ``3 h``, ``2 d``: how long ago, in the largest whole unit."""
    seconds = max(ms // 1000, 0)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


def conversation_badge(agent: Mapping[str, Any], now_ms: int) -> tuple[str, bool]:
    """("working, last line 3 s ago", working) for a followed conversation
    (docs/agent-conversations.md#what-the-agent-is-doing)."""
    status = str(agent.get("status") or "waiting")
    text = status
    if running := running_text(agent.get("subagents")):
        text += f" ({running})"
    last = agent.get("lastActivity")
    ms = iso_ms(last)  # (pideck writes it, in UTC)
    if ms is not None:  # (no line said when: the file's last change, and it says so)
        text += f", last {'change' if agent.get('lastActivityOf') == 'file' else 'line'} {ago(now_ms - ms)} ago"
    return text, status == "working"


def conversation_detail(agent: Mapping[str, Any]) -> str:
    """The second header line: the first line of the agent's last message, then the last turn's
    tokens and, where the log says the model's window, the share of it in use."""
    parts = []
    if agent.get("lastMessage"):
        parts.append(f"“{agent['lastMessage']}”")
    tokens = agent.get("tokens")
    if isinstance(tokens, Mapping):
        parts.append(token_text(tokens))
    return "  ·  ".join(parts)


def idle_text(idle_at: int | None, now_ms: int, open_todos: int, idle_ms: int) -> str:
    """``idle 3 min · 3 open todos`` once the agent has sat idle with open todos past the
    watchdog's idle time (``idle_at``, docs/tui.md#the-idle-state), else ``""``."""
    if idle_at is None or now_ms < idle_at or not open_todos:
        return ""
    return f"idle {ago(now_ms - idle_at + idle_ms)} · {open_todos} open {plural(open_todos, 'todo', 'todos')}"


def agent_status(agent_at: str | None, now_ms: int, idle_ms: int) -> tuple[str, bool]:
    """("agent active 12 s ago" or "agent idle 5 min", active) from the time another writer last
    appended; ("", False) when it is unknown."""
    if agent_at is None:
        return "", False
    try:
        moment = datetime.fromisoformat(agent_at.replace("Z", "+00:00"))
    except ValueError:
        return "", False
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    age = now_ms - int(moment.timestamp() * 1000)
    active = age < idle_ms
    return (f"agent active {ago(age)} ago" if active else f"agent idle {ago(age)}"), active
