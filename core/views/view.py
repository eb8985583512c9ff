"""What a front end draws of one Deck, as plain immutable data.

The TUI builds a ``DeckView`` on the thread that owns the Deck and hands it to the screen, which
only renders it: widgets never reach into the Deck, so log work can run off the UI thread. A new
view reuses the parts of the previous one that did not change.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, TypeVar, cast

from core.catalog.elsewhere import Elsewhere
from core.clock import iso_ms
from core.deck.deck import ALL_PARTS, HANDOFF, PROGRESS, STATE, TODO, Deck
from core.primitives.grammar import Words
from core.primitives.progress import verdicts
from core.sources.in_database import short_id
from core.primitives.progress.verdicts import read_verdict
from core.primitives.todo.display import GoalRow, StripLine, goal_rows, strip_lines
from core.primitives.todo.model import TodoState
from core.primitives.todo.overlay import overlay_markdown
from core.session.interface import SessionFile
from core.shapes import Packet, ProgressState, StateSnapshot, Verdict
from core.untrusted import markdown_literal
from core.views.activity import Activity, Event, gave_up, gave_up_words

if TYPE_CHECKING:
    from core.usage.ledger import UsageJson


@dataclass(frozen=True)
class DeckView:
    """One session's derived state and the facts the header shows."""

    path: str
    name: str  # pi's session_info name, else the file name
    cwd: str
    entries: int
    writable: bool
    restore_warnings: tuple[str, ...]  # an invalid newest entry of a primitive, the todo replay's
    skipped: tuple[str, ...]  # what the log skipped or repaired while reading the file
    state: StateSnapshot
    progress: ProgressState
    verdict: Verdict | None  # the newest verdict pideck recorded on the branch (core/primitives/progress/verdicts.py)
    verdict_at: str | None  # its entry's timestamp
    pi_session: bool  # pi writes this session (pi's own judges leave no verdict in it)
    packets: tuple[Packet, ...]
    strip: tuple[StripLine, ...]
    goals: tuple[GoalRow, ...]
    todo_overlay: str  # the todos overlay as Markdown whose values show literally
    has_todos: bool
    todo_state: TodoState  # the todo list, plan and goals (detail views and filters read it)
    targets: tuple[str, ...]  # ids the newest follow-up of the cycle named (the strip's 👉)
    activity: tuple[Event, ...] = ()  # the branch's events, oldest first (with ``activity=``)
    activity_epoch: int = 0  # bumped when the events were worked out again from the start
    agent_at: str | None = None  # when another writer last appended (set by a front end that follows)
    agent: Mapping[str, Any] | None = None  # a followed conversation's agent object (kind, status, tokens...)
    tokens: Mapping[str, Any] | None = None  # the last turn's token use, where the log says it
    idle_at: int | None = None  # from when (ms) the agent counts as idle with open todos (the watchdog's
    #                             condition, ``turn_end.watchdog_due_at``); None: not however long
    agent_todos: TodoState | None = None  # a followed conversation: the agent's own plan (its pane shows it)
    bound: DeckView | None = None  # a followed conversation: the view of its pideck session, once there is one
    elsewhere: Elsewhere | None = None  # another session of the directory is being written (set by a front end)
    gave_up: str | None = None  # the todo gates gave up on the agent: why (a ``GAVE_UP_WHY`` key), while they stay so
    read_only_reason: str | None = None  # why a write here is refused, in the log's own words (None: writable)
    unfiltered: DeckView | None = None  # set by a filter (tui/filtering.py): the whole view, whose counts panes keep
    usage: UsageJson | None = None  # what the log's answers used and cost (``core.usage.of_log.usage_of``); a
    #                                 followed conversation with a pideck session keeps its own (the answers are there)
    todo_armed: bool = False  # the todo gates' auto-poke (the overlay says it; kept to say it again with new costs)

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.restore_warnings + self.skipped

    def words(self, kind: Words) -> list[str]:
        """The ids Tab offers for an argument declared with ``kind``."""
        if kind is Words.WORK_ITEMS:
            return [item["id"] for item in self.state["workItems"]]
        if kind is Words.MILESTONES:
            return list(self.progress["currentMilestones"])
        return [packet["id"] for packet in self.packets]


@dataclass(frozen=True)
class Inbox:
    """The sessions and conversations that need the person, as the deck's header counts them
    (docs/tui.md#who-needs-you): their paths, who needs the person first (``core.catalog.attention``'s
    order), the screen's own among them when it is one."""

    need_you: tuple[str, ...] = ()  # in NEEDS_YOU
    open_work: tuple[str, ...] = ()  # stopped with open work

    @classmethod
    def of(cls, ranked: Iterable[Any]) -> Inbox:
        """From ``Catalog.ranked()`` (``Record`` objects)."""
        from core.catalog.states import NEEDS_YOU, OPEN_WORK

        ranked = list(ranked)
        return cls(tuple(s.path for s in ranked if s.attention.state == NEEDS_YOU),
                   tuple(s.path for s in ranked if s.attention.state == OPEN_WORK))

    def others(self, here: Iterable[str]) -> tuple[int, int]:
        """(need you, stopped with open work) leaving out the screen's own paths."""
        mine = set(here)
        return sum(1 for p in self.need_you if p not in mine), sum(1 for p in self.open_work if p not in mine)

    def next_after(self, here: Iterable[str]) -> str | None:
        """Where the jump key goes: the next one that needs the person after the screen's own in
        the inbox's order (the first when the screen's own is not among them), so pressing it
        again and again visits each in turn; without one, the next stopped with open work."""
        mine = set(here)
        for paths in (self.need_you, self.open_work):
            others = [p for p in paths if p not in mine]
            if not others:
                continue
            at = next((i for i, p in enumerate(paths) if p in mine), None)
            if at is None:
                return others[0]
            return next((p for p in paths[at + 1:] if p not in mine), others[0])
        return None


Glance = tuple[int, str | None, int, int]
"""What the overview compares of a row (entries, state, todos settled, todos total)."""


class Glances:
    """What the person last saw of each session and conversation, for "since you last looked"
    (docs/tui.md#since-you-last-looked): one per app, in memory, used on the UI thread only.

    A deck tells it when a path comes on screen and when it leaves (``shown``, ``hidden``, with
    its entry count). The overview gives it every row's ``Glance`` at each update (``marks``): a
    row seen for the first time, or whose path a deck has on screen or has just left, takes its
    glance as the new baseline; a row whose glance differs from its baseline is marked."""

    def __init__(self) -> None:
        self.showing: set[str] = set()  # paths a deck has on screen now
        self.left: set[str] = set()  # paths a deck stopped showing since the overview last compared
        self.baseline: dict[str, Glance] = {}
        self.entries: dict[str, int] = {}  # the deck's entry count when the path was last on screen

    def shown(self, path: str, entries: int) -> None:
        self.showing.add(path)
        self.entries[path] = entries

    def hidden(self, path: str, entries: int) -> None:
        self.showing.discard(path)
        self.left.add(path)
        self.entries[path] = entries

    def new_since(self, path: str, entries: int) -> int:
        """Entries a deck about to show ``path`` has that it did not have when it was last on
        screen (0 the first time)."""
        before = self.entries.get(path)
        return max(0, entries - before) if before is not None else 0

    def marks(self, glances: Iterable[tuple[str, Glance]]) -> set[str]:
        """The paths whose row changed since the person last had them on screen."""
        glances = list(glances)
        for path, glance in glances:
            if path not in self.baseline or path in self.showing or path in self.left:
                self.baseline[path] = glance
        self.left.difference_update(path for path, _ in glances)
        return {path for path, glance in glances if self.baseline[path] != glance}


F = TypeVar("F", bound=SessionFile)


def written_by_pi(log: SessionFile) -> bool:
    """pideck writes only ``custom`` and ``custom_message`` entries; pi starts a session with a
    model change or a message: a session whose first entries hold another type is pi's."""
    return any(record.type not in ("custom", "custom_message") for record in log.records[:8])


def build_view(
    deck: Deck[F],
    previous: DeckView | None = None,
    parts: frozenset[str] = ALL_PARTS,
    *,
    literal: Callable[[str], str] = markdown_literal,
    todo: bool = True,
    activity: Activity | None = None,
    usage: bool = True,
) -> DeckView:
    """The view of ``deck`` now; with a ``previous`` view only ``parts`` are derived again.

    ``todo=False`` leaves the todo parts empty and their warnings out: a first view that needs no
    todo fold, which on a long branch costs more than everything else (build the rest later with
    ``parts={TODO}``). ``activity``: the branch's events, taken in up to now, go in the view too.
    ``usage=False`` leaves the usage out (a first frame does not wait for the price table, whose
    first load takes a good half second): the next view without it works it out."""
    log = deck.log
    old = previous
    if old is None or STATE in parts:
        state = deck.state.snapshot()
    else:
        state = old.state
    if old is None or PROGRESS in parts:
        progress = deck.progress.state()
        verdict, verdict_at = read_verdict(log.latest_custom(verdicts.ENTRY_TYPE)) or (None, None)
    else:
        progress, verdict, verdict_at = old.progress, old.verdict, old.verdict_at
    packets = tuple(deck.handoff.packets()) if old is None or HANDOFF in parts else old.packets
    strip: tuple[StripLine, ...]
    goals: tuple[GoalRow, ...]
    targets: tuple[str, ...]
    given_up: str | None
    from core.usage.of_log import usage_of
    from core.views.costs import spent_by_item

    spent = (old.usage if old is not None and old.entries == len(log.records) and old.usage is not None
             else usage_of(log) if usage else None)
    armed = False
    if not todo:
        strip, goals, overlay, has_todos = (), (), "", False
        todo_state, targets, given_up = TodoState(), (), None
    elif old is None or TODO in parts:
        replay = deck.todo.replay()
        given_up = gave_up(replay)
        strip = with_alert(tuple(strip_lines(replay.state, replay.flags.targets, deck.todo.config.widget_max_lines)),
                           given_up)
        goals = tuple(goal_rows(replay.state))
        armed = replay.flags.armed
        overlay, has_todos = overlay_markdown(replay.state, armed, literal, spent_by_item(spent)), bool(replay.state.todos)
        todo_state, targets = replay.state, tuple(replay.flags.targets)
    else:
        strip, goals, overlay, has_todos = old.strip, old.goals, old.todo_overlay, old.has_todos
        todo_state, targets, given_up, armed = old.todo_state, old.targets, old.gave_up, old.todo_armed
        if spent is not old.usage and (has_todos or todo_state.agent_plan is not None):  # (the items' costs moved)
            overlay = overlay_markdown(todo_state, armed, literal, spent_by_item(spent))
    if not todo:
        idle_at = None
    elif old is not None and TODO not in parts and old.entries == len(log.records):
        idle_at = old.idle_at
    else:  # (any new entry, not only a todo write, is the agent at work: it moves the idle time)
        idle_at = deck.todo.watchdog_due_at()
    events, epoch = (old.activity, old.activity_epoch) if old is not None else ((), 0)
    if activity is not None:
        update = activity.update()
        if update.reset or update.new or len(events) != len(activity.events):
            events, epoch = tuple(activity.events), epoch + (1 if update.reset else 0)
    agent = log.agent()
    if agent is not None and deck.host is not None:  # (a remote deck's copy: named as it is there)
        agent = {**agent, "host": deck.host, "transcript": f"{deck.host}:{deck.remote_path}"}
    if agent is not None and not has_todos and todo_state.agent_plan is None:
        overlay = no_plan_yet(agent["kind"])
    return DeckView(
        path=str(log.shown_path),
        name=log.name or (f"{agent['name']} {short_id(str(agent.get('sessionId') or ''))}".rstrip() if agent
                          else log.shown_path.name),
        cwd=log.cwd or "",
        entries=log.entry_count,
        writable=deck.writable,
        read_only_reason=deck.read_only_reason,
        restore_warnings=tuple(deck.warnings if todo else deck.primitive_warnings),
        skipped=tuple(log.warnings),
        state=state,
        progress=progress,
        verdict=verdict,
        verdict_at=verdict_at,
        pi_session=old.pi_session if old is not None and parts != ALL_PARTS else written_by_pi(log),
        packets=packets,
        strip=strip,
        goals=goals,
        todo_overlay=overlay,
        has_todos=has_todos,
        todo_state=todo_state,
        targets=targets,
        activity=events,
        activity_epoch=epoch,
        agent_at=old.agent_at if old is not None else None,
        agent=agent,
        tokens=log.last_turn_tokens() if old is None or old.entries != len(log.records) else old.tokens,
        idle_at=idle_at,
        elsewhere=old.elsewhere if old is not None else None,
        gave_up=given_up,
        usage=spent,
        todo_armed=armed,
    )


PLAN_TOOLS = {"claude": "TodoWrite or TaskCreate", "codex": "update_plan", "gemini": "write_todos", "qwen": "todo_write",
              "opencode": "todowrite", "copilot": "sql"}
"""The tools each agent plans with (docs/agent-conversations.md)."""


def no_plan_yet(kind: str) -> str:
    """The overlay of a conversation whose agent has made no plan yet: pi-jtodo's empty text names
    its ``todo`` tool, which no other agent has."""
    from core.sources.plan import AGENT_NAMES

    name, tool = AGENT_NAMES.get(kind, "The agent"), PLAN_TOOLS.get(kind)
    return "# Plan\n\nNo plan yet." + (f" {name} makes one with its {tool} tool." if tool else "")


def with_alert(strip: tuple[StripLine, ...], reason: str | None) -> tuple[StripLine, ...]:
    """The strip with its header saying that the gates gave up (``reason``), where the person
    looks first: an activity row alone left it unseen."""
    if reason is None or not strip:
        return strip
    return (replace(strip[0], alert=gave_up_words(reason)), *strip[1:])


def with_session(conversation: DeckView, session: DeckView | None, idle_ms: int) -> DeckView:
    """The screen of a followed conversation: the agent's status and own plan (``agent_todos``)
    with its pideck session's panes (docs/tui.md#one-screen-per-conversation).

    With a session, its Agent State, Progress and Handoff, its activity (where the gates' pokes
    are) and its writability (the command line writes there) replace the conversation's, which are
    empty; the strip, the goal table and the todos overlay show the list the Stop hook gates:
    pideck's todos when the session has any, else the agent's own plan. The agent counts as idle
    with open todos only once its transcript too has been quiet for ``idle_ms``."""
    if session is None:
        return replace(conversation, agent_todos=conversation.todo_state, bound=None)
    todos = session if session.has_todos else conversation
    idle_at = session.idle_at
    last = iso_ms((conversation.agent or {}).get("lastActivity"))
    if idle_at is not None and last is not None:
        idle_at = max(idle_at, last + idle_ms)
    return replace(
        conversation,
        writable=session.writable, read_only_reason=session.read_only_reason, pi_session=False,
        restore_warnings=conversation.restore_warnings + session.restore_warnings,
        skipped=conversation.skipped + session.skipped,
        state=session.state, progress=session.progress, verdict=session.verdict, verdict_at=session.verdict_at,
        packets=session.packets,
        strip=todos.strip, goals=todos.goals, todo_overlay=todos.todo_overlay, has_todos=todos.has_todos,
        todo_state=todos.todo_state, targets=todos.targets, gave_up=todos.gave_up,
        activity=session.activity, activity_epoch=conversation.activity_epoch + session.activity_epoch + 1,
        idle_at=idle_at, agent_todos=conversation.todo_state, bound=session,
    )


def opening_view(path: str, name: str) -> DeckView:
    """What a screen shows before its first view is read: nothing yet, under the file's name."""
    return DeckView(
        path=path, name=name, cwd="", entries=0, writable=False, restore_warnings=(), skipped=(),
        state=cast(StateSnapshot, {"schemaVersion": 1, "workItems": [], "decisions": []}),
        progress=ProgressState(hasBaseline=False, currentMilestones=[], recordedMilestones=[]),
        verdict=None, verdict_at=None, pi_session=False, packets=(), strip=(), goals=(), todo_overlay="",
        has_todos=False, todo_state=TodoState(), targets=(),
    )
