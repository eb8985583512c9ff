"""Derive the todo state, gate-cycle flags and turn counters from a branch
(docs/todo-replay.md#replay-from-the-branch).

Nothing here is held between calls: every reader replays the branch, so a reload or a branch
switch yields exactly what the live machine had at that point.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from core.primitives.todo import constants as c
from core.primitives.todo.gate_checks import signature
from core.primitives.todo.model import TodoState
from core.primitives.todo.normalize import holds_write
from core.primitives.todo.observations import Observation, cap, record_reframe_observations
from core.primitives.todo.restore import is_state_details, restore_state_data, restore_tool_details
from core.session.records import EntryRecord
from core.slotted import Slotted

if TYPE_CHECKING:  # (for the type checker alone: a TypedDict made at run time compiles its annotations)
    from typing import TypedDict

    from core.primitives.todo.restore import Earlier
    from core.shapes import TodoCycleJson, TodoStateJson

    class SavedFold(TypedDict):
        """What ``Replayer.dump`` keeps of a fold (JSON)."""

        state: TodoStateJson
        flags: dict[str, object]  # CycleFlags' fields by name
        observations: list[list[str | int | None]]  # [kind, group, score] each
        warnings: list[str]
        invalid: bool
        dead: int
        turns: int
        candidate: bool

_POKE_RE = re.compile(  # JavaScript's \d is [0-9]
    r"You have [0-9]+ incomplete todos?\. Continue working, or update the todo tool\."
)
CYCLE_WARNING = 'pi-jtodo: ignored a pi-jtodo/cycle entry without a boolean "armed".'


class CycleFlags(Slotted):
    """The turn-end machine's flags, replayed from the cycle entries and follow-ups. (This and
    ``Replay`` are plain classes, as the todo model is: ``core/slotted.py``.)"""

    __slots__ = ("armed", "digest_delivered", "spike_challenged", "attempts", "last_signature", "poke_state",
                 "unchanged_settles", "targets", "last_disarm_reason")

    def __init__(self, armed: bool, digest_delivered: bool = False, spike_challenged: bool = False,
                 attempts: int = 0, last_signature: list[str] | None = None,
                 poke_state: Mapping[str, object] | None = None, unchanged_settles: int = 0,
                 targets: list[str] | None = None, last_disarm_reason: str | None = None) -> None:
        self.armed = armed
        self.digest_delivered = digest_delivered
        self.spike_challenged = spike_challenged
        self.attempts = attempts
        self.last_signature = last_signature
        self.poke_state = poke_state  # the todo state's JSON at the last poke, only compared with the next
        self.unchanged_settles = unchanged_settles
        self.targets: list[str] = [] if targets is None else targets
        self.last_disarm_reason = last_disarm_reason

    def reset(self) -> None:
        self.digest_delivered = False
        self.spike_challenged = False
        self.attempts = 0
        self.last_signature = None
        self.poke_state = None
        self.unchanged_settles = 0
        self.targets = []

    def to_json(self) -> TodoCycleJson:
        return {
            "armed": self.armed,
            "digest_delivered": self.digest_delivered,
            "spike_challenged": self.spike_challenged,
            "attempts": self.attempts,
            "last_signature": self.last_signature,
            "unchanged_settles": self.unchanged_settles,
            "targets": list(self.targets),
            "last_disarm_reason": self.last_disarm_reason,
        }


class Replay(Slotted):
    """Everything the turn-end machine and the views need, derived from one branch."""

    __slots__ = ("state", "flags", "observations", "warnings", "dead_watchdog_pokes", "assistant_turns_since_write",
                 "newest_entry_ms", "entry_count", "has_candidate")

    def __init__(self, state: TodoState, flags: CycleFlags, observations: list[Observation], warnings: list[str],
                 dead_watchdog_pokes: int, assistant_turns_since_write: int, newest_entry_ms: int | None,
                 entry_count: int, has_candidate: bool = False) -> None:
        self.state = state
        self.flags = flags
        self.observations = observations
        self.warnings = warnings
        self.dead_watchdog_pokes = dead_watchdog_pokes  # watchdog follow-ups since the last activity or cycle entry
        self.assistant_turns_since_write = assistant_turns_since_write  # since the newest todo write or nudge
        self.newest_entry_ms = newest_entry_ms
        self.entry_count = entry_count
        # the branch holds a todo state candidate, valid or not (docs/todo-replay.md#restoring-the-todo-state)
        self.has_candidate = has_candidate


def timestamp_ms(entry: Mapping[str, Any]) -> int | None:
    value = entry.get("timestamp")
    if not isinstance(value, str):
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None


def message_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def followup_kind(entry: Mapping[str, Any]) -> tuple[str | None, list[str]]:
    details = entry.get("details")
    if isinstance(details, dict) and details.get("kind") in c.FOLLOWUP_KINDS:
        ids = details.get("ids")
        ids = [i for i in ids if isinstance(i, str)] if isinstance(ids, list) else []
        return details["kind"], ids
    text = message_text(entry.get("content"))
    if text.startswith(c.DIGEST_PREFIX):
        return "digest", []
    if text.startswith(c.SPIKE_CONTINUATION):
        return "spike", []
    if text.startswith(c.COMPLETION_CONTINUATION):
        return "completion", []
    if _POKE_RE.fullmatch(text):
        return "poke", []
    return None, []


def _role(entry: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(role, toolName) of a ``message`` entry without loading a lazy record's body."""
    if isinstance(entry, EntryRecord):  # an index record: answered without reading the body
        return entry.role, entry.tool_name
    msg = entry.get("message")
    if not isinstance(msg, dict):
        return None, None
    return msg.get("role"), msg.get("toolName")


def _tool_call_arguments(assistant: Mapping[str, Any], call_id: Any) -> tuple[bool, Any]:
    msg = assistant.get("message")
    content = msg.get("content") if isinstance(msg, dict) else None
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict) or block.get("type") != "toolCall":
            continue
        if block.get("id") == call_id:
            return True, block.get("arguments")
    return False, None


def read_by_fold(kind: str | None, custom_type: str | None, role: str | None, tool_name: str | None) -> bool:
    """Entries the fold does more with than end a run of watchdog follow-ups (``_Walker.entry``),
    told apart by what a session log's index knows of them; the fold skips the others."""
    if kind == "custom_message":
        return custom_type == c.FOLLOWUP_CUSTOM_TYPE
    if kind == "custom":
        return custom_type in (c.CYCLE_CUSTOM_TYPE, c.STATE_CUSTOM_TYPE)
    return kind == "message" and (role == "assistant" or (role == "toolResult" and tool_name == c.TOOL_NAME))


class _Walker:
    def __init__(self, armed: bool, max_observations: int) -> None:
        self.state = TodoState()
        self.flags = CycleFlags(armed=armed)
        self.observations: list[Observation] = []
        self.cap = max_observations
        self.invalid = False
        self.warnings: list[str] = []
        self.dead = 0
        self.turns = 0
        self.assistants: list[Any] = []  # entries, or (record_at, key) to fetch one with
        # the assistants before a fold restored from the log (see Replayer.restore): listed when
        # first looked through
        self.earlier: Callable[[], list[Any]] | list[Any] = []
        self._json_of: tuple[TodoState, TodoStateJson] | None = None
        self.seen_candidate = False
        # the newest valid todo result, whose unchanged items the next one takes over (a speed-up
        # alone: restore.py ``_items``; a plan restated 2,000 times is otherwise checked in full each time)
        self._earlier: Earlier | None = None

    def fork(self) -> _Walker:
        """A copy that shares nothing the fold changes in place (the state and the observation
        list are replaced, never changed, so they are shared)."""
        import copy  # (here: a fold of a small session is never forked, and copy loads weakref)

        twin = copy.copy(self)
        twin.flags = self.flags.replace(targets=list(self.flags.targets))
        twin.warnings = list(self.warnings)
        twin.assistants = list(self.assistants)
        return twin

    def state_json(self) -> TodoStateJson:
        """``state.to_json()``, serialised once per state: pokes between two writes compare the
        same state, and a 500-item list is not worth serialising at every follow-up."""
        if self._json_of is None or self._json_of[0] is not self.state:
            self._json_of = (self.state, self.state.to_json())
        return self._json_of[1]

    def candidate(
        self, restored: TodoState | None, is_write: bool | None, state_entry: bool = False
    ) -> None:
        """A state candidate; ``is_write`` None means "a write when the state changed". Only a
        ``pi-jtodo/state`` entry holding the empty state (``/todos clear``) clears the log."""
        previous = self.state
        self.seen_candidate = True
        self.invalid = restored is None
        self.state = restored if restored is not None else TodoState()
        if restored is None:
            return
        if is_write is None:
            is_write = not restored.same_as(previous)
        if not is_write:
            return
        self.turns = 0
        if state_entry and restored.is_empty():
            self.observations = []
            return
        plan, goals, todos = restored.plan, restored.goals, restored.todos
        new = record_reframe_observations(plan, goals, todos, previous.todos)
        self.observations = cap(self.observations + new, self.cap)

    def entry(self, entry: Mapping[str, Any]) -> None:
        kind = entry.get("type")  # read once: on a big session most entries are lazy index records
        if kind == "custom_message" and entry.get("customType") == c.FOLLOWUP_CUSTOM_TYPE:
            self.followup(entry)
            return
        self.dead = 0
        if kind == "custom":
            custom_type = entry.get("customType")
            if custom_type == c.CYCLE_CUSTOM_TYPE:
                self.cycle(entry.get("data"))
            elif custom_type == c.STATE_CUSTOM_TYPE:
                self.candidate(restore_state_data(entry.get("data")), True, state_entry=True)
            return
        if kind != "message":
            return
        role, tool_name = _role(entry)
        if role == "assistant":
            self.turns += 1
            self.assistants.append(entry)
        elif role == "toolResult" and tool_name == c.TOOL_NAME:
            msg = entry.get("message")
            if isinstance(msg, dict):
                self.tool_result(msg)

    def call_arguments(self, call_id: Any) -> tuple[bool, Any]:
        """The matching tool call, newest assistant message first (bodies load lazily)."""
        if callable(self.earlier):
            self.earlier = self.earlier()
        for assistants in (self.assistants, self.earlier):
            for assistant in reversed(assistants):
                if isinstance(assistant, tuple):  # (record_at, key) from feed_picked
                    assistant = assistant[0](assistant[1])
                found, arguments = _tool_call_arguments(assistant, call_id)
                if found:
                    return True, arguments
        return False, None

    def tool_result(self, msg: dict[str, object]) -> None:
        """``msg``: a ``todo`` tool result's message as the log holds it (JSON, each value checked)."""
        details = msg.get("details")
        if not isinstance(details, dict) or not is_state_details(details):
            return
        restored = restore_tool_details(details, self._earlier)
        if restored is not None:
            self._earlier = (details["todos"], restored)
        is_write: bool | None = None
        rejected = c.OWNERSHIP_CONTINUATION in message_text(msg.get("content"))
        if msg.get("isError") is True or rejected:
            is_write = False
        elif restored is not None and restored.agent_plan is not None:
            is_write = True  # an agent's own plan tool changed its plan (there is no todo call to look up)
        else:
            found, arguments = self.call_arguments(msg.get("toolCallId"))
            if found:
                is_write = holds_write(arguments)
        self.candidate(restored, is_write)

    def cycle(self, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("armed"), bool):
            self.warnings.append(CYCLE_WARNING)
            return
        self.flags.armed = data["armed"]
        self.flags.reset()
        if not data["armed"]:
            reason = data.get("reason")
            self.flags.last_disarm_reason = reason if isinstance(reason, str) else None

    def followup(self, entry: Mapping[str, Any]) -> None:
        kind, ids = followup_kind(entry)
        f = self.flags
        if kind in ("poke", "watchdog"):
            f.attempts, f.last_signature = 0, None
            if kind == "poke":
                now = self.state_json()
                f.unchanged_settles = f.unchanged_settles + 1 if f.poke_state == now else 0
                f.poke_state = now
            else:
                self.dead += 1
        elif kind == "digest":
            f.digest_delivered = True
            self.observations = []
        elif kind in ("completion", "spike"):
            f.attempts += 1
            f.last_signature = signature(self.state.todos)
            if kind == "spike":
                f.spike_challenged = True
        elif kind == "nudge":
            self.turns = 0
            return
        else:
            return
        f.targets = ids


class Replayer:
    """The branch fold, resumable: feed entries in branch order, read ``result()`` at any point.

    Feeding only what was appended since the last call makes a live refresh O(new entries)
    instead of O(branch). ``result()`` hands out copies of what the fold keeps mutating.
    """

    def __init__(self, armed_at_start: bool, max_observations: int) -> None:
        self._walker = _Walker(armed_at_start, max_observations)
        self._last: Mapping[str, Any] | None = None
        self.count = 0

    def fork(self) -> Replayer:
        """An independent copy of the fold as it stands: a checkpoint that a later fold of the same
        branch resumes from instead of replaying the entries before it."""
        twin = Replayer.__new__(Replayer)
        twin._walker = self._walker.fork()
        twin._last, twin.count = self._last, self.count
        return twin

    def feed(self, entries: Iterable[Mapping[str, Any]]) -> None:
        for entry in entries:
            if not isinstance(entry, Mapping):
                continue
            self._walker.entry(entry)
            self._last = entry
            self.count += 1

    def feed_picked(
        self,
        picked: Iterable[tuple[int, tuple[str | None, ...], int]],
        length: int,
        record_at: Callable[[int], Mapping[str, Any]],
        last: Mapping[str, Any] | None,
    ) -> None:
        """Feed the branch up to position ``length`` given only the entries ``read_by_fold``
        picked, as (branch position, (type, customType, role, toolName), key) triples, where
        ``record_at(key)`` gives the entry; ``last`` is the branch's last entry. The entries left
        out would only have ended a run of watchdog follow-ups, which a gap in the positions does.
        An assistant message is only counted and fetched if a todo result asks for its call."""
        walker = self._walker
        assistants = walker.assistants
        for position, kind, key in picked:
            if kind[0] == "message" and kind[2] == "assistant":  # (walker.entry's, without the body)
                walker.dead = 0
                walker.turns += 1
                assistants.append((record_at, key))
            else:
                if position > self.count:
                    walker.dead = 0
                walker.entry(record_at(key))
            self.count = position + 1
        if length > self.count:
            walker.dead = 0
        if length > 0 and last is not None:
            self.count, self._last = length, last

    # -- kept between runs (the saved session index) -------------------------------------------

    def dump(self) -> SavedFold:
        """What ``restore`` needs to carry on where this fold stopped (JSON), apart from where
        it stopped: the log keeps that (the branch prefix the fold covers, and its last entry)."""
        import copy  # (here: a small session keeps no index, so its fold is never dumped)

        w = self._walker
        return {
            "state": w.state.to_json(), "flags": copy.deepcopy(w.flags.fields()),
            "observations": [[o.kind, o.group, o.score] for o in w.observations],
            "warnings": w.warnings, "invalid": w.invalid, "dead": w.dead, "turns": w.turns,
            "candidate": w.seen_candidate,
        }

    @classmethod
    def restore(
        cls, saved: Any, max_observations: int, count: int, last: Mapping[str, Any],
        earlier: Callable[[], list[Any]],
    ) -> Replayer | None:
        """The fold ``dump`` described, having read ``count`` branch entries up to ``last``;
        ``earlier()`` lists the assistant messages among them (as ``feed_picked`` keeps them).
        None when ``saved`` is not such a description (the fold then starts from the root)."""
        try:
            state = restore_state_data({**saved["state"], "schemaVersion": 1})
            flags = CycleFlags(**saved["flags"])
            observations = [Observation(kind, group, score) for kind, group, score in saved["observations"]]
            numbers = (saved["dead"], saved["turns"])
            facts = (saved["invalid"], saved["candidate"])
            warnings = saved["warnings"]
        except (KeyError, TypeError, ValueError):
            return None
        f = flags
        if (state is None or not _is_list_of(warnings, str) or not all(type(n) is int and n >= 0 for n in numbers)
                or not all(type(b) is bool for b in (f.armed, f.digest_delivered, f.spike_challenged, *facts))
                or not all(type(n) is int and n >= 0 for n in (f.attempts, f.unchanged_settles))
                or not (f.last_signature is None or _is_list_of(f.last_signature, str))
                or not (f.poke_state is None or isinstance(f.poke_state, dict))
                or not _is_list_of(f.targets, str)
                or not (f.last_disarm_reason is None or isinstance(f.last_disarm_reason, str))
                or not all(isinstance(o.kind, str) and (o.group is None or isinstance(o.group, str))
                           and (o.score is None or type(o.score) is int) for o in observations)):
            return None
        replayer = cls(f.armed, max_observations)
        w = replayer._walker
        w.state, w.flags, w.observations, w.warnings = state, flags, observations, list(warnings)
        w.invalid, w.seen_candidate = facts
        w.dead, w.turns = numbers
        w.earlier = earlier
        replayer.count, replayer._last = count, last
        return replayer

    def feed_all(self, entries: Iterable[Mapping[str, Any]]) -> Replay:
        self.feed(entries)
        return self.result()

    def result(self) -> Replay:
        w = self._walker
        warnings = list(w.warnings)
        if w.invalid:
            warnings.append(c.RESTORE_WARNING)
        return Replay(
            state=w.state,
            flags=w.flags.replace(targets=list(w.flags.targets)),
            observations=list(w.observations),
            warnings=warnings,
            dead_watchdog_pokes=w.dead,
            assistant_turns_since_write=w.turns,
            newest_entry_ms=timestamp_ms(self._last) if self._last is not None else None,
            entry_count=self.count,
            has_candidate=w.seen_candidate,
        )


def _is_list_of(value: Any, kind: type) -> bool:
    return isinstance(value, list) and all(isinstance(v, kind) for v in value)


def replay(
    entries: Iterable[Mapping[str, Any]], armed_at_start: bool, max_observations: int
) -> Replay:
    return Replayer(armed_at_start, max_observations).feed_all(entries)
