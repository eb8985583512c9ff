"""Time travel: the whole deck of a session as it was at any entry, on any branch.

``TimeMachine.deck_at(entry)`` gives a Deck over a ``CutLog`` (``core/session/cut.py``), so the
derived state, the views and ``pideck inspect`` work unchanged and every write is refused. Moving
from one point to the next must stay cheap on a 100,000-entry session, so nothing is derived from
the start twice:

- the branch to a point is a prefix of a branch already walked (kept per leaf, a few at a time);
- the three primitives restore from the newest entry of their type at or before the point, found
  by bisecting that branch's list of where each type occurs;
- the todo fold, which must see every entry, resumes from the nearest checkpoint before the point
  (a copy of the fold taken every ``CHECKPOINT_EVERY`` branch entries), so a step replays at most
  that many entries.

Checkpoints and branches are shared where branches share their start. A file re-read from scratch
(a new ``generation``) drops them all. See docs/time-travel.md.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable, TypedDict

from core.config.settings import TodoConfig
from core.deck.deck import Deck
from core.primitives.todo.replay import Replayer, read_by_fold
from core.session.cut import CutLog, cut_branch
from core.session.interface import IndexedLog
from core.session.records import EntryRecord
from core.views.points import RESTORED_TYPES, Point, point_of

CHECKPOINT_EVERY = 4096
"""Branch entries between two checkpoints of the todo fold: the most a step replays."""
BRANCHES_KEPT = 8



class UnknownEntry(LookupError):
    """An entry id (or ``leaf``) that names no entry of the session."""


@dataclass
class _Branch:
    """One walked branch: positions root to leaf, where each restored type occurs, fold checkpoints."""

    path: list[int]
    at: dict[int, int]  # position in the file -> place on the branch
    marks: dict[str, list[int]]  # custom type -> places on the branch of its entries, ascending
    checkpoints: list[tuple[int, Replayer]] = field(default_factory=list)  # (entries folded, fold)


class AsOfJson(TypedDict):
    """Where ``pideck inspect --at`` and ``pideck diff --json`` say a point is."""

    entry: str
    timestamp: str | None
    entryNumber: int
    entries: int
    branchLength: int
    onCurrentBranch: bool
    leaf: bool


@dataclass(frozen=True)
class AsOf:
    """Where a past point sits: its entry, its time, its place in the file and on its branch."""

    entry_id: str
    timestamp: str | None
    position: int  # 0-based place in the file: "entry N of M" says position + 1
    entries: int  # entries in the whole file now
    branch_length: int  # entries from the root to this one
    on_current_branch: bool
    is_leaf: bool  # the last entry of the file: the live state

    @property
    def when(self) -> str:
        """The entry's time for a person: ``2026-11-30 15:50:53 UTC`` (the log's text if it is no
        ISO time)."""
        if self.timestamp is None:
            return "an unknown time"
        try:
            moment = datetime.fromisoformat(self.timestamp.replace("Z", "+00:00"))
        except ValueError:
            return self.timestamp
        if moment.tzinfo is not None:
            try:
                moment = moment.astimezone(timezone.utc)
            except OverflowError:  # (0001-01-01T00:00:00+01:00: before year 1 in UTC)
                pass
        return moment.strftime("%Y-%m-%d %H:%M:%S UTC")

    @property
    def banner(self) -> str:
        """``as of 2026-11-30 15:50:53 UTC, entry 18 of 37`` (and where it sits, when not on the
        current branch or when it is the live leaf)."""
        text = f"as of {self.when}, entry {self.position + 1} of {self.entries}"
        if self.is_leaf:
            return text + " (the live state)"
        return text if self.on_current_branch else text + " (on another branch)"

    def json(self) -> AsOfJson:
        return {"entry": self.entry_id, "timestamp": self.timestamp, "entryNumber": self.position + 1,
                "entries": self.entries, "branchLength": self.branch_length,
                "onCurrentBranch": self.on_current_branch, "leaf": self.is_leaf}


class TimeMachine:
    """Past points of one session log. Not thread-safe: use it on the thread that owns the log."""

    def __init__(
        self,
        log: IndexedLog,
        *,
        todo_config: TodoConfig | None = None,
        clock: Callable[[], int] | None = None,
    ) -> None:
        self.log = log
        self.todo_config = todo_config or TodoConfig()
        self.clock = clock
        self._generation = log.generation
        self._branches: OrderedDict[int, _Branch] = OrderedDict()  # by leaf position, newest use last

    # -- naming points ----------------------------------------------------------------------------

    def position_of(self, entry: str | int) -> int:
        """The file position of an entry id (the later entry for a repeated id), of ``leaf`` (the
        last entry), or a position itself. Raises ``UnknownEntry``."""
        self._check_generation()
        count = len(self.log.records)
        if isinstance(entry, int):
            if 0 <= entry < count:
                return entry
            raise UnknownEntry(f"no entry at position {entry}")
        if entry == "leaf":
            if count:
                return count - 1
            raise UnknownEntry("the session has no entries yet")
        found = self.log.index.positions.get(entry)
        if found is None:
            raise UnknownEntry(f"no entry {entry} in {self.log.path.name}")
        return found

    def as_of(self, entry: str | int) -> AsOf:
        position = self.position_of(entry)
        branch, place = self._branch_of(position)
        record = self.log.records.record(position)
        timestamp = record.get("timestamp")
        current = self.log.branch()
        on_current = place < len(current) and current[place] is record
        return AsOf(record.id, timestamp if isinstance(timestamp, str) else None, position, len(self.log.records),
                    place + 1, on_current, position == len(self.log.records) - 1)

    # -- the deck at a point ----------------------------------------------------------------------

    def log_at(self, entry: str | int) -> CutLog:
        """The read-only log as it was at ``entry``."""
        position = self.position_of(entry)
        branch, place = self._branch_of(position)
        return CutLog(self.log, position, branch.path[:place + 1], self._newest(branch, place))

    def deck_at(self, entry: str | int) -> Deck[CutLog]:
        """A Deck over the session as it was at ``entry``; its todo fold resumes from the nearest
        checkpoint."""
        position = self.position_of(entry)
        branch, place = self._branch_of(position)
        cut = CutLog(self.log, position, branch.path[:place + 1], self._newest(branch, place))
        deck = Deck(cut, todo_config=self.todo_config, clock=self.clock)
        checkpoint = self._checkpoint(branch, place + 1)
        if checkpoint is not None:
            deck.todo.resume(checkpoint, self.log.records.record(branch.path[checkpoint.count - 1]))
        return deck

    def point_at(self, entry: str | int) -> Point:
        return point_of(self.deck_at(entry))

    # -- branches ---------------------------------------------------------------------------------

    def _check_generation(self) -> None:
        if self.log.generation != self._generation:  # the file was read again from scratch
            self._generation = self.log.generation
            self._branches.clear()

    def _branch_of(self, position: int) -> tuple[_Branch, int]:
        """A walked branch through ``position`` and the place of ``position`` on it."""
        index = self.log.index
        prefixes_hold = not index.pending and not index.duplicates  # see cut_branch
        if prefixes_hold:
            for leaf, branch in reversed(self._branches.items()):
                place = branch.at.get(position)
                if place is not None:
                    self._branches.move_to_end(leaf)
                    return branch, place
        branch = self._walk(position)
        if prefixes_hold:
            self._share_checkpoints(branch)
        self._branches[position] = branch
        while len(self._branches) > BRANCHES_KEPT:
            self._branches.popitem(last=False)
        return branch, len(branch.path) - 1

    def _walk(self, leaf: int) -> _Branch:
        index = self.log.index
        path = cut_branch(index, leaf)
        codes = {code: kind[1] for code, kind in enumerate(index.kind_table)
                 if kind[0] == "custom" and kind[1] in RESTORED_TYPES}
        marks: dict[str, list[int]] = {t: [] for t in RESTORED_TYPES}
        kinds = index.kinds
        for place, i in enumerate(path):
            found = codes.get(kinds[i])
            if found is not None:
                marks[found].append(place)
        return _Branch(path, {i: place for place, i in enumerate(path)}, marks)

    def _share_checkpoints(self, branch: _Branch) -> None:
        """Take over the checkpoints of a walked branch that starts the same way."""
        best: list[tuple[int, Replayer]] = []
        for other in self._branches.values():
            common = 0
            for a, b in zip(branch.path, other.path):
                if a != b:
                    break
                common += 1
            shared = [(n, fold) for n, fold in other.checkpoints if n <= common]
            if len(shared) > len(best):
                best = shared
        branch.checkpoints = list(best)

    def _newest(self, branch: _Branch, place: int) -> Callable[[str], int | None]:
        def newest(custom_type: str) -> int | None:
            marks = branch.marks.get(custom_type)
            if marks is None:  # a type the branch walk did not index: walk back
                return _walk_back(self.log, branch.path[:place + 1], custom_type)
            k = bisect_right(marks, place)
            return branch.path[marks[k - 1]] if k else None
        return newest

    # -- the todo fold's checkpoints --------------------------------------------------------------

    def _checkpoint(self, branch: _Branch, count: int) -> Replayer | None:
        """A copy of the fold of the branch's first n <= ``count`` entries with ``count - n`` under
        ``CHECKPOINT_EVERY``, making the checkpoints on the way; None when n would be 0."""
        if count < CHECKPOINT_EVERY:
            return None
        checkpoints = branch.checkpoints
        while True:
            done = checkpoints[-1][0] if checkpoints else 0
            if count - done < CHECKPOINT_EVERY:
                break
            fold = checkpoints[-1][1].fork() if checkpoints else self._new_replayer()
            end = done + CHECKPOINT_EVERY
            cut = CutLog(self.log, branch.path[end - 1], branch.path[:end])
            anchor: EntryRecord | None = self.log.records.record(branch.path[done - 1]) if done else None
            selection = cut.branch_select(read_by_fold, done, anchor)
            assert selection is not None  # the branch is walked: its prefix is there
            fold.feed_picked(*selection)
            checkpoints.append((end, fold))
        usable = [fold for n, fold in checkpoints if n <= count]
        return usable[-1].fork() if usable else None

    def _new_replayer(self) -> Replayer:
        config = self.todo_config
        return Replayer(config.enabled and config.auto_poke, config.max_gate_observations)


def _walk_back(log: IndexedLog, path: list[int], custom_type: str) -> int | None:
    index = log.index
    codes = index.codes(lambda kind, ct, role, tool: kind == "custom" and ct == custom_type)
    for i in reversed(path):
        if index.kinds[i] in codes:
            return i
    return None
