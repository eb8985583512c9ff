"""Who needs the person: one state per conversation or session, with the evidence for it
(docs/attention.md).

The states, in the order a person should look at them:

- **needs you**: the agent asked for something and nothing happened since: Claude Code's
  Notification hook (``permission_prompt``, ``idle_prompt``, ...) or either agent's
  PermissionRequest hook, newer than the transcript's last line;
- **stopped with open work**: the turn ended with items open (pideck's todos or the agent's own
  plan), or the todo gates gave up;
- **working**: a turn is in progress (the agent's own word; for pi's and pideck's sessions,
  entries landing);
- **waiting**: the turn ended and nothing is open;
- **ended**: the agent's process is gone.

What the hooks say is kept under pideck's home (``attention/<agent>/<id>.json``, the newest ask
and the newest event of the conversation); everything else comes from the overview's row.
"""

# (No ``from __future__ import annotations``: typing would compile the string annotations of the
# NamedTuples below, and inspect, run, tool and the hooks compile nothing: core/slotted.py.)

import os
from pathlib import Path
from typing import Any, Container, Mapping, NamedTuple, Required, TypedDict

from core.catalog.states import (
    ENDED,
    FLAG_ENDED,
    FLAG_GAVE_UP,
    FLAG_POKED,
    FLAG_WAITING,
    NEEDS_YOU,
    OPEN_WORK,
    ORDER,
    WAITING,
    WORKING,
)
from core.clock import iso_from_ms
from core.files import locked, read_json, write_json
from core.sources.binding import bindings_dir, file_name

ASKING_EVENTS = ("Notification", "PermissionRequest")
RECORDED_EVENTS = (*ASKING_EVENTS, "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd")
"""The hook events whose time is kept; an ask is over once any later one comes, or the transcript
grows after it."""
GRACE_MS = 1000
"""Where the ask does not say how long the transcript was (an input without ``transcript_path``),
a transcript line written this soon after it is the agent's own record of asking, not an answer."""


class Ask(TypedDict, total=False):
    """A hook's ask as the conversation's record keeps it (``record_event``): which event, when,
    what it said (each as the hook input had it, cut to 500 characters) and how long the transcript
    was then."""

    event: Required[str]
    at: Required[int]
    message: str
    notification_type: str
    tool_name: str
    transcriptSize: int


def records_folder(agent: str) -> Path:
    """Where the hooks' records of an agent's conversations are kept."""
    return bindings_dir().parent / "attention" / file_name(agent)


def attention_path(agent: str, conversation_id: str) -> Path:
    return records_folder(agent) / f"{file_name(conversation_id)}.json"


def record_event(agent: str, conversation_id: str, event: str, at_ms: int, detail: Mapping[str, Any]) -> None:
    """Keep a hook event of a conversation: the newest ask (its message and kind, and how long the
    transcript was then: any line after it is the agent going on) and the newest event of any
    kind. Under a lock: two hooks of one conversation may run at once."""
    path = attention_path(agent, conversation_id)
    with locked(path.parent / ".lock"):
        record = read_json(path) or {}
        record["last"] = {"event": event, "at": at_ms}
        if event in ASKING_EVENTS:
            record["ask"] = _ask({**detail, "event": event, "at": at_ms,
                                  "transcriptSize": file_size(detail.get("transcript_path"))})
        write_json(path, record)


def file_size(path: Any) -> int | None:
    if not isinstance(path, str) or not os.path.isabs(path):
        return None
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return None


def _ask(value: object) -> Ask | None:
    """An ask from what a hook said or a record kept (a file anyone may have edited): only the
    keys it has, each of its type; None without an event and a time."""
    if not isinstance(value, Mapping):
        return None
    event, at = value.get("event"), value.get("at")
    if not isinstance(event, str) or not isinstance(at, int) or isinstance(at, bool):
        return None
    ask = Ask(event=event, at=at)
    if text := _text(value.get("message")):
        ask["message"] = text
    if text := _text(value.get("notification_type")):
        ask["notification_type"] = text
    if text := _text(value.get("tool_name")):
        ask["tool_name"] = text
    size = value.get("transcriptSize")
    if isinstance(size, int) and not isinstance(size, bool):
        ask["transcriptSize"] = size
    return ask


def _text(value: object) -> str | None:
    return value[:500] if isinstance(value, str) and value else None


def open_ask(agent: str | None, conversation_id: str | None, transcript: str | None) -> Ask | None:
    """The conversation's ask that nothing has answered yet: no hook event and no transcript line
    came after it."""
    if not agent or not conversation_id:
        return None
    record = read_json(attention_path(agent, conversation_id))
    ask = _ask(record.get("ask")) if record is not None else None
    last = record.get("last") if record is not None else None
    if ask is None or not isinstance(last, dict):
        return None
    if last.get("at") != ask["at"] or last.get("event") != ask["event"]:
        return None  # a later event: the agent went on
    size = file_size(transcript)
    if "transcriptSize" in ask:
        return None if size is not None and size > ask["transcriptSize"] else ask
    written = file_ms(transcript) if transcript is not None else None
    return None if written is not None and written > ask["at"] + GRACE_MS else ask


class AttentionJson(TypedDict):
    state: str
    since: str | None  # ISO 8601
    evidence: str


class Attention(NamedTuple):  # (NamedTuples, as in core/primitives/host.py: every Stop hook loads this module)
    """One state, since when it holds, and what says so."""

    state: str
    since_ms: int | None
    evidence: str  # in a person's words: what says so

    def json(self) -> AttentionJson:
        return {"state": self.state, "since": iso_from_ms(self.since_ms), "evidence": self.evidence}


def ask_words(ask: Ask) -> str:
    if ask.get("event") == "PermissionRequest":
        tool = ask.get("tool_name")
        return f"asks to use {tool} (PermissionRequest hook)" if tool else "asks for a permission (PermissionRequest hook)"
    kind = ask.get("notification_type")
    message = ask.get("message") or "a notification"
    return f"{message} (Notification hook{f', {kind}' if kind else ''})"


def judge(row: Any, ask: Ask | None, now_ms: int, idle_ms: int) -> Attention:
    """The state of one overview row (``core.catalog.overview.OverviewRow``), with the conversation's open
    ask (``open_ask``), at ``now_ms``; a session without the agent's word on its turn counts as
    working until ``idle_ms`` passed since its last entry."""
    last = row.last_activity_ms
    if row.status == "ended":
        return Attention(ENDED, last, "the agent's process is gone")
    if ask is not None:
        return Attention(NEEDS_YOU, ask["at"], ask_words(ask))
    open_items = row.todos_total - row.todos_settled
    if row.flag == FLAG_GAVE_UP:
        return Attention(OPEN_WORK, last, "the todo gates gave up")
    if row.status is not None:  # the agent's own word on its turn
        if row.status == "working":
            return Attention(WORKING, last, "a turn is in progress")
        if open_items:
            return Attention(OPEN_WORK, last, f"its turn ended with {open_items} open")
        return Attention(WAITING, last, "its turn ended, nothing is open")
    if last is not None and now_ms - last < idle_ms:
        return Attention(WORKING, last, "entries are landing")
    if open_items and row.flag in (FLAG_WAITING, FLAG_POKED, FLAG_ENDED, None):
        return Attention(OPEN_WORK, last, f"quiet with {open_items} open")
    return Attention(WAITING, last, "quiet, nothing is open")


def attention_of(row: Any, now_ms: int, idle_ms: int, recorded: Container[tuple[str, str]] | None = None) -> Attention:
    """``judge`` of an overview row, with its conversation's open ask (Claude Code and Codex).
    ``recorded`` (``recorded_conversations``): which conversations have a record at all, so that
    one look over thousands opens only the few records there are."""
    ask = None
    if row.kind in ("claude", "codex") and (recorded is None or (
            row.session_id is not None and (row.kind, file_name(row.session_id)) in recorded)):
        ask = open_ask(row.kind, row.session_id, row.path)
    return judge(row, ask, now_ms, idle_ms)


def recorded_conversations() -> set[tuple[str, str]]:
    """(agent, the file name of its id: ``file_name``) of every conversation whose hooks left a
    record, from one listing of each agent's folder of records."""
    found: set[tuple[str, str]] = set()
    for agent in ("claude", "codex"):
        try:
            names = os.listdir(records_folder(agent))
        except OSError:
            continue
        for name in names:
            if name.endswith(".json"):
                found.add((agent, name[:-5]))
    return found


def summary(attentions: list[Attention]) -> str:
    """One short line for a prompt or a status bar: how many are in each state, who needs the
    person first (``2 need you · 1 stopped with open work · 3 working``)."""
    counts = [(state, sum(1 for a in attentions if a.state == state)) for state in ORDER]
    return " · ".join(f"{n} {'needs you' if state == NEEDS_YOU and n == 1 else 'need you' if state == NEEDS_YOU else state}"
                      for state, n in counts if n)


def sort_key(attention: Attention, last_activity_ms: int | None = None) -> tuple[int, int]:
    """Who needs the person first; within a state, the most recently active first (the newest time
    inside its log: what the person was just looking at is at the top of its group); without a last
    activity, the longest in it first."""
    if last_activity_ms is not None:
        return ORDER.index(attention.state), -last_activity_ms
    return ORDER.index(attention.state), attention.since_ms or 0


def file_ms(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns // 1_000_000
    except OSError:
        return None


# -- following the states --------------------------------------------------------------------------


