"""The activity of a session: its branch's state-changing entries as events a person reads.

"todo #t3 completed", "work item parse: open → done", "verdict: progress (+2 milestones)",
"packet h1 created", "write rejected by the ownership gate", "poke sent (#t2, #t3)" ... each with
the entry's time and id, the part it touches, and who wrote it where the log tells: the agent's
tool, a person's command, or the todo gates. Everything is read from the log (so it works on pi's
own sessions), and the state events are worded from a diff of the points before and after each
entry (``core/views/diff.py``), so an event never tells another story than ``pideck diff``.

``Activity`` is incremental: when the branch only grew, taking in N new entries costs O(N); when
it changed in another way (a branch switch, a rewritten file) the walk starts over. See
docs/activity.md for what each entry gives and how its source is told.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from core.collector import paused_collector
from core.deck.deck import PROGRESS, TODO
from core.deck.entries import GATE_GAVE_UP, GAVE_UP_WHY, PRIMITIVE_TOOLS, SUBAGENT_ENTRY, picked_by_activity
from core.primitives.progress import verdicts
from core.primitives.todo import constants as c
from core.primitives.todo.replay import Replay, followup_kind, message_text
from core.session.interface import ReadableLog, Selection
from core.session.records import EntryRecord
from core.session.writer import AGENT, PERSON, WRITER_KEY
from core.views.diff import PART_TITLES, Change, diff_points
from core.views.points import RESTORED_TYPES, Point, Restorer

SESSION = "session"
"""The part of labels, branch summaries and session names: no derived state, but the timeline's."""

TOOL, COMMAND, GATE = "tool", "command", "gate"
"""Sources: an agent's tool call, a person's command, the todo gates."""
_SOURCE_OF_WRITER = {AGENT: TOOL, PERSON: COMMAND}

@dataclass(slots=True)
class Event:
    """One thing that happened at one entry of the branch. Read-only by convention (a forked walk
    shares its events): not frozen, since a frozen dataclass sets each field through
    ``object.__setattr__``, 2.8 µs an instance against 0.5, and a 100k-entry walk makes 118,000."""

    entry_id: str
    timestamp: str | None  # the entry's ISO timestamp, as written
    position: int  # the entry's place on the branch, 0 for the root
    part: str  # STATE, PROGRESS, HANDOFF, TODO or SESSION
    source: str | None  # TOOL, COMMAND, GATE, or None when the log does not tell
    text: str
    changes: tuple[Change, ...] = ()
    said: str = ""  # what the entry said to the agent: a follow-up's text, the ownership gate's reply


@dataclass
class Update:
    """What one ``Activity.update`` found: the new events, oldest first; ``reset`` when the walk
    started over (every event is new, the old list no longer holds)."""

    new: list[Event] = field(default_factory=list)
    reset: bool = False
    pending: bool = False  # ``limit`` stopped the walk before the branch's end: update again for the rest
    older: bool = False  # the new events go before the others (a newest-first walk's earlier piece)


class _Older:
    """What is left of a newest-first walk: the first walk's selection, the piece taken last
    starting at ``start``, and the parts no entry before it restores (nor before any later piece)."""

    def __init__(self, selection: Selection, start: int) -> None:
        self.selection, self.start = selection, start
        self.picked, self.record_at = selection[0], selection[2]
        self.absent: set[str] = set()


class Activity:
    """The events of ``log``'s current branch, taken in as the log grows."""

    def __init__(self, log: ReadableLog) -> None:
        self.log = log
        self._lock = threading.Lock()  # (``fork`` is called from another screen's thread)
        self._start()

    def _start(self) -> None:
        self.events: list[Event] = []
        self.point = Point()
        """The derived state after the last entry taken in."""
        self._restorer = Restorer()
        self._count = 0  # branch entries walked
        self._anchor: Mapping[str, Any] | None = None  # the last of them
        self._last_message: tuple[str | None, Callable[[int], Mapping[str, Any]], int] | None = None
        self._user_arm_at = -2  # position of the last cycle entry a person's /todos poke wrote
        self._older: _Older | None = None  # a newest-first walk's pieces still to take, before those taken
        self._front = 0  # the branch position the walked entries start at

    @property
    def walked(self) -> int:
        """How many entries of the branch the walk has taken in."""
        return self._count - self._front

    def update(self, limit: int | None = None, newest_first: bool = False) -> Update:
        """Take in what the branch gained since the last call (the log is refreshed first).
        ``limit``: take in at most that many of the entries the walk looks at, so a long session's
        first walk can be shown in pieces (``Update.pending`` says more is left). With
        ``newest_first`` a first walk takes the branch's last piece first, then each piece before
        the ones taken (``Update.older``), so the newest events are there at once; appends are
        taken in once every older piece is."""
        with self._lock, paused_collector():  # (a walk makes events by the hundred thousand, none cyclic)
            return self._update(limit, newest_first)

    def _update(self, limit: int | None, newest_first: bool) -> Update:
        if self._older is not None:
            return self._older_piece(limit)
        self.log.refresh()
        result = Update()
        selection = self.log.branch_select(picked_by_activity, self._count, self._anchor) if self._count else None
        if selection is None:
            result.reset = self._count > 0 or bool(self.events)
            self._start()
            selection = self.log.branch_select(picked_by_activity)
            assert selection is not None  # a selection from the start always answers
        picked, length, record_at, last = selection
        if limit is not None and len(picked) > limit and newest_first and not self._count:
            start = len(picked) - limit
            self._older = _Older(selection, start)
            self._seed(self._older, start)
            self._front = picked[start][0]
            begin, end = start, len(picked)
            result.pending = True
        elif limit is not None and len(picked) > limit:
            position, _, key = picked[limit - 1]
            begin, end, length, last = 0, limit, position + 1, record_at(key)  # (where the next piece starts)
            result.pending = True
        else:
            begin, end = 0, len(picked)
        result.new = self._take(selection, begin, end)
        self._count, self._anchor = length, last
        self.events += result.new
        return result

    def fork(self, log: ReadableLog) -> Activity | None:
        """This walk as it stands, carried on over ``log``: another reading of the same file (the
        timeline's, on its own thread, of the file whose walk the deck has done), so the events
        found are not found again. None when this walk is not whole yet (a newest-first walk with
        older pieces to take) or ``log``'s branch does not hold the entry this walk ended at, in
        its place: then ``log`` is walked from the start. What the twin shares with this walk
        (its events, its points) is never changed in place; what it reads, it reads from ``log``."""
        with self._lock:
            if not self._count or self._older is not None or self._anchor is None:
                return None
            branch = log.branch()
            if len(branch) < self._count:
                return None
            anchor = branch[self._count - 1]
            if _place(anchor) is None or _place(anchor) != _place(self._anchor):
                return None
            selection = log.branch_select(picked_by_activity, self._count, anchor)
            if selection is None:
                return None
            twin = Activity(log)
            twin.events, twin.point = list(self.events), self.point
            twin._count, twin._anchor, twin._user_arm_at = self._count, anchor, self._user_arm_at
            if self._last_message is not None:
                role, _, key = self._last_message
                twin._last_message = (role, selection[2], key)  # (the same key, read from ``log``)
            return twin

    def _take(self, selection: Selection, begin: int, end: int) -> list[Event]:
        """The events of the entries ``selection`` picked, from the ``begin``-th to before the ``end``-th."""
        new: list[Event] = []
        picked, _, record_at, _ = selection
        for position, kind, key in picked[begin:end]:
            if kind[0] == "message":
                self._last_message = (kind[2], record_at, key)
                if kind[2] != "toolResult" or kind[3] != c.TOOL_NAME:
                    continue
            # An index record's line, read once: each of an entry's events reads its id and time,
            # and a record asked for a key its index does not hold reads its body again each time.
            record = record_at(key)
            entry = record.load() if isinstance(record, EntryRecord) else record
            new += self._todo_result(position, entry) if kind[0] == "message" else self._entry(position, entry)
        return new

    def _older_piece(self, limit: int | None) -> Update:
        """The piece of the first walk before those taken: walked from the state the entries
        before it leave (``_seed``), the walk's own state at the branch's end kept as it was."""
        older = self._older
        assert older is not None
        end = older.start
        start = max(0, end - limit) if limit is not None else 0
        kept = self.point, self._last_message, self._user_arm_at
        self._seed(older, start)
        new = self._take(older.selection, start, end)
        self.point, self._last_message, self._user_arm_at = kept
        older.start = start
        self._front = older.picked[start][0] if start else 0
        if not start:
            self._older = None
        self.events[:0] = new
        return Update(new, pending=bool(start), older=True)

    def _seed(self, older: _Older, at: int) -> None:
        """The walk's state as walking ``older.picked[:at]`` would leave it: each part restored
        from the last entry before ``at`` that restores it (restoring reads nothing but the entry),
        the last message, and whether the entry just before is a person's arming of the gates.
        Found looking back from ``at``, as far as the nearest of each."""
        picked, record_at = older.picked, older.record_at
        wanted = {*RESTORED_TYPES, TODO, "message"} - older.absent
        point, self._last_message = Point(), None
        k = at - 1
        while wanted and k >= 0:
            _, kind, key = picked[k]
            k -= 1
            if kind[0] == "message":
                if "message" in wanted:
                    wanted.discard("message")
                    self._last_message = (kind[2], record_at, key)
                if kind[2] != "toolResult" or kind[3] != c.TOOL_NAME:
                    continue
            elif kind[0] != "custom" or (kind[1] not in wanted and kind[1] != c.STATE_CUSTOM_TYPE):
                continue
            part = kind[1] if kind[0] == "custom" and kind[1] != c.STATE_CUSTOM_TYPE else TODO
            if part in wanted and (restored := self._restorer.apply(point, record_at(key))) is not None:
                point = restored.point
                wanted.discard(part)
        older.absent |= wanted  # (none before ``at``: none before any piece further back either)
        self.point = point
        self._user_arm_at = -2
        if at:
            position, kind, key = picked[at - 1]
            if kind[0] == "custom" and kind[1] == c.CYCLE_CUSTOM_TYPE and position == picked[at][0] - 1:
                self._cycle(position, record_at(key))  # (only its mark is kept)

    # -- one entry ---------------------------------------------------------------------------------

    def _entry(self, position: int, entry: Mapping[str, Any]) -> list[Event]:
        kind, custom_type = entry.get("type"), entry.get("customType")
        if kind == "custom" and custom_type == c.CYCLE_CUSTOM_TYPE:
            return self._cycle(position, entry)
        if kind == "custom_message" and custom_type == SUBAGENT_ENTRY:  # (a Claude Code subagent started or ended)
            text = entry.get("content")
            return [self._event(position, entry, SESSION, TOOL, text)] if isinstance(text, str) else []
        if kind == "custom_message":
            return self._followup(position, entry)
        if kind == "custom" and custom_type == verdicts.ENTRY_TYPE:
            return self._verdict(position, entry)
        if kind == "custom":
            return self._state_entry(position, entry, self._source_of(str(custom_type), entry))
        text = _session_text(entry)
        return [self._event(position, entry, SESSION, None, text)] if text else []

    def _state_entry(self, position: int, entry: Mapping[str, Any], source: str | None,
                     extra: Sequence[str] = ()) -> list[Event]:
        restored = self._restorer.apply(self.point, entry)
        if restored is None:
            return []
        before, self.point = self.point, restored.point
        texts = list(extra)
        if not restored.valid:
            texts.append(f"invalid entry: {PART_TITLES[restored.part]} reads as empty")
        events = [self._event(position, entry, restored.part, source, t) for t in texts]
        for text, changes in event_texts(diff_points(before, self.point)):
            events.append(self._event(position, entry, restored.part, source, text, changes))
        return events

    def _todo_result(self, position: int, entry: Mapping[str, Any]) -> list[Event]:
        message = entry.get("message")
        message = message if isinstance(message, dict) else {}
        said = ""
        if c.OWNERSHIP_CONTINUATION in (reply := message_text(message.get("content"))):
            extra, source, said = ["write rejected by the ownership gate"], GATE, reply
        elif message.get("isError") is True:
            extra, source = ["todo call failed"], TOOL
        else:
            extra, source = [], TOOL
        events = self._state_entry(position, entry, source, extra)
        if not events and extra:  # a rejection whose result holds no state candidate
            events = [self._event(position, entry, TODO, source, extra[0])]
        if said:  # (on the rejection's own line, not on the changes the same result made)
            events = [replace(e, said=said) if e.text == extra[0] else e for e in events]
        details = message.get("details")
        agent_plan = details.get("agentPlan") if isinstance(details, dict) else None
        noun = agent_plan.get("noun") if isinstance(agent_plan, dict) else None
        if isinstance(noun, str) and noun != "todo":  # an agent's own plan: its items by their name
            events = [replace(e, text=_renamed(e.text, noun)) for e in events]
        by = agent_plan.get("by") if isinstance(agent_plan, dict) else None
        if isinstance(by, str):  # a Claude Code subagent's call
            events = [replace(e, text=f"{e.text} (by {by})") for e in events]
        return events

    def _cycle(self, position: int, entry: Mapping[str, Any]) -> list[Event]:
        data = entry.get("data")
        if not isinstance(data, dict) or not isinstance(data.get("armed"), bool):
            return [self._event(position, entry, TODO, GATE, "ignored a gate cycle entry without a boolean armed")]
        reason = data.get("reason")
        source = COMMAND if reason == "user" else GATE
        if data["armed"]:
            if reason == "user":
                self._user_arm_at = position
            text = "todo gates re-armed on new work" if reason == "new_work" else "todo gates armed"
        elif isinstance(reason, str):
            text = _DISARMED.get(reason) or f"todo gates disarmed ({reason})"
        else:
            text = "todo gates disarmed"
        return [self._event(position, entry, TODO, source, text)]

    def _followup(self, position: int, entry: Mapping[str, Any]) -> list[Event]:
        kind, ids = followup_kind(entry)
        named = f" ({names(ids, '#')})" if ids else ""
        text = _FOLLOWUPS.get(kind or "", "follow-up sent").format(ids=named)
        by_person = entry.get(WRITER_KEY) == PERSON or (kind == "poke" and self._user_arm_at == position - 1)
        source = COMMAND if by_person else GATE
        return [replace(self._event(position, entry, TODO, source, text), said=message_text(entry.get("content")))]

    def _verdict(self, position: int, entry: Mapping[str, Any]) -> list[Event]:
        """A judge pideck recorded (``core/primitives/progress/verdicts.py``). One that grew the record is already
        worded from its state entry; one that found nothing new changed no state, so only this
        entry tells of it."""
        read = verdicts.read_verdict(entry)
        if read is None or read[0]["outcome"] != "no_progress":
            return []
        withdrawn = len(read[0].get("withdrawnMilestones", []))
        text = "verdict: no progress" + (f" ({withdrawn} withdrawn)" if withdrawn else "")
        data = entry.get("data")
        via = data.get("via") if isinstance(data, dict) else None
        return [self._event(position, entry, PROGRESS, {"tool": TOOL, "command": COMMAND}.get(str(via)), text)]

    def _source_of(self, custom_type: str, entry: Mapping[str, Any]) -> str | None:
        """TOOL when the entry follows an assistant message that called a tool writing this type
        (pi appends a tool's entry between its call and its result). A todo state tells by itself:
        it is written with todos only for a todo call, empty only for ``/todos clear``. Otherwise
        None: the entry is the same whoever wrote it (a pi slash command, or ``pideck tool``, an
        MCP call or a command line writing into the file), so "who" stays unknown rather than a
        guess (a conversation's call-less entry once read as a person's, wrongly for pideck's)."""
        by = entry.get(WRITER_KEY)
        if by in _SOURCE_OF_WRITER:  # pideck recorded who as it wrote (docs/session-format.md#who-wrote-an-entry)
            return _SOURCE_OF_WRITER[by]
        prefix = PRIMITIVE_TOOLS[custom_type]
        if self._last_message is not None:
            role, record_at, key = self._last_message
            if role == "assistant" and _calls(record_at(key), prefix):
                return TOOL
        if custom_type == c.STATE_CUSTOM_TYPE:
            data = entry.get("data")
            todos = data.get("todos") if isinstance(data, dict) else None
            return TOOL if todos else COMMAND
        return None

    def _event(self, position: int, entry: Mapping[str, Any], part: str, source: str | None, text: str,
               changes: Sequence[Change] = ()) -> Event:
        timestamp = entry.get("timestamp")
        return Event(str(entry.get("id")), timestamp if isinstance(timestamp, str) else None, position, part,
                     source, text, tuple(changes))


def _place(record: object) -> tuple[object, ...] | None:
    """Where an entry sits in its file and what the index says of it, read from the record alone
    (the body of a record of another thread's log is never read here); None for an entry that
    is no index record."""
    if not isinstance(record, EntryRecord):
        return None
    return record.id, record.parent_id, record.type, record.offset, record.length, record.line_no


def _calls(assistant: Mapping[str, Any], prefix: str) -> bool:
    """The assistant message calls a tool named ``prefix`` (or starting with it, for a prefix
    ending in "_")."""
    message = assistant.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "toolCall":
            name = block.get("name")
            if isinstance(name, str) and (name == prefix or (prefix.endswith("_") and name.startswith(prefix))):
                return True
    return False


def gave_up_words(reason: str) -> str:
    """``todo gates gave up: no progress between stops``: one wording for the activity row, the
    strip's header and any other place that says it."""
    return f"todo gates gave up: {GAVE_UP_WHY[reason]}"


_DISARMED = {
    "user": "todo gates turned off",
    "passed": "todo gates passed",
    "no_todos": "todo gates disarmed: no todos",
    **{reason: gave_up_words(reason) for reason in GAVE_UP_WHY},
}


def gave_up(replay: Replay) -> str | None:
    """The disarm reason while the todo gates stay given up on the agent (until something arms them
    again) and the list still holds todos; None otherwise."""
    flags = replay.flags
    if flags.armed or flags.last_disarm_reason not in GATE_GAVE_UP or not replay.state.todos:
        return None
    return flags.last_disarm_reason


_FOLLOWUPS = {
    "poke": "poke sent{ids}",
    "watchdog": "watchdog poke sent{ids}",
    "digest": "quality review sent{ids}",
    "completion": "completion challenged{ids}",
    "spike": "confidence spike challenged{ids}",
    "nudge": "idle nudge sent{ids}",
}


def _session_text(entry: Mapping[str, Any]) -> str | None:
    kind = entry.get("type")
    if kind == "label":
        label, target = entry.get("label"), entry.get("targetId")
        if isinstance(label, str) and label:
            return f"label {label} on {target}"
        return f"label cleared on {target}"
    if kind == "branch_summary":
        summary = entry.get("summary")
        return f"branch summary: {first_line(summary)}" if isinstance(summary, str) else "branch summary"
    if kind == "session_info":
        name = entry.get("name")
        return f"session named {name}" if isinstance(name, str) else None
    return None


def first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0] + (" …" if len(lines) > 1 else "") if lines else ""


# -- wording ---------------------------------------------------------------------------------------


def names(keys: Sequence[str], mark: str = "") -> str:
    """``#t1, #t2, #t3``; past three, the first two and the last: ``#t1, #t2 … #t12``."""
    shown = [f"{mark}{k}" for k in keys]
    if len(shown) > 3:
        return f"{shown[0]}, {shown[1]} … {shown[-1]}"
    return ", ".join(shown)


def _renamed(text: str, noun: str) -> str:
    """``todo #2 started`` as an agent's plan names its items: ``task #2 started``."""
    for word, name in (("todos ", f"{noun}s "), ("todo ", f"{noun} ")):
        if text.startswith(word):
            return name + text[len(word):]
    return text


def _plural(subject: str, n: int) -> str:
    return subject if n == 1 else {"work item": "work items", "todo": "todos", "decision": "decisions",
                                   "packet": "packets", "milestone": "milestones", "goal": "goals"}[subject]


_TODO_STATUS_VERBS = {"completed": "completed", "cancelled": "cancelled", "in_progress": "started"}
_VERBS = {
    ("work item", "added"): "added", ("work item", "removed"): "removed",
    ("decision", "added"): "added", ("decision", "removed"): "removed",
    ("packet", "added"): "created", ("packet", "removed"): "removed",
    ("todo", "added"): "added", ("todo", "removed"): "removed",
    ("goal", "added"): "added", ("goal", "removed"): "removed",
    ("milestone", "added"): "declared", ("milestone", "removed"): "withdrawn",
}
_TEXT_FIELDS = {"content": "reworded", "feedback_loop": "feedback loop changed"}
_NUMBER_FIELDS = {"confidence": "confidence", "completion_confidence": "completion confidence",
                  "closed_feedback_loop": "closed loop", "end_to_end_ownership": "ownership",
                  "priority": "priority", "group": "group"}


def _todo_verb(before: Any, after: Any) -> str:
    if after == "pending":
        return "reopened" if before in ("completed", "cancelled") else "back to pending"
    return _TODO_STATUS_VERBS.get(after, f"status {after}")


def _value(value: Any) -> str:
    return "none" if value is None else str(value)


def event_texts(changes: Sequence[Change]) -> list[tuple[str, tuple[Change, ...]]]:
    """The changes of one entry as event texts, each with the changes it words: changes of one
    kind are said once ("todos #t1, #t2 … #t12 removed")."""
    groups: dict[tuple[Any, ...], list[Change]] = defaultdict(list)
    for change in changes:  # (most changes add or remove: their group is made here, without a call)
        groups[(change.subject, change.kind) if change.kind != "changed" else _group(change)].append(change)
    texts: list[tuple[str, tuple[Change, ...]]] = []
    verdict = [c for c in changes if c.subject in ("baseline", "recorded milestone")]
    said_verdict = False
    for key, grouped in groups.items():
        if grouped[0].subject in ("baseline", "recorded milestone"):
            if not said_verdict:
                said_verdict = True
                texts.append((_verdict_text(verdict), tuple(verdict)))
            continue
        texts.append((_group_text(key, grouped), tuple(grouped)))
    return texts


def _group(change: Change) -> tuple[Any, ...]:
    """The group of a changed item's change (an added or removed one's is its subject and kind)."""
    if change.field == "status":
        if change.subject == "todo":
            return ("todo", "status", _todo_verb(change.before, change.after))
        return (change.subject, "status", change.before, change.after)
    if change.subject in ("objective", "plan", "packet"):
        return (change.subject, change.field, change.key)
    if change.field in _NUMBER_FIELDS and change.subject != "todo":
        return (change.subject, change.field, change.key)
    return (change.subject, "field", change.field)


def _group_text(key: tuple[Any, ...], changes: list[Change]) -> str:
    first = changes[0]
    subject, n = first.subject, len(changes)
    mark = "#" if subject == "todo" else ""
    who = f"{_plural(subject, n)} {names([ch.key or '(no group)' for ch in changes], mark)}"
    if subject == "objective":
        return {"added": "objective set", "removed": "objective cleared", "changed": "objective changed"}[first.kind]
    if subject == "plan":
        if first.field == "explanation":
            return f"explanation: {first.after}"
        if first.field == "user_intention":
            return ("user intention set" if first.before is None else
                    "user intention cleared" if first.after is None else "user intention changed")
        return f"intent understanding {_value(first.before)} → {_value(first.after)}"
    if first.kind != "changed":
        return f"{who} {_VERBS[(subject, first.kind)]}"
    if first.field == "status":
        if subject == "todo":
            return f"{who} {key[2]}"
        return f"{who}: {_value(first.before)} → {_value(first.after)}"
    if subject == "packet":
        return f"{who} replaced"
    if first.field in _TEXT_FIELDS:
        return f"{who} {_TEXT_FIELDS[first.field]}"
    label = _NUMBER_FIELDS.get(first.field, first.field)
    if n == 1:
        return f"{who} {label} {_value(first.before)} → {_value(first.after)}"
    return f"{who} {label} changed"


def _verdict_text(changes: list[Change]) -> str:
    """A judge grows the record: the first sets the baseline, later ones record new milestones."""
    baseline = next((ch.kind for ch in changes if ch.subject == "baseline"), None)
    recorded = [ch.key for ch in changes if ch.subject == "recorded milestone" and ch.kind == "added"]
    dropped = [ch.key for ch in changes if ch.subject == "recorded milestone" and ch.kind == "removed"]
    count = f"{len(recorded)} milestone{'' if len(recorded) == 1 else 's'}"
    if baseline == "removed":
        return "judged record cleared"
    if baseline == "added":
        return f"verdict: baseline set ({count})"
    if recorded:
        return f"verdict: progress (+{count})"
    return f"{_plural('milestone', len(dropped))} {names(dropped)} dropped from the record"
