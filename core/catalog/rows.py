"""The rows of the catalog: what one session or conversation is, in numbers a person reads at a
glance (``OverviewRow``), made from a session's Deck (``row_of``) or what the reader of a
conversation made of its transcript (``conversation_row``), and the flag the row carries when the agent stopped with work open."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, NotRequired, TypedDict

from core.catalog.states import FLAG_ENDED, FLAG_GAVE_UP, FLAG_POKED, FLAG_WAITING
from core.clock import iso_from_ms, iso_ms
from core.config.places import (
    AGENT_KINDS,
    Kind,
)
from core.deck.deck import Deck
from core.deck.entries import GATE_GAVE_UP, picked_by_activity
from core.primitives.state.core import WORK_ITEM_STATUSES
from core.primitives.todo import constants as c
from core.primitives.todo.model import TodoItem, display_confidence, is_open
from core.primitives.todo.replay import timestamp_ms
from core.primitives.todo.restore import restore_tool_details
from core.session.log import SessionLog
from core.shapes import WorkItem
from core.sources.discovery import (
    Head,
)
from core.sources.plan import running_count
from core.sources.reader import AGENT_ENDED, AGENT_WAITING
from core.usage.of_log import ledger_of, ledger_of_reading

if TYPE_CHECKING:
    from core.sources.reading import Reading
    from core.usage.ledger import Ledger




FLAG_REACH = 256
"""How far back from the leaf the flag looks for the agent's or the gates' last word."""


class DayJson(TypedDict):
    date: str  # the local date of the newest answers
    cost: float | None  # USD of that day's answers priced (None: none priced)
    tokens: int


class ItemCostJson(TypedDict):
    content: str  # the item's text (untrusted)
    cost: float


class ItemTokensJson(TypedDict):
    content: str
    tokens: int


class UsageRowJson(TypedDict):
    """A row's ``usage`` in ``pideck overview --json`` (docs/attention.md#what-a-row-spent): the
    numbers the budgets are judged by (docs/attention.md#budgets)."""

    cost: float | None  # USD of the answers priced so far; None: none priced
    tokens: int  # every token of every answer so far
    day: DayJson | None  # the newest day with answers
    costliestItem: ItemCostJson | None  # the plan item that cost the most dollars
    largestItem: ItemTokensJson | None  # the plan item that used the most tokens


class RowJson(TypedDict):
    """A row as ``pideck overview --json`` prints it and the catalog saves it (``saved.py``)."""

    path: str
    name: str
    cwd: str
    kind: str
    readOnly: bool
    entries: int
    todos: dict[str, int | None]  # settled, total, lowestConfidence
    workItems: dict[str, int]  # per status
    milestones: dict[str, int]  # declared, recorded
    packets: int
    lastActivity: str | None
    flag: str | None
    warnings: int
    lastMessage: str | None
    tokens: dict[str, int | float | None] | None  # total, contextShare
    usage: UsageRowJson | None  # what its answers used in all (None: no answer with tokens)
    status: NotRequired[str | None]  # an agent's conversation only
    subagents: NotRequired[int]  # a Claude Code conversation's subagents running, when any
    host: NotRequired[str]  # the ``[[hosts]]`` name of the machine it is on; absent: this one


def host_of(path: str) -> tuple[str | None, str]:
    """(host, path there) of a catalog path: ``HOST:PATH`` names a file of another machine (an
    ``OverviewRow`` of a host), any other path (absolute, or a conversation in a database) one here."""
    host, colon, there = path.partition(":")
    if colon and host and not path.startswith("/") and all(c.isalnum() or c in "._-" for c in host):
        return host, there
    return None, path


@dataclass(frozen=True)
class OverviewRow:
    path: str
    name: str  # pi's session_info name, else the file name (untrusted text)
    cwd: str  # the header's working directory (untrusted text)
    kind: Kind
    read_only: bool
    entries: int
    todos_settled: int
    todos_total: int
    lowest_confidence: int | None  # of the todos not cancelled
    work_items: tuple[int, ...]  # counts per status, in WORK_ITEM_STATUSES order
    milestones: int  # declared
    recorded: int
    packets: int
    last_activity_ms: int | None  # the last entry's timestamp, else the file's modification time
    flag: str | None  # FLAG_POKED, FLAG_WAITING, FLAG_GAVE_UP, FLAG_ENDED (an agent's conversation only) or None
    warnings: int
    status: str | None = None  # an agent's conversation: working, waiting or ended; None for a session
    pending: bool = False  # a conversation listed but not read yet (the overview screen fills it in)
    session_id: str | None = None  # an agent's conversation: its id (where its hooks' records are)
    last_message: str | None = None  # the first line of the agent's last message (untrusted text)
    tokens: int | None = None  # the last turn's tokens, all of them (input, output, cache read and written)
    context_share: float | None = None  # the share of the model's context window the last turn used
    subagents: int = 0  # a Claude Code conversation's subagents running
    cost: float | None = None  # USD so far, of the answers priced (docs/usage.md); None: none priced
    tokens_total: int | None = None  # every token of every answer so far; None: no answer with tokens
    day: str | None = None  # the local date (YYYY-MM-DD) of the newest answers
    cost_day: float | None = None  # USD of that day's answers priced
    tokens_day: int = 0  # every token of that day's answers
    item_cost: float | None = None  # USD of the plan item that cost the most (its share of the answers)
    item_cost_name: str | None = None  # that item's text (untrusted)
    item_tokens: int = 0  # the tokens of the plan item that used the most
    item_tokens_name: str | None = None
    partial: bool = False  # priced without the price table with a model left unpriced: not final (``Overview``)
    host: str | None = None
    """The ``[[hosts]]`` name of the machine it is on (None: this one). Its ``path`` is then
    ``HOST:PATH`` (as scp writes it), so it never equals a local path (docs/hosts.md)."""

    @property
    def remote_path(self) -> str:
        """The path on its own machine: ``path`` without the ``HOST:`` of a remote row."""
        return self.path.removeprefix(f"{self.host}:") if self.host is not None else self.path

    @property
    def status_text(self) -> str:
        """The status as a row says it: ``working (1 subagent)`` while subagents run."""
        if not self.subagents:
            return self.status or ""
        return f"{self.status or ''} ({self.subagents} subagent{'' if self.subagents == 1 else 's'})".lstrip()

    def json(self) -> RowJson:
        out: RowJson = {
            "path": self.path, "name": self.name, "cwd": self.cwd, "kind": self.kind, "readOnly": self.read_only,
            "entries": self.entries,
            "todos": {"settled": self.todos_settled, "total": self.todos_total,
                      "lowestConfidence": self.lowest_confidence},
            "workItems": dict(zip(WORK_ITEM_STATUSES, self.work_items)),
            "milestones": {"declared": self.milestones, "recorded": self.recorded},
            "packets": self.packets,
            "lastActivity": iso_from_ms(self.last_activity_ms),
            "flag": self.flag,
            "warnings": self.warnings,
            "lastMessage": self.last_message,
            "tokens": {"total": self.tokens, "contextShare": self.context_share} if self.tokens is not None else None,
            "usage": None,
        }
        if self.tokens_total is not None:
            out["usage"] = {
                "cost": self.cost, "tokens": self.tokens_total,
                "day": {"date": self.day, "cost": self.cost_day, "tokens": self.tokens_day} if self.day else None,
                "costliestItem": {"content": self.item_cost_name, "cost": self.item_cost}
                if self.item_cost_name is not None and self.item_cost is not None else None,
                "largestItem": {"content": self.item_tokens_name, "tokens": self.item_tokens}
                if self.item_tokens_name is not None else None,
            }
        if self.kind in AGENT_KINDS:
            out["status"] = self.status
        if self.subagents:
            out["subagents"] = self.subagents
        if self.host is not None:
            out["host"] = self.host
        return out

    def matches(self, text: str) -> bool:
        """The filter of the overview screen: case-insensitive, on name, directory, kind, path and
        (of a conversation) status."""
        needle = text.casefold()
        values = (self.name, self.cwd, self.kind, self.path, self.status or "")
        return any(needle in value.casefold() for value in values)


def row_of(deck: Deck[SessionLog], kind: Kind, mtime_ms: int | None = None, table: bool = True) -> OverviewRow:
    """The row of one session's Deck; ``table``: price what the log does not with the price table
    (else with the rates saved alone: ``core/usage/prices.py``)."""
    log = deck.log
    replay = deck.todo.replay()
    todos = replay.state.todos
    scores = [s for t in todos if t.status != "cancelled" and (s := display_confidence(t)) is not None]
    items: list[WorkItem] = deck.state.snapshot()["workItems"]
    progress = deck.progress.state()
    leaf = log.leaf
    last = timestamp_ms(leaf) if leaf is not None else None
    total, share = token_counts(log.last_turn_tokens())
    return spent(OverviewRow(
        path=str(log.path),
        name=log.name or log.path.name,
        cwd=log.cwd or "",
        kind=kind,
        read_only=kind == "pi" or log.version < 3,
        entries=log.entry_count,
        todos_settled=sum(1 for t in todos if not is_open(t)),
        todos_total=len(todos),
        lowest_confidence=min(scores) if scores else None,
        work_items=tuple(sum(1 for w in items if w["status"] == s) for s in WORK_ITEM_STATUSES),
        milestones=len(progress["currentMilestones"]),
        recorded=len(progress["recordedMilestones"]),
        packets=len(deck.handoff.packets()),
        last_activity_ms=last if last is not None else mtime_ms,
        flag=flag_of(deck),
        warnings=len(deck.warnings) + len(log.warnings),
        last_message=last_words(deck),
        tokens=total,
        context_share=share,
    ), ledger_of(log, table), table)


def spent(row: OverviewRow, ledger: Ledger, table: bool) -> OverviewRow:
    """``row`` with what its answers used (docs/attention.md#what-a-row-spent): the cost and tokens
    in all, of the newest day, of the costliest and the largest plan item, and the context share of
    the last answer where the ledger knows the window (else the log's own word, as it was)."""
    if not ledger.total["answers"]:
        return row
    usage = ledger.json()
    days = usage["days"]
    day = max(days) if days else None
    items = usage["items"]
    costliest = max((i for i in items if i["cost"] is not None), key=lambda i: i["cost"] or 0.0, default=None)
    largest = max(items, key=lambda i: i["tokens"]["total"], default=None)
    context = usage["context"]
    return replace(
        row, cost=usage["cost"], tokens_total=usage["tokens"]["total"],
        context_share=context["share"] if context is not None and context["share"] is not None else row.context_share,
        day=day, cost_day=days[day]["cost"] if day else None, tokens_day=days[day]["tokens"]["total"] if day else 0,
        item_cost=costliest["cost"] if costliest else None, item_cost_name=costliest["content"] if costliest else None,
        item_tokens=largest["tokens"]["total"] if largest else 0,
        item_tokens_name=largest["content"] if largest else None,
        partial=not table and bool(usage["unpriced"]))


def token_counts(tokens: Mapping[str, Any] | None) -> tuple[int | None, float | None]:
    """(every token of the turn, the share of the context window) of a turn's token use
    (docs/agent-conversations.md#the-agent-object); None where the log does not say."""
    if not isinstance(tokens, Mapping):
        return None, None
    total = tokens.get("totalTokens")
    if type(total) is not int:
        parts = [tokens.get(k) for k in ("input", "output", "cacheRead", "cacheWrite")]
        total = sum(p for p in parts if type(p) is int) if any(type(p) is int for p in parts) else None
    share = tokens.get("contextShare")
    return total, float(share) if isinstance(share, (int, float)) and not isinstance(share, bool) else None


def last_words(deck: Deck[SessionLog]) -> str | None:
    """The first line of the newest assistant message with text on the branch (its last
    ``FLAG_REACH`` entries), or None."""
    from core.sources.plan import first_line

    branch = deck.log.branch()
    for record in list(branch[max(0, len(branch) - FLAG_REACH):])[::-1]:
        if record.type != "message" or record.role != "assistant":
            continue
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        texts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"
                 and isinstance(b.get("text"), str)] if isinstance(content, list) else []
        line = first_line("\n".join(texts), MESSAGE_LIMIT) if texts else None  # type: ignore[arg-type]
        if line:
            return line
    return None


def flag_of(deck: Deck[SessionLog]) -> str | None:
    """With open todos: FLAG_GAVE_UP when the gates disarmed themselves (they stopped poking), FLAG_POKED when
    the newest thing on the branch is a gate's follow-up the agent has not acted on, FLAG_WAITING when it
    is an assistant message that ended the agent's turn. None otherwise (no open todos, or the agent
    is at work)."""
    replay = deck.todo.replay()
    if not any(is_open(t) for t in replay.state.todos):
        return None
    if not replay.flags.armed and replay.flags.last_disarm_reason in GATE_GAVE_UP:
        return FLAG_GAVE_UP
    branch = deck.log.branch()
    for record in list(branch[max(0, len(branch) - FLAG_REACH):])[::-1]:
        if not picked_by_activity(record.type, record.custom_type, record.role, record.tool_name):
            continue
        if record.type in ("label", "branch_summary", "session_info"):
            continue
        if record.type == "custom_message":
            if record.custom_type != c.FOLLOWUP_CUSTOM_TYPE:
                continue  # (a subagent's start or end: the agent's, not a poke)
            return FLAG_POKED
        if record.type == "message" and record.role == "assistant":
            message = record.get("message")
            stop = message.get("stopReason") if isinstance(message, dict) else None
            return FLAG_WAITING if stop in ("stop", "length") else None
        if record.type == "custom" and record.custom_type == c.CYCLE_CUSTOM_TYPE:
            continue
        return None
    return None


MESSAGE_LIMIT = 200
"""The agent's last message is kept as its first line, cut at this many characters."""


def plan_todos(reading: Reading) -> list[TodoItem]:
    """The agent's plan as the Deck of the conversation holds it: the newest plan event holds
    exactly the reader's plan, restored the same way."""
    state = restore_tool_details({"todos": list(reading.reader.plan), "agentPlan": {"agent": reading.kind}})
    return state.todos if state is not None else []


def conversation_flag(open_work: bool, status: str | None) -> str | None:
    """The flag of a conversation, in the flag column's sense (the agent stopped with work open):
    ``waiting`` when its turn ended with items open, ``ended`` when its process is gone with items
    open; none while it works, or with everything settled."""
    if not open_work:
        return None
    return FLAG_WAITING if status == AGENT_WAITING else FLAG_ENDED if status == AGENT_ENDED else None


def conversation_row(path: Path, reading: Reading, *, status: str, mtime_ms: int | None, name: str | None = None,
                     cwd: str | None = None, table: bool = True) -> OverviewRow:
    """The row of an agent's conversation from its reading: the plan's items settled of total, no
    confidence, no work items, milestones or packets (pideck's own panes are empty there), the
    time of the transcript's last line as its last activity (``Reading.last_activity_ms``)."""
    todos = plan_todos(reading)
    info = reading.reader.info
    known = info.get("cwd")
    total, share = token_counts(info.get("tokens"))
    message = info.get("lastMessage")
    return spent(OverviewRow(
        path=str(path),
        name=name or path.name,
        cwd=known if isinstance(known, str) and known else cwd or "",
        kind=reading.kind,  # type: ignore[arg-type]
        read_only=True,
        entries=int(reading.state.get("lines", 0)),  # (as ``ConversationLog.entry_count``)
        todos_settled=sum(1 for t in todos if not is_open(t)),
        todos_total=len(todos),
        lowest_confidence=None,  # an agent's plan has no scores
        work_items=(0,) * len(WORK_ITEM_STATUSES),
        milestones=0,
        recorded=0,
        packets=0,
        last_activity_ms=reading.last_activity_ms(mtime_ms)[0],
        flag=conversation_flag(any(is_open(t) for t in todos), status),
        warnings=len(reading.warnings),
        status=status,
        session_id=sid if isinstance(sid := info.get("sessionId"), str) else None,
        last_message=message if isinstance(message, str) and message else None,
        tokens=total,
        context_share=share,
        subagents=running_count(info.get("subagents")),
    ), ledger_of_reading(reading, table), table)


def with_session_row(row: OverviewRow, session: OverviewRow) -> OverviewRow:
    """A conversation's row with its pideck session's counts (docs/tui.md#one-screen-per-conversation):
    the todos are pideck's when the session has any (the list the Stop hook gates), else the
    agent's plan; work items, milestones and packets are the session's; the last activity is the
    later of the two; the flag is the gates' ``gave up``, else the conversation's over the todos shown."""
    todos = session if session.todos_total else row
    flag = FLAG_GAVE_UP if session.flag == FLAG_GAVE_UP else (
        conversation_flag(todos.todos_settled < todos.todos_total, row.status) if session.todos_total else row.flag)
    return replace(
        row, todos_settled=todos.todos_settled, todos_total=todos.todos_total,
        lowest_confidence=todos.lowest_confidence, work_items=session.work_items, milestones=session.milestones,
        recorded=session.recorded, packets=session.packets,
        last_activity_ms=max((t for t in (row.last_activity_ms, session.last_activity_ms) if t is not None),
                             default=None),
        flag=flag, warnings=row.warnings + session.warnings,
    )


def pending_row(path: Path, kind: str, head: Head, mtime_ms: int) -> OverviewRow:
    """A conversation found but not read yet."""
    return OverviewRow(path=str(path), name=path.name, cwd=head.cwd or "", kind=kind, read_only=True,  # type: ignore[arg-type]
                       entries=0, todos_settled=0, todos_total=0, lowest_confidence=None,
                       work_items=(0,) * len(WORK_ITEM_STATUSES), milestones=0, recorded=0, packets=0,
                       last_activity_ms=mtime_ms, flag=None, warnings=0, status=None, pending=True)


# -- a row read back from JSON (another machine's feed: docs/hosts.md) ------------------------------


TEXT_LIMIT = 4096
"""Characters kept of each text a remote row carries (a name, a directory, a message): the rest is
cut, so one hostile field cannot fill the screen or the memory."""


class BadRow(ValueError):
    """A row's JSON is not the shape ``OverviewRow.json`` writes; says which field."""


def _field(value: Mapping[str, object], key: str, kinds: tuple[type, ...], optional: bool = False) -> Any:
    got = value.get(key)
    if got is None and optional:
        return None
    if not isinstance(got, kinds) or (isinstance(got, bool) and bool not in kinds):
        raise BadRow(f"{key} is not {'/'.join(k.__name__ for k in kinds)}")
    if isinstance(got, str):
        return got[:TEXT_LIMIT]
    if isinstance(got, int) and not isinstance(got, bool) and not -2**53 <= got <= 2**53:
        raise BadRow(f"{key} is out of range")
    return got


def _count(value: Mapping[str, object], key: str) -> int:
    got: int = _field(value, key, (int,))
    if got < 0:
        raise BadRow(f"{key} is negative")
    return got


def _table(value: Mapping[str, object], key: str) -> Mapping[str, object]:
    got: Mapping[str, object] = _field(value, key, (dict,))
    return got


def _maybe_table(value: Mapping[str, object] | None, key: str) -> Mapping[str, object] | None:
    got: Mapping[str, object] | None = _field(value, key, (dict,), True) if value is not None else None
    return got


def row_from_json(value: Mapping[str, object], host: str) -> OverviewRow:
    """The row another machine's pideck wrote (``OverviewRow.json``), as a row of ``host``: its path
    ``HOST:PATH``. Every field is checked for its type (raises ``BadRow``); the texts stay as sent
    (untrusted: shown with their control characters made visible), cut at ``TEXT_LIMIT``."""
    todos = _table(value, "todos")
    items = _table(value, "workItems")
    milestones = _table(value, "milestones")
    kind: str = _field(value, "kind", (str,))
    if not kind.isascii() or not kind.isalnum() or len(kind) > 20:
        raise BadRow("kind is not a word")
    last = _field(value, "lastActivity", (str,), optional=True)
    last_ms = iso_ms(last) if last is not None else None
    if last is not None and last_ms is None:
        raise BadRow("lastActivity is not a time")
    tokens = _maybe_table(value, "tokens")
    usage = _maybe_table(value, "usage")
    day, costliest, largest = (_maybe_table(usage, key) for key in ("day", "costliestItem", "largestItem"))
    number = (int, float)
    share = _field(tokens, "contextShare", number, optional=True) if tokens is not None else None
    return OverviewRow(
        path=f"{host}:{_field(value, 'path', (str,))}",
        name=_field(value, "name", (str,)),
        cwd=_field(value, "cwd", (str,)),
        kind=kind,  # type: ignore[arg-type]  # (a kind this pideck may not know: shown as it is)
        read_only=True,  # (written to only through the host's own pideck: docs/hosts.md)
        entries=_count(value, "entries"),
        todos_settled=_count(todos, "settled"),
        todos_total=_count(todos, "total"),
        lowest_confidence=_field(todos, "lowestConfidence", (int,), optional=True),
        work_items=tuple(_count(items, status) for status in WORK_ITEM_STATUSES),
        milestones=_count(milestones, "declared"),
        recorded=_count(milestones, "recorded"),
        packets=_count(value, "packets"),
        last_activity_ms=last_ms,
        flag=_field(value, "flag", (str,), optional=True),
        warnings=_count(value, "warnings"),
        status=_field(value, "status", (str,), optional=True),
        last_message=_field(value, "lastMessage", (str,), optional=True),
        tokens=_field(tokens, "total", (int,), optional=True) if tokens is not None else None,
        context_share=float(share) if share is not None else None,
        subagents=_count(value, "subagents") if "subagents" in value else 0,
        cost=_field(usage, "cost", number, optional=True) if usage is not None else None,
        tokens_total=_count(usage, "tokens") if usage is not None else None,
        day=_field(day, "date", (str,)) if day is not None else None,
        cost_day=_field(day, "cost", number, optional=True) if day is not None else None,
        tokens_day=_count(day, "tokens") if day is not None else 0,
        item_cost=_field(costliest, "cost", number) if costliest is not None else None,
        item_cost_name=_field(costliest, "content", (str,)) if costliest is not None else None,
        item_tokens=_count(largest, "tokens") if largest is not None else 0,
        item_tokens_name=_field(largest, "content", (str,)) if largest is not None else None,
        host=host,
    )
