"""A session as it was at one entry: the file cut after that entry's line, read-only (a session
file's, or an agent's conversation's, whose log is one branch held in memory).

``CutLog`` answers every question of the log protocols (``interface.py``) the way a fresh
``SessionLog`` over the cut file would: the entry is the leaf, the branch runs from the root to
it, the newest entry of a type is the newest at or before it. So a ``Deck`` over it, and everything
derived from a Deck, shows the past without knowing it is the past; appends are refused.

It borrows the live log's index and records: nothing is read again, and a caller that keeps many
cuts of one session (``core/views/timetravel.py``) hands each the branch it already walked and a way to
find the newest entry of a type, so a cut costs no walk at all.
"""

from __future__ import annotations

import re
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from core.session import branch as branches
from core.session.branch import Picked, Wanted
from core.session.errors import ReadOnlySession
from core.session.index import EntryIndex
from core.session.log import Refresh
from core.session.records import EntryRecord, RecordList

if TYPE_CHECKING:
    from core.session.entry import AgentObject, Entry, Header, Tokens
    from core.session.interface import IndexedLog

PAST_IS_READ_ONLY = "This is the session as it was at an earlier entry: the past is read-only. Nothing was changed."

Newest = Callable[[str], "int | None"]
"""``newest(custom_type)``: the position in the file of the newest ``custom`` entry of that type
on the cut's branch, or None."""

_LINE = re.compile(r"line (\d+):")


def cut_branch(index: EntryIndex, leaf: int) -> list[int]:
    """Positions from the root to ``leaf`` in the file cut after ``leaf``: pi's id map then holds
    only the entries up to it (the later of two with one id wins), so a parent named by an entry
    further down is missing and ends the branch; a cycle ends it too."""
    if not index.pending and not index.duplicates:
        return index.walk(leaf)[0]  # every parent is an earlier entry: the cut changes nothing
    positions: dict[str, int] = {}
    for i in range(leaf + 1):
        positions[index.ids[i]] = i
    path: list[int] = []
    seen: set[int] = set()
    i = leaf
    while i >= 0 and i not in seen:
        seen.add(i)
        path.append(i)
        parent_id = index.parent_id(i)
        i = positions.get(parent_id, -1) if parent_id is not None else -1
    path.reverse()
    return path


class CutLog:
    """``log`` as it was when the entry at ``position`` was its last line (a read-only log).

    ``branch``: the branch to that entry when the caller knows it (root first); ``newest``: finds
    the newest entry of a custom type on it (default: a walk back along the branch)."""

    def __init__(
        self, log: IndexedLog, position: int, branch: Sequence[int] | None = None, newest: Newest | None = None,
    ) -> None:
        if not 0 <= position < len(log.records):
            raise IndexError(f"no entry at position {position}")
        self.live = log
        self.position = position
        self._branch = list(branch) if branch is not None else cut_branch(log.index, position)
        self._newest = newest
        self._records = log.records

    # -- what the header and the file say ---------------------------------------------------------

    @property
    def path(self) -> Path:
        return self.live.path

    @property
    def shown_path(self) -> Path:
        return self.live.shown_path

    def last_turn_tokens(self) -> Tokens | None:
        """As ``SessionLog.last_turn_tokens``, of the newest assistant message up to the cut."""
        return branches.last_turn_tokens(self.live.index, self._records, self._branch)

    def agent(self) -> AgentObject | None:
        """The live conversation's agent object without what is known only of now (its status,
        last activity, last words and tokens); None for a session."""
        agent = self.live.agent()
        if agent is None:
            return None
        past: AgentObject = {**agent, "status": None, "lastActivity": None, "lastActivityOf": None, "lastMessage": None,
                             "tokens": None}
        if "subagents" in past:  # (whether they run is known only of now)
            past["subagents"] = None
        if "cost" in past:
            past["cost"] = None
        return past

    @property
    def header(self) -> Header | None:
        return self.live.header

    @property
    def cwd(self) -> str | None:
        return self.live.cwd

    @property
    def read_only_reason(self) -> str:
        return PAST_IS_READ_ONLY

    @property
    def writable(self) -> bool:
        return False

    @property
    def generation(self) -> int:
        return self.live.generation

    @property
    def entry_count(self) -> int:
        return len(self.records)

    @property
    def records(self) -> RecordList:
        """The entries up to and including the cut's entry, in file order."""
        return self._records.picked(range(self.position + 1))

    @property
    def leaf(self) -> EntryRecord:
        return self._records.record(self.position)

    @property
    def leaf_id(self) -> str:
        return self.live.index.ids[self.position]

    @property
    def timestamp(self) -> str | None:
        value = self.leaf.get("timestamp")
        return value if isinstance(value, str) else None

    @property
    def warnings(self) -> list[str]:
        """The live log's warnings about lines up to the cut's entry, and those about the file as a
        whole (a parentId cycle), which every read of the file reports."""
        last = self.leaf.line_no
        return [w for w in self.live.warnings if (m := _LINE.match(w)) is None or int(m.group(1)) <= last]

    @property
    def name(self) -> str | None:
        """The ``name`` of the newest ``session_info`` entry up to the cut's entry."""
        index = self.live.index
        codes = index.codes(lambda kind, ct, role, tool: kind == "session_info")
        if codes:
            kinds = index.kinds
            for i in range(self.position, -1, -1):
                if kinds[i] in codes:
                    name = self._records.record(i).get("name")
                    return name if isinstance(name, str) else None
        return None

    # -- the branch -------------------------------------------------------------------------------

    def branch(self) -> RecordList:
        return self._records.picked(self._branch)

    def branch_entries(self) -> RecordList:
        return self.branch()

    def branch_select(self, wanted: Wanted, start: int = 0, anchor: Mapping[str, Any] | None = None) -> Picked | None:
        """As ``SessionLog.branch_select``, over the cut's branch."""
        return branches.select(self.live.index, self._records, self._branch, wanted, start, anchor)

    def latest_custom(self, custom_type: str) -> Entry | None:
        if self._newest is not None:
            found = self._newest(custom_type)
            return self._records.record(found).load() if found is not None else None
        return branches.newest_custom(self.live.index, self._records, self._branch, custom_type)

    def refresh(self) -> Refresh:
        """The past never grows."""
        return Refresh()

    def derived(self, name: str) -> tuple[Any, int, Mapping[str, Any]] | None:
        """A point in the past keeps nothing across runs: its folds come from the time machine's
        own checkpoints."""
        return None

    def keep_derived(self, name: str, covers: int, value: Callable[[], Any]) -> None:
        return None

    # -- writing: refused -------------------------------------------------------------------------

    def locked(self) -> AbstractContextManager[None]:
        return nullcontext()

    def written_by(self, who: str | None) -> AbstractContextManager[None]:
        return nullcontext()

    def append_custom(self, custom_type: str, data: Any = None) -> Entry:
        raise ReadOnlySession(PAST_IS_READ_ONLY)

    def append_custom_message(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> Entry:
        raise ReadOnlySession(PAST_IS_READ_ONLY)
