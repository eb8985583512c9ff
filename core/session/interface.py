"""The log interface the Deck and the adapters are written against.

``SessionLog`` (a pi session file) implements both protocols; so do an agent's conversation
(``core/sources/log.py``, entries held in memory) and the tests' in-memory log.
A log that may not be written still answers ``writable`` and raises ``ReadOnlySession`` (from
``core.session.errors``) on an append, so the Deck has one way to learn about a refusal.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from core.session.index import EntryIndex, Kind
from core.session.log import Refresh, Wanted
from core.session.records import EntryRecord, Records

if TYPE_CHECKING:
    from core.session.entry import AgentObject, Header, Tokens

Selection = tuple[list[tuple[int, Kind, int]], int, Callable[[int], Mapping[str, Any]], "Mapping[str, Any] | None"]
"""What ``branch_select`` returns: (picked, branch length, key -> entry, last entry)."""


class ReadableLog(Protocol):
    """Entries, the current branch and what other writers appended."""

    @property
    def records(self) -> Sequence[EntryRecord]:
        """Every entry of the file in file order (index records; bodies are read on demand)."""

    @property
    def generation(self) -> int:
        """Bumped whenever the log was re-read from scratch (a truncated or replaced file): what a
        reader remembered about ``records`` no longer holds."""

    @property
    def leaf_id(self) -> str | None:
        """The id of the current branch's last entry (the file's last entry, as pi decides)."""

    @property
    def warnings(self) -> list[str]:
        """Lines skipped or repaired while reading, in file order."""

    def branch(self) -> Sequence[EntryRecord]:
        """Index records of the current branch, root first."""

    def branch_entries(self) -> Sequence[Mapping[str, Any]]:
        """The current branch as pi-format entries, root first (bodies read when looked up)."""

    def branch_select(self, wanted: Wanted, start: int = 0, anchor: Mapping[str, Any] | None = None) -> Selection | None:
        """The branch entries from position ``start`` on that ``wanted(type, customType, role,
        toolName)`` picks, as (position, kind, key) triples, with the branch length, a function
        from key to entry, and the branch's last entry; None when the entry at ``start - 1`` is no
        longer ``anchor`` (the branch changed in another way than growing)."""

    def derived(self, name: str) -> tuple[Any, int, Mapping[str, Any]] | None:
        """A result ``keep_derived`` kept (in this run or an earlier one) while the current branch
        still starts with the entries it was derived from: (value, branch length it covers, the
        last of those entries); None otherwise, or when the log keeps nothing."""

    def keep_derived(self, name: str, covers: int, value: Callable[[], Any]) -> None:
        """Offer ``value()`` (JSON), derived from the first ``covers`` entries of the current
        branch, to be kept for later runs; a log may call it or not."""

    def latest_custom(self, custom_type: str) -> Mapping[str, Any] | None:
        """The newest ``custom`` entry of ``custom_type`` on the current branch."""

    def refresh(self) -> Refresh:
        """Take in what was appended since the last call."""


class WritableLog(ReadableLog, Protocol):
    """A log the Deck appends to, under a lock that spans read-decide-append."""

    @property
    def writable(self) -> bool:
        """False when appends are refused (they raise ``ReadOnlySession``)."""

    @property
    def read_only_reason(self) -> str | None:
        """The refusal an append would meet, in a person's words; None when ``writable``."""

    def locked(self) -> AbstractContextManager[None]:
        """Hold the log's exclusive lock (re-entrant) across a whole read-derive-append."""

    def written_by(self, who: str | None) -> AbstractContextManager[None]:
        """Mark every entry appended meanwhile as written by ``who`` (``writer.PERSON`` or
        ``writer.AGENT``; None: unmarked)."""

    def append_custom(self, custom_type: str, data: Any) -> Mapping[str, Any]:
        """Append a ``custom`` entry whose parent is the current leaf."""

    def append_custom_message(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> Mapping[str, Any]:
        """Append a ``custom_message`` entry whose parent is the current leaf."""


class SessionFile(WritableLog, Protocol):
    """A log with what a view says about its file: a session file, or one as it was at an earlier
    entry (``cut.py``)."""

    @property
    def path(self) -> Path: ...

    @property
    def shown_path(self) -> Path:
        """The file a person knows the session by (an agent's transcript for a conversation)."""

    def agent(self) -> AgentObject | None:
        """The agent object of a followed conversation (docs/agent-conversations.md), else None."""

    def last_turn_tokens(self) -> Tokens | None:
        """The last turn's token use where the log says it (pi's assistant ``usage``), else None."""

    @property
    def entry_count(self) -> int:
        """How many entries every view says the session has (a conversation: its transcript's lines)."""

    @property
    def header(self) -> Header | None: ...

    @property
    def name(self) -> str | None:
        """The session's name (pi's ``session_info``), or None."""

    @property
    def cwd(self) -> str | None: ...

    def branch(self) -> Sequence[EntryRecord]: ...


class IndexedLog(SessionFile, Protocol):
    """A log whose entries have an index (``index.py``): what the session as it was at an entry
    (``cut.py``), time travel and the tree of branches are computed from. A session file's, or an
    agent's conversation's, built from its events."""

    @property
    def index(self) -> EntryIndex:
        """The entry index (read it, never change it)."""

    @property
    def records(self) -> Records:
        """Every entry in file order (the same object until the log is read anew)."""
